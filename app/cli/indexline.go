package cli

import (
	"fmt"
	"io"
	"sync"
)

// IndexProgress is what the terminal shows of the session index while it maps transcripts. The terminal front end
// does not know the console's host state: the composition root (app) turns that into these.
type IndexProgress struct {
	// Active: the index is mapping (building or rebuilding); otherwise nothing is shown.
	Active bool
	// Rebuilding: everything is mapped again (a new mapper, a recovered database).
	Rebuilding            bool
	BytesDone, BytesTotal int64
}

// IndexSource gives the index's progress from now on; unsubscribe delivers what is still waiting, then closes.
type IndexSource interface {
	SubscribeIndex() (updates <-chan IndexProgress, unsubscribe func())
}

// indexLine shows the session index's progress while a command waits for it: one line on stderr, rewritten in
// place and cleared when the wait ends. Only on a terminal (a log or a pipe gets nothing), and never on stdout.
type indexLine struct {
	w     io.Writer // the raw stderr: the line's own \r and erase are the only control bytes written
	shown bool
}

// watchIndex shows the index's progress from env.Index until the returned stop is called (once or more); stop
// shows the updates still waiting (a short wait's only ones) and clears the line.
func watchIndex(env Env, stderr io.Writer) (stop func()) {
	if !env.StderrIsTTY || env.Index == nil {
		return func() {}
	}
	updates, unsubscribe := env.Index.SubscribeIndex()
	line := &indexLine{w: stderr}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case u := <-updates:
				line.show(u)
			case <-quit:
				return
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { stopWatching(quit, done, unsubscribe, updates, line) }) }
}

func stopWatching(quit, done chan struct{}, unsubscribe func(), updates <-chan IndexProgress, line *indexLine) {
	close(quit)
	<-done
	unsubscribe()
	for {
		select {
		case u := <-updates:
			line.show(u)
		default:
			line.clear()
			return
		}
	}
}

func (l *indexLine) show(u IndexProgress) {
	text := indexLineText(u)
	if text == "" {
		l.clear()
		return
	}
	fmt.Fprintf(l.w, "\r\x1b[K%s", text)
	l.shown = true
}

func (l *indexLine) clear() {
	if l.shown {
		fmt.Fprint(l.w, "\r\x1b[K")
		l.shown = false
	}
}

// indexLineText is "Indexing transcripts: 40 % (48 MB of 120 MB)" while the index builds, "" otherwise.
func indexLineText(s IndexProgress) string {
	if !s.Active {
		return ""
	}
	verb := "Indexing transcripts"
	if s.Rebuilding {
		verb = "Rebuilding the transcript index"
	}
	if s.BytesTotal <= 0 {
		return verb + "…"
	}
	pct := min(max(s.BytesDone*100/s.BytesTotal, 0), 100)
	return fmt.Sprintf("%s: %d %% (%s of %s)", verb, pct, sizeText(s.BytesDone), sizeText(s.BytesTotal))
}

// sizeText is a size in whole megabytes, or kilobytes below one.
func sizeText(n int64) string {
	if n < 1e6 {
		return fmt.Sprintf("%d kB", (n+999)/1000)
	}
	return fmt.Sprintf("%d MB", (n+5e5)/1e6)
}
