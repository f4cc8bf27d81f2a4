// Package debouncetest stands in for the clock under a debounce.Debouncer: its timers fire only when a test says
// so, so no test waits on time.
package debouncetest

import (
	"sync"
	"time"
)

// Timers are manual timers; After has debounce.AfterFunc's shape.
type Timers struct {
	mu     sync.Mutex
	timers []*timer
}

type timer struct {
	d       time.Duration
	f       func()
	stopped bool
}

// After schedules f for when Fire(d) is called, unless the returned stop is called first.
func (m *Timers) After(d time.Duration, f func()) func() {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := &timer{d: d, f: f}
	m.timers = append(m.timers, t)
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		t.stopped = true
	}
}

// Fire runs the newest live timer of duration d (false: none).
func (m *Timers) Fire(d time.Duration) bool {
	m.mu.Lock()
	var pick *timer
	for _, t := range m.timers {
		if t.d == d && !t.stopped {
			pick = t
		}
	}
	if pick != nil {
		pick.stopped = true
	}
	m.mu.Unlock()
	if pick == nil {
		return false
	}
	pick.f()
	return true
}

// FireStale runs every timer that was stopped, as real timers that had already started running would, and says
// how many.
func (m *Timers) FireStale() int {
	m.mu.Lock()
	var stale []*timer
	for _, t := range m.timers {
		if t.stopped {
			stale = append(stale, t)
		}
	}
	m.mu.Unlock()
	for _, t := range stale {
		t.f()
	}
	return len(stale)
}
