package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/session"
	"github.com/google/uuid"
)

func newSessionID() string { return uuid.NewString() }

// checkCwd holds a client to the protocol's absolute paths.
func checkCwd(cwd string) error {
	if cwd == "" || !filepath.IsAbs(cwd) {
		return errorf(codeInvalidParams, "invalid params: cwd must be an absolute path, not %q", cwd)
	}
	return nil
}

func (a *Agent) newSession(ctx context.Context, params json.RawMessage) (any, error) {
	req, err := decode[newSessionRequest](params)
	if err != nil {
		return nil, err
	}
	if err := checkCwd(req.Cwd); err != nil {
		return nil, err
	}
	servers, err := mcpServers(req.McpServers)
	if err != nil {
		return nil, err
	}
	s, err := a.open(ctx, session.StartOptions{Cwd: req.Cwd, McpServers: servers})
	if err != nil {
		return nil, startFailed(err)
	}
	return newSessionResponse{SessionID: s.id, sessionSetup: s.setup()}, nil
}

// loadSession replays the stored conversation as updates, then keeps the session open to prompt.
func (a *Agent) loadSession(ctx context.Context, params json.RawMessage) (any, error) {
	req, servers, err := storedSessionRequest(params)
	if err != nil {
		return nil, err
	}
	page, err := a.cfg.Sessions.History(ctx, req.SessionID, req.Cwd, nil, 0)
	if err != nil {
		return nil, notFoundOr(err, req.SessionID)
	}
	tr := newTranslator(true, req.Cwd)
	for _, ev := range page.Events {
		for _, u := range tr.updates(ev) {
			a.notify(mSessionUpdate, sessionNotification{SessionID: req.SessionID, Update: u})
		}
	}
	s, err := a.open(ctx, session.StartOptions{Cwd: req.Cwd, Resume: req.SessionID, McpServers: servers})
	if err != nil {
		return nil, startFailed(err)
	}
	return s.setup(), nil
}

func (a *Agent) resumeSession(ctx context.Context, params json.RawMessage) (any, error) {
	req, servers, err := storedSessionRequest(params)
	if err != nil {
		return nil, err
	}
	s, err := a.open(ctx, session.StartOptions{Cwd: req.Cwd, Resume: req.SessionID, McpServers: servers})
	if err != nil {
		return nil, notFoundOr(startFailed(err), req.SessionID)
	}
	return s.setup(), nil
}

func (a *Agent) closeSession(_ context.Context, params json.RawMessage) (any, error) {
	req, err := decode[sessionRef](params)
	if err != nil {
		return nil, err
	}
	s, ok := a.session(req.SessionID)
	if !ok {
		return nil, errorf(codeNotFound, "session %q is not open here", req.SessionID)
	}
	s.cancel(context.Background(), cancelAll)
	s.close()
	return emptyObject{}, nil
}

func (a *Agent) listSessions(ctx context.Context, params json.RawMessage) (any, error) {
	var req listSessionsRequest
	if len(params) > 0 {
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, errorf(codeInvalidParams, "invalid params: %v", err)
		}
	}
	list, err := a.cfg.Sessions.ListSessions(ctx, req.Cwd, 0)
	if err != nil {
		return nil, fmt.Errorf("list the sessions: %w", err)
	}
	out := listSessionsResponse{Sessions: make([]sessionInfo, 0, len(list))}
	for _, s := range list {
		info := sessionInfo{SessionID: s.Session, Cwd: s.Cwd, Title: s.Title}
		if s.LastModified > 0 {
			info.UpdatedAt = time.UnixMilli(int64(s.LastModified)).UTC().Format(time.RFC3339)
		}
		out.Sessions = append(out.Sessions, info)
	}
	return out, nil
}

func (a *Agent) openSession(id string) (*acpSession, error) {
	s, ok := a.session(id)
	if !ok {
		return nil, errorf(codeNotFound, "session %q is not open here: session/new, session/load or session/resume it first", id)
	}
	return s, nil
}

func (a *Agent) setMode(ctx context.Context, params json.RawMessage) (any, error) {
	req, err := decode[setModeRequest](params)
	if err != nil {
		return nil, err
	}
	s, err := a.openSession(req.SessionID)
	if err != nil {
		return nil, err
	}
	mode := activity.PermissionMode(req.ModeID)
	if !mode.Valid() {
		return nil, errorf(codeInvalidParams, "invalid params: no mode %q (the session's modes list them)", req.ModeID)
	}
	got, err := s.s.SetPermissionMode(ctx, mode)
	if err != nil {
		return nil, fmt.Errorf("change the mode: %w", err)
	}
	// Claude Code may keep another mode than the one asked for: then the client is told even of no change.
	s.tellMode(got, got != mode)
	return emptyObject{}, nil
}

func (a *Agent) setConfigOption(ctx context.Context, params json.RawMessage) (any, error) {
	req, err := decode[setConfigOptionRequest](params)
	if err != nil {
		return nil, err
	}
	s, err := a.openSession(req.SessionID)
	if err != nil {
		return nil, err
	}
	if req.ConfigID != modelConfigID {
		return nil, errorf(codeInvalidParams, "invalid params: no config option %q (Baton has %q)", req.ConfigID, modelConfigID)
	}
	var model string
	if err := json.Unmarshal(req.Value, &model); err != nil || model == "" {
		return nil, errorf(codeInvalidParams, "invalid params: the model is a value id (a string)")
	}
	if err := s.s.SetModel(ctx, model); err != nil {
		return nil, fmt.Errorf("change the model: %w", err)
	}
	s.mu.Lock()
	s.model = model
	opt := modelOption(s.model, s.models)
	s.mu.Unlock()
	return setConfigOptionResponse{ConfigOptions: []configOption{opt}}, nil
}

// startFailed keeps a refused start readable: the runtime's message says what to do.
func startFailed(err error) error {
	return fmt.Errorf("start the session: %w", err)
}

// notFoundOr answers a session the runtime does not know as ACP's resource-not-found.
func notFoundOr(err error, id string) error {
	var perr *protocol.ErrorBody
	if errors.As(err, &perr) && perr.Code == protocol.CodeSessionNotFound {
		return errorf(codeNotFound, "no stored session %q (session/list names them)", id)
	}
	return err
}

// storedSessionRequest decodes and checks a load or resume request: an absolute folder, a session id, the
// client's MCP servers.
func storedSessionRequest(params json.RawMessage) (loadSessionRequest, []protocol.McpServer, error) {
	req, err := decode[loadSessionRequest](params)
	if err != nil {
		return req, nil, err
	}
	if err := checkCwd(req.Cwd); err != nil {
		return req, nil, err
	}
	if !protocol.ValidSessionID(req.SessionID) {
		return req, nil, errorf(codeNotFound, "no session %q (session/list names them)", req.SessionID)
	}
	servers, err := mcpServers(req.McpServers)
	return req, servers, err
}
