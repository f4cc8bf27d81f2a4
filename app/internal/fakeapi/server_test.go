package fakeapi

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testTimeout = 30 * time.Second

func startServer(t *testing.T, script Script, opts Options) *Server {
	t.Helper()
	srv, err := StartWith(script, opts)
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

func messagesBody(stream bool, userText string) string {
	b, _ := json.Marshal(map[string]any{
		"model": "claude-test", "stream": stream, "max_tokens": 100,
		"messages": []map[string]any{{"role": "user", "content": userText}},
	})
	return string(b)
}

func post(t *testing.T, ctx context.Context, url, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func decodeAPIError(t *testing.T, resp *http.Response) apiError {
	t.Helper()
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	var e apiError
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&e))
	assert.Equal(t, "error", e.Type)
	return e
}

func TestServerStreamsMessages(t *testing.T) {
	srv := startServer(t, nil, Options{})
	assert.True(t, strings.HasPrefix(srv.URL(), "http://127.0.0.1:"), srv.URL())
	resp := post(t, context.Background(), srv.URL()+"/v1/messages?beta=true", messagesBody(true, "[think] hi"))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
	assert.True(t, strings.HasPrefix(resp.Header.Get("request-id"), "req_fake_"))
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)

	r := rebuild(t, parseSSE(t, body))
	assert.Equal(t, "claude-test", r.message["model"], "the model is echoed")
	assert.Equal(t, []string{ThinkingText, "You said: [think] hi"}, r.text)
	assert.Equal(t, "end_turn", r.stopReason)

	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/v1/messages?beta=true", reqs[0].Target)
	assert.Equal(t, "[think] hi", reqs[0].LastUserText())
	reqs[0].Model = "changed"
	assert.Equal(t, "claude-test", srv.Requests()[0].Model, "Requests returns a copy")

	hits := srv.Hits()
	require.Len(t, hits, 1)
	assert.Equal(t, Hit{Method: "POST", Target: "/v1/messages?beta=true", Host: strings.TrimPrefix(srv.URL(), "http://"),
		Status: 200, Model: "claude-test", Stream: true, Messages: 1, Duration: hits[0].Duration}, hits[0])
}

