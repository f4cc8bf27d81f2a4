package protocol_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
	"github.com/stretchr/testify/require"
)

func fixtureLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "sidecar", "testdata", "protocol", name))
	require.NoError(t, err)
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	require.NotEmpty(t, lines)
	return lines
}

// The Go and TypeScript constants must agree; neither side negotiates.
func TestVersionMatchesSidecar(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "sidecar", "src", "protocol", "version.ts"))
	require.NoError(t, err, "the sidecar's version constant file is missing")
	m := regexp.MustCompile(`PROTOCOL_VERSION\s*=\s*(\d+)`).FindSubmatch(src)
	require.NotNil(t, m, "PROTOCOL_VERSION not found in version.ts")
	ts, err := strconv.Atoi(string(m[1]))
	require.NoError(t, err)
	require.Equal(t, protocol.ProtocolVersion, ts, "Go and TypeScript protocol versions differ")
}

// Every line of the shared fixtures decodes strictly, and together they cover every request type, every ok reply
// and every event kind the schema names: a kind or request added to the schema without a fixture fails here.
func TestValidFixturesDecode(t *testing.T) {
	kinds := map[activity.Kind]bool{}
	requests := map[string]protocol.RequestType{} // fixture id → type, to decode the ok reply with that id
	requested := map[protocol.RequestType]bool{}
	replied := map[protocol.RequestType]bool{}
	for _, line := range fixtureLines(t, "valid.ndjson") {
		env, err := protocol.DecodeLine([]byte(line))
		require.NoError(t, err, line)
		switch env.Type {
		case protocol.TypeEvent:
			ev, err := activity.DecodeEvent(env.Event)
			require.NoError(t, err, line)
			kinds[ev.Kind] = true
		case protocol.TypeOK:
			typ, ok := requests[env.ID]
			require.True(t, ok, "no request with id %s before this reply: %s", env.ID, line)
			dec := json.NewDecoder(bytes.NewReader(env.Payload))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(protocol.NewReply(typ)), line)
			replied[typ] = true
		case protocol.TypeError:
			require.NotEmpty(t, env.ID)
			require.NotNil(t, env.Error)
			require.True(t, env.Error.Code.Valid(), "error code %q", env.Error.Code)
		default:
			typ := protocol.RequestType(env.Type)
			payload := protocol.NewRequest(typ)
			require.NotNil(t, payload, "unexpected request type %q", env.Type)
			require.NotEmpty(t, env.ID)
			dec := json.NewDecoder(bytes.NewReader(env.Payload))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(payload), line)
			requests[env.ID] = typ
			requested[typ] = true
		}
	}
	for _, k := range activity.Kinds {
		if activity.HostMade(k) {
			continue // host-made kinds are in host.ndjson
		}
		require.True(t, kinds[k], "valid.ndjson has no %s event: add a line for it", k)
	}
	for _, typ := range protocol.RequestTypes {
		require.True(t, requested[typ], "valid.ndjson has no %s request: add a line for it", typ)
		require.True(t, replied[typ], "valid.ndjson has no ok reply to a %s request: add a line for it", typ)
	}
}

// The kinds the host makes itself have fixtures too, as the console receives them.
func TestHostMadeFixtures(t *testing.T) {
	seen := map[activity.Kind]bool{}
	for _, line := range fixtureLines(t, "host.ndjson") {
		var ev activity.Event
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&ev), line)
		require.NoError(t, ev.Validate(), line)
		seen[ev.Kind] = true
		// What the host sends the console is what it read: empty required fields included.
		out, err := json.Marshal(ev)
		require.NoError(t, err)
		requireSameEvent(t, line, string(out))
	}
	for _, k := range activity.Kinds {
		if activity.HostMade(k) {
			require.True(t, seen[k], "host.ndjson has no %s event: add a line for it", k)
		}
	}
}

