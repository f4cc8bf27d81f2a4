package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// callHandler runs one handler call under the run's context and the tool timeout. It never panics and always
// returns: a handler that panics, errs or overruns is a failed call with a message the model can read. A handler
// that ignores its context keeps its goroutine until it returns; the run does not wait for it.
func callHandler(parent context.Context, h Handler, input json.RawMessage, timeout time.Duration) (Output, Failure, string) {
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	type returned struct {
		out      Output
		err      error
		panicked bool
		value    any
	}
	ch := make(chan returned, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- returned{panicked: true, value: p}
			}
		}()
		out, err := h(ctx, input)
		ch <- returned{out: out, err: err}
	}()
	select {
	case r := <-ch:
		switch {
		case r.panicked:
			return Output{}, FailurePanic, fmt.Sprintf("The tool failed unexpectedly (panic: %v).", r.value)
		case r.err != nil:
			return Output{}, FailureHandler, r.err.Error()
		default:
			return r.out, FailureNone, r.out.Text
		}
	case <-ctx.Done():
		if parent.Err() == nil {
			return Output{}, FailureTimeout, fmt.Sprintf("The tool did not finish within %s.", timeout)
		}
		return Output{}, FailureCanceled, "The run was canceled before the tool finished."
	}
}
