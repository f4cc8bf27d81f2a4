package console

import (
	"bytes"
	"encoding/json"
)

// Method is one API method callable by name with JSON params (the WebSocket transport's dispatch).
type Method func(params json.RawMessage) (any, error)

func method[P, R any](f func(P) (R, error)) Method {
	return func(raw json.RawMessage) (any, error) {
		var p P
		if len(bytes.TrimSpace(raw)) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, badRequest("The call's parameters are malformed: %v", err)
			}
		}
		return f(p)
	}
}

// Methods maps the API's wire names (API.md) to their implementations.
func Methods(a *API) map[string]Method {
	return map[string]Method{
		"capabilities":       method(a.Capabilities),
		"snapshot":           method(a.Snapshot),
		"pickFolder":         method(a.PickFolder),
		"startSession":       method(a.StartSession),
		"sendPrompt":         method(a.SendPrompt),
		"cancelTurn":         method(a.CancelTurn),
		"guideTurn":          method(a.GuideTurn),
		"answerPermission":   method(a.AnswerPermission),
		"setModel":           method(a.SetModel),
		"setPermissionMode":  method(a.SetPermissionMode),
		"closeSession":       method(a.CloseSession),
		"listSessions":       method(a.ListSessions),
		"history":            method(a.History),
		"rewindFiles":        method(a.RewindFiles),
		"rewindConversation": method(a.RewindConversation),
		"notify":             method(a.Notify),
		"signIn":             method(a.SignIn),
		"retryProvision":     method(a.RetryProvision),
		"listModels":         method(a.ListModels),
		"renameSession":      method(a.RenameSession),
		"setSessionFlags":    method(a.SetSessionFlags),
		"completePath":       method(a.CompletePath),
		"setSessionIdle":     method(a.SetSessionIdle),
		"stopTask":           method(a.StopTask),
		"sendToBackground":   method(a.SendToBackground),
	}
}
