package debounce_test

import (
	"testing"
	"time"

	"github.com/baton-console/baton/app/internal/debounce"
	"github.com/baton-console/baton/app/internal/debounce/debouncetest"
	"github.com/stretchr/testify/require"
)

const (
	quiet   = 10 * time.Millisecond
	maxWait = 100 * time.Millisecond
)

func TestABurstFiresOnceWhenItSettles(t *testing.T) {
	clock := &debouncetest.Timers{}
	fired := 0
	d := debounce.New(quiet, maxWait, clock.After, func() { fired++ })
	d.Poke()
	d.Poke()
	d.Poke()
	require.Equal(t, 0, fired, "nothing fires while the burst goes on")
	require.True(t, clock.Fire(quiet))
	require.Equal(t, 1, fired)
	require.False(t, clock.Fire(maxWait), "the burst's upper bound was stopped with it")
	require.Positive(t, clock.FireStale())
	require.Equal(t, 1, fired, "a timer of a finished burst does nothing")

	d.Poke()
	require.True(t, clock.Fire(quiet))
	require.Equal(t, 2, fired, "the next change is a new burst")
}

func TestAnEndlessBurstStillFiresAtItsUpperBound(t *testing.T) {
	clock := &debouncetest.Timers{}
	fired := 0
	d := debounce.New(quiet, maxWait, clock.After, func() { fired++ })
	for range 5 {
		d.Poke() // each poke restarts the quiet timer; the upper bound is started once
	}
	require.True(t, clock.Fire(maxWait))
	require.Equal(t, 1, fired)
	require.False(t, clock.Fire(quiet))
}

func TestStopDropsAPendingBurst(t *testing.T) {
	clock := &debouncetest.Timers{}
	fired := 0
	d := debounce.New(quiet, maxWait, clock.After, func() { fired++ })
	d.Poke()
	d.Stop()
	clock.FireStale()
	require.Equal(t, 0, fired)

	d.Poke()
	require.True(t, clock.Fire(quiet))
	require.Equal(t, 1, fired, "a poke after Stop starts a new burst")
}
