package terminal

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSubscriptionCoalescesAndDropsWhatItCannotHold(t *testing.T) {
	sub := newSubscription(New(Options{}))
	sub.add("a", 0, []byte("he"))
	sub.add("b", 0, []byte("x"))
	sub.add("a", 2, []byte("llo"))
	outs, err := sub.Next(context.Background())
	require.NoError(t, err)
	require.Equal(t, []Output{{Terminal: "a", Data: []byte("hello")}, {Terminal: "b", Data: []byte("x")}}, outs)

	big := make([]byte, maxPending)
	sub.add("a", 5, big)
	sub.add("a", 5+maxPending, []byte("tail"))
	sub.exit("a", 5+maxPending+4, 0)
	outs, err = sub.Next(context.Background())
	require.NoError(t, err)
	require.Len(t, outs, 1)
	require.Equal(t, int64(5+maxPending), outs[0].Offset, "the middle is dropped; the gap says redraw")
	require.Equal(t, "tail", string(outs[0].Data))
	require.True(t, outs[0].Exited)
}

func TestRingKeepsTheNewest(t *testing.T) {
	r := newRing(4)
	r.write([]byte("ab"))
	r.write([]byte("cde"))
	data, end := r.snapshot()
	require.Equal(t, "bcde", string(data))
	require.Equal(t, int64(5), end)
	r.write([]byte("123456"))
	data, end = r.snapshot()
	require.Equal(t, "3456", string(data))
	require.Equal(t, int64(11), end)
}

func TestRingWrapsAround(t *testing.T) {
	r := newRing(5)
	for _, s := range []string{"ab", "cd", "ef", "g", "hijk", "l"} {
		r.write([]byte(s))
	}
	data, end := r.snapshot()
	require.Equal(t, "hijkl", string(data))
	require.Equal(t, int64(12), end)
	r.write([]byte("mn"))
	data, _ = r.snapshot()
	require.Equal(t, "jklmn", string(data))
}
