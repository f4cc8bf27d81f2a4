package serve

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/baton-console/baton/app/console"
)

// hostGuard knows the Host names that mean this server. A page on another site can point its own name at
// 127.0.0.1 (DNS rebinding) and then reach this port as its own origin; its requests still carry that name in
// Host, so refusing names we do not answer to closes that door before the token is even looked at.
type hostGuard struct {
	port  string
	names map[string]bool // lower-case names and canonical IP literals
	// anyIP: bound to every interface (--listen :PORT or 0.0.0.0), so any IP literal may name this machine.
	// An IP literal cannot be rebound: only a DNS name can be pointed somewhere else.
	anyIP bool
}

func newHostGuard(listen string, bound *net.TCPAddr) hostGuard {
	g := hostGuard{port: strconv.Itoa(bound.Port), names: map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}}
	if host, _, err := net.SplitHostPort(listen); err == nil && host != "" {
		g.names[canonicalHost(host)] = true
	}
	g.names[bound.IP.String()] = true
	g.anyIP = bound.IP.IsUnspecified()
	return g
}

// allows says whether a request's Host header names this server, port included.
func (g hostGuard) allows(hostHeader string) bool {
	host, port, err := net.SplitHostPort(hostHeader)
	if err != nil {
		// No port: a browser leaves it out only for HTTP's default port.
		host, port = strings.TrimSuffix(strings.TrimPrefix(hostHeader, "["), "]"), "80"
	}
	if port != g.port || host == "" {
		return false
	}
	host = canonicalHost(host)
	if g.names[host] {
		return true
	}
	return g.anyIP && net.ParseIP(host) != nil
}

// canonicalHost lower-cases a name and writes an IP literal one way (::1, not 0:0:0:0:0:0:0:1).
func canonicalHost(host string) string {
	if ip := net.ParseIP(host); ip != nil {
		return ip.String()
	}
	return strings.ToLower(host)
}

// guard wraps every route: the security headers (and a stale token cookie's expiry) on every response, then
// the Host check.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", pagePolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		expireStaleCookie(w, r)
		if !s.hosts.allows(r.Host) {
			h.Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusMisdirectedRequest)
			_, _ = io.WriteString(w, "Baton: this server answers only to the address `baton serve` printed; open that address.\n")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin says whether a WebSocket handshake comes from a page this server served: its Origin is the
// (already checked) Host it was sent to. Another site open in the same browser must not drive sessions here.
func sameOrigin(r *http.Request) bool {
	return r.Header.Get("Origin") == "http://"+r.Host
}

// pagePolicy is the console's policy (shared with the window's meta tag) plus what only a header can say.
const pagePolicy = console.ContentSecurityPolicy + "; frame-ancestors 'none'"

var styleBlock = regexp.MustCompile(`(?s)<style>(.*?)</style>`)

// placeholderPolicy is pagePolicy for the page shown when Baton was built without its console: that page
// styles itself inline, so its one style block is allowed by hash rather than allowing inline styles.
func placeholderPolicy(page []byte) string {
	m := styleBlock.FindSubmatch(page)
	if m == nil {
		return pagePolicy
	}
	sum := sha256.Sum256(m[1])
	hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	return strings.Replace(pagePolicy, "style-src 'self'", "style-src "+hash, 1)
}
