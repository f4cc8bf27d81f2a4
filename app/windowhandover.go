//go:build headless

package app

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/baton-console/baton/app/cli"
	"github.com/rs/zerolog"
)

// WindowExecutable is the build of Baton that links the window (WebKitGTK). This headless build of `baton` stays
// small and quick for the commands and `baton serve` (no GUI libraries loaded: a fraction of the memory and start
// time) and hands the window over to it.
const WindowExecutable = "baton-window"

// runWindow replaces this process with the window build beside it, with the same environment.
func runWindow(_ fs.FS, log zerolog.Logger) int {
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "baton: cannot find where baton is installed to open the window: %v\n", err)
		return cli.ExitFailure
	}
	window := filepath.Join(filepath.Dir(self), WindowExecutable)
	if _, err := os.Stat(window); err != nil {
		fmt.Fprintf(os.Stderr, "baton: the window's program %s is missing, so Baton's window cannot open; reinstall Baton "+
			"(the headless commands still work: baton --help)\n", window)
		return cli.ExitFailure
	}
	log.Info().Str("window", window).Msg("handing the window over")
	if err := handOver(window); err != nil {
		fmt.Fprintf(os.Stderr, "baton: open the window (%s): %v\n", window, err)
		return cli.ExitFailure
	}
	return cli.ExitOK
}
