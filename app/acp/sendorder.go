package acp

import "sync"

// sendOrder keeps what the reading loop saw of a session's prompts and cancels, in arrival order. Requests are
// handled each on its own goroutine (a prompt answers only when its turn ends), so two prompts sent back to back
// would otherwise race to be queued, and the second could run first; and a cancel read after a prompt could be
// acted on before that prompt reaches the runtime, missing it.
type sendOrder struct {
	mu      sync.Mutex
	last    map[string]chan struct{} // by session id: closed once that session's latest prompt is handed over
	cancels map[string]uint64        // by session id: how many session/cancel notifications were read
}

// ticket is one prompt's place: before is closed once the session's previous prompt has been handed to the
// runtime (or has failed); handed says the same of this one, and may be called more than once; cancels is the
// session's cancel count when the prompt was read.
type ticket struct {
	before  <-chan struct{}
	handed  func()
	session string
	cancels uint64
}

// next is taken by the reading loop, in arrival order.
func (o *sendOrder) next(sessionID string) ticket {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.last == nil {
		o.last = map[string]chan struct{}{}
	}
	prev, ok := o.last[sessionID]
	if !ok {
		prev = make(chan struct{})
		close(prev)
	}
	cur := make(chan struct{})
	o.last[sessionID] = cur
	var once sync.Once
	return ticket{before: prev, handed: func() { once.Do(func() { close(cur) }) }, session: sessionID,
		cancels: o.cancels[sessionID]}
}

// cancel is taken by the reading loop on a session/cancel: every prompt of the session read before it is
// cancelled. It returns the session's cancel count with this one.
func (o *sendOrder) cancel(sessionID string) uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.cancels == nil {
		o.cancels = map[string]uint64{}
	}
	o.cancels[sessionID]++
	return o.cancels[sessionID]
}

// cancelled says whether a session/cancel was read after t's prompt.
func (o *sendOrder) cancelled(t ticket) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.cancels[t.session] != t.cancels
}

// ordered says whether the reading loop gave t (a zero ticket: a prompt neither waits nor is counted).
func (t ticket) ordered() bool { return t.handed != nil }

// done lets the session's next prompt go on: this one is queued, or will never be.
func (t ticket) done() {
	if t.handed != nil {
		t.handed()
	}
}
