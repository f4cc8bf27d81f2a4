package fakeapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// chunkBytes is the size of the deltas a block is cut into when the reply asks for no count,
// small enough that every non-trivial block streams as several deltas.
const chunkBytes = 24

// sseWriter writes server-sent events and flushes after each one (or, with every > 1, after every that many
// and before any pause), so the client sees every event as soon as it is sent (the CLI renders partial
// messages from them).
type sseWriter struct {
	w       io.Writer
	flush   func() error
	every   int
	waiting int // events written since the last flush
}

func (s *sseWriter) event(name string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("encode %s event: %w", name, err)
	}
	if _, err := fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, b); err != nil {
		return fmt.Errorf("write %s event: %w", name, err)
	}
	s.waiting++
	if s.waiting < s.every {
		return nil
	}
	return s.flushNow(name)
}

// flushNow sends what was written; the stream calls it before it pauses and after its last event.
func (s *sseWriter) flushNow(name string) error {
	if s.flush == nil || s.waiting == 0 {
		return nil
	}
	s.waiting = 0
	if err := s.flush(); err != nil {
		return fmt.Errorf("flush %s event: %w", name, err)
	}
	return nil
}

// Stream event payloads, as the Messages API sends them.
type (
	evType struct {
		Type string `json:"type"` // ping | message_stop
	}
	evMessageStart struct {
		Type    string     `json:"type"`
		Message apiMessage `json:"message"`
	}
	evBlockStart struct {
		Type         string     `json:"type"`
		Index        int        `json:"index"`
		ContentBlock apiContent `json:"content_block"`
	}
	evBlockDelta struct {
		Type  string   `json:"type"`
		Index int      `json:"index"`
		Delta apiDelta `json:"delta"`
	}
	apiDelta struct {
		Type        string  `json:"type"` // text_delta | thinking_delta | signature_delta | input_json_delta
		Text        *string `json:"text,omitempty"`
		Thinking    *string `json:"thinking,omitempty"`
		Signature   *string `json:"signature,omitempty"`
		PartialJSON *string `json:"partial_json,omitempty"`
		// EstimatedTokens is the API's count of the thinking this delta adds (thinking_delta only).
		EstimatedTokens *int `json:"estimated_tokens,omitempty"`
	}
	evBlockStop struct {
		Type  string `json:"type"`
		Index int    `json:"index"`
	}
	evMessageDelta struct {
		Type  string `json:"type"`
		Delta struct {
			StopReason   string  `json:"stop_reason"`
			StopSequence *string `json:"stop_sequence"`
		} `json:"delta"`
		Usage struct {
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
	}
)

// streamReply writes r as a complete message stream. It stops with ctx's error as soon as ctx is
// done (the client went away or the server is closing), also in the middle of a slow block.
func streamReply(ctx context.Context, sw sseWriter, r Reply, msgID, model string, inputTokens int) error {
	sw.every = r.FlushEvery
	send := func(name string, data any) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return sw.event(name, data)
	}
	start := apiMessage{
		ID: msgID, Type: "message", Role: "assistant", Model: model, Content: []apiContent{},
		Usage: apiUsage{InputTokens: inputTokens, OutputTokens: 1},
	}
	if err := send("message_start", evMessageStart{Type: "message_start", Message: start}); err != nil {
		return err
	}
	if err := send("ping", evType{Type: "ping"}); err != nil {
		return err
	}
	if r.HoldContent != nil {
		if err := sw.flushNow("ping"); err != nil {
			return err
		}
		if err := waitCtx(ctx, r.HoldContent); err != nil {
			return err
		}
	}
	for i, b := range r.Blocks {
		if err := send("content_block_start", evBlockStart{Type: "content_block_start", Index: i, ContentBlock: startContent(b)}); err != nil {
			return err
		}
		for j, d := range blockDeltas(b, r, msgID, i) {
			if b.Type == BlockText && r.DeltaDelay > 0 {
				if err := sw.flushNow("content_block_delta"); err != nil {
					return err
				}
				if err := sleepCtx(ctx, r.DeltaDelay); err != nil {
					return err
				}
			}
			if err := send("content_block_delta", evBlockDelta{Type: "content_block_delta", Index: i, Delta: d}); err != nil {
				return err
			}
			if b.Type == BlockText && j == 0 && r.Hold != nil {
				if err := sw.flushNow("content_block_delta"); err != nil {
					return err
				}
				if err := waitCtx(ctx, r.Hold); err != nil {
					return err
				}
			}
		}
		if err := send("content_block_stop", evBlockStop{Type: "content_block_stop", Index: i}); err != nil {
			return err
		}
	}
	md := evMessageDelta{Type: "message_delta"}
	md.Delta.StopReason = r.stopReason()
	md.Usage.OutputTokens = r.outputTokens()
	if err := send("message_delta", md); err != nil {
		return err
	}
	if err := send("message_stop", evType{Type: "message_stop"}); err != nil {
		return err
	}
	return sw.flushNow("message_stop")
}

// blockDeltas cuts one block into the deltas that rebuild it.
func blockDeltas(b Block, r Reply, msgID string, index int) []apiDelta {
	var out []apiDelta
	switch b.Type {
	case BlockThinking:
		parts := splitText(b.Text, 0, chunkBytes)
		for i, p := range parts {
			d := apiDelta{Type: "thinking_delta", Thinking: &p}
			if b.EstimatedTokens > 0 {
				share := estimateShare(b.EstimatedTokens, len(parts), i)
				d.EstimatedTokens = &share
			}
			out = append(out, d)
		}
		sig := fakeSignature(msgID, index)
		out = append(out, apiDelta{Type: "signature_delta", Signature: &sig})
	case BlockToolUse:
		for _, p := range splitText(string(b.toolInput()), 0, chunkBytes) {
			out = append(out, apiDelta{Type: "input_json_delta", PartialJSON: &p})
		}
	default:
		for _, p := range splitText(b.Text, r.DeltaCount, chunkBytes) {
			out = append(out, apiDelta{Type: "text_delta", Text: &p})
		}
	}
	return out
}

// estimateShare is delta i's part of total spread over n deltas (the first ones take the remainder).
func estimateShare(total, n, i int) int {
	share := total / n
	if i < total%n {
		share++
	}
	return share
}

// waitCtx waits until gate is closed, or returns ctx's error as soon as ctx is done.
func waitCtx(ctx context.Context, gate <-chan struct{}) error {
	select {
	case <-gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sleepCtx waits for d, or returns ctx's error as soon as ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
