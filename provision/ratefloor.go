package provision

import (
	"fmt"
	"sync/atomic"
	"time"
)

// rateFloor abandons a download that moves fewer than Bytes in any Window: a server trickling a byte every few
// seconds keeps the stall watchdog fed forever, so without a floor provisioning would never give up on it.
type rateFloor struct {
	Bytes  int64
	Window time.Duration
}

// TooSlowError is a download abandoned by the rate floor; the next source is tried.
type TooSlowError struct {
	Bytes  int64
	Window time.Duration
}

func (e *TooSlowError) Error() string {
	return fmt.Sprintf("the download was too slow: fewer than %d KB arrived in %s", e.Bytes>>10, e.Window)
}

func (r rateFloor) err() error { return &TooSlowError{Bytes: r.Bytes, Window: r.Window} }

// watch checks got (the bytes on disk so far) every Window and calls abort when it grew by less than Bytes. The
// returned function stops it.
func (r rateFloor) watch(got *atomic.Int64, abort func()) (stop func()) {
	if r.Bytes <= 0 || r.Window <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(r.Window)
		defer t.Stop()
		last := got.Load()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				now := got.Load()
				if now-last < r.Bytes {
					abort()
					return
				}
				last = now
			}
		}
	}()
	return func() { close(done) }
}
