//go:build !headless

package app

import (
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
	services := startHostServices(log)
	defer services.close()
	m := newManagerWith(services.resolver, log)
	defer shutdown(m)
	if w := watchSessions(services.host, m, log); w != nil {
		defer w.Close()
	}
	err := desktop.Run(desktop.Options{Assets: assets, Version: Version, Logger: log, Sessions: m, Host: services.host,
		SignIn: services.signIn, RetryProvision: services.retryProvision, ListModels: services.listModels,
		Meta: openSessionMeta(log)})
	if err != nil {
		fmt.Fprintf(os.Stderr, "baton: %v\n", err)
		return cli.ExitFailure
	}
	return cli.ExitOK
}
