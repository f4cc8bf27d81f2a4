package queue

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A producer that outruns its consumer (the direct hand-off fills Out, later items queue behind it) and one that
// does not (most items go straight to Out) both deliver every item once, in order, and Close comes after the last.
func TestUnboundedKeepsOrderWhetherOrNotTheConsumerKeepsUp(t *testing.T) {
	for _, slow := range []bool{false, true} {
		q := New[int]()
		const n = 20000
		got := make([]int, 0, n)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for v := range q.Out() {
				got = append(got, v)
				if slow && v%1000 == 0 {
					for range 1000 {
						_ = make([]byte, 64) // let the producer get ahead
					}
				}
			}
		}()
		for i := range n {
			q.Push(i)
		}
		q.Close()
		q.Push(-1) // ignored after Close
		<-done
		require.Len(t, got, n, "slow consumer: %v", slow)
		for i, v := range got {
			require.Equal(t, i, v, "slow consumer: %v", slow)
		}
	}
}

// Pushes from several goroutines keep each producer's own order, and none is lost.
func TestUnboundedConcurrentProducers(t *testing.T) {
	q := New[[2]int]()
	const producers, each = 4, 5000
	var wg sync.WaitGroup
	for p := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				q.Push([2]int{p, i})
			}
		}()
	}
	next := make([]int, producers)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for v := range q.Out() {
			assert.Equal(t, next[v[0]], v[1], "producer %d out of order", v[0])
			next[v[0]] = v[1] + 1
		}
	}()
	wg.Wait()
	q.Close()
	<-done
	for p := range producers {
		assert.Equal(t, each, next[p], "producer %d", p)
	}
}

// A consumer that never reads does not block the producer, and everything waits for it.
func TestUnboundedNeverBlocksTheProducer(t *testing.T) {
	q := New[int]()
	for i := range 10 * outBuffer {
		q.Push(i)
	}
	q.Close()
	count := 0
	for v := range q.Out() {
		require.Equal(t, count, v)
		count++
	}
	assert.Equal(t, 10*outBuffer, count)
}
