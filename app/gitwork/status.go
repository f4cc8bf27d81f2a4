package gitwork

import (
	"context"
	"strings"
)

// Entry is one line of `git status`: the path and its two-letter code (index, worktree), e.g. "M ", "??", "UU".
type Entry struct {
	Path string `json:"path"`
	Code string `json:"code"`
}

// status lists dir's uncommitted entries; untracked says whether untracked files count.
func status(ctx context.Context, g git, untracked bool) ([]Entry, error) {
	mode := "--untracked-files=no"
	if untracked {
		mode = "--untracked-files=all"
	}
	out, err := g.run(ctx, "status", "--porcelain=v1", "-z", "--ignore-submodules=dirty", mode)
	if err != nil {
		return nil, err
	}
	f := splitZ(out)
	var entries []Entry
	for i := 0; i < len(f); i++ {
		if len(f[i]) < 4 {
			continue
		}
		e := Entry{Code: f[i][:2], Path: f[i][3:]}
		if strings.ContainsAny(e.Code, "RC") {
			i++ // the rename's or copy's old path follows
		}
		entries = append(entries, e)
	}
	return entries, nil
}

func paths(entries []Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Path
	}
	return out
}
