package fakeapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sseEvent is one parsed event: its name and its data decoded loosely, for checking the wire shape.
type sseEvent struct {
	Name string
	Data map[string]any
}

// parseSSE reads a stream as a client would: "event:" and "data:" lines, a blank line ends an event.
func parseSSE(t *testing.T, b []byte) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &cur.Data), line)
		case line == "":
			require.NotEmpty(t, cur.Name, "data without an event name")
			assert.Equal(t, cur.Name, cur.Data["type"], "event name and data type agree")
			out = append(out, cur)
			cur = sseEvent{}
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	require.Empty(t, cur.Name, "the stream ended in the middle of an event")
	return out
}

// rebuilt is what a client reconstructs from a stream.
type rebuilt struct {
	names      []string
	blocks     []map[string]any
	text       []string // per block: text, thinking or partial_json joined
	signatures []string
	deltas     []int // per block: number of deltas
	stopReason string
	outTokens  float64
	message    map[string]any
}

func rebuild(t *testing.T, evs []sseEvent) rebuilt {
	t.Helper()
	var r rebuilt
	for _, e := range evs {
		r.names = append(r.names, e.Name)
		switch e.Name {
		case "message_start":
			r.message = e.Data["message"].(map[string]any)
		case "content_block_start":
			require.Equal(t, float64(len(r.blocks)), e.Data["index"], "blocks start in index order")
			r.blocks = append(r.blocks, e.Data["content_block"].(map[string]any))
			r.text = append(r.text, "")
			r.signatures = append(r.signatures, "")
			r.deltas = append(r.deltas, 0)
		case "content_block_delta":
			i := int(e.Data["index"].(float64))
			require.Equal(t, len(r.blocks)-1, i, "deltas belong to the open block")
			d := e.Data["delta"].(map[string]any)
			r.deltas[i]++
			switch d["type"] {
			case "text_delta":
				r.text[i] += d["text"].(string)
			case "thinking_delta":
				r.text[i] += d["thinking"].(string)
			case "signature_delta":
				r.signatures[i] += d["signature"].(string)
			case "input_json_delta":
				r.text[i] += d["partial_json"].(string)
			default:
				t.Fatalf("unknown delta %v", d["type"])
			}
		case "message_delta":
			r.stopReason = e.Data["delta"].(map[string]any)["stop_reason"].(string)
			r.outTokens = e.Data["usage"].(map[string]any)["output_tokens"].(float64)
		}
	}
	return r
}

func TestStreamReplyEventsRebuildTheReply(t *testing.T) {
	reply := Reply{Blocks: []Block{
		{Type: BlockThinking, Text: "Let me think about this, at some length so it takes several deltas."},
		{Type: BlockText, Text: "Héllo wörld — a text long enough to need more than one delta ✓"},
		{Type: BlockToolUse, ID: "toolu_x", ToolName: "Write", ToolInput: json.RawMessage(`{ "file_path": "/a/b.txt",
			"content": "hello\n" }`)},
	}}
	var buf bytes.Buffer
	flushes := 0
	sw := sseWriter{w: &buf, flush: func() error { flushes++; return nil }}
	require.NoError(t, streamReply(context.Background(), sw, reply, "msg_1", "claude-test", 123))

	evs := parseSSE(t, buf.Bytes())
	assert.Equal(t, len(evs), flushes, "one flush per event")
	r := rebuild(t, evs)
	assert.Equal(t, "message_start", r.names[0])
	assert.Equal(t, "ping", r.names[1])
	assert.Equal(t, []string{"content_block_stop", "message_delta", "message_stop"}, r.names[len(r.names)-3:])

	assert.Equal(t, "msg_1", r.message["id"])
	assert.Equal(t, "claude-test", r.message["model"])
	assert.Equal(t, "assistant", r.message["role"])
	assert.Nil(t, r.message["stop_reason"])
	assert.Equal(t, float64(123), r.message["usage"].(map[string]any)["input_tokens"])

	require.Len(t, r.blocks, 3)
	assert.Equal(t, map[string]any{"type": "thinking", "thinking": "", "signature": ""}, r.blocks[0])
	assert.Equal(t, map[string]any{"type": "text", "text": ""}, r.blocks[1])
	assert.Equal(t, map[string]any{"type": "tool_use", "id": "toolu_x", "name": "Write", "input": map[string]any{}}, r.blocks[2])

	assert.Equal(t, reply.Blocks[0].Text, r.text[0])
	assert.NotEmpty(t, r.signatures[0], "thinking ends with a signature_delta")
	assert.Equal(t, reply.Blocks[1].Text, r.text[1])
	assert.Greater(t, r.deltas[1], 1, "text arrives in several deltas")
	assert.JSONEq(t, `{"file_path":"/a/b.txt","content":"hello\n"}`, r.text[2])
	assert.Equal(t, "tool_use", r.stopReason)
	assert.Equal(t, float64(reply.outputTokens()), r.outTokens)
}

