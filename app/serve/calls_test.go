package serve

import (
	"encoding/json"
	"net"
	"sync"
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// replies collects what a dispatcher answers.
type replies struct {
	mu  sync.Mutex
	got []replyMessage
	c   chan replyMessage
}

func newReplies() *replies { return &replies{c: make(chan replyMessage, 1024)} }

func (r *replies) add(rep replyMessage) {
	r.mu.Lock()
	r.got = append(r.got, rep)
	r.mu.Unlock()
	r.c <- rep
}

func TestMalformedAndUnknownCallsGetAnErrorReply(t *testing.T) {
	r := newReplies()
	d := newCallDispatcher(map[string]console.Method{"echo": func(p json.RawMessage) (any, error) { return string(p), nil }}, zerolog.Nop(), r.add)
	for _, msg := range []string{``, `{`, `[]`, `"x"`, `null`, `{"id":1}`, `{"id":2,"method":7}`, `{"id":{"a":1},"method":"nope"}`} {
		d.dispatch([]byte(msg))
		rep := <-r.c
		require.NotNil(t, rep.Error, "message %q", msg)
		require.Equal(t, console.CodeBadRequest, rep.Error.Code, "message %q", msg)
	}
	d.dispatch([]byte(`{"id":3,"method":"nope-` + longName() + `"}`))
	rep := <-r.c
	require.Equal(t, json.RawMessage("3"), rep.ID)
	require.Less(t, len(rep.Error.Message), 200, "an unknown method's name is not echoed whole")

	d.dispatch([]byte(`{"id":"` + longName() + `","method":"echo","params":{}}`))
	rep = <-r.c
	require.Nil(t, rep.Error)
	require.Nil(t, rep.ID, "an oversized id is not echoed")
}

func longName() string {
	b := make([]byte, 10_000)
	for i := range b {
		b[i] = 'x'
	}
	return string(b)
}

// A panicking method answers its own call with an internal error; the dispatcher goes on.
func TestAPanickingCallIsAnsweredAndTheConnectionGoesOn(t *testing.T) {
	r := newReplies()
	d := newCallDispatcher(map[string]console.Method{
		"boom": func(json.RawMessage) (any, error) { panic("index out of range") },
		"ok":   func(json.RawMessage) (any, error) { return "fine", nil },
	}, zerolog.Nop(), r.add)
	d.dispatch([]byte(`{"id":1,"method":"boom","params":{}}`))
	rep := <-r.c
	require.Equal(t, json.RawMessage("1"), rep.ID)
	require.Equal(t, console.CodeInternal, rep.Error.Code)
	d.dispatch([]byte(`{"id":2,"method":"ok","params":{}}`))
	rep = <-r.c
	require.Equal(t, "fine", rep.Result)
}

// Calls beyond maxCallsInFlight are refused with an error reply, not queued without bound; once earlier calls
// finish, new ones run again. The stand-in method blocks until the test releases it.
func TestAFloodOfCallsIsBounded(t *testing.T) {
	r := newReplies()
	release := make(chan struct{})
	started := make(chan struct{}, maxCallsInFlight)
	d := newCallDispatcher(map[string]console.Method{
		"slow": func(json.RawMessage) (any, error) { started <- struct{}{}; <-release; return "done", nil },
	}, zerolog.Nop(), r.add)
	for i := 0; i < maxCallsInFlight; i++ {
		d.dispatch([]byte(`{"id":1,"method":"slow","params":{}}`))
	}
	for i := 0; i < maxCallsInFlight; i++ {
		<-started
	}
	const extra = 10
	for i := 0; i < extra; i++ {
		d.dispatch([]byte(`{"id":2,"method":"slow","params":{}}`))
		rep := <-r.c
		require.Equal(t, json.RawMessage("2"), rep.ID)
		require.Equal(t, console.CodeUnavailable, rep.Error.Code)
	}
	close(release)
	for i := 0; i < maxCallsInFlight; i++ {
		rep := <-r.c
		require.Equal(t, "done", rep.Result)
	}
	d.dispatch([]byte(`{"id":3,"method":"slow","params":{}}`))
	<-started
	rep := <-r.c
	require.Equal(t, "done", rep.Result, "after the flood, calls run again")
}

func TestHostGuardOnEveryInterface(t *testing.T) {
	g := newHostGuard(":8080", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080})
	require.True(t, g.allows("192.0.2.7:8080"), "an IP literal cannot be rebound")
	require.True(t, g.allows("[2001:db8::1]:8080"))
	require.True(t, g.allows("localhost:8080"))
	require.False(t, g.allows("evil.example:8080"))
	require.False(t, g.allows("192.0.2.7:8081"))

	g = newHostGuard("mybox.lan:80", &net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 80})
	require.True(t, g.allows("mybox.lan"), "port 80 may be left out")
	require.True(t, g.allows("MyBox.lan:80"))
	require.True(t, g.allows("192.0.2.7"))
	require.False(t, g.allows("192.0.2.8"), "only the bound address when bound to one")
	require.False(t, g.allows("evil.example"))
	require.False(t, g.allows(""))
}
