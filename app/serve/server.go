// Package serve is browser mode: the console over HTTP and a WebSocket on loopback, guarded by a per-launch token.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
)

// Options configure the server.
type Options struct {
	Listen   string // host:port; loopback unless the person names another address
	Assets   fs.FS  // the embedded tree holding frontend/dist
	API      *console.API
	Sessions *session.Manager
	Host     *console.HostState // nil: no host state is pushed
	Logger   zerolog.Logger
	// Ready receives the URL to open (with the token) once the server listens.
	Ready func(url string)
}

// Server is a running browser-mode host.
type Server struct {
	opts   Options
	token  string
	ln     net.Listener
	http   *http.Server
	origin string
	hosts  hostGuard
}

// Listen binds the address and prepares the handlers; Serve runs them.
func Listen(opts Options) (*Server, error) {
	if opts.Listen == "" {
		opts.Listen = "127.0.0.1:0"
	}
	token, err := newToken()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen on %s (is another program using it? pick another port with --listen): %w", opts.Listen, err)
	}
	s := &Server{opts: opts, token: token, ln: ln, hosts: newHostGuard(opts.Listen, ln.Addr().(*net.TCPAddr))}
	s.origin = "http://" + ln.Addr().String()
	s.http = &http.Server{Handler: s.routes(), ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// URL is the address to open. The token rides in the fragment, which a browser never sends to any server; the
// page takes it from there (token.go).
func (s *Server) URL() string { return s.origin + "/#token=" + s.token }

// Addr is the bound address.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Loopback says whether the server is reachable only from this machine.
func (s *Server) Loopback() bool {
	addr, ok := s.ln.Addr().(*net.TCPAddr)
	return ok && addr.IP.IsLoopback()
}

// Serve runs until ctx ends, then shuts the HTTP server down.
func (s *Server) Serve(ctx context.Context) error {
	if s.opts.Ready != nil {
		s.opts.Ready(s.URL())
	}
	errc := make(chan error, 1)
	go func() { errc <- s.http.Serve(s.ln) }()
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.http.Shutdown(shutdownCtx)
		return nil
	}
}

// routes: the API (/ws, /api/access) needs the token; the console's static files hold nothing secret and are
// served without it, since the page that will present the token has to load first.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/ws", s.requireToken(http.HandlerFunc(s.serveWS)))
	mux.Handle("/api/access", s.requireToken(http.HandlerFunc(serveAccess)))
	mux.Handle("/api/", http.NotFoundHandler())
	mux.Handle("/", s.static())
	return s.guard(mux)
}

func (s *Server) static() http.Handler {
	assets, ok := console.FrontendAssets(s.opts.Assets)
	if !ok {
		policy := placeholderPolicy(console.PlaceholderPage())
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Security-Policy", policy)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(console.PlaceholderPage())
		})
	}
	files := http.FileServer(http.FS(assets))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if isFolder(assets, r.URL.Path) {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
}

// isFolder says whether a path names a folder other than the root (whose index.html is the page): the file
// server would list it.
func isFolder(assets fs.FS, urlPath string) bool {
	name := strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	if name == "" {
		return false
	}
	info, err := fs.Stat(assets, name)
	return err == nil && info.IsDir()
}
