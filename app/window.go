//go:build !headless

package app

import (
	"context"
	"fmt"
	"io/fs"
	"os"

	"github.com/baton-console/baton/app/cli"
	"github.com/baton-console/baton/app/desktop"
	"github.com/rs/zerolog"
)

// runWindow opens the console's window in this process (a build that links the window: the default).
func runWindow(assets fs.FS, log zerolog.Logger) int {
	log.Info().Str("version", Version).Msg("window starting")
	h, err := openConsoleHost(context.Background(), log)
	if err == nil {
		defer h.Close()
		err = desktop.Run(desktop.Options{Assets: assets, Console: h.ConsoleOptions()})
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "baton: %v\n", err)
		return cli.ExitFailure
	}
	return cli.ExitOK
}
