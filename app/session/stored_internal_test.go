package session

import (
	"context"
	"errors"
	"testing"

	"github.com/baton-console/baton/app/protocol"
	"github.com/stretchr/testify/require"
)

// storedStandIn stands in for Baton's index (app/index, which the host wires; it does not import session): it
// answers from a fixed list, or fails.
type storedStandIn struct{ err error }

func (s storedStandIn) ListSessions(context.Context, string, int) ([]protocol.SessionInfo, error) {
	return []protocol.SessionInfo{{Session: "from-the-index"}}, s.err
}

func (s storedStandIn) HistoryAt(context.Context, string, string, *int, int) (HistoryPage, error) {
	return HistoryPage{Total: 7}, s.err
}

func (s storedStandIn) MessageParent(context.Context, string, string) (string, bool, error) {
	return "parent", true, s.err
}

// Stored sessions are read from the index when there is one; when it fails they are read by a sidecar as before
// (here a sidecar that is not there, so the fallback shows as its error).
func TestStoredSessionsAreReadFromTheIndexAndFallBack(t *testing.T) {
	ctx := context.Background()
	id := "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b"
	m := NewManager(Config{SidecarPath: t.TempDir() + "/no-sidecar"})
	m.UseStored(storedStandIn{})
	list, err := m.ListSessions(ctx, "", 0)
	require.NoError(t, err)
	require.Equal(t, "from-the-index", list[0].Session)
	page, err := m.HistoryAt(ctx, id, "", "", nil, 0)
	require.NoError(t, err)
	require.Equal(t, 7, page.Total)
	parent, found, err := m.MessageParent(ctx, id, "", "m")
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, "parent", parent)

	m.UseStored(storedStandIn{err: errors.New("mapper unavailable")})
	_, err = m.HistoryAt(ctx, id, "", "", nil, 0)
	require.ErrorContains(t, err, "sidecar executable")
	_, err = m.ListSessions(ctx, "", 0)
	require.ErrorContains(t, err, "sidecar executable")
}