func TestStreamReplyDeltaCountAndStopReason(t *testing.T) {
	var buf bytes.Buffer
	reply := Reply{Blocks: []Block{{Type: BlockText, Text: "short"}}, DeltaCount: 8, StopReason: "max_tokens"}
	require.NoError(t, streamReply(context.Background(), sseWriter{w: &buf}, reply, "m", "x", 1))
	r := rebuild(t, parseSSE(t, buf.Bytes()))
	assert.Equal(t, []int{8}, r.deltas, "exactly DeltaCount deltas even for a short text")
	assert.Equal(t, "short", r.text[0])
	assert.Equal(t, "max_tokens", r.stopReason)
}

// cancelAfter is a writer that cancels a context once it has seen n text deltas.
type cancelAfter struct {
	buf    bytes.Buffer
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(`"text_delta"`)) {
		c.n--
		if c.n == 0 {
			c.cancel()
		}
	}
	return c.buf.Write(p)
}

func TestStreamReplyStopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &cancelAfter{n: 3, cancel: cancel}
	reply := Reply{Blocks: []Block{{Type: BlockText, Text: strings.Repeat("x", 100)}}, DeltaCount: 100, DeltaDelay: time.Millisecond}

	err := streamReply(ctx, sseWriter{w: w}, reply, "m", "x", 1)
	require.ErrorIs(t, err, context.Canceled)
	r := rebuild(t, parseSSE(t, w.buf.Bytes()))
	assert.Equal(t, []int{3}, r.deltas, "no delta after the cancel")
	assert.NotContains(t, r.names, "message_stop")
}

func TestSSEWriterReportsWriteAndFlushErrors(t *testing.T) {
	boom := errors.New("boom")
	err := (&sseWriter{w: failingWriter{boom}}).event("ping", evType{Type: "ping"})
	assert.ErrorIs(t, err, boom)
	err = (&sseWriter{w: &bytes.Buffer{}, flush: func() error { return boom }}).event("ping", evType{Type: "ping"})
	assert.ErrorIs(t, err, boom)
}

type failingWriter struct{ err error }

func (f failingWriter) Write([]byte) (int, error) { return 0, f.err }

func TestSplitText(t *testing.T) {
	assert.Equal(t, []string{""}, splitText("", 0, 4))
	assert.Equal(t, []string{"abcd", "ef"}, splitText("abcdef", 0, 4))
	assert.Equal(t, []string{"ab", "cd", "ef"}, splitText("abcdef", 3, 4))
	assert.Equal(t, []string{"é", "é", "é"}, splitText("ééé", 0, 3), "never cuts inside a rune")
	parts := splitText("ab", 5, 4)
	assert.Len(t, parts, 5)
	assert.Equal(t, "ab", strings.Join(parts, ""))
}

// FlushEvery sends a stream in writes of that many events; the last write carries what is left, and a pause
// (a slow delta, a hold) never leaves events unsent behind it.
func TestStreamReplyFlushesInBatches(t *testing.T) {
	var buf bytes.Buffer
	var flushedAt []int // how many events had been written at each flush
	sw := sseWriter{w: &buf, flush: func() error { flushedAt = append(flushedAt, len(parseSSE(t, buf.Bytes()))); return nil }}
	reply := Reply{Blocks: []Block{{Type: BlockText, Text: strings.Repeat("w", 100)}}, DeltaCount: 100, FlushEvery: 32}
	require.NoError(t, streamReply(context.Background(), sw, reply, "m", "x", 1))
	total := len(parseSSE(t, buf.Bytes()))
	require.Equal(t, 106, total, "message_start, ping, block start, 100 deltas, block stop, message_delta, message_stop")
	assert.Equal(t, []int{32, 64, 96, total}, flushedAt)

	var held bytes.Buffer
	flushes := make(chan int, 8)
	hsw := sseWriter{w: &held, flush: func() error { flushes <- len(parseSSE(t, held.Bytes())); return nil }}
	hold := make(chan struct{})
	reply.Hold = hold
	done := make(chan error, 1)
	go func() { done <- streamReply(context.Background(), hsw, reply, "m", "x", 1) }()
	assert.Equal(t, 4, <-flushes, "held after the first delta, with everything before it sent")
	close(hold)
	require.NoError(t, <-done)
}

func TestThinkEstimatedCarriesTheAPIsCountOnItsDeltas(t *testing.T) {
	r := DefaultScript()(userReq("", "[think-estimated] weigh it"))
	require.Equal(t, Block{Type: BlockThinking, Text: EstimatedThinkingText, EstimatedTokens: ThinkingEstimate}, r.Blocks[0])
	var buf bytes.Buffer
	require.NoError(t, streamReply(context.Background(), sseWriter{w: &buf}, r, "msg_1", "m", 1))
	var text strings.Builder
	total, deltas := 0, 0
	for _, ev := range parseSSE(t, buf.Bytes()) {
		delta, _ := ev.Data["delta"].(map[string]any)
		if delta["type"] != "thinking_delta" {
			continue
		}
		deltas++
		text.WriteString(delta["thinking"].(string))
		total += int(delta["estimated_tokens"].(float64))
	}
	assert.Greater(t, deltas, 1)
	assert.Equal(t, EstimatedThinkingText, text.String())
	assert.Equal(t, ThinkingEstimate, total, "the deltas' estimates add up to the block's count")
}
