package gitwork

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// LineKind is what a diff line is.
type LineKind string

// The kinds of a hunk's lines.
const (
	Context LineKind = "context"
	Add     LineKind = "added"
	Delete  LineKind = "deleted"
)

// Line is one line of a hunk; Old and New are its line numbers on each side (0 on the side it is not on).
type Line struct {
	Kind      LineKind `json:"kind"`
	Text      string   `json:"text"`
	Old       int      `json:"old,omitempty"`
	New       int      `json:"new,omitempty"`
	NoNewline bool     `json:"noNewline,omitempty"` // the file ends here without a newline
}

// Hunk is one "@@ -a,b +c,d @@" block.
type Hunk struct {
	OldStart int    `json:"oldStart"`
	OldLines int    `json:"oldLines"`
	NewStart int    `json:"newStart"`
	NewLines int    `json:"newLines"`
	Section  string `json:"section,omitempty"` // the function or heading git names after the @@
	Lines    []Line `json:"lines"`
}

// FileDiff is one file's diff against the target's base.
type FileDiff struct {
	Path      string `json:"path"`
	OldPath   string `json:"oldPath,omitempty"`
	Binary    bool   `json:"binary,omitempty"`
	Hunks     []Hunk `json:"hunks"`
	Truncated bool   `json:"truncated,omitempty"` // cut at the line bound; the file is larger than is shown
}

// DefaultMaxLines bounds a diff read for display: a huge generated file must not stall the reader.
const DefaultMaxLines = 20_000

// DiffRequest names a file (and its old path when renamed) and bounds what is read.
type DiffRequest struct {
	Path     string
	OldPath  string
	MaxLines int // 0: DefaultMaxLines
}

// Diff reads one file's diff against the target's base, as the folder is now (untracked files included).
func Diff(ctx context.Context, t Target, r DiffRequest) (FileDiff, error) {
	v, cleanup, err := open(ctx, t)
	if err != nil {
		return FileDiff{}, err
	}
	defer cleanup()
	d, _, err := v.diff(ctx, r)
	return d, err
}

// diff reads the file's diff and also returns its header lines (diff --git … +++), for a patch of one hunk.
func (v view) diff(ctx context.Context, r DiffRequest) (FileDiff, []string, error) {
	max := r.MaxLines
	if max <= 0 {
		max = DefaultMaxLines
	}
	args := []string{"diff", "-M", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", v.base, "--", r.Path}
	if r.OldPath != "" {
		args = append(args, r.OldPath)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops git when the bound cut the read short
	cmd, err := v.g.command(ctx, args...)
	if err != nil {
		return FileDiff{}, nil, err
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		return FileDiff{}, nil, err
	}
	if err := cmd.Start(); err != nil {
		return FileDiff{}, nil, err
	}
	d, header, perr := parseDiff(out, max)
	d.Path, d.OldPath = r.Path, r.OldPath
	if d.Truncated {
		cancel()
		_ = cmd.Wait()
		return d, header, perr
	}
	if err := cmd.Wait(); err != nil {
		return d, header, &GitError{Args: args, Stderr: errb.String(), Err: err}
	}
	return d, header, perr
}

// maxDiffBytes bounds the bytes read for one file's diff, whatever its line count (one minified line can be huge).
const maxDiffBytes = 16 << 20

// parseDiff reads a unified diff of one file, at most max hunk lines and maxDiffBytes.
func parseDiff(r io.Reader, max int) (FileDiff, []string, error) {
	limited := &io.LimitedReader{R: r, N: maxDiffBytes}
	br := bufio.NewReaderSize(limited, 64<<10)
	var d FileDiff
	var header []string
	var h *Hunk
	oldNo, newNo, count := 0, 0, 0
	for {
		raw, err := br.ReadString('\n')
		if limited.N == 0 && !strings.HasSuffix(raw, "\n") {
			d.Truncated = true // the bound cut this line: show what came before it
			return d, header, nil
		}
		if raw == "" && err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return d, header, err
		}
		line := strings.TrimSuffix(raw, "\n")
		switch {
		case strings.HasPrefix(line, "@@ "):
			hk, ok := parseHunkHeader(line)
			if !ok {
				return d, header, fmt.Errorf("unreadable hunk header %q", line)
			}
			d.Hunks = append(d.Hunks, hk)
			h = &d.Hunks[len(d.Hunks)-1]
			oldNo, newNo = hk.OldStart, hk.NewStart
		case h == nil:
			header = append(header, line)
			if strings.HasPrefix(line, "Binary files ") || line == "GIT binary patch" {
				d.Binary = true
			}
		case strings.HasPrefix(line, `\`):
			if n := len(h.Lines); n > 0 {
				h.Lines[n-1].NoNewline = true
			}
		default:
			if count >= max {
				d.Truncated = true
				return d, header, nil
			}
			count++
			h.Lines = append(h.Lines, hunkLine(line, &oldNo, &newNo))
		}
	}
}

func hunkLine(line string, oldNo, newNo *int) Line {
	text := ""
	if len(line) > 0 {
		text = line[1:]
	}
	switch {
	case strings.HasPrefix(line, "+"):
		*newNo++
		return Line{Kind: Add, Text: text, New: *newNo - 1}
	case strings.HasPrefix(line, "-"):
		*oldNo++
		return Line{Kind: Delete, Text: text, Old: *oldNo - 1}
	default:
		*oldNo++
		*newNo++
		return Line{Kind: Context, Text: text, Old: *oldNo - 1, New: *newNo - 1}
	}
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@ section".
func parseHunkHeader(line string) (Hunk, bool) {
	rest := strings.TrimPrefix(line, "@@ ")
	ranges, section, ok := strings.Cut(rest, " @@")
	if !ok {
		return Hunk{}, false
	}
	oldR, newR, ok := strings.Cut(ranges, " ")
	if !ok || !strings.HasPrefix(oldR, "-") || !strings.HasPrefix(newR, "+") {
		return Hunk{}, false
	}
	var h Hunk
	var ok1, ok2 bool
	h.OldStart, h.OldLines, ok1 = parseRange(oldR[1:])
	h.NewStart, h.NewLines, ok2 = parseRange(newR[1:])
	h.Section = strings.TrimSpace(section)
	return h, ok1 && ok2
}

func parseRange(s string) (start, lines int, ok bool) {
	a, b, hasCount := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, false
	}
	lines = 1
	if hasCount {
		if lines, err = strconv.Atoi(b); err != nil {
			return 0, 0, false
		}
	}
	return start, lines, true
}
