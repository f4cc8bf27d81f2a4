package acp

import (
	"context"
	"encoding/json"
	"strings"
)

// authMethodID names Claude Code's own login (`claude auth login`): Baton never sees the credentials.
const authMethodID = "claude-login"

// LoginFlag is the argument a terminal sign-in appends to `baton acp`.
const LoginFlag = "--login"

func (a *Agent) initialize(params json.RawMessage) (any, error) {
	req, err := decode[initializeRequest](params)
	if err != nil {
		return nil, err
	}
	if req.ProtocolVersion == nil {
		return nil, errorf(codeInvalidParams, "invalid params: protocolVersion is required")
	}
	a.initialized.Store(true)
	// The version the client asked for when served, else the latest this agent has (the client decides).
	return initializeResponse{
		ProtocolVersion: ProtocolVersion,
		AgentCapabilities: agentCapabilities{
			LoadSession: true,
			// Embedded context goes into the prompt's text; images go with it as image blocks.
			PromptCapabilities:  promptCapabilities{Image: true, EmbeddedContext: true},
			McpCapabilities:     mcpCapabilities{HTTP: true, SSE: true},
			SessionCapabilities: sessionCapabilities{List: &emptyObject{}, Resume: &emptyObject{}, Close: &emptyObject{}},
		},
		AgentInfo:   implementation{Name: "baton", Title: "Baton", Version: a.cfg.Version},
		AuthMethods: []authMethod{a.loginMethod(req.ClientCapabilities.Auth.Terminal)},
	}, nil
}

// loginMethod is Claude Code's login: run in the client's terminal when it has one, else described.
func (a *Agent) loginMethod(terminal bool) authMethod {
	m := authMethod{ID: authMethodID, Name: "Claude Code login",
		Description: "Sign in with Claude Code's own login (claude auth login); Baton never handles the credentials."}
	if terminal {
		m.Type, m.Args = "terminal", []string{LoginFlag}
	}
	return m
}

// authenticate cannot sign in for the person (the login is claude's own, in a terminal), but it succeeds when
// Claude Code is signed in already: clients such as CodeCompanion call it after every initialize and give up on
// an error.
func (a *Agent) authenticate(ctx context.Context, params json.RawMessage) (any, error) {
	req, err := decode[authenticateRequest](params)
	if err != nil {
		return nil, err
	}
	if req.MethodID != authMethodID {
		return nil, errorf(codeInvalidParams, "invalid params: unknown auth method %q (Baton offers %q)", req.MethodID, authMethodID)
	}
	why := "Claude Code is not signed in"
	if a.cfg.SignedIn != nil {
		err := a.cfg.SignedIn(ctx)
		if err == nil {
			return struct{}{}, nil
		}
		why = err.Error()
	}
	return nil, errorf(codeAuthRequired, "%s. Sign in with Claude Code's own login in a terminal: `baton acp %s` (or `claude auth login`), then try again", strings.TrimSuffix(why, "."), LoginFlag)
}
