package terminal

// ring keeps the last size bytes a terminal printed, so a console that reloads can redraw the screen. It counts
// every byte ever written (end), so a reader can tell what it missed.
type ring struct {
	buf  []byte
	size int
	end  int64 // bytes written since the terminal started
}

func newRing(size int) *ring { return &ring{size: size} }

func (r *ring) write(p []byte) {
	r.end += int64(len(p))
	if len(p) >= r.size {
		r.buf = append(r.buf[:0], p[len(p)-r.size:]...)
		return
	}
	if over := len(r.buf) + len(p) - r.size; over > 0 {
		// Shift once per overflowing write; writes are up to a read's 32 KiB, so this stays cheap.
		r.buf = append(r.buf[:0], r.buf[over:]...)
	}
	r.buf = append(r.buf, p...)
}

// snapshot is a copy of what is kept and the offset just past its last byte.
func (r *ring) snapshot() ([]byte, int64) {
	return append([]byte(nil), r.buf...), r.end
}
