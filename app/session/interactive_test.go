package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/session"
	"github.com/stretchr/testify/require"
)

const questionMarker = `[tool AskUserQuestion {"questions":[{"question":"Which color?","header":"Color",` +
	`"options":[{"label":"Red","description":"warm"},{"label":"Blue","description":"cool"}],"multiSelect":false}]}]`

// An AskUserQuestion is answered once with the person's choice, which reaches the model as the tool's result; a
// repeated or late answer changes nothing and gets the recorded answer back.
func TestQuestionAnsweredOnceAndRecorded(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, questionMarker)
	req := h.waitPermission(turn)
	require.Equal(t, "AskUserQuestion", req.ToolName)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	blue := []activity.QuestionAnswer{{Question: "Which color?", Answer: "Blue"}}
	rep, err := s.AnswerWith(ctx, req.RequestID, session.PermissionAnswer{Verdict: activity.VerdictAllow, By: activity.PermissionAuthorUser, Answers: blue})
	require.NoError(t, err)
	require.True(t, rep.Settled)

	late, err := s.AnswerWith(ctx, req.RequestID, session.PermissionAnswer{Verdict: activity.VerdictAllow, By: activity.PermissionAuthorUser,
		Answers: []activity.QuestionAnswer{{Question: "Which color?", Answer: "Red"}}})
	require.NoError(t, err)
	require.False(t, late.Settled, "a repeated answer never resolves twice")
	require.Equal(t, activity.VerdictAllow, late.Verdict)
	require.Equal(t, blue, late.Answers, "a repeated answer gets the recorded one back")

	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	settled := h.rec.all(func(ev activity.Event) bool {
		return ev.Kind == activity.PermissionSettled && ev.RequestID == req.RequestID
	})
	require.Len(t, settled, 1)
	require.Equal(t, blue, settled[0].Answers)

	var answered bool
	for _, r := range h.api.Requests() {
		for _, tr := range r.LastToolResults() {
			if strings.Contains(tr.Content, "Which color?") && strings.Contains(tr.Content, "Blue") && !tr.IsError {
				answered = true
			}
			require.NotContains(t, tr.Content, "Red", "only the first answer reached the model")
		}
	}
	require.True(t, answered, "the model received the answer as AskUserQuestion's result")
	h.close(s)
}

// Rewinding to before a prompt resumes at the message it followed: the prompt is not in the history the resumed
// session shows, and the next request to the model lacks it.
func TestRewindResumesAtThePromptsParent(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	first := h.exec(s, "remember the apple")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(first).Kind)
	second := h.exec(s, "remember the banana")
	started := h.rec.wait(t, 30*time.Second, func(ev activity.Event) bool { return ev.Turn == second && ev.Kind == activity.TurnStarted })
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(second).Kind)
	h.close(s)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	parent, found, err := h.m.MessageParent(ctx, s.ID(), h.project, started.UUID)
	require.NoError(t, err)
	require.True(t, found)
	require.NotEmpty(t, parent)
	firstStarted := h.rec.wait(t, time.Second, func(ev activity.Event) bool { return ev.Turn == first && ev.Kind == activity.TurnStarted })
	_, found, err = h.m.MessageParent(ctx, s.ID(), h.project, firstStarted.UUID)
	require.NoError(t, err)
	require.True(t, found, "the first prompt is found; it follows nothing")

	page, err := h.m.HistoryAt(ctx, s.ID(), h.project, parent, nil, 0)
	require.NoError(t, err)
	var prompts []string
	for _, ev := range page.Events {
		if ev.Kind == activity.TurnStarted {
			prompts = append(prompts, ev.Prompt)
		}
	}
	require.Equal(t, []string{"remember the apple"}, prompts)

	resumed := h.start(session.StartOptions{PermissionMode: "default", Resume: s.ID(), At: parent})
	third := h.exec(resumed, "[recall] what now?")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(third).Kind)
	reqs := h.api.Requests()
	last := reqs[len(reqs)-1]
	texts := strings.Join(last.UserTexts(), " | ")
	require.Contains(t, texts, "remember the apple")
	require.NotContains(t, texts, "remember the banana")
	h.close(resumed)

	// Reopened later without a message to resume at, the session continues the branch the rewind started.
	again := h.start(session.StartOptions{PermissionMode: "default", Resume: s.ID()})
	fourth := h.exec(again, "[recall] reopened")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(fourth).Kind)
	reqs = h.api.Requests()
	texts = strings.Join(reqs[len(reqs)-1].UserTexts(), " | ")
	require.Contains(t, texts, "what now?")
	require.NotContains(t, texts, "remember the banana")
	h.close(again)
}
