package runner

import (
	"errors"
	"fmt"
	"strings"

	"github.com/baton-console/baton/app/activity"
)

// hostToolPrefix is how the model sees a host tool: the sidecar serves them as the MCP server "baton".
const hostToolPrefix = "mcp__baton__"

// outcome is what one handler call did, reported to the run's loop before the answer goes to the sidecar.
type outcome struct {
	callID  string
	value   any
	failure Failure
}

// collector folds a run's events into its Result. It is used by the run's loop goroutine only.
type collector struct {
	hostTools map[string]bool
	res       Result
	byUseID   map[string]int  // tool_use id → index in res.ToolCalls
	byCallID  map[string]int  // host call id → index in res.ToolCalls
	outcomes  map[int]outcome // index → the handler's outcome
	finished  map[int]bool    // index → a tool.completed / tool.failed arrived
	lastText  string          // the last top-level assistant text
	done      bool
}

func newCollector(spec Spec) *collector {
	c := &collector{hostTools: map[string]bool{}, byUseID: map[string]int{}, byCallID: map[string]int{},
		outcomes: map[int]outcome{}, finished: map[int]bool{}}
	for _, t := range spec.Tools {
		c.hostTools[t.Name] = true
	}
	c.res.ToolCalls = []ToolCall{}
	return c
}

// observe folds one event; it returns the index of the call a tool.called event asks the host to run (-1 else).
func (c *collector) observe(ev activity.Event) int {
	switch ev.Kind {
	case activity.ToolStarted:
		if ev.ParentToolUseID != "" {
			return -1 // a subagent's call; this run has no subagents, but their calls are not the run's own
		}
		name, host := ev.Name, false
		if short, ok := strings.CutPrefix(ev.Name, hostToolPrefix); ok && c.hostTools[short] {
			name, host = short, true
		}
		c.byUseID[ev.ToolUseID] = len(c.res.ToolCalls)
		c.res.ToolCalls = append(c.res.ToolCalls, ToolCall{ID: ev.ToolUseID, Name: name, Host: host, Input: ev.Input})
	case activity.ToolCalled:
		i, ok := c.byUseID[ev.ToolUseID]
		if !ok {
			i = c.unclaimed(ev.Name)
		}
		if i < 0 {
			// The model's tool_use was not seen (it should always come first): keep the call anyway.
			i = len(c.res.ToolCalls)
			c.res.ToolCalls = append(c.res.ToolCalls, ToolCall{ID: ev.ToolUseID, Name: ev.Name, Host: true, Input: ev.Input})
		}
		c.byCallID[ev.CallID] = i
		return i
	case activity.ToolCompleted:
		if i, ok := c.byUseID[ev.ToolUseID]; ok {
			c.finished[i] = true
			c.res.ToolCalls[i].Output = ev.Output
		}
	case activity.ToolFailed:
		if i, ok := c.byUseID[ev.ToolUseID]; ok {
			c.finished[i] = true
			call := &c.res.ToolCalls[i]
			call.Output, call.Failed = ev.Error, true
		}
	case activity.MessageCompleted:
		if ev.Role == activity.MessageRoleAssistant && ev.ParentToolUseID == "" {
			c.lastText = ev.Text
		}
	case activity.UsageUpdated:
		if !ev.Ephemeral {
			c.res.Usage = Usage{InputTokens: deref(ev.InputTokens), OutputTokens: deref(ev.OutputTokens),
				CacheReadTokens: deref(ev.CacheReadTokens), CacheCreationTokens: deref(ev.CacheCreationTokens)}
		}
	case activity.TurnCompleted:
		c.res.StopReason, c.res.Text = StopNatural, c.lastText
		if ev.Result != "" {
			c.res.Text = ev.Result
		}
		c.counts(ev)
		c.done = true
	case activity.TurnFailed:
		c.counts(ev)
		switch ev.Code {
		case activity.TurnFailureCodeMaxTurns.String(), activity.TurnFailureCodeBudget.String():
			// The text so far; after an API error the last text is the SDK's own error stub, which Err carries.
			c.res.Text = c.lastText
			c.res.StopReason, c.res.Detail = StopBudget, ev.Code
		default:
			c.fail(ev.Code, fmt.Errorf("%s", ev.Message))
		}
		c.done = true
	case activity.TurnCanceled:
		c.res.Text = c.lastText
		c.fail("canceled", errors.New("the run was canceled"))
		c.done = true
	case activity.SessionClosed:
		if !c.done {
			msg := "the session ended before the run finished"
			if ev.Message != "" {
				msg += ": " + ev.Message
			}
			c.fail(ev.Reason.String(), errors.New(msg))
			c.done = true
		}
	default:
		// The other kinds add nothing to a run's result.
	}
	return -1
}

// unclaimed finds the latest host call of this tool that no tool.called has claimed (when the CLI did not pass
// the tool_use id along).
func (c *collector) unclaimed(name string) int {
	claimed := map[int]bool{}
	for _, i := range c.byCallID {
		claimed[i] = true
	}
	for i := len(c.res.ToolCalls) - 1; i >= 0; i-- {
		if call := c.res.ToolCalls[i]; call.Host && call.Name == name && !claimed[i] {
			return i
		}
	}
	return -1
}

func (c *collector) noteOutcome(o outcome) {
	if i, ok := c.byCallID[o.callID]; ok {
		c.outcomes[i] = o
	}
}

func (c *collector) counts(ev activity.Event) {
	if ev.NumTurns != nil {
		c.res.Turns = int(*ev.NumTurns)
	}
	if ev.CostUsd != nil {
		c.res.CostUSD = *ev.CostUsd
	}
}

func (c *collector) fail(detail string, err error) {
	c.res.StopReason, c.res.Detail, c.res.Err = StopError, detail, err
}

// result completes the Result: each call's value and why it failed, and the failure count.
func (c *collector) result() Result {
	called := map[int]bool{}
	for _, i := range c.byCallID {
		called[i] = true
	}
	res := c.res
	res.ToolFailures = 0
	for i := range res.ToolCalls {
		call := &res.ToolCalls[i]
		o, ran := c.outcomes[i]
		switch {
		case !c.finished[i]:
			// No result came back: the run stopped while the call was under way.
			call.Failed, call.Failure = true, FailureCanceled
		case !call.Failed:
			call.Value = o.value
		case ran && o.failure != FailureNone:
			call.Failure = o.failure
		case called[i]:
			call.Failure = FailureCanceled // the handler was asked but the call ended before it answered
		case call.Host:
			call.Failure = FailureSchema // refused before reaching the handler: its input failed the schema
		default:
			call.Failure = FailureUnavailable
		}
		if call.Failed {
			res.ToolFailures++
		}
	}
	if res.Err != nil {
		res.Error = res.Err.Error()
	}
	return res
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
