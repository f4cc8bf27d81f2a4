package app

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"github.com/baton-console/baton/app/cli"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/serve"
	"github.com/rs/zerolog"
)

const serveUsage = "baton serve [--listen 127.0.0.1:PORT]"

// runServe is browser mode: it prints the URL (with this launch's token) as its first line and serves until
// Ctrl-C, then closes every open session.
func runServe(args []string, assets fs.FS, log zerolog.Logger) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	listen := fs.String("listen", "127.0.0.1:0", "the address to listen on (loopback unless you name another)")
	if err := fs.Parse(args); err != nil {
		return cli.ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "baton: unexpected argument %q\nusage: %s\n", fs.Arg(0), serveUsage)
		return cli.ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	h, err := openConsoleHost(ctx, log)
	if err != nil {
		fmt.Fprintf(os.Stderr, "baton: %v\n", err)
		return cli.ExitFailure
	}
	defer h.Close()
	opts := h.ConsoleOptions()
	opts.Transport = "websocket"
	api := console.New(opts)
	defer console.Release(api)
	srv, err := serve.Listen(serve.Options{Listen: *listen, Assets: assets, API: api, Sessions: h.Sessions(), Host: h.State(), Logger: log,
		Ready: func(url string) { fmt.Fprintln(os.Stdout, url) }})
	if err != nil {
		fmt.Fprintf(os.Stderr, "baton: %v\n", err)
		return cli.ExitFailure
	}
	if !srv.Loopback() {
		fmt.Fprintf(os.Stderr, "baton: warning: listening on %s, reachable from other machines; anyone with the URL can run sessions here\n", srv.Addr())
	}
	fmt.Fprintln(os.Stderr, "baton: serving the console; open the address above in a browser. Ctrl-C stops.")
	log.Info().Str("addr", srv.Addr().String()).Msg("browser mode")
	if err := srv.Serve(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "baton: %v\n", err)
		return cli.ExitFailure
	}
	return cli.ExitOK
}