func TestServerNonStreamingMessage(t *testing.T) {
	srv := startServer(t, nil, Options{})
	resp := post(t, context.Background(), srv.URL()+"/v1/messages", messagesBody(false, "probe"))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	var m struct {
		ID         string `json:"id"`
		Type       string `json:"type"`
		Role       string `json:"role"`
		Model      string `json:"model"`
		StopReason string `json:"stop_reason"`
		Content    []struct {
			Type, Text string
		} `json:"content"`
		Usage struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	assert.Equal(t, "message", m.Type)
	assert.Equal(t, "assistant", m.Role)
	assert.Equal(t, "claude-test", m.Model)
	assert.Equal(t, "end_turn", m.StopReason)
	require.Len(t, m.Content, 1)
	assert.Equal(t, "text", m.Content[0].Type)
	assert.Equal(t, "ok", m.Content[0].Text)
	assert.Equal(t, len(messagesBody(false, "probe"))/4, m.Usage.InputTokens)
	assert.Equal(t, 1, m.Usage.OutputTokens)
}

func TestServerErrorStatus(t *testing.T) {
	srv := startServer(t, nil, Options{})
	resp := post(t, context.Background(), srv.URL()+"/v1/messages", messagesBody(true, "[status 429]"))
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	e := decodeAPIError(t, resp)
	assert.Equal(t, "rate_limit_error", e.Error.Type)
	assert.Equal(t, resp.Header.Get("request-id"), e.RequestID)

	resp = post(t, context.Background(), srv.URL()+"/v1/messages", "{not json")
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Equal(t, "invalid_request_error", decodeAPIError(t, resp).Error.Type)
	assert.Len(t, srv.Requests(), 1, "an undecodable body is not recorded as a request")
}

func TestServerCountTokensAndUnknownRoutes(t *testing.T) {
	srv := startServer(t, nil, Options{})
	body := strings.Repeat("x", 400)
	resp := post(t, context.Background(), srv.URL()+"/v1/messages/count_tokens?beta=true", body)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var ct struct {
		InputTokens int `json:"input_tokens"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&ct))
	assert.Equal(t, 100, ct.InputTokens)

	for _, path := range []string{"/v1/models", "/v1/messages", "/"} {
		resp, err := http.Get(srv.URL() + path)
		require.NoError(t, err)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, path)
		e := decodeAPIError(t, resp)
		resp.Body.Close()
		assert.Equal(t, "not_found_error", e.Error.Type)
		assert.Contains(t, e.Error.Message, "GET "+path)
	}
	assert.Empty(t, srv.Requests(), "only /v1/messages requests are recorded")
	assert.Len(t, srv.Hits(), 4)
}

func TestServerAssignsUniqueToolUseIDs(t *testing.T) {
	shared := Reply{Blocks: []Block{{Type: BlockText, Text: "t"}, {Type: BlockToolUse, ToolName: "Bash"}, {Type: BlockToolUse, ToolName: "Bash"}}}
	srv := startServer(t, func(*Request) Reply { return shared }, Options{})
	seen := map[string]bool{}
	for range 2 {
		resp := post(t, context.Background(), srv.URL()+"/v1/messages", messagesBody(true, "x"))
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		r := rebuild(t, parseSSE(t, body))
		assert.Equal(t, "tool_use", r.stopReason)
		for _, b := range r.blocks[1:] {
			id := b["id"].(string)
			assert.True(t, strings.HasPrefix(id, "toolu_fake_"), id)
			assert.False(t, seen[id], "duplicate id %s", id)
			seen[id] = true
		}
	}
	assert.Len(t, seen, 4)
	assert.Empty(t, shared.Blocks[1].ID, "the script's reply is not modified")
}

func TestServerRefusesTrafficForOtherHosts(t *testing.T) {
	srv := startServer(t, nil, Options{})
	proxy, err := url.Parse(srv.URL())
	require.NoError(t, err)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	defer client.CloseIdleConnections()

	resp, err := client.Get("http://api.example.invalid/v1/messages")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)

	_, err = client.Get("https://api.example.invalid/")
	assert.Error(t, err, "CONNECT is refused")

	hits := srv.Hits()
	require.Len(t, hits, 2)
	assert.True(t, hits[0].Proxied)
	assert.Equal(t, "api.example.invalid", hits[0].Host)
	assert.True(t, hits[1].Proxied)
	assert.Equal(t, http.MethodConnect, hits[1].Method)
	assert.Empty(t, srv.Requests())
}

func TestStartRefusesNonLoopbackAddresses(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "example.com:0", "10.1.2.3:0", "127.0.0.1"} {
		_, err := StartWith(nil, Options{Addr: addr})
		assert.Error(t, err, addr)
	}
	srv := startServer(t, nil, Options{Addr: "localhost:0"})
	assert.NotEmpty(t, srv.URL())
}

// readDeltas reads SSE lines until n text deltas have arrived.
func readDeltas(t *testing.T, body io.Reader, n int) {
	t.Helper()
	sc := bufio.NewScanner(body)
	for n > 0 && sc.Scan() {
		if strings.Contains(sc.Text(), `"text_delta"`) {
			n--
		}
	}
	require.Zero(t, n, "stream ended early: %v", sc.Err())
}

// finished returns a channel that receives each Hit as its handler returns.
func finished() (chan Hit, Options) {
	ch := make(chan Hit, 8)
	return ch, Options{OnRequest: func(h Hit) { ch <- h }}
}

func waitHit(t *testing.T, ch chan Hit) Hit {
	t.Helper()
	select {
	case h := <-ch:
		return h
	case <-time.After(testTimeout):
		t.Fatal("the handler never returned")
		return Hit{}
	}
}

func TestSlowStreamStopsWhenTheClientDisconnects(t *testing.T) {
	ch, opts := finished()
	srv := startServer(t, nil, opts)
	ctx, cancel := context.WithCancel(context.Background())
	resp := post(t, ctx, srv.URL()+"/v1/messages", messagesBody(true, "[slow] take your time"))
	readDeltas(t, resp.Body, 3)
	cancel()

	h := waitHit(t, ch)
	assert.True(t, h.Aborted, "the handler gave up the stream instead of finishing it")
}

func TestCloseEndsSlowStreamsAndIsIdempotent(t *testing.T) {
	ch, opts := finished()
	srv := startServer(t, nil, opts)
	resp := post(t, context.Background(), srv.URL()+"/v1/messages", messagesBody(true, "[slow]"))
	readDeltas(t, resp.Body, 1)

	srv.Close()
	h := waitHit(t, ch) // Close waits for handlers, so the hit is already there
	assert.True(t, h.Aborted)
	srv.Close()
	_, err := http.Get(srv.URL() + "/v1/models")
	assert.Error(t, err, "nothing listens after Close")
}
