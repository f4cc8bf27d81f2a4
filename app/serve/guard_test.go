package serve_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/serve"
	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// bare is browser mode without a sidecar: enough for what the transport itself decides (Host, headers,
// WebSocket limits). Starting a session fails at once.
type bare struct {
	srv   *serve.Server
	token string
}

func startBare(t *testing.T, listen string, assets fs.FS) *bare {
	t.Helper()
	m := session.NewManager(session.Config{SidecarPath: "/nonexistent/baton-sidecar", Logger: zerolog.Nop()})
	api := console.New(console.Options{Sessions: m, Transport: "websocket", Version: "test", Logger: zerolog.Nop()})
	srv, err := serve.Listen(serve.Options{Listen: listen, Assets: assets, API: api, Sessions: m, Logger: zerolog.Nop()})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.Serve(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		<-done
		console.Release(api)
	})
	return &bare{srv: srv, token: tokenOf(srv.URL())}
}

func (b *bare) port() string {
	return b.srv.Addr().String()[strings.LastIndex(b.srv.Addr().String(), ":")+1:]
}

// get sends a GET to the server's real address with the given Host header (and the token as the page's HTTP
// calls present it, unless empty).
func (b *bare) get(t *testing.T, path, host, token string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "http://"+b.srv.Addr().String()+path, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if host != "" {
		req.Host = host
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

var testAssets = fstest.MapFS{
	"frontend/dist/index.html":     {Data: []byte("<!doctype html><title>Baton</title><script type=module src=./assets/app.js></script>")},
	"frontend/dist/assets/app.js":  {Data: []byte("console.log('baton')")},
	"frontend/dist/assets/app.css": {Data: []byte("body{}")},
}

// DNS rebinding: a page whose own name resolves to 127.0.0.1 reaches this port, but says its name in Host.
func TestRequestsForAnotherHostAreRefused(t *testing.T) {
	b := startBare(t, "127.0.0.1:0", testAssets)
	port := b.port()
	refused := []string{
		"evil.example:" + port,
		"evil.example",
		"localhost.evil.example:" + port,
		"127.0.0.1.evil.example:" + port,
		"127.0.0.1:1" + port, // another port
		"localhost",          // no port: port 80
		"127.0.0.2:" + port,
	}
	for _, host := range refused {
		for _, path := range []string{"/", "/ws", "/api/access", "/assets/app.js"} {
			resp := b.get(t, path, host, b.token)
			require.Equal(t, http.StatusMisdirectedRequest, resp.StatusCode, "Host %q %s", host, path)
			require.Empty(t, resp.Cookies(), "no token cookie for Host %q", host)
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			require.NotContains(t, string(body), "<script", "the refusal serves no page")
		}
		require.Equal(t, http.StatusMisdirectedRequest, b.get(t, "/api/access", host, "").StatusCode, "refused before the token check: %q", host)
	}
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LOCALHOST:" + port, "[::1]:" + port, "[0:0:0:0:0:0:0:1]:" + port} {
		require.Equal(t, http.StatusOK, b.get(t, "/", host, "").StatusCode, "Host %q", host)
		require.Equal(t, http.StatusNoContent, b.get(t, "/api/access", host, b.token).StatusCode, "Host %q", host)
		require.Equal(t, http.StatusUnauthorized, b.get(t, "/api/access", host, "").StatusCode, "Host %q still needs the token", host)
	}
}

// A name given to --listen is the name the person will type.
func TestTheListenNameIsAccepted(t *testing.T) {
	b := startBare(t, "localhost:0", testAssets)
	require.Equal(t, http.StatusNoContent, b.get(t, "/api/access", "localhost:"+b.port(), b.token).StatusCode)
	require.Equal(t, http.StatusMisdirectedRequest, b.get(t, "/api/access", "evil.example:"+b.port(), b.token).StatusCode)
}

// directives splits a policy into its directives' sources.
func directives(policy string) map[string]string {
	out := map[string]string{}
	for _, d := range strings.Split(policy, ";") {
		name, sources, _ := strings.Cut(strings.TrimSpace(d), " ")
		if name != "" {
			out[name] = sources
		}
	}
	return out
}

func requireSecurityHeaders(t *testing.T, resp *http.Response, what string) {
	t.Helper()
	csp := resp.Header.Get("Content-Security-Policy")
	got := directives(csp)
	for name, sources := range map[string]string{"default-src": "'self'", "script-src": "'self'", "img-src": "'self' data: blob:",
		"connect-src": "'self'", "frame-src": "'none'", "object-src": "'none'", "base-uri": "'none'", "form-action": "'none'",
		"frame-ancestors": "'none'"} {
		require.Equal(t, sources, got[name], "%s: %s in %q", what, name, csp)
	}
	require.NotContains(t, csp, "unsafe-inline", what)
	require.NotContains(t, csp, "unsafe-eval", what)
	require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"), what)
	require.Equal(t, "no-referrer", resp.Header.Get("Referrer-Policy"), what)
	require.Equal(t, "DENY", resp.Header.Get("X-Frame-Options"), what)
}

func TestEveryResponseCarriesTheSecurityHeaders(t *testing.T) {
	b := startBare(t, "127.0.0.1:0", testAssets)
	host := b.srv.Addr().String()
	page := b.get(t, "/", host, b.token)
	require.Equal(t, http.StatusOK, page.StatusCode)
	requireSecurityHeaders(t, page, "the page")
	require.Equal(t, console.ContentSecurityPolicy+"; frame-ancestors 'none'", page.Header.Get("Content-Security-Policy"),
		"the header says what the window's meta tag says, plus frame-ancestors")
	requireSecurityHeaders(t, b.get(t, "/assets/app.js", host, b.token), "a script")
	requireSecurityHeaders(t, b.get(t, "/api/access", host, ""), "the token refusal")
	requireSecurityHeaders(t, b.get(t, "/", "evil.example", b.token), "the Host refusal")
	requireSecurityHeaders(t, b.get(t, "/nope", host, b.token), "a 404")
}

// Built without the console, the placeholder page styles itself inline: allowed by its hash, not by
// 'unsafe-inline'.
func TestThePlaceholderPageIsAllowedItsOwnStyleOnly(t *testing.T) {
	b := startBare(t, "127.0.0.1:0", nil)
	resp := b.get(t, "/", b.srv.Addr().String(), b.token)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindSubmatch(body)
	require.NotNil(t, style, "the placeholder page has a style block")
	sum := sha256.Sum256(style[1])
	csp := resp.Header.Get("Content-Security-Policy")
	require.Equal(t, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", directives(csp)["style-src"])
	require.NotContains(t, csp, "unsafe-inline")
	require.Equal(t, "'self'", directives(csp)["script-src"])
}
