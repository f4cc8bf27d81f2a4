package console

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeClock drives the index's push throttle: time moves only when the test says, and the held-back push is sent
// only when the test fires it.
type fakeClock struct {
	at      time.Time
	pending func()
}

func (c *fakeClock) install(h *HostState) {
	h.index.now = func() time.Time { return c.at }
	h.index.after = func(_ time.Duration, f func()) func() bool {
		c.pending = f
		return func() bool { c.pending = nil; return true }
	}
}

func (c *fakeClock) fire() {
	f := c.pending
	c.pending = nil
	f()
}

func building(done int) IndexState {
	return IndexState{State: IndexStatusBuilding, FilesDone: done, FilesTotal: 1000, BytesDone: int64(done) * 100, BytesTotal: 100000}
}

// The index's progress is pushed at most once an interval while it builds, every change of state at once, and the
// latest counts always in the end; the snapshot reads the latest at any time.
func TestIndexPushesAreThrottledButNeverLoseTheLatest(t *testing.T) {
	host := NewHostState()
	clock := &fakeClock{at: time.Unix(1000, 0)}
	clock.install(host)
	require.Equal(t, IndexStatusUnknown, host.Index().State)
	updates, stop := host.Subscribe()
	defer stop()

	for i := 1; i <= 500; i++ {
		host.SetIndex(building(i))
	}
	require.Equal(t, building(1), *(<-updates).Index, "the change of state goes out at once")
	require.Empty(t, updates, "the counts that followed within the interval are held back")
	require.Equal(t, building(500), host.Index(), "the snapshot has the latest")
	require.NotNil(t, clock.pending, "a push of the latest is scheduled")
	clock.fire()
	require.Equal(t, building(500), *(<-updates).Index)

	clock.at = clock.at.Add(indexPushInterval)
	host.SetIndex(building(600))
	require.Equal(t, building(600), *(<-updates).Index, "an interval later counts go out at once")

	host.SetIndex(building(700))
	require.NotNil(t, clock.pending)
	ready := IndexState{State: IndexStatusReady, FilesDone: 1000, FilesTotal: 1000, BytesDone: 100000, BytesTotal: 100000}
	host.SetIndex(ready)
	require.Equal(t, ready, *(<-updates).Index, "the final state is not held back")
	require.Nil(t, clock.pending, "nothing older is sent after it")
	require.Empty(t, updates)
}
