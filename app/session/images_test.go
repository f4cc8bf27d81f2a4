package session_test

import (
	"context"
	"encoding/base64"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
)

// A 1×1 PNG.
const onePixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"

// Images sent with a prompt reach the Messages API as image blocks (the scripted API names what it received) and
// come back on turn.started, so the console shows them in the prompt's bubble.
func TestPromptImagesReachTheAPIAndTurnStarted(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	img := protocol.PromptImage{MediaType: "image/png", Data: onePixelPNG}
	turn, _, err := s.SendWith(ctx, "what is this [images]", []protocol.PromptImage{img})
	require.NoError(t, err)
	end := h.waitTurnEnd(turn)
	require.Equal(t, activity.TurnCompleted, end.Kind, "turn ended with %+v", end)

	started := h.rec.all(func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.TurnStarted })
	require.Len(t, started, 1)
	raw, err := base64.StdEncoding.DecodeString(onePixelPNG)
	require.NoError(t, err)
	require.Equal(t, []activity.Image{{MediaType: "image/png", Data: onePixelPNG, Bytes: int64(len(raw))}}, started[0].Images)

	replies := h.rec.all(func(ev activity.Event) bool {
		return ev.Turn == turn && ev.Kind == activity.MessageCompleted && ev.Role == "assistant"
	})
	require.NotEmpty(t, replies)
	want := regexp.MustCompile(`Images: image/png \(\d+ base64 bytes\)$`)
	require.Regexp(t, want, replies[len(replies)-1].Text, "the API received one image block")
	h.close(s)
}
