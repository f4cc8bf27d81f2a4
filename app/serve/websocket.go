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

// eventMessage pushes one event.
type eventMessage struct {
	Type  string         `json:"type"`
	Event activity.Event `json:"event"`
}

// eventsMessage pushes several events at once, in order (events that were waiting together).
type eventsMessage struct {
	Type   string           `json:"type"`
	Events []activity.Event `json:"events"`
}

// hostMessage pushes a whole new sign-in or provisioning state.
type hostMessage struct {
	Type      string                  `json:"type"`
	Auth      *console.AuthState      `json:"auth,omitempty"`
	Provision *console.ProvisionState `json:"provision,omitempty"`
	Sessions  *console.SessionsChange `json:"sessions,omitempty"`
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	// Only the page this server served may connect: another site open in the same browser must not drive
	// sessions on this machine.
	if !sameOrigin(r) {
		http.Error(w, "Baton: this origin may not connect", http.StatusForbidden)
		return
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: []string{r.Host}})
	if err != nil {
		return
	}
	conn.SetReadLimit(maxMessageBytes)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer conn.CloseNow()

	sub := s.opts.Sessions.Subscribe(nil)
	defer sub.Close()
	go func() {
		if err := console.Forward(ctx, sub.C(), s.opts.Host, wsPusher{ctx: ctx, conn: conn}); err != nil {
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
	return writeJSON(w.ctx, w.conn, eventMessage{Type: "event", Event: ev})
}

func (w wsPusher) Events(evs []activity.Event) error {
	return writeJSON(w.ctx, w.conn, eventsMessage{Type: "events", Events: evs})
}

func (w wsPusher) Auth(a console.AuthState) error {
	return writeJSON(w.ctx, w.conn, hostMessage{Type: "auth", Auth: &a})
}

func (w wsPusher) Provision(p console.ProvisionState) error {
	return writeJSON(w.ctx, w.conn, hostMessage{Type: "provision", Provision: &p})
}

func (w wsPusher) Sessions(s console.SessionsChange) error {
	return writeJSON(w.ctx, w.conn, hostMessage{Type: "sessions", Sessions: &s})
}
