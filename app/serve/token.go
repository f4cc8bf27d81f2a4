package serve

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// The per-launch token travels only where no other program on this machine can see it. Browsers share cookies
// between every port of a host (RFC 6265 §8.5), so a cookie would reach any server on 127.0.0.1; instead the
// printed address carries the token in its fragment (never sent to any server), the page keeps it in
// sessionStorage (per origin, so per port) and presents it itself: as a WebSocket subprotocol on /ws (a
// browser cannot set headers on a WebSocket) and as `Authorization: Bearer` on HTTP calls.
const (
	// wsProtocol is the subprotocol the server answers with; the client offers it beside the token.
	wsProtocol = "baton"
	// wsTokenPrefix marks the offered subprotocol that carries the token: "baton.token.<hex>".
	wsTokenPrefix = "baton.token."
	// staleCookie is where Baton once kept the token; a browser that still sends it is told to drop it.
	staleCookie = "baton_token"
)

func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := io.ReadFull(rand.Reader, b); err != nil {
		return "", fmt.Errorf("make an access token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// presented is the token a request carries: its bearer credential, or the token subprotocol of a WebSocket
// handshake. Cookies and the query are never read.
func presented(r *http.Request) string {
	if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(auth)
	}
	for _, field := range r.Header.Values("Sec-WebSocket-Protocol") {
		for _, proto := range strings.Split(field, ",") {
			if token, ok := strings.CutPrefix(strings.TrimSpace(proto), wsTokenPrefix); ok {
				return token
			}
		}
	}
	return ""
}

func (s *Server) valid(token string) bool {
	return subtle.ConstantTimeCompare([]byte(token), []byte(s.token)) == 1
}

// requireToken refuses a request that does not present this launch's token.
func (s *Server) requireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.valid(presented(r)) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, "Baton: open the address that `baton serve` printed (it carries this launch's token).\n")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// expireStaleCookie tells a browser still holding the old token cookie to forget it: it reached every port
// on this host. It is never read, and nothing else ever sets a cookie.
func expireStaleCookie(w http.ResponseWriter, r *http.Request) {
	if _, err := r.Cookie(staleCookie); err == nil {
		http.SetCookie(w, &http.Cookie{Name: staleCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
			SameSite: http.SameSiteStrictMode})
	}
}

// serveAccess answers whether the presented token is this launch's (204, else 401 from requireToken): the page
// asks when its WebSocket will not open, to tell a token from an earlier launch from a server that is down.
func serveAccess(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}
