package cli

import (
	"fmt"
	"unicode/utf8"
)

// outputCap keeps what the model reads of a command's output: its first head bytes and its last tail bytes. The
// bytes between are counted and dropped as they arrive, so a command printing gigabytes costs head+2·tail bytes of
// memory while its pipe is still drained (a command blocked on a full pipe would never exit).
type outputCap struct {
	head, tail int
	first      []byte // the first head bytes
	last       []byte // the latest bytes after first (at most 2·tail, compacted to tail)
	total      int64  // everything written
}

func newOutputCap(head, tail int) *outputCap { return &outputCap{head: head, tail: tail} }

func (c *outputCap) Write(p []byte) (int, error) {
	n := len(p)
	c.total += int64(n)
	if room := c.head - len(c.first); room > 0 {
		k := min(room, len(p))
		c.first = appendWithin(c.first, p[:k], c.head)
		p = p[k:]
	}
	if len(p) == 0 || c.tail == 0 {
		return n, nil
	}
	if len(p) >= c.tail {
		c.last = appendWithin(c.last[:0], p[len(p)-c.tail:], 2*c.tail)
		return n, nil
	}
	if len(c.last)+len(p) > 2*c.tail {
		// Keep only what the tail still needs; the copy is amortised over at least tail written bytes.
		keep := c.last[len(c.last)-(c.tail-len(p)):]
		c.last = append(c.last[:0], keep...)
	}
	c.last = appendWithin(c.last, p, 2*c.tail)
	return n, nil
}

// appendWithin appends p to b, growing b's capacity (doubling) but never past limit; len(b)+len(p) ≤ limit.
func appendWithin(b, p []byte, limit int) []byte {
	if need := len(b) + len(p); need > cap(b) {
		grown := make([]byte, len(b), min(limit, max(need, 2*cap(b), 4<<10)))
		copy(grown, b)
		b = grown
	}
	return append(b, p...)
}

// retained is how many bytes the cap holds now (tests check the bound with it).
func (c *outputCap) retained() int { return cap(c.first) + cap(c.last) }

// cut is how many bytes were dropped between the head and the tail.
func (c *outputCap) cut() int64 {
	return max(0, c.total-int64(len(c.first))-int64(min(len(c.last), c.tail)))
}

// String is the kept output; a cut says where and how much, so the model knows the middle is missing.
func (c *outputCap) String() string {
	tail := c.last[max(0, len(c.last)-c.tail):]
	cut := c.cut()
	if cut == 0 {
		return string(c.first) + string(tail)
	}
	head := c.first
	// Cut on rune boundaries, so the note is not glued to half a character.
	for len(head) > 0 && !utf8.FullRune(head[lastRuneStart(head):]) {
		head = head[:lastRuneStart(head)]
	}
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s\n… [%s cut: the command printed %s; the first %s and the last %s are kept] …\n%s",
		head, byteSize(cut), byteSize(c.total), byteSize(int64(len(head))), byteSize(int64(len(tail))), tail)
}

func lastRuneStart(b []byte) int {
	i := len(b) - 1
	for i > 0 && i > len(b)-utf8.UTFMax && !utf8.RuneStart(b[i]) {
		i--
	}
	return i
}

// byteSize reads well: "812 bytes", "1.5 MB".
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
