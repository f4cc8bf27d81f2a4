// Command baton-fakeapi serves the fake Messages API's default script for manual runs and for
// recording sessions. It prints its base URL as the only stdout line, logs one line per request on
// stderr, and runs until SIGINT/SIGTERM or until its stdin closes, so a parent that dies takes it along.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/rs/zerolog"

	"github.com/baton-console/baton/app/internal/fakeapi"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "loopback host:port to serve on (port 0 = any free port)")
	flag.Parse()
	log := zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr, NoColor: true, TimeFormat: "15:04:05"}).
		With().Timestamp().Logger()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *listen, os.Stdin, os.Stdout, log); err != nil {
		log.Error().Err(err).Msg("baton-fakeapi stopped")
		stop()
		os.Exit(1)
	}
}

// run serves until ctx ends (a signal) or stdin reaches EOF, printing the base URL to stdout.
func run(ctx context.Context, listen string, stdin io.Reader, stdout io.Writer, log zerolog.Logger) error {
	srv, err := fakeapi.StartWith(fakeapi.DefaultScript(), fakeapi.Options{
		Addr: listen,
		OnRequest: func(h fakeapi.Hit) {
			ev := log.Info()
			if h.Status >= 400 || h.Proxied {
				ev = log.Warn()
			}
			ev.Str("method", h.Method).Str("target", h.Target).Int("status", h.Status).
				Str("model", h.Model).Bool("stream", h.Stream).Int("messages", h.Messages).
				Bool("aborted", h.Aborted).Bool("proxied", h.Proxied).Dur("took", h.Duration).Msg("request")
		},
	})
	if err != nil {
		return err
	}
	defer srv.Close()

	// os.Stdout is unbuffered: the line is out once Fprintln returns, which is what a parent waits for.
	if _, err := fmt.Fprintln(stdout, srv.URL()); err != nil {
		return fmt.Errorf("print the base URL: %w", err)
	}
	log.Info().Str("url", srv.URL()).Msg("serving the default script; close stdin or send SIGINT/SIGTERM to stop")

	stdinClosed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, stdin) // returns at EOF or on a read error: either way the parent is gone
		close(stdinClosed)
	}()
	select {
	case <-ctx.Done():
		log.Info().Msg("signal received, stopping")
	case <-stdinClosed:
		log.Info().Msg("stdin closed, stopping")
	}
	return nil
}
