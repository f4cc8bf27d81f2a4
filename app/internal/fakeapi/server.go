// Package fakeapi is a scripted stand-in for the Anthropic Messages API on 127.0.0.1, complete enough
// for the real claude CLI to run turns against it: POST /v1/messages (SSE streaming or a plain JSON
// message), POST /v1/messages/count_tokens, and a JSON 404 for anything else. A Script decides every
// reply; DefaultScript answers from markers such as [think] or [write PATH TEXT] in the last user message.
package fakeapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// maxBody bounds a request body; real conversations in tests stay far below it.
const maxBody = 64 << 20

// Script decides the reply to one /v1/messages request. It may be called concurrently.
type Script func(req *Request) Reply

// Options tune StartWith. The zero value is what Start uses.
type Options struct {
	// Addr is the loopback address to listen on; "" means 127.0.0.1:0 (a free port).
	// Anything but a loopback IP or "localhost" is refused.
	Addr string
	// OnRequest, if set, is called after every request has been answered (from the handler goroutine).
	OnRequest func(Hit)
}

// Hit summarises one HTTP request the server received, of any path.
type Hit struct {
	Method   string
	Target   string // the request target as sent, e.g. "/v1/messages?beta=true"
	Host     string // the Host header
	Status   int
	Proxied  bool // CONNECT, an absolute URL or a foreign Host: traffic meant for another host, refused
	Model    string
	Stream   bool
	Messages int           // conversation length, for /v1/messages
	Aborted  bool          // the stream was cut short (client gone or server closing)
	Duration time.Duration // until the handler returned
}

// Server is a running fake Messages API.
type Server struct {
	script  Script
	opts    Options
	ln      net.Listener
	srv     *http.Server
	cancel  context.CancelFunc
	served  chan struct{}
	closing sync.Once

	seq atomic.Int64 // ids for messages, requests and tool uses

	mu   sync.Mutex
	reqs []Request
	hits []Hit
}

// Start serves script (nil means DefaultScript) on 127.0.0.1 at a free port.
func Start(script Script) (*Server, error) {
	return StartWith(script, Options{})
}

// StartWith is Start with options.
func StartWith(script Script, opts Options) (*Server, error) {
	if script == nil {
		script = DefaultScript()
	}
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if err := CheckLoopback(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("fake Messages API: listen on %s: %w", addr, err)
	}
	base, cancel := context.WithCancel(context.Background())
	s := &Server{script: script, opts: opts, ln: ln, cancel: cancel, served: make(chan struct{})}
	s.srv = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		// Every request context derives from base, so Close can stop slow streams at once.
		BaseContext: func(net.Listener) context.Context { return base },
	}
	go func() {
		defer close(s.served)
		_ = s.srv.Serve(ln) // returns ErrServerClosed after Close
	}()
	return s, nil
}

// CheckLoopback returns an error unless addr ("host:port") names a loopback address.
func CheckLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q is not host:port: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("listen address %q is not a loopback address; the fake API serves this machine only (use 127.0.0.1:PORT)", addr)
}

// URL is the base URL for ANTHROPIC_BASE_URL, e.g. "http://127.0.0.1:41234".
func (s *Server) URL() string {
	return "http://" + s.ln.Addr().String()
}

// Close stops the server: streams in progress end at once, and Close returns after every handler
// has. It is safe to call more than once.
func (s *Server) Close() {
	s.closing.Do(func() {
		s.cancel()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.srv.Shutdown(ctx); err != nil {
			_ = s.srv.Close()
		}
		<-s.served
	})
}

// Requests returns every decoded /v1/messages request received so far, in order. The slice is a
// copy; the Requests in it share their (read-only) contents with the server.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Hits returns a summary of every HTTP request received so far, in order (a copy).
func (s *Server) Hits() []Hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Hit(nil), s.hits...)
}

