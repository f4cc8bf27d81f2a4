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

func TestValidFixturesDecode(t *testing.T) {
	requestPayloads := map[string]func() any{
		protocol.ReqStart:             func() any { return &protocol.StartRequest{} },
		protocol.ReqExec:              func() any { return &protocol.ExecRequest{} },
		protocol.ReqCancel:            func() any { return &protocol.CancelRequest{} },
		protocol.ReqPermission:        func() any { return &protocol.PermissionRequest{} },
		protocol.ReqSetModel:          func() any { return &protocol.SetModelRequest{} },
		protocol.ReqSetPermissionMode: func() any { return &protocol.SetPermissionModeRequest{} },
		protocol.ReqClose:             func() any { return &protocol.SessionRequest{} },
		protocol.ReqListSessions:      func() any { return &protocol.ListSessionsRequest{} },
		protocol.ReqHistory:           func() any { return &protocol.HistoryRequest{} },
		protocol.ReqDiscoverModels:    func() any { return &protocol.DiscoverModelsRequest{} },
	}
	kinds := map[activity.Kind]bool{}
	for _, line := range fixtureLines(t, "valid.ndjson") {
		env, err := protocol.DecodeLine([]byte(line))
		require.NoError(t, err, line)
		switch env.Type {
		case protocol.TypeEvent:
			var ev activity.Event
			dec := json.NewDecoder(bytes.NewReader(env.Event))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(&ev), line)
			require.NoError(t, ev.Validate(), line)
			kinds[ev.Kind] = true
		case protocol.TypeOK:
			require.NotEmpty(t, env.ID)
		case protocol.TypeError:
			require.NotEmpty(t, env.ID)
			require.NotNil(t, env.Error)
			require.NotEmpty(t, env.Error.Code)
		default:
			mk, ok := requestPayloads[env.Type]
			require.True(t, ok, "unexpected request type %q", env.Type)
			require.NotEmpty(t, env.ID)
			dec := json.NewDecoder(bytes.NewReader(env.Payload))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(mk()), line)
		}
	}
	require.True(t, kinds[activity.Unknown], "fixtures must cover the unknown event")
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
	in.WriteString(`{"v":2,"type":"event"}` + "\n")
	in.Write(bytes.Repeat([]byte("x"), 16<<20))
	in.WriteString("\n" + `{"v":2,"id":"2","type":"ok"}` + "\n")
	r := protocol.NewLineReader(&in, 0)

	first, err := r.Next()
	require.NoError(t, err)
	require.Equal(t, `{"v":2,"type":"event"}`, string(first))

	_, err = r.Next()
	require.ErrorIs(t, err, protocol.ErrLineTooLong)
	require.Contains(t, err.Error(), "larger than 8 MiB")

	next, err := r.Next()
	require.NoError(t, err, "the reader keeps going after an oversized line")
	require.Equal(t, `{"v":2,"id":"2","type":"ok"}`, string(next))

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
