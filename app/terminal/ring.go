package terminal

// ring keeps the last size bytes a terminal printed, so a console that reloads can redraw the screen. It counts
// every byte ever written (end), so a reader can tell what it missed. Writes copy only what they add: a 50 MB
// burst must not move the whole megabyte on every read.
type ring struct {
	buf  []byte // allocated up to size as output arrives
	size int
	head int   // where the next byte goes once buf is full
	end  int64 // bytes written since the terminal started
}

func newRing(size int) *ring { return &ring{size: size} }

func (r *ring) write(p []byte) {
	r.end += int64(len(p))
	if len(p) >= r.size {
		p = p[len(p)-r.size:]
	}
	if room := r.size - len(r.buf); room > 0 {
		n := min(room, len(p))
		r.buf = append(r.buf, p[:n]...)
		p = p[n:]
	}
	for len(p) > 0 {
		n := copy(r.buf[r.head:], p)
		r.head = (r.head + n) % r.size
		p = p[n:]
	}
}

// snapshot is a copy of what is kept, oldest first, and the offset just past its last byte.
func (r *ring) snapshot() ([]byte, int64) {
	out := make([]byte, 0, len(r.buf))
	if len(r.buf) < r.size {
		return append(out, r.buf...), r.end
	}
	return append(append(out, r.buf[r.head:]...), r.buf[:r.head]...), r.end
}
