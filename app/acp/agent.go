// Package acp serves the Agent Client Protocol (v1) on a pair of streams: an editor (Zed, JetBrains, Neovim, Happy)
// drives Baton's own session runtime, the same session.Manager the console and `baton exec` use.
package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
)

// Config is what the agent serves with.
type Config struct {
	Sessions *session.Manager
	Version  string // Baton's, for agentInfo
	// SignedIn says whether Claude Code is signed in (nil: an error saying why not, with what to run); authenticate
	// answers with it. nil: never known, so authenticate always says how to sign in.
	SignedIn func(ctx context.Context) error
	Logger   zerolog.Logger
}

// Agent is one ACP connection's state.
type Agent struct {
	cfg Config
	out *writer
	log zerolog.Logger

	initialized atomic.Bool
	nextID      atomic.Int64

	mu       sync.Mutex
	sessions map[string]*acpSession
	calls    map[int64]chan inbound // our requests to the client, by id
	sends    sendOrder              // prompts reach the runtime in the order they came
	ctx      context.Context        // the connection's: ended when the client goes
}

// Serve answers the client on in/out until in ends or ctx is done; open sessions are closed before it returns.
func Serve(ctx context.Context, cfg Config, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a := &Agent{cfg: cfg, out: newWriter(out), log: cfg.Logger.With().Str("component", "acp").Logger(),
		sessions: map[string]*acpSession{}, calls: map[int64]chan inbound{}, ctx: ctx}
	var wg sync.WaitGroup
	defer func() {
		a.closeAll()
		wg.Wait()
	}()
	lines := newLineReader(in)
	for {
		line, tooLong, err := lines.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read from the client: %w", err)
		}
		if tooLong {
			a.reply(nullID, nil, errorf(codeInvalidRequest, "invalid request: a message is at most %d bytes", maxLine))
			continue
		}
		f := decodeLine(line)
		if f.err != nil {
			a.log.Warn().Int("code", f.err.Code).Msg("a malformed message from the client")
			id := f.msg.ID
			if len(id) == 0 {
				id = nullID
			}
			a.reply(id, nil, f.err)
			continue
		}
		a.route(ctx, f.msg, &wg)
	}
}

// route sends a message to its handler: responses to waiting calls, notifications in order, requests each on
// its own goroutine (a prompt runs for minutes while cancels and permission answers keep arriving).
func (a *Agent) route(ctx context.Context, m inbound, wg *sync.WaitGroup) {
	if m.Method == nil {
		a.settleCall(m)
		return
	}
	method := *m.Method
	if len(m.ID) == 0 {
		a.notification(ctx, method, m.Params)
		return
	}
	if method == mInitialize {
		result, err := a.initialize(m.Params)
		a.reply(m.ID, result, err)
		return
	}
	if !a.initialized.Load() {
		a.reply(m.ID, nil, errorf(codeInvalidRequest, "invalid request: call initialize first"))
		return
	}
	handler, ok := a.handlers()[method]
	if !ok {
		a.reply(m.ID, nil, errorf(codeMethodNotFound, "method not found: %s", method))
		return
	}
	if method == mSessionPrompt {
		handler = a.orderedPrompt(m.Params)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		result, err := handler(ctx, m.Params)
		a.reply(m.ID, result, err)
	}()
}

type handler func(ctx context.Context, params json.RawMessage) (any, error)

func (a *Agent) handlers() map[string]handler {
	return map[string]handler{
		mAuthenticate:   a.authenticate,
		mSessionNew:     a.newSession,
		mSessionLoad:    a.loadSession,
		mSessionList:    a.listSessions,
		mSessionResume:  a.resumeSession,
		mSessionClose:   a.closeSession,
		mSessionPrompt:  a.prompt,
		mSessionSetMode: a.setMode,
		mSessionSetOpt:  a.setConfigOption,
	}
}