// ServeHTTP routes one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	started := time.Now()
	rec := &statusRecorder{ResponseWriter: w}
	hit := Hit{Method: r.Method, Target: r.RequestURI, Host: r.Host}
	hit.Proxied = r.Method == http.MethodConnect || r.URL.IsAbs() || !s.ownHost(r.Host)
	switch {
	case hit.Proxied:
		writeError(rec, Reply{Status: http.StatusBadGateway, ErrorType: "api_error",
			ErrorMessage: "fakeapi refuses traffic meant for another host (" + r.Host + ")"}, "")
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.serveMessages(rec, r, &hit)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		s.serveCountTokens(rec, r)
	default:
		writeError(rec, Reply{Status: http.StatusNotFound, ErrorType: "not_found_error",
			ErrorMessage: "fakeapi has no route for " + r.Method + " " + r.URL.Path}, "")
	}
	hit.Status = rec.status()
	hit.Duration = time.Since(started)
	s.mu.Lock()
	s.hits = append(s.hits, hit)
	s.mu.Unlock()
	if s.opts.OnRequest != nil {
		s.opts.OnRequest(hit)
	}
}

// ownHost tells whether a Host header names this server (and not a host reached through us as a proxy).
func (s *Server) ownHost(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	_, myPort, _ := net.SplitHostPort(s.ln.Addr().String())
	if port != myPort {
		return false
	}
	ip := net.ParseIP(host)
	return host == "localhost" || (ip != nil && ip.IsLoopback())
}

func (s *Server) serveMessages(w http.ResponseWriter, r *http.Request, hit *Hit) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, Reply{Status: http.StatusBadRequest, ErrorMessage: "fakeapi could not read the body: " + err.Error()}, "")
		return
	}
	req, err := DecodeRequest(body, r.RequestURI, r.Header.Get("anthropic-beta"))
	if err != nil {
		writeError(w, Reply{Status: http.StatusBadRequest, ErrorMessage: "fakeapi: " + err.Error()}, "")
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, *req)
	s.mu.Unlock()
	hit.Model, hit.Stream, hit.Messages = req.Model, req.Stream, len(req.Messages)

	reply := s.withIDs(s.script(req))
	if reply.Withhold {
		<-r.Context().Done()
		hit.Aborted = true
		return
	}
	if reply.HoldStart != nil && waitCtx(r.Context(), reply.HoldStart) != nil {
		hit.Aborted = true
		return
	}
	requestID := fmt.Sprintf("req_fake_%d", s.seq.Add(1))
	for name, values := range reply.Headers {
		w.Header()[http.CanonicalHeaderKey(name)] = values
	}
	w.Header().Set("request-id", requestID)
	if reply.isError() {
		writeError(w, reply, requestID)
		return
	}
	msgID := fmt.Sprintf("msg_fake_%d", s.seq.Add(1))
	inputTokens := max(1, len(body)/4)
	if !req.Stream {
		writeJSON(w, http.StatusOK, jsonMessage(reply, msgID, req.Model, inputTokens))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if err := streamReply(r.Context(), sseWriter{w: w, flush: rc.Flush}, reply, msgID, req.Model, inputTokens); err != nil {
		hit.Aborted = true
	}
}

func (s *Server) serveCountTokens(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, Reply{Status: http.StatusBadRequest, ErrorMessage: "fakeapi could not read the body: " + err.Error()}, "")
		return
	}
	writeJSON(w, http.StatusOK, struct {
		InputTokens int `json:"input_tokens"`
	}{len(body) / 4})
}

// withIDs returns r with a unique id on every tool_use block that has none, leaving the script's
// slice untouched.
func (s *Server) withIDs(r Reply) Reply {
	blocks := append([]Block(nil), r.Blocks...)
	for i := range blocks {
		if blocks[i].Type == BlockToolUse && blocks[i].ID == "" {
			blocks[i].ID = fmt.Sprintf("toolu_fake_%d", s.seq.Add(1))
		}
	}
	r.Blocks = blocks
	return r
}

func writeError(w http.ResponseWriter, r Reply, requestID string) {
	writeJSON(w, r.Status, newAPIError(r, requestID))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"type":"error","error":{"type":"api_error","message":"fakeapi could not encode its reply"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b) // a client that went away is no concern of the fake
}

// statusRecorder remembers the status written; Unwrap keeps http.ResponseController (Flush) working.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusRecorder) status() int {
	if s.code == 0 {
		return http.StatusOK
	}
	return s.code
}
