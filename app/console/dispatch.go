package console

import (
	"bytes"
	"encoding/json"
)

// Method is one API method callable by name with JSON params (the WebSocket transport's dispatch). The table of
// them, Methods, is generated from the contract (methods_gen.go); method adapts one typed handler.
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
