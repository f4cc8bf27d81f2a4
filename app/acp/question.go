package acp

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/session"
)

// questionInput is what Claude's question tool asks: questions, each with labelled options, of which some take
// several.
type questionInput struct {
	Questions []question `json:"questions"`
}

type question struct {
	Question    string `json:"question"`
	MultiSelect bool   `json:"multiSelect"`
	Options     []struct {
		Label string `json:"label"`
	} `json:"options"`
}

// declined answers a question the client would not (or could not) answer.
var declined = session.PermissionAnswer{Verdict: activity.VerdictDeny, Message: "The user declined to answer."}

// Option ids of a multi-select question's requests, one per answer offered.
const (
	optPick    = "pick"
	optLeave   = "leave"
	optDecline = "decline"
)

// askQuestions offers each question as permission requests ACP clients understand: a single choice as one
// request whose options are its answers; a multiple choice as one request per answer, taken or left out.
func (s *acpSession) askQuestions(ctx context.Context, ask asking, input json.RawMessage) (session.PermissionAnswer, bool) {
	var in questionInput
	if err := json.Unmarshal(input, &in); err != nil || len(in.Questions) == 0 {
		return session.PermissionAnswer{}, false
	}
	answers := make([]activity.QuestionAnswer, 0, len(in.Questions))
	for _, q := range in.Questions {
		pick := s.pickOne
		if q.MultiSelect {
			pick = s.pickSeveral
		}
		answer, ok := pick(ctx, ask, q)
		if !ok {
			return declined, true
		}
		answers = append(answers, activity.QuestionAnswer{Question: q.Question, Answer: answer})
	}
	return session.PermissionAnswer{Verdict: activity.VerdictAllow, Answers: answers}, true
}

// pickOne asks for one of q's answers; false when the client declined, cancelled or chose no answer offered.
func (s *acpSession) pickOne(ctx context.Context, ask asking, q question) (string, bool) {
	ask.call.Title = q.Question
	options := make([]permissionOption, 0, len(q.Options)+1)
	for i, o := range q.Options {
		options = append(options, permissionOption{OptionID: "answer-" + strconv.Itoa(i), Name: o.Label, Kind: optAllowOnce})
	}
	options = append(options, permissionOption{OptionID: optRejectOnce, Name: "Decline to answer", Kind: optRejectOnce})
	id, ok := s.choose(ctx, ask, options)
	if !ok || !strings.HasPrefix(id, "answer-") {
		return "", false
	}
	i, err := strconv.Atoi(strings.TrimPrefix(id, "answer-"))
	if err != nil || i < 0 || i >= len(q.Options) {
		return "", false
	}
	return q.Options[i].Label, true
}

// pickSeveral asks of each of q's answers whether it is taken (a permission request picks one option, so several
// answers take several requests). The answer is the labels taken, in the question's order, joined as the console
// joins them; false when the client declined, cancelled, or took none.
func (s *acpSession) pickSeveral(ctx context.Context, ask asking, q question) (string, bool) {
	var taken []string
	for i, o := range q.Options {
		ask.call.Title = q.Question + " — " + o.Label + " (" + strconv.Itoa(i+1) + " of " + strconv.Itoa(len(q.Options)) + "; choose any)"
		options := []permissionOption{
			{OptionID: optPick, Name: "Choose " + o.Label, Kind: optAllowOnce},
			{OptionID: optLeave, Name: "Leave it out", Kind: optRejectOnce},
			{OptionID: optDecline, Name: "Decline to answer", Kind: optRejectOnce},
		}
		id, ok := s.choose(ctx, ask, options)
		switch {
		case !ok || id == optDecline:
			return "", false
		case id == optPick:
			taken = append(taken, o.Label)
		case id != optLeave:
			return "", false // no option offered
		}
	}
	return joinChoices(taken), len(taken) > 0
}

// joinChoices is how the console answers a question of several choices (QuestionCard.tsx's joinChoices).
func joinChoices(labels []string) string { return strings.Join(labels, ", ") }
