//go:build unix

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

var (
	uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	// API message and tool-use ids: a reply stored twice under one message id is one reply to the mapper.
	apiIDRe = regexp.MustCompile(`\b(msg|toolu|req)_([A-Za-z0-9]+)`)
)

// chain writes a transcript of about size bytes for session by repeating source's lines: each copy's uuids are
// made its own (the first 8 hex digits are the copy's number, and API message and tool ids carry it), the session
// id is session's, and each copy's first
// line continues from the copy before it, so the whole file is one conversation.
func chain(source, dest, session string, size int64) (int64, error) {
	data, err := os.ReadFile(source)
	if err != nil {
		return 0, fmt.Errorf("read the source transcript: %w", err)
	}
	var lines [][]byte
	var sourceSession string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	if m := regexp.MustCompile(`"sessionId":"([^"]+)"`).FindSubmatch(data); m != nil {
		sourceSession = string(m[1])
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o700); err != nil {
		return 0, err
	}
	f, err := os.Create(dest)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var written int64
	lastUUID := ""
	uuidKey := regexp.MustCompile(`"uuid":"([^"]+)"`)
	for copyN := 0; written < size; copyN++ {
		linked := false
		for _, line := range lines {
			out := uuidRe.ReplaceAllFunc(line, func(u []byte) []byte {
				if string(u) == sourceSession {
					return []byte(session)
				}
				return append([]byte(fmt.Sprintf("%08x", copyN)), u[8:]...)
			})
			out = apiIDRe.ReplaceAll(out, []byte(fmt.Sprintf("${1}_c%d${2}", copyN)))
			m := uuidKey.FindSubmatch(out)
			// The copy's first entry of the conversation continues from the copy before it.
			if !linked && m != nil && lastUUID != "" && bytes.Contains(out, []byte(`"parentUuid":null`)) {
				out = bytes.Replace(out, []byte(`"parentUuid":null`), []byte(`"parentUuid":"`+lastUUID+`"`), 1)
				linked = true
			}
			if m != nil {
				lastUUID = string(m[1])
			}
			n, _ := w.Write(append(out, '\n'))
			written += int64(n)
		}
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	return written, f.Close()
}

// smallSession writes a short transcript (the source's first lines) for session.
func smallSession(source, dest, session string, lines int) error {
	data, err := os.ReadFile(source)
	if err != nil {
		return err
	}
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() && len(out) < lines {
		out = append(out, append([]byte(nil), sc.Bytes()...))
	}
	src := ""
	if m := regexp.MustCompile(`"sessionId":"([^"]+)"`).FindSubmatch(data); m != nil {
		src = string(m[1])
	}
	joined := bytes.ReplaceAll(bytes.Join(out, []byte("\n")), []byte(src), []byte(session))
	if err := os.MkdirAll(filepath.Dir(dest), 0o700); err != nil {
		return err
	}
	return os.WriteFile(dest, append(joined, '\n'), 0o600)
}
