package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/baton-console/baton/app/console"
	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"
)

func dialBare(t *testing.T, b *bare) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := dialWS(ctx, b.srv.Addr().String(), b.token, nil)
	require.NoError(t, err)
	conn.SetReadLimit(32 << 20)
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}

// callOnce sends one call and reads until its reply (nothing else is pushed without a sidecar).
func callOnce(t *testing.T, conn *websocket.Conn, method string) (json.RawMessage, *console.Error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, conn.Write(ctx, websocket.MessageText, []byte(`{"id":"check","method":"`+method+`","params":{}}`)))
	for {
		_, data, err := conn.Read(ctx)
		require.NoError(t, err)
		var rep struct {
			ID     string          `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *console.Error  `json:"error"`
		}
		if json.Unmarshal(data, &rep) == nil && rep.ID == "check" {
			return rep.Result, rep.Error
		}
	}
}

// Thousands of random and malformed messages on one loopback connection: each gets exactly one reply (an
// error for what is not a proper call), the host never panics, and afterwards a second client works.
func TestWebSocketSurvivesAFuzz(t *testing.T) {
	b := startBare(t, "127.0.0.1:0", nil)
	require.True(t, b.srv.Loopback(), "the fuzz stays on loopback")
	var names []string
	for name := range console.Methods(nil) {
		names = append(names, name)
	}
	sort.Strings(names) // map order would make the seeded run differ between runs

	conn := dialBare(t, b)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var replies atomic.Int64
	readerDone := make(chan error, 1)
	go func() {
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				readerDone <- err
				return
			}
			var rep struct {
				Type  string          `json:"type"`
				ID    json.RawMessage `json:"id"`
				Error *console.Error  `json:"error"`
			}
			if json.Unmarshal(data, &rep) == nil && rep.Type == "" {
				replies.Add(1)
			}
		}
	}()

	const messages = 3000
	rng := rand.New(rand.NewPCG(20240612, 12))
	start := time.Now()
	for i := 0; i < messages; i++ {
		typ, data := fuzzMessage(rng, names)
		require.NoError(t, conn.Write(ctx, typ, data), "message %d: the server closed the connection", i)
	}
	for replies.Load() < messages {
		select {
		case err := <-readerDone:
			t.Fatalf("the connection ended after %d of %d replies: %v", replies.Load(), messages, err)
		case <-ctx.Done():
			t.Fatalf("only %d of %d messages were answered", replies.Load(), messages)
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Logf("%d fuzz messages answered in %v", messages, time.Since(start).Round(time.Millisecond))
	require.Equal(t, int64(messages), replies.Load(), "one reply per message, no more")

	second := dialBare(t, b)
	result, apiErr := callOnce(t, second, "capabilities")
	require.Nil(t, apiErr)
	var caps console.Capabilities
	require.NoError(t, json.Unmarshal(result, &caps))
	require.Equal(t, "websocket", caps.Transport)
}

// An oversized message closes that connection alone.
func TestAnOversizedMessageClosesOnlyItsConnection(t *testing.T) {
	b := startBare(t, "127.0.0.1:0", nil)
	other := dialBare(t, b)
	conn := dialBare(t, b)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	huge := `{"id":1,"method":"sendPrompt","params":{"prompt":"` + strings.Repeat("x", 9<<20) + `"}}`
	_ = conn.Write(ctx, websocket.MessageText, []byte(huge)) // the server may close before the write ends
	_, _, err := conn.Read(ctx)
	require.Error(t, err)
	require.Equal(t, websocket.StatusMessageTooBig, websocket.CloseStatus(err), "closed as too big: %v", err)
	require.False(t, errors.Is(ctx.Err(), context.DeadlineExceeded))

	_, apiErr := callOnce(t, other, "capabilities")
	require.Nil(t, apiErr, "the other connection still works")
	_, apiErr = callOnce(t, dialBare(t, b), "capabilities")
	require.Nil(t, apiErr, "and new ones too")
}

// Parameter names the console's calls use, so random params often hit a real field with the wrong type.
var fuzzKeys = []string{"session", "cwd", "prompt", "requestId", "verdict", "model", "permissionMode", "message", "dryRun",
	"before", "limit", "resume", "forkFrom", "at", "title", "body", "tag", "updatedInput", "suggestions", "turn", "id"}

func fuzzMessage(rng *rand.Rand, methods []string) (websocket.MessageType, []byte) {
	method := methods[rng.IntN(len(methods))]
	switch rng.IntN(12) {
	case 0: // random bytes
		b := make([]byte, rng.IntN(300))
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		return websocket.MessageText, b
	case 1: // a proper call cut short
		full, _ := json.Marshal(map[string]any{"id": rng.IntN(1000), "method": method, "params": fuzzParams(rng)})
		return websocket.MessageText, full[:rng.IntN(len(full))]
	case 2: // valid JSON that is not an object
		v, _ := json.Marshal(fuzzValue(rng, 2))
		if v[0] == '{' {
			v = []byte(`[` + string(v) + `]`)
		}
		return websocket.MessageText, v
	case 3: // method or id of the wrong type
		m, _ := json.Marshal(map[string]any{"id": fuzzValue(rng, 2), "method": fuzzValue(rng, 1), "params": fuzzParams(rng)})
		return websocket.MessageText, m
	case 4: // unknown method, sometimes long, sometimes not UTF-8
		name := fuzzString(rng)
		if rng.IntN(4) == 0 {
			name = strings.Repeat(name+"Ω", 2000)
		}
		return websocket.MessageText, []byte(`{"id":1,"method":"` + name + "\xff\xfe" + `","params":{}}`)
	case 5: // known method, params not an object
		m, _ := json.Marshal(map[string]any{"id": rng.IntN(1000), "method": method, "params": fuzzValue(rng, 2)})
		return websocket.MessageText, m
	case 6: // deeply nested params (beyond the JSON decoder's depth limit)
		n := 5000 + rng.IntN(20000)
		return websocket.MessageText, []byte(`{"id":1,"method":"` + method + `","params":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
	case 7: // a proper call sent as a binary frame
		m, _ := json.Marshal(map[string]any{"id": rng.IntN(1000), "method": method, "params": fuzzParams(rng)})
		return websocket.MessageBinary, m
	default: // known method, random params with the real field names
		m, _ := json.Marshal(map[string]any{"id": rng.IntN(1000), "method": method, "params": fuzzParams(rng)})
		return websocket.MessageText, m
	}
}

func fuzzParams(rng *rand.Rand) map[string]any {
	p := map[string]any{}
	for range rng.IntN(5) {
		p[fuzzKeys[rng.IntN(len(fuzzKeys))]] = fuzzValue(rng, 2)
	}
	return p
}

func fuzzValue(rng *rand.Rand, depth int) any {
	n := 7
	if depth <= 0 {
		n = 5
	}
	switch rng.IntN(n) {
	case 0:
		return nil
	case 1:
		return rng.IntN(2) == 0
	case 2:
		return []any{-1, 0, 1e308, -1e-308, 2147483648, 9007199254740993, 0.5}[rng.IntN(7)]
	case 3, 4:
		return fuzzString(rng)
	case 5:
		a := make([]any, rng.IntN(4))
		for i := range a {
			a[i] = fuzzValue(rng, depth-1)
		}
		return a
	default:
		o := map[string]any{}
		for range rng.IntN(4) {
			o[fuzzKeys[rng.IntN(len(fuzzKeys))]] = fuzzValue(rng, depth-1)
		}
		return o
	}
}

func fuzzString(rng *rand.Rand) string {
	pool := []string{"", " ", "/", ".", "..", "../../etc/passwd", "\x00", "allow", "deny", "default", "bypassPermissions",
		"0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", "<script>alert(1)</script>", "%s%n", "\u202e", "🦀", "\xed\xa0\x80"}
	if rng.IntN(3) == 0 {
		b := make([]rune, rng.IntN(40))
		for i := range b {
			b[i] = rune(rng.IntN(0x3000))
		}
		return string(b)
	}
	return pool[rng.IntN(len(pool))]
}
