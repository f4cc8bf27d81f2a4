package session

import (
	"context"
	"slices"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
)

// Background is what a session does that no person's turn is waiting on: the live background tasks Claude Code
// reports (tasks.updated, the level signal: each report replaces the last), the goal /goal set (goal.updated),
// and continuation turns it runs on its own after a task ended. It is the one place the host keeps that state:
// sleeping a session (or letting `baton exec` end) must wait while Busy says so.
type Background struct {
	// Tasks are the live tasks that count as activity (the ambient ones, housekeeping, are left out).
	Tasks []activity.BackgroundTask
	// Goal is the active goal; nil when none is set or it was met.
	Goal *activity.GoalState
	// Continuations are the ids of continuation turns still running.
	Continuations []string
}

// Busy tells whether the session is working without a person's turn: background tasks run, a goal is being
// pursued, or Claude Code is answering a task's notification.
func (b Background) Busy() bool {
	return len(b.Tasks) > 0 || (b.Goal != nil && !b.Goal.Met) || len(b.Continuations) > 0
}

// Working tells whether Claude Code is still at work on its own: background tasks run or a continuation turn
// answers one that ended. (A goal is pursued inside turns: an idle session with an unmet goal is not working.)
func (b Background) Working() bool {
	return len(b.Tasks) > 0 || len(b.Continuations) > 0
}

// observeBackground keeps s.background current; the caller holds s.mu.
func (s *Session) observeBackground(ev activity.Event) {
	switch ev.Kind {
	case activity.TasksUpdated:
		live := make([]activity.BackgroundTask, 0, len(ev.Tasks))
		for _, t := range ev.Tasks {
			if !t.Ambient {
				live = append(live, t)
			}
		}
		s.background.Tasks = live
	case activity.GoalUpdated:
		if ev.Goal == nil || ev.Goal.Met {
			s.background.Goal = nil
		} else {
			g := *ev.Goal
			s.background.Goal = &g
		}
	case activity.TurnStarted:
		if ev.Origin != "" {
			s.background.Continuations = append(s.background.Continuations, ev.Turn)
			if s.continuationTurns == nil {
				s.continuationTurns = map[string]bool{}
			}
			s.continuationTurns[ev.Turn] = true
		}
	case activity.TurnCompleted, activity.TurnFailed, activity.TurnCanceled:
		s.background.Continuations = slices.DeleteFunc(s.background.Continuations, func(t string) bool { return t == ev.Turn })
	case activity.SessionClosed:
		s.background = Background{}
	default:
		// The other kinds say nothing of background work.
	}
}

// isContinuation tells whether a turn is one Claude Code started on its own (no person's prompt, no receipt);
// the caller holds s.mu.
func (s *Session) isContinuation(turn string) bool {
	return s.continuationTurns[turn]
}

// BackgroundState returns a snapshot of the session's background work.
func (s *Session) BackgroundState() Background {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := Background{Tasks: slices.Clone(s.background.Tasks), Continuations: slices.Clone(s.background.Continuations)}
	if s.background.Goal != nil {
		g := *s.background.Goal
		b.Goal = &g
	}
	return b
}

// StopTask stops one background task (Claude Code's stopTask); its task.completed {taskEnd: stopped} follows.
func (s *Session) StopTask(ctx context.Context, taskID string) error {
	var rep protocol.StopTaskReply
	client := s.current()
	if client == nil { // asleep: no task runs
		return nil
	}
	if err := client.Call(ctx, protocol.ReqStopTask, protocol.StopTaskRequest{Session: s.id, TaskID: taskID}, &rep); err != nil {
		return s.callError("stop the background task", err)
	}
	return nil
}

// SendToBackground moves running foreground work (a Bash command, an agent) to the background, like Ctrl+B in
// the terminal: the work toolUseID started, or all of it when toolUseID is empty. False: nothing matched.
func (s *Session) SendToBackground(ctx context.Context, toolUseID string) (bool, error) {
	var rep protocol.BackgroundTaskReply
	req := protocol.BackgroundTaskRequest{Session: s.id, ToolUseID: toolUseID}
	client := s.current()
	if client == nil { // asleep: nothing runs in the foreground
		return false, nil
	}
	if err := client.Call(ctx, protocol.ReqBackgroundTask, req, &rep); err != nil {
		return false, s.callError("move the work to the background", err)
	}
	return rep.Backgrounded, nil
}
