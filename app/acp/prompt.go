package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/session"
)

// prompt sends the prompt as a turn and answers when that turn ends. A prompt sent while another runs waits
// behind it, as the console's does; each answers for its own turn. Unordered: route hands prompts orderedPrompt.
func (a *Agent) prompt(ctx context.Context, params json.RawMessage) (any, error) {
	return a.promptAfter(ctx, params, ticket{})
}

// orderedPrompt is prompt in the order the reading loop saw the request: its session's earlier prompts are
// handed to the runtime first, and a session/cancel read after it cancels it. It is taken on the reading loop,
// before the request goes aside.
func (a *Agent) orderedPrompt(params json.RawMessage) handler {
	var ref sessionRef
	_ = json.Unmarshal(params, &ref) // a bad request fails in promptAfter's own decode
	t := a.sends.next(ref.SessionID)
	return func(ctx context.Context, params json.RawMessage) (any, error) {
		return a.promptAfter(ctx, params, t)
	}
}

// promptAfter is prompt once t's earlier prompts are handed over (a zero ticket: at once).
func (a *Agent) promptAfter(ctx context.Context, params json.RawMessage, t ticket) (any, error) {
	defer t.done()
	req, err := decode[promptRequest](params)
	if err != nil {
		return nil, err
	}
	s, err := a.openSession(req.SessionID)
	if err != nil {
		return nil, err
	}
	text, images, err := promptParts(req.Prompt)
	if err != nil {
		return nil, err
	}
	if t.before != nil {
		select {
		case <-t.before:
		case <-ctx.Done():
			return nil, fmt.Errorf("the agent is shutting down: %w", ctx.Err())
		}
	}
	end, err := a.send(ctx, s, t, text, images)
	t.done()
	if err != nil {
		return nil, err
	}
	select {
	case e := <-end:
		if e.err != nil {
			return nil, e.err
		}
		return promptResponse{StopReason: e.stop}, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("the agent is shutting down: %w", ctx.Err())
	}
}

// send hands the prompt to the runtime and returns where its turn's end will come. The session's lock is held
// across the send so the turn's end, however soon it comes, finds its waiter, and so a cancel is either seen here
// (read since the prompt was: the prompt is never sent) or finds the turn waiting (s.cancel ends it).
func (a *Agent) send(ctx context.Context, s *acpSession, t ticket, text string, images []protocol.PromptImage) (<-chan turnEnd, error) {
	end := make(chan turnEnd, 1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.ordered() && a.sends.cancelled(t) {
		end <- turnEnd{stop: stopCancelled}
		return end, nil
	}
	turn, _, err := s.s.SendWith(ctx, text, images)
	if err != nil {
		return nil, fmt.Errorf("send the prompt: %w", err)
	}
	s.waiting[turn] = waiter{end: end, read: t.cancels}
	return end, nil
}

// imageTypes are the image types Claude reads.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// promptParts splits the prompt's blocks into the text Claude Code reads (embedded resources as context blocks,
// their text named by URI; links as @-mentions) and its images. Audio was not advertised and is refused.
func promptParts(blocks []contentBlock) (string, []protocol.PromptImage, error) {
	var images []protocol.PromptImage
	rest := make([]contentBlock, 0, len(blocks))
	for _, c := range blocks {
		if c.Type != "image" {
			rest = append(rest, c)
			continue
		}
		if !imageTypes[c.MimeType] || c.Data == "" {
			return "", nil, errorf(codeInvalidParams, "invalid params: an image is PNG, JPEG, GIF or WebP data (not %q)", c.MimeType)
		}
		images = append(images, protocol.PromptImage{MediaType: c.MimeType, Data: c.Data})
	}
	if len(images) > maxImages {
		return "", nil, errorf(codeInvalidParams, "invalid params: at most %d images in one prompt", maxImages)
	}
	text, err := promptText(rest, len(images) > 0)
	return text, images, err
}

// maxImages bounds one prompt's images, as the runtime does.
const maxImages = 20

func promptText(blocks []contentBlock, hasImages bool) (string, error) {
	var b strings.Builder
	for _, c := range blocks {
		switch c.Type {
		case "text":
			b.WriteString(c.Text)
		case "resource_link":
			fmt.Fprintf(&b, "@%s", c.URI)
		case "resource":
			if c.Resource == nil || c.Resource.Text == "" {
				return "", errorf(codeInvalidParams, "invalid params: an embedded resource needs its text (binary resources are not supported)")
			}
			fmt.Fprintf(&b, "\n<context ref=%q>\n%s\n</context>\n", c.Resource.URI, c.Resource.Text)
		case "audio", "image":
			return "", errorf(codeInvalidParams, "invalid params: %s content is not supported by this agent (see its promptCapabilities)", c.Type)
		default:
			return "", errorf(codeInvalidParams, "invalid params: unknown content type %q", c.Type)
		}
	}
	text := strings.TrimSpace(b.String())
	if text == "" && !hasImages {
		return "", errorf(codeInvalidParams, "invalid params: the prompt is empty")
	}
	return text, nil
}

// cancel stops the session's prompts read before the upTo-th session/cancel (all of them: cancelAll): each
// answers "cancelled" once its turn has ended. The client answers its own pending permission requests as
// cancelled (and those deny), so nothing waits on it.
func (s *acpSession) cancel(ctx context.Context, upTo uint64) {
	s.mu.Lock()
	turns := make([]string, 0, len(s.waiting))
	for t, w := range s.waiting {
		if w.read >= upTo {
			continue // read after this cancel: not the cancel's to end
		}
		s.cancelled[t] = true
		turns = append(turns, t)
	}
	s.mu.Unlock()
	for _, t := range turns {
		go func() {
			if _, err := s.s.Cancel(ctx, t, session.DefaultCancelBudgets); err != nil {
				s.a.log.Warn().Err(err).Str("session", s.id).Str("turn", t).Msg("could not cancel the turn")
			}
		}()
	}
}

// cancelAll is cancel's bound for every prompt of the session.
const cancelAll = math.MaxUint64
