package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/console"
	"github.com/coder/websocket"
)

// callMessage is a client's call.
type callMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// replyMessage answers one call.
type replyMessage struct {
	ID     json.RawMessage `json:"id"`
	Result any             `json:"result,omitempty"`
	Error  *console.Error  `json:"error,omitempty"`
}

// hostMessage pushes a whole new host state: sign-in, provisioning, the index, or a change of the stored sessions.
type hostMessage struct {
	Type      string                  `json:"type"`
	Auth      *console.AuthState      `json:"auth,omitempty"`
	Provision *console.ProvisionState `json:"provision,omitempty"`
	Index     *console.IndexState     `json:"index,omitempty"`
	Sessions  *console.SessionsChange `json:"sessions,omitempty"`
	Terminal  *console.TerminalOutput `json:"terminal,omitempty"`
	Changes   *console.ChangesUpdate  `json:"changes,omitempty"`
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	// Only the page this server served may connect: another site open in the same browser must not drive
	// sessions on this machine.
	if !sameOrigin(r) {
		http.Error(w, "Baton: this origin may not connect", http.StatusForbidden)
		return
	}
	// The answer names wsProtocol, never the offered token: a browser that offered subprotocols fails a
	// handshake whose answer names none of them.
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: []string{r.Host}, Subprotocols: []string{wsProtocol}})
	if err != nil {
		return
	}
	conn.SetReadLimit(maxMessageBytes)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer conn.CloseNow()

	sub := s.opts.Sessions.Subscribe(nil)
	defer sub.Close()
	forward := console.Forwarding(sub.C(), s.opts.Host, wsPusher{ctx: ctx, conn: conn})
	go func() {
		if err := forward(ctx); err != nil {
			cancel()
		}
	}()

	feed := console.WatchTerminals(s.opts.API)
	go func() {
		if err := feed.Forward(ctx, wsPusher{ctx: ctx, conn: conn}); err != nil && ctx.Err() == nil {
			cancel()
		}
	}()

	calls := newCallDispatcher(console.Methods(s.opts.API), s.opts.Logger, func(rep replyMessage) { _ = writeJSON(ctx, conn, rep) })
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return
		}
		calls.dispatch(data)
	}
}

func writeJSON(ctx context.Context, conn *websocket.Conn, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return writeMessage(ctx, conn, data)
}

func writeMessage(ctx context.Context, conn *websocket.Conn, data []byte) error {
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return conn.Write(wctx, websocket.MessageText, data)
}

// wsPusher writes pushes as the WebSocket messages of API.md.
type wsPusher struct {
	ctx  context.Context
	conn *websocket.Conn
}

func (w wsPusher) Event(ev activity.Event) error {
	msg, err := eventJSON(ev)
	if err != nil {
		return err
	}
	return writeMessage(w.ctx, w.conn, msg)
}

func (w wsPusher) Events(evs []activity.Event) error {
	msg, err := eventsJSON(evs)
	if err != nil {
		return err
	}
	return writeMessage(w.ctx, w.conn, msg)
}

// eventJSON is {"type":"event","event":…}; eventsJSON is {"type":"events","events":[…]}, several events that
// were waiting together, in order (API.md). Each event's own encoding is put in place: marshalling a wrapper
// struct would scan and copy every event's MarshalJSON output once more, and a streaming reply sends thousands.
func eventJSON(ev activity.Event) ([]byte, error) {
	data, err := ev.MarshalJSON()
	if err != nil {
		return nil, err
	}
	msg := make([]byte, 0, len(data)+32)
	return append(append(append(msg, `{"type":"event","event":`...), data...), '}'), nil
}

func eventsJSON(evs []activity.Event) ([]byte, error) {
	msg := append(make([]byte, 0, 320*len(evs)), `{"type":"events","events":[`...)
	for i, ev := range evs {
		data, err := ev.MarshalJSON()
		if err != nil {
			return nil, err
		}
		if i > 0 {
			msg = append(msg, ',')
		}
		msg = append(msg, data...)
	}
	return append(msg, "]}"...), nil
}

func (w wsPusher) Auth(a console.AuthState) error {
	return writeJSON(w.ctx, w.conn, hostMessage{Type: "auth", Auth: &a})
}

func (w wsPusher) Provision(p console.ProvisionState) error {
	return writeJSON(w.ctx, w.conn, hostMessage{Type: "provision", Provision: &p})
}

func (w wsPusher) Index(s console.IndexState) error {
	return writeJSON(w.ctx, w.conn, hostMessage{Type: "index", Index: &s})
}

func (w wsPusher) Changes(u console.ChangesUpdate) error {
	return writeJSON(w.ctx, w.conn, hostMessage{Type: "changes", Changes: &u})
}

func (w wsPusher) Sessions(s console.SessionsChange) error {
	return writeJSON(w.ctx, w.conn, hostMessage{Type: "sessions", Sessions: &s})
}

func (w wsPusher) Terminal(t console.TerminalOutput) error {
	return writeJSON(w.ctx, w.conn, hostMessage{Type: "terminal", Terminal: &t})
}
