package serve

import (
	"bytes"
	"encoding/json"
	"runtime/debug"
	"unicode/utf8"

	"github.com/baton-console/baton/app/console"
	"github.com/rs/zerolog"
)

// What one WebSocket client may ask of the host. The page is the only honest client, but anything that reaches
// the socket (a compromised page, a buggy extension) gets an error reply or a closed connection, never a
// crashed host or a stalled neighbour.
const (
	// maxMessageBytes bounds one incoming message; the largest honest call is a prompt with pasted text. A
	// bigger one closes the connection (1009, message too big) instead of being buffered.
	maxMessageBytes = 8 << 20
	// maxCallsInFlight bounds the calls of one connection running at once. The console has a handful in
	// flight; a flood gets an error reply for each call beyond this instead of a goroutine each.
	maxCallsInFlight = 64
	// maxIDBytes bounds the id echoed back; ids are small numbers, and a reply should not copy megabytes.
	maxIDBytes = 64
	// maxEchoRunes bounds an unknown method's name quoted in its error.
	maxEchoRunes = 64
)

// callDispatcher answers the calls of one connection.
type callDispatcher struct {
	methods map[string]console.Method
	slots   chan struct{}
	reply   func(replyMessage) // safe to call from several goroutines at once
	log     zerolog.Logger
}

func newCallDispatcher(methods map[string]console.Method, log zerolog.Logger, reply func(replyMessage)) *callDispatcher {
	return &callDispatcher{methods: methods, slots: make(chan struct{}, maxCallsInFlight), reply: reply, log: log}
}

// dispatch handles one incoming message. Malformed, unknown and excess calls are answered at once; a valid
// call runs on its own goroutine, since a slow one (starting a session) must not hold up answering a permission.
func (d *callDispatcher) dispatch(data []byte) {
	var call callMessage
	if err := json.Unmarshal(data, &call); err != nil || call.Method == "" {
		d.reply(replyMessage{ID: echoID(call.ID), Error: &console.Error{Code: console.CodeBadRequest,
			Message: "A call needs an id, a method and params."}})
		return
	}
	call.ID = echoID(call.ID)
	m, ok := d.methods[call.Method]
	if !ok {
		d.reply(replyMessage{ID: call.ID, Error: &console.Error{Code: console.CodeBadRequest,
			Message: "Unknown method " + clip(call.Method) + "."}})
		return
	}
	select {
	case d.slots <- struct{}{}:
	default:
		d.reply(replyMessage{ID: call.ID, Error: &console.Error{Code: console.CodeUnavailable,
			Message: "Too many calls at once; wait for the answers to earlier ones and try again."}})
		return
	}
	go func() {
		defer func() { <-d.slots }()
		d.reply(d.run(m, call))
	}()
}

// run calls one method; a panic in it becomes an internal error for this call alone.
func (d *callDispatcher) run(m console.Method, call callMessage) (rep replyMessage) {
	defer func() {
		if p := recover(); p != nil {
			// The stack, not the panic value: the value may quote the call's parameters (prompts, paths).
			d.log.Error().Str("method", call.Method).Bytes("stack", debug.Stack()).Msg("console call panicked")
			rep = replyMessage{ID: call.ID, Error: &console.Error{Code: console.CodeInternal,
				Message: "Baton failed answering this call (" + call.Method + "); the details are in its log."}}
		}
	}()
	result, err := m(call.Params)
	if err != nil {
		rep = replyMessage{ID: call.ID, Error: console.AsError(err)}
		d.log.Debug().Str("method", call.Method).Str("code", rep.Error.Code).Msg("console call failed")
		return rep
	}
	return replyMessage{ID: call.ID, Result: result}
}

// echoID keeps an id that is a short number or string; anything else is answered with a null id.
func echoID(id json.RawMessage) json.RawMessage {
	id = bytes.TrimSpace(id)
	if len(id) == 0 || len(id) > maxIDBytes {
		return nil
	}
	if c := id[0]; c == '"' || c == '-' || (c >= '0' && c <= '9') {
		return id
	}
	return nil
}

func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxEchoRunes {
		return s
	}
	return string([]rune(s)[:maxEchoRunes]) + "…"
}
