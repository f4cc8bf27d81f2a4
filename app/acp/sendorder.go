package acp

import "sync"

// sendOrder hands a session's prompts to the runtime in the order their requests arrived. Requests are handled
// each on its own goroutine (a prompt answers only when its turn ends), so two prompts sent back to back would
// otherwise race to be queued, and the second could run first.
type sendOrder struct {
	mu   sync.Mutex
	last map[string]chan struct{} // by session id: closed once that session's latest prompt is handed over
}

// next is taken by the reading loop, in arrival order: before is closed once the session's previous prompt has
// been handed to the runtime (or has failed); handed says the same of this one, and may be called more than once.
func (o *sendOrder) next(sessionID string) (before <-chan struct{}, handed func()) {
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
	return prev, func() { once.Do(func() { close(cur) }) }
}