func (a *Agent) notification(ctx context.Context, method string, params json.RawMessage) {
	switch method {
	case mSessionCancel:
		var p sessionRef
		if err := json.Unmarshal(params, &p); err != nil {
			a.log.Warn().Err(err).Msg("a session/cancel without a usable session id")
			return
		}
		// Counted here, in arrival order, so the session's prompts read before it are cancelled even when not
		// yet handed to the runtime (see send).
		upTo := a.sends.cancel(p.SessionID)
		if s, ok := a.session(p.SessionID); ok {
			// Aside, so a prompt still being handed to the runtime (which holds the session's lock) never stalls
			// reading; it is then among the prompts the cancel ends, and a prompt read after the cancel is not.
			go s.cancel(ctx, upTo)
		}
	case mCancelRequest:
		// Requests are answered in full or as a prompt's cancel decides; a generic request cancel has nothing to stop.
	default:
		a.log.Debug().Str("method", method).Msg("an unknown notification from the client, ignored")
	}
}

// reply answers a request; an error that is not an rpcError is an internal one, its text the user's to read.
func (a *Agent) reply(id json.RawMessage, result any, err error) {
	resp := outResponse{JSONRPC: "2.0", ID: id}
	if err != nil {
		var rerr *rpcError
		if !errors.As(err, &rerr) {
			rerr = &rpcError{Code: codeInternalError, Message: err.Error()}
		}
		resp.Error = rerr
	} else {
		if result == nil {
			result = nullResult{}
		}
		resp.Result = result
	}
	if werr := a.out.send(resp); werr != nil {
		a.log.Warn().Err(werr).Msg("could not answer the client")
	}
}

func (a *Agent) notify(method string, params any) {
	if err := a.out.send(outRequest{JSONRPC: "2.0", Method: method, Params: params}); err != nil {
		a.log.Warn().Err(err).Msg("could not notify the client")
	}
}

// call sends a request to the client and waits for its answer (or ctx). sent, when not nil, does the writing
// with the request's id: a caller orders it against its own state there, and may refuse with an error.
func (a *Agent) call(ctx context.Context, method string, params, out any, sent func(id int64, write func() error) error) error {
	id := a.nextID.Add(1)
	ch := make(chan inbound, 1)
	a.mu.Lock()
	a.calls[id] = ch
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.calls, id)
		a.mu.Unlock()
	}()
	write := func() error { return a.out.send(outRequest{JSONRPC: "2.0", ID: id, Method: method, Params: params}) }
	if sent == nil {
		sent = func(int64, func() error) error { return write() }
	}
	if err := sent(id, write); err != nil {
		return fmt.Errorf("send %s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return m.Error
		}
		if err := json.Unmarshal(m.Result, out); err != nil {
			return fmt.Errorf("the client's answer to %s is not what the protocol says: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s withdrawn: %w", method, ctx.Err())
	}
}

func (a *Agent) settleCall(m inbound) {
	var id int64
	if err := json.Unmarshal(m.ID, &id); err != nil {
		a.log.Warn().Msg("a response from the client to no request of ours")
		return
	}
	a.mu.Lock()
	ch, ok := a.calls[id]
	a.mu.Unlock()
	if !ok {
		// A withdrawn request's late answer ends here.
		a.log.Debug().Int64("id", id).Msg("a response from the client to no waiting request")
		return
	}
	ch <- m
}

func (a *Agent) ctxOr() context.Context { return a.ctx }

func (a *Agent) session(id string) (*acpSession, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.sessions[id]
	return s, ok
}

func (a *Agent) closeAll() {
	a.mu.Lock()
	list := make([]*acpSession, 0, len(a.sessions))
	for _, s := range a.sessions {
		list = append(list, s)
	}
	a.mu.Unlock()
	for _, s := range list {
		s.close()
	}
}

// decode reads a request's params, answering invalid params when they do not fit.
func decode[T any](params json.RawMessage) (T, error) {
	var v T
	if len(params) == 0 {
		return v, errorf(codeInvalidParams, "invalid params: missing")
	}
	if err := json.Unmarshal(params, &v); err != nil {
		return v, errorf(codeInvalidParams, "invalid params: %v", err)
	}
	return v, nil
}
