//go:build linux

package session_test

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// Guidance sent before Claude Code began the turn's query: claude is stopped, so the prompt and the guidance's
// interrupt wait in its input together. Unguarded, the interrupt hit nothing of the turn and Claude Code answered
// the prompt and the guidance as two queries: the turn ended on the prompt's answer, the guidance's answer landed on
// the next person's turn, and every later turn showed the answer to the prompt before it. The guidance now waits
// until Claude Code began the turn: its answer streams on the turn, and the next prompt gets its own answer.
func TestGuidanceBeforeClaudeBeganTheTurnStaysOnIt(t *testing.T) {
	requireLinux(t)
	h := newHarness(t)
	s := h.start(sessionOpts())
	first := h.exec(s, "warm up")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(first).Kind)
	pid := claudePID(t, s)
	require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
	stopped := true
	t.Cleanup(func() {
		if stopped {
			_ = syscall.Kill(pid, syscall.SIGCONT)
		}
	})
	turn := h.exec(s, "a long answer")
	prompt := waitUnread(t, pid, 0, 30*time.Second)
	require.NotZero(t, prompt, "the prompt waits in claude's input")

	type guided struct {
		turn   string
		guided bool
		err    error
	}
	done := make(chan guided, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		steered, ok, err := s.Guide(ctx, "go short")
		done <- guided{steered, ok, err}
	}()
	// Unguarded, the interrupt joins the prompt in claude's input at once; guarded, nothing more is written until
	// claude runs (the wait is bounded either way, and only decides how the old code failed).
	waitUnread(t, pid, prompt, 3*time.Second)
	require.NoError(t, syscall.Kill(pid, syscall.SIGCONT))
	stopped = false

	var g guided
	select {
	case g = <-done:
	case <-time.After(90 * time.Second):
		t.Fatal("guide did not answer")
	}
	require.NoError(t, g.err)
	require.True(t, g.guided, "the turn was steered")
	require.Equal(t, turn, g.turn)
	end := h.waitTurnEnd(turn)
	require.Equal(t, activity.TurnCompleted, end.Kind, "%+v", end)
	require.NotEmpty(t, answersWith(h, turn, "go short"), "the guidance's answer is on the turn: %v", kindsOf(h.rec.all(ofTurn(turn))))

	next := h.exec(s, "and after that")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(next).Kind)
	require.NotEmpty(t, answersWith(h, next, "and after that"), "the next turn shows its own answer")
	require.Empty(t, answersWith(h, next, "go short"), "and not the guidance's")
	require.Len(t, h.terminals(turn), 1)
	h.close(s)
}

// answersWith are the turn's completed assistant messages that contain text.
func answersWith(h *harness, turn, text string) []string {
	var out []string
	for _, answer := range assistantTexts(h.rec.all(ofTurn(turn))) {
		if strings.Contains(answer, text) {
			out = append(out, answer)
		}
	}
	return out
}

// waitUnread waits (bounded) until more than `above` bytes wait unread in claude's standard input, and returns how
// many do. Node gives a child's stdio as a socket pair, so ss says what its end holds unread.
func waitUnread(t *testing.T, pid, above int, within time.Duration) int {
	t.Helper()
	link, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/0")
	require.NoError(t, err)
	inode, ok := strings.CutPrefix(strings.TrimSuffix(link, "]"), "socket:[")
	if !ok {
		t.Skipf("claude's input is not a socket here: %s", link)
	}
	deadline := time.Now().Add(within)
	for {
		n := unreadOn(t, inode)
		if n > above || time.Now().After(deadline) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// unreadOn is the Recv-Q ss reports for the Unix socket with that inode.
func unreadOn(t *testing.T, inode string) int {
	t.Helper()
	out, err := exec.Command("ss", "-xn").Output()
	if err != nil {
		t.Skipf("ss cannot list sockets here: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		// Netid State Recv-Q Send-Q Local-Address Port Peer-Address Port: a socket pair's "port" is its inode.
		if f := strings.Fields(line); len(f) >= 6 && f[5] == inode {
			n, err := strconv.Atoi(f[2])
			require.NoError(t, err)
			return n
		}
	}
	t.Fatalf("ss does not list claude's input socket %s", inode)
	return 0
}
