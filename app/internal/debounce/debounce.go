// Package debounce turns bursts of pokes into single fires, bounded twice: once a quiet spell has passed without
// a poke, or a longest wait after the burst's first poke, whichever comes first. The second bound keeps a source
// that changes without pause (a running CLI, a busy build) from holding every report back. The watchers
// (changeswatch, sessionwatch) each choose their own beats; this package knows none of them.
package debounce

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

// Debouncer fires once per burst of pokes; see the package's doc.
type Debouncer struct {
	quiet, maxWait time.Duration
	after          AfterFunc
	fire           func()

	mu        sync.Mutex
	burst     int // which burst the running timers belong to; a timer of an earlier one does nothing
	stopQuiet func()
	stopMax   func()
}

// New makes a debouncer that calls fire after each burst, on the timers of after (nil: the real clock).
func New(quiet, maxWait time.Duration, after AfterFunc, fire func()) *Debouncer {
	if after == nil {
		after = RealAfter
	}
	return &Debouncer{quiet: quiet, maxWait: maxWait, after: after, fire: fire}
}

// Poke notes a change.
func (d *Debouncer) Poke() {
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

func (d *Debouncer) expire(burst int) {
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

// Stop drops a pending burst without firing; a later Poke starts a new one.
func (d *Debouncer) Stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.burst++
	if d.stopMax != nil {
		d.stopQuiet()
		d.stopMax()
		d.stopQuiet, d.stopMax = nil, nil
	}
}
