package sessionwatch

import (
	"sync"
	"time"
)

// AfterFunc runs f once d has passed, unless the returned stop is called first (time.AfterFunc's shape, so tests
// can put timers they fire themselves in its place).
type AfterFunc func(d time.Duration, f func()) (stop func())

// RealAfter is AfterFunc on the real clock.
func RealAfter(d time.Duration, f func()) func() {
	t := time.AfterFunc(d, f)
	return func() { t.Stop() }
}

// debouncer turns a burst of pokes into one fire: once quiet has passed without a poke, or maxWait after the
// burst's first poke, whichever comes first. The second bound keeps a session that writes without pause (a
// running CLI) from holding every other change back.
type debouncer struct {
	quiet, maxWait time.Duration
	after          AfterFunc
	fire           func()

	mu        sync.Mutex
	burst     int // which burst the running timers belong to; a timer of an earlier one does nothing
	stopQuiet func()
	stopMax   func()
}

func newDebouncer(quiet, maxWait time.Duration, after AfterFunc, fire func()) *debouncer {
	return &debouncer{quiet: quiet, maxWait: maxWait, after: after, fire: fire}
}

// poke notes a change.
func (d *debouncer) poke() {
	d.mu.Lock()
	defer d.mu.Unlock()
	burst := d.burst
	if d.stopQuiet != nil {
		d.stopQuiet()
	}
	d.stopQuiet = d.after(d.quiet, func() { d.expire(burst) })
	if d.stopMax == nil {
		d.stopMax = d.after(d.maxWait, func() { d.expire(burst) })
	}
}

func (d *debouncer) expire(burst int) {
	d.mu.Lock()
	if burst != d.burst || d.stopMax == nil {
		d.mu.Unlock()
		return
	}
	d.burst++
	d.stopQuiet()
	d.stopMax()
	d.stopQuiet, d.stopMax = nil, nil
	d.mu.Unlock()
	d.fire()
}

// stop drops a pending burst without firing.
func (d *debouncer) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.burst++
	if d.stopMax != nil {
		d.stopQuiet()
		d.stopMax()
		d.stopQuiet, d.stopMax = nil, nil
	}
}
