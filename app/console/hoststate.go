package console

import (
	"sync"

	"github.com/baton-console/baton/app/auth"
)

// AuthState is the sign-in state the console shows (see API.md): app/auth's State, checked against the
// contract's AuthState by TestBoundTypesMatchTheContract.
type AuthState = auth.State

// HostUpdate is one change of host state; exactly one field is set.
type HostUpdate struct {
	Auth      *AuthState
	Provision *ProvisionState
	Index     *IndexState
	Sessions  *SessionsChange
	Changes   *ChangesUpdate
}

// HostState holds what the host knows beyond sessions — provisioning and sign-in — and tells subscribers
// about every change, so each transport can push it.
type HostState struct {
	mu        sync.Mutex
	auth      AuthState
	provision ProvisionState
	subs      map[chan HostUpdate]struct{}
	index     indexPush
	changes   map[string]ChangesUpdate // the open sessions' latest change counts (changesstate.go)
}

// NewHostState starts with every state unknown.
func NewHostState() *HostState {
	return &HostState{
		auth:      AuthState{Status: auth.StatusUnknown, Summary: "Checking the sign-in…"},
		provision: ProvisionState{State: "unknown"},
		subs:      map[chan HostUpdate]struct{}{},
		index:     newIndexPush(),
		changes:   map[string]ChangesUpdate{},
	}
}

// Auth returns the current sign-in state.
func (h *HostState) Auth() AuthState {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.auth
}

// Provision returns the current provisioning state.
func (h *HostState) Provision() ProvisionState {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.provision
}

// SetAuth records and announces a sign-in state.
func (h *HostState) SetAuth(s AuthState) {
	h.mu.Lock()
	h.auth = s
	h.mu.Unlock()
	h.publish(HostUpdate{Auth: &s})
}

// SetProvision records and announces a provisioning state.
func (h *HostState) SetProvision(p ProvisionState) {
	h.mu.Lock()
	h.provision = p
	h.mu.Unlock()
	h.publish(HostUpdate{Provision: &p})
}

// SessionsChanged announces that the stored sessions changed outside this Baton.
func (h *HostState) SessionsChanged() {
	h.publish(HostUpdate{Sessions: &SessionsChange{}})
}

// Subscribe delivers updates until cancel is called. A subscriber that falls behind misses intermediate
// states but never the latest one: every update carries a whole state.
func (h *HostState) Subscribe() (<-chan HostUpdate, func()) {
	ch := make(chan HostUpdate, 16)
	h.mu.Lock()
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			h.mu.Lock()
			delete(h.subs, ch)
			h.mu.Unlock()
		})
	}
}

func (h *HostState) publish(u HostUpdate) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- u:
		default:
			// Full: drop the oldest so the newest state still arrives.
			select {
			case <-ch:
			default:
			}
			select {
			case ch <- u:
			default:
			}
		}
	}
}
