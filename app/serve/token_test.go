package serve_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/internal/testenv/consolews"
	"github.com/stretchr/testify/require"
)

// tokenOf reads the token out of the printed address's fragment.
func tokenOf(url string) string { return url[strings.Index(url, "#token=")+len("#token="):] }

// dialWS opens /ws as the console does: its own Origin, the token offered as a subprotocol beside "baton".
var dialWS = consolews.Dial

// send makes one request to the server's own address; header may be nil.
func send(t *testing.T, b *bare, method, path string, header http.Header) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, "http://"+b.srv.Addr().String()+path, nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestThePrintedAddressCarriesTheTokenInItsFragmentOnly(t *testing.T) {
	b := startBare(t, "127.0.0.1:0", testAssets)
	require.Regexp(t, `^http://127\.0\.0\.1:\d+/#token=[0-9a-f]{64}$`, b.srv.URL(),
		"a fragment never reaches a server, so no other port can read the token from a request")
}

// The old cookie reached every port on 127.0.0.1 (RFC 6265 §8.5); a browser that still has one gains nothing
// by it and is told to drop it.
func TestTheOldTokenCookieIsRefusedAndExpired(t *testing.T) {
	b := startBare(t, "127.0.0.1:0", testAssets)
	cookie := http.Header{"Cookie": {"baton_token=" + b.token}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, resp, err := dialWS(ctx, b.srv.Addr().String(), "", cookie.Clone())
	if err == nil {
		conn.CloseNow()
	}
	require.Error(t, err, "a WebSocket with only the cookie must not open")
	require.NotNil(t, resp)
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	require.Equal(t, http.StatusUnauthorized, send(t, b, http.MethodGet, "/api/access", cookie).StatusCode)

	page := send(t, b, http.MethodGet, "/", cookie)
	require.Equal(t, http.StatusOK, page.StatusCode)
	cookies := page.Cookies()
	require.Len(t, cookies, 1)
	require.Equal(t, "baton_token", cookies[0].Name)
	require.Empty(t, cookies[0].Value, "the expiry carries no token")
	require.Negative(t, cookies[0].MaxAge, "the browser is told to drop it")
}

func TestTheTokenIsAcceptedOnlyAsPresentedByThePage(t *testing.T) {
	b := startBare(t, "127.0.0.1:0", testAssets)
	addr := b.srv.Addr().String()
	bearer := func(token string) http.Header { return http.Header{"Authorization": {"Bearer " + token}} }
	require.Equal(t, http.StatusNoContent, send(t, b, http.MethodGet, "/api/access", bearer(b.token)).StatusCode)
	require.Equal(t, http.StatusUnauthorized, send(t, b, http.MethodGet, "/api/access", bearer(b.token[1:])).StatusCode)
	require.Equal(t, http.StatusUnauthorized, send(t, b, http.MethodGet, "/api/access", nil).StatusCode)
	require.Equal(t, http.StatusUnauthorized, send(t, b, http.MethodGet, "/api/access?token="+b.token, nil).StatusCode,
		"the query is never read: it would sit in history and logs")
	require.Equal(t, http.StatusNotFound, send(t, b, http.MethodGet, "/api/other", bearer(b.token)).StatusCode)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, resp, err := dialWS(ctx, addr, b.token, nil)
	require.NoError(t, err)
	defer conn.CloseNow()
	require.Equal(t, "baton", conn.Subprotocol(), "the answer names baton, never the token")
	require.NotContains(t, resp.Header.Get("Sec-WebSocket-Protocol"), b.token)
	_, e := callOnce(t, conn, "capabilities")
	require.Nil(t, e)

	_, resp, err = dialWS(ctx, addr, strings.Repeat("0", 64), nil)
	require.Error(t, err)
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	_, resp, err = dialWS(ctx, addr, "", nil)
	require.Error(t, err)
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}

func TestNoResponseSetsACookie(t *testing.T) {
	b := startBare(t, "127.0.0.1:0", testAssets)
	bearer := http.Header{"Authorization": {"Bearer " + b.token}}
	for _, path := range []string{"/", "/index.html", "/assets/app.js", "/assets/", "/nope", "/api/access", "/ws"} {
		for _, h := range []http.Header{nil, bearer} {
			resp := send(t, b, http.MethodGet, path, h)
			require.Empty(t, resp.Header.Values("Set-Cookie"), "%s (token: %v)", path, h != nil)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, resp, err := dialWS(ctx, b.srv.Addr().String(), b.token, nil)
	require.NoError(t, err)
	defer conn.CloseNow()
	require.Empty(t, resp.Header.Values("Set-Cookie"), "the WebSocket handshake")
}

// The console's files hold nothing secret, so they load without the token; a folder is not listed.
func TestStaticFilesLoadWithoutTheTokenAndFoldersAreNotListed(t *testing.T) {
	b := startBare(t, "127.0.0.1:0", testAssets)
	require.Equal(t, http.StatusOK, send(t, b, http.MethodGet, "/", nil).StatusCode)
	require.Equal(t, http.StatusOK, send(t, b, http.MethodGet, "/assets/app.js", nil).StatusCode)
	for _, path := range []string{"/assets/", "/assets", "/assets/./", "//assets/", "/assets%2F"} {
		resp := send(t, b, http.MethodGet, path, nil)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.NotContains(t, string(body), "app.js", "%s lists the folder", path)
		require.Equal(t, http.StatusNotFound, resp.StatusCode, path)
	}
}
