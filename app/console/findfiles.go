package console

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/baton-console/baton/app/filefind"
)

// defaultMatches is how many entries findFiles answers when the caller names no limit.
const defaultMatches = 50

// FindFiles ranks the files and folders of a session's folder against what was typed after "@". The folder's
// listing is cached (app/filefind), so each keystroke only ranks; before the first listing is in, the answer is
// what it has so far (partial), unless the caller asks for the complete one.
func (a *API) FindFiles(p FindFilesParams) (FindFilesResult, error) {
	cwd := strings.TrimSpace(p.Cwd)
	if cwd == "" || !filepath.IsAbs(cwd) {
		return FindFilesResult{}, badRequest("Name the session's folder as a full path to look for files in it.")
	}
	limit := p.Limit
	if limit <= 0 {
		limit = defaultMatches
	}
	c, cancel := ctx()
	defer cancel()
	soon := filefind.PartialAfter
	if p.Complete != nil && *p.Complete {
		soon = -1
	}
	matches, listing, err := a.files.FindSoon(c, cwd, p.Query, limit, soon)
	if errors.Is(err, os.ErrNotExist) {
		return FindFilesResult{}, notFound("The folder %s is gone; files cannot be mentioned from it.", cwd)
	}
	if err != nil {
		return FindFilesResult{}, err
	}
	out := FindFilesResult{Matches: make([]FileMatch, 0, len(matches)), Listed: len(listing.Entries),
		Truncated: listing.Truncated, Git: listing.Git, Partial: listing.Partial}
	for _, m := range matches {
		out.Matches = append(out.Matches, FileMatch{Path: m.Path, Dir: m.Dir})
	}
	return out, nil
}