// Strict decoding: an unknown kind, an unknown field (of the kind or nested), a missing field, an unknown enum
// value, a host-made kind from the sidecar, or a broken rule are each refused with the kind named.
func TestInvalidEventFixturesAreRefused(t *testing.T) {
	for i, line := range fixtureLines(t, "invalid-events.ndjson") {
		_, err := activity.DecodeEvent([]byte(line))
		require.Error(t, err, "line %d: %s", i+1, line)
		var head struct{ Kind string }
		require.NoError(t, json.Unmarshal([]byte(line), &head))
		require.Contains(t, err.Error(), head.Kind, "line %d: the error names the kind", i+1)
	}
}

// Every event of the fixtures survives a round trip through the host unchanged: what the console receives is
// exactly what the sidecar sent (plus seq), empty values included.
func TestEventsRoundTripExactly(t *testing.T) {
	for _, line := range fixtureLines(t, "valid.ndjson") {
		env, err := protocol.DecodeLine([]byte(line))
		require.NoError(t, err)
		if env.Type != protocol.TypeEvent {
			continue
		}
		ev, err := activity.DecodeEvent(env.Event)
		require.NoError(t, err)
		out, err := json.Marshal(ev)
		require.NoError(t, err)
		requireSameEvent(t, string(env.Event), string(out))
	}
}

// requireSameEvent compares two event objects field by field; the time as an instant (Go writes it in its own
// RFC 3339 form).
func requireSameEvent(t *testing.T, want, got string) {
	t.Helper()
	var w, g map[string]any
	require.NoError(t, json.Unmarshal([]byte(want), &w))
	require.NoError(t, json.Unmarshal([]byte(got), &g))
	wt, err := time.Parse(time.RFC3339Nano, w["time"].(string))
	require.NoError(t, err)
	gt, err := time.Parse(time.RFC3339Nano, g["time"].(string))
	require.NoError(t, err)
	require.True(t, wt.Equal(gt), "time %s != %s", wt, gt)
	delete(w, "time")
	delete(g, "time")
	require.Equal(t, w, g, "event %s", want)
}

func TestInvalidFixturesAreRejected(t *testing.T) {
	lines := fixtureLines(t, "invalid.ndjson")
	// Lines 1-3 are version violations, 4 a request missing its turn, 5 an unknown type, 6 not JSON.
	for i, line := range lines[:3] {
		_, err := protocol.DecodeLine([]byte(line))
		require.ErrorIs(t, err, protocol.ErrUnsupportedVersion, "line %d", i+1)
	}
	_, err := protocol.DecodeLine([]byte(lines[5]))
	require.Error(t, err)
	require.False(t, errors.Is(err, protocol.ErrUnsupportedVersion))
}

func TestLineReaderDropsOversizedLine(t *testing.T) {
	var in bytes.Buffer
	in.WriteString(`{"v":4,"type":"event"}` + "\n")
	in.Write(bytes.Repeat([]byte("x"), 16<<20))
	in.WriteString("\n" + `{"v":4,"id":"2","type":"ok"}` + "\n")
	r := protocol.NewLineReader(&in, 0)

	first, err := r.Next()
	require.NoError(t, err)
	require.Equal(t, `{"v":4,"type":"event"}`, string(first))

	_, err = r.Next()
	require.ErrorIs(t, err, protocol.ErrLineTooLong)
	require.Contains(t, err.Error(), "larger than 8 MiB")

	next, err := r.Next()
	require.NoError(t, err, "the reader keeps going after an oversized line")
	require.Equal(t, `{"v":4,"id":"2","type":"ok"}`, string(next))

	_, err = r.Next()
	require.ErrorIs(t, err, io.EOF)
}

func TestLineReaderExactBoundAndUnterminatedTail(t *testing.T) {
	line := bytes.Repeat([]byte("y"), 100)
	r := protocol.NewLineReader(bufio.NewReader(bytes.NewReader(append(append(line, '\n'), []byte("tail")...))), 100)
	got, err := r.Next()
	require.NoError(t, err)
	require.Len(t, got, 100)
	got, err = r.Next()
	require.NoError(t, err)
	require.Equal(t, "tail", string(got))
}
