package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// JSON-RPC 2.0 error codes, plus ACP's own (schema/v1 ErrorCode).
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
	codeRequestCancel  = -32800
	codeAuthRequired   = -32000
	codeNotFound       = -32002
)

// maxLine bounds one inbound message: an embedded file or image is large, but a client never needs more.
const maxLine = 64 << 20

// rpcError is a JSON-RPC error object; it is also the error handlers return to answer with.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

func errorf(code int, format string, a ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, a...)}
}

// inbound is any message the client sends: a request (method and id), a notification (method, no id) or a
// response to one of ours (id, result or error).
type inbound struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  *string         `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type outResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type outRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// nullResult marshals as JSON null: a result that carries nothing (session/load, session/cancel's peers).
type nullResult struct{}

func (nullResult) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

var nullID = json.RawMessage("null")

// frame is what one line decodes to: a message, or the error to answer it with (and the id to answer, if any).
type frame struct {
	msg inbound
	err *rpcError
}

// decodeLine classifies one line as the JSON-RPC 2.0 specification does: not JSON is a parse error, a batch or
// a message that is neither request, notification nor response is an invalid request.
func decodeLine(line []byte) frame {
	line = bytes.TrimSpace(line)
	if len(line) > 0 && line[0] == '[' {
		if !json.Valid(line) {
			return frame{err: errorf(codeParseError, "parse error: the line is not JSON")}
		}
		return frame{err: errorf(codeInvalidRequest, "invalid request: batches are not supported")}
	}
	var m inbound
	if err := json.Unmarshal(line, &m); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) || !json.Valid(line) {
			return frame{err: errorf(codeParseError, "parse error: the line is not JSON")}
		}
		return frame{msg: inbound{ID: idOf(line)}, err: errorf(codeInvalidRequest, "invalid request: %v", err)}
	}
	if m.JSONRPC != "2.0" {
		return frame{msg: m, err: errorf(codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)}
	}
	if len(m.ID) > 0 && !validID(m.ID) {
		return frame{msg: inbound{}, err: errorf(codeInvalidRequest, "invalid request: an id is a number or a string")}
	}
	if m.Method == nil && (len(m.ID) == 0 || (m.Result == nil && m.Error == nil)) {
		return frame{msg: m, err: errorf(codeInvalidRequest, "invalid request: no method")}
	}
	return frame{msg: m}
}

// idOf pulls a usable id out of an object that failed to decode, so its error still reaches the right request.
func idOf(line []byte) json.RawMessage {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &probe) == nil && validID(probe.ID) {
		return probe.ID
	}
	return nil
}

func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch id[0] {
	case '"':
		var s string
		return json.Unmarshal(id, &s) == nil
	case 'n':
		return string(id) == "null"
	default:
		var n json.Number
		return json.Unmarshal(id, &n) == nil
	}
}

// lineReader reads newline-delimited messages, bounded by maxLine.
type lineReader struct{ r *bufio.Reader }

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: bufio.NewReaderSize(r, 64<<10)} }

// next returns the next non-empty line; a line past the bound is drained and returned as tooLong.
func (l *lineReader) next() (line []byte, tooLong bool, err error) {
	for {
		var buf []byte
		for {
			chunk, isPrefix, err := l.r.ReadLine()
			if err != nil {
				if len(buf) > 0 && errors.Is(err, io.EOF) {
					return buf, false, nil
				}
				return nil, false, err
			}
			if !tooLong {
				buf = append(buf, chunk...)
				if len(buf) > maxLine {
					tooLong, buf = true, nil
				}
			}
			if !isPrefix {
				break
			}
		}
		if tooLong {
			return nil, true, nil
		}
		if len(bytes.TrimSpace(buf)) > 0 {
			return buf, false, nil
		}
	}
}

// writer puts one message per line on stdout; it is the only writer of it.
type writer struct {
	mu  sync.Mutex
	w   *bufio.Writer
	err error
}

func newWriter(w io.Writer) *writer { return &writer{w: bufio.NewWriterSize(w, 64<<10)} }

// send writes v as one line. encoding/json escapes control characters, so the line holds no newline but its end.
func (w *writer) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode a message: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	b = append(b, '\n')
	if _, err := w.w.Write(b); err != nil {
		w.err = fmt.Errorf("write to the client: %w", err)
		return w.err
	}
	if err := w.w.Flush(); err != nil {
		w.err = fmt.Errorf("write to the client: %w", err)
	}
	return w.err
}
