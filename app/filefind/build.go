package filefind

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"sort"
	"strings"
	"sync"
)

// builder gathers a listing's entries as git's output arrives, so that a listing still being made can answer an
// "@" typed meanwhile (issue 28's goal: first results ≤ 100 ms after "@", also before the first listing of a big
// repository is in). Entries are only ever appended, so a snapshot taken earlier stays valid while more come.
type builder struct {
	mu        sync.Mutex
	seen      map[string]bool
	entries   []Entry
	truncated bool
	begun     chan struct{} // closed once there is an entry
}

func newBuilder() *builder {
	return &builder{seen: make(map[string]bool), begun: make(chan struct{})}
}

// add takes files (paths relative to the root, "/" separated) and every folder above them.
func (b *builder) add(files []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, f := range files {
		if f == "" || b.seen[f] { // a conflicted file is listed once per stage
			continue
		}
		if len(b.entries) >= MaxEntries {
			b.truncated = true
			return
		}
		b.seen[f] = true
		for i := strings.LastIndexByte(f, '/'); i > 0; i = strings.LastIndexByte(f[:i], '/') {
			dir := f[:i]
			if b.seen[dir] {
				break
			}
			b.seen[dir] = true
			b.entries = append(b.entries, newEntry(dir, true))
		}
		b.entries = append(b.entries, newEntry(f, false))
	}
	if len(b.entries) > 0 && !b.hasBegun() {
		close(b.begun)
	}
}

func (b *builder) hasBegun() bool {
	select {
	case <-b.begun:
		return true
	default:
		return false
	}
}

// reset forgets what was added (snapshots taken stay as they were).
func (b *builder) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seen, b.entries, b.truncated = make(map[string]bool), nil, false
}

// release lets go of the entries and what was seen, once the whole listing is in (finish made its own copy).
func (b *builder) release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seen, b.entries = nil, nil
}

// snapshot is the entries listed so far, in the order they came (not sorted).
func (b *builder) snapshot() Listing {
	b.mu.Lock()
	defer b.mu.Unlock()
	return Listing{Entries: b.entries[:len(b.entries):len(b.entries)], Truncated: b.truncated, Partial: true}
}

// finish returns the whole listing, shallow entries first. It sorts a copy: earlier snapshots may still be read.
func (b *builder) finish() Listing {
	b.mu.Lock()
	entries := append([]Entry(nil), b.entries...)
	truncated := b.truncated
	b.mu.Unlock()
	if len(entries) > MaxEntries {
		entries, truncated = entries[:MaxEntries], true
	}
	sort.SliceStable(entries, func(i, j int) bool {
		if entries[i].depth != entries[j].depth {
			return entries[i].depth < entries[j].depth
		}
		return entries[i].Path < entries[j].Path
	})
	return Listing{Entries: entries, Truncated: truncated}
}

// gitInto feeds b git's view of root as it arrives: the tracked files (`git ls-files --cached`, quick: git reads
// its index) and the untracked ones not ignored (`--others`, slower: git walks the tree) from two gits, since one
// git asked for both prints nothing until its walk ends. The walk starts once the tracked files begin to come
// (or their git ended): on two busy cores it would otherwise hold up the index read, and the first answer with it.
// ok is false outside a work tree or where git cannot run.
func gitInto(ctx context.Context, root string, b *builder) bool {
	git, err := exec.LookPath("git")
	if err != nil {
		return false
	}
	ls := func(which string) bool {
		return streamGit(ctx, git, root, b, "-c", "core.quotePath=false", "ls-files", "-z", which, "--exclude-standard")
	}
	cached := make(chan bool, 1)
	go func() { cached <- ls("--cached") }()
	select {
	case <-b.begun:
	case ok := <-cached:
		if !ok {
			return false // not a work tree: no walk to start
		}
		cached <- ok
	}
	others := ls("--others")
	return <-cached && others
}

// streamGit runs git with args in root and adds each path it prints to b as soon as it is read.
func streamGit(ctx context.Context, git, root string, b *builder, args ...string) bool {
	cmd := exec.CommandContext(ctx, git, args...)
	cmd.Dir = root
	out, err := cmd.StdoutPipe()
	if err != nil || cmd.Start() != nil {
		return false
	}
	readErr := readPaths(out, b)
	return cmd.Wait() == nil && readErr == nil
}

// readPaths adds the NUL-separated paths of r to b, each read's whole paths at once (so what has arrived is
// there to answer from, whether or not more is coming).
func readPaths(r io.Reader, b *builder) error {
	buf := make([]byte, 64<<10)
	var rest []byte
	for {
		n, err := r.Read(buf)
		if n > 0 {
			data := append(rest, buf[:n]...)
			if i := bytes.LastIndexByte(data, 0); i >= 0 {
				b.add(strings.Split(string(data[:i]), "\x00"))
				data = data[i+1:]
			}
			rest = append([]byte(nil), data...)
		}
		if err == io.EOF {
			if len(rest) > 0 {
				b.add([]string{string(rest)})
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
}
