package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/auth"

	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/session"
	"github.com/google/uuid"
)

const execUsage = "baton exec [--cwd DIR] [--worktree [--branch NAME] [--base REF]] [--resume ID | --fork ID [--at MESSAGE]] " +
	"[--session-id UUID] [--model M] [--permission-mode MODE] [--approve all|none|TOOL,…] [--json] PROMPT"

// permissionModes is the wire's list (generated from the schema), as the flag's help and check show it.
func permissionModes() string {
	names := make([]string, len(activity.PermissionModeValues))
	for i, m := range activity.PermissionModeValues {
		names[i] = m.String()
	}
	return strings.Join(names, ", ")
}

type execOptions struct {
	start    session.StartOptions
	approve  approvalPolicy
	json     bool
	prompt   string
	worktree worktreeFlags
	// undoWorktree takes back the worktree made for the session when the session then fails to start (nil: none).
	undoWorktree func()
}

func parseExec(args []string, env Env) (execOptions, int) {
	fs := newFlagSet("exec", execUsage, env.Stderr)
	var o execOptions
	var approve, sessionID, mode string
	fs.StringVar(&o.start.Cwd, "cwd", "", "the project folder (default: the current folder)")
	fs.StringVar(&o.start.Resume, "resume", "", "resume this session, keeping its id")
	fs.StringVar(&o.start.ForkFrom, "fork", "", "fork this session into a new one")
	fs.StringVar(&o.start.At, "at", "", "with --resume or --fork: start from this message uuid")
	fs.StringVar(&sessionID, "session-id", "", "the id of a new (or forked) session")
	fs.StringVar(&o.start.Model, "model", "", "the model (an alias such as sonnet, or an id; default: the CLI's)")
	fs.StringVar(&mode, "permission-mode", "", "one of "+permissionModes())
	fs.StringVar(&approve, "approve", "", "answer permission requests by policy: all, none, or TOOL,TOOL")
	fs.BoolVar(&o.json, "json", false, "print every event as one JSON line")
	o.worktree.define(fs)
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return o, ExitUsage
	}
	o.prompt = strings.TrimSpace(strings.Join(words, " "))
	if o.prompt == "" {
		return o, usageError(env.Stderr, execUsage, "no prompt given")
	}
	if o.start.Resume != "" && o.start.ForkFrom != "" {
		return o, usageError(env.Stderr, execUsage, "--resume and --fork cannot be combined")
	}
	if o.start.At != "" && o.start.Resume == "" && o.start.ForkFrom == "" {
		return o, usageError(env.Stderr, execUsage, "--at needs --resume or --fork")
	}
	if sessionID != "" && o.start.Resume != "" {
		return o, usageError(env.Stderr, execUsage, "a resumed session keeps its id; --session-id goes with a new session or --fork")
	}
	for flagName, v := range map[string]string{"--session-id": sessionID, "--resume": o.start.Resume, "--fork": o.start.ForkFrom} {
		if v != "" {
			if !protocol.ValidSessionID(v) {
				return o, usageError(env.Stderr, execUsage, "%s %q is not a session id (a UUID; see baton sessions)", flagName, v)
			}
		}
	}
	if sessionID != "" {
		if why := sessionTaken(sessionID, env); why != "" {
			return o, usageError(env.Stderr, execUsage, "--session-id %s is taken: %s; continue it with --resume %[1]s, or leave --session-id out for a fresh id", sessionID, why)
		}
	}
	o.start.PermissionMode = activity.PermissionMode(mode)
	if mode != "" && !o.start.PermissionMode.Valid() {
		return o, usageError(env.Stderr, execUsage, "--permission-mode %q is not one of %s", mode, permissionModes())
	}
	if o.start.Cwd != "" {
		if fi, err := os.Stat(o.start.Cwd); err != nil || !fi.IsDir() {
			return o, usageError(env.Stderr, execUsage, "--cwd %s is not an existing folder", o.start.Cwd)
		}
	}
	if msg := o.worktree.check(o.start); msg != "" {
		return o, usageError(env.Stderr, execUsage, "%s", msg)
	}
	if o.approve, err = parseApprove(approve); err != nil {
		return o, usageError(env.Stderr, execUsage, "%v", err)
	}
	// The id is chosen here so the event filter is in place before the session's first event.
	switch {
	case o.start.Resume != "":
		o.start.ID = o.start.Resume
	case sessionID != "":
		o.start.ID = sessionID
	default:
		o.start.ID = uuid.NewString()
	}
	return o, ExitOK
}

// RunExec runs one turn to its end: 0 when it completes (also when a tool was denied), 1 when it fails,
// 2 for usage errors, 130 when Ctrl-C canceled it (a second Ctrl-C skips the interrupt budget).
func RunExec(ctx context.Context, args []string, env Env) int {
	o, code := parseExec(args, env)
	if code != ExitOK {
		return code
	}
	env = env.forTerminal(o.json)
	if o.worktree.on {
		if code := startInWorktree(ctx, &o, env); code != ExitOK {
			return code
		}
	}
	interrupts := make(chan os.Signal, 2)
	signal.Notify(interrupts, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(interrupts)
	return runTurn(ctx, o, env, interrupts)
}

func runTurn(ctx context.Context, o execOptions, env Env, interrupts <-chan os.Signal) int {
	sub := env.Sessions.Subscribe(func(ev activity.Event) bool { return ev.Session == o.start.ID })
	defer sub.Close()
	s, err := env.Sessions.Start(ctx, o.start)
	if err != nil {
		if o.undoWorktree != nil {
			o.undoWorktree()
		}
		var perr *protocol.ErrorBody
		if errors.As(err, &perr) && perr.Code == protocol.CodeSessionNotFound {
			fmt.Fprintf(env.Stderr, "baton: %v (see baton sessions)\n", err)
			return ExitFailure
		}
		if errors.As(err, &perr) && perr.Code == protocol.CodeSessionExists {
			fmt.Fprintf(env.Stderr, "baton: %v\n  continue it with: baton exec --resume %s PROMPT\n", err, o.start.ID)
			return ExitFailure
		}
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
		return ExitFailure
	}
	turn, err := s.Exec(ctx, o.prompt)
	if err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
		closeQuietly(s)
		return ExitFailure
	}

	out := newEventPrinter(env.Stdout, o.json)
	out.stderr = env.Stderr
	probe := env.SignInState
	if probe == nil {
		probe = probeSignIn
	}
	out.explain = func(ev activity.Event) (auth.TurnFailure, bool) { return explainAuthFailure(ctx, ev, probe) }
	answers := make(chan answer, 4)
	var stdin *bufio.Reader
	if env.StdinIsTTY && env.Stdin != nil {
		stdin = bufio.NewReader(env.Stdin)
	}
	canceledByUser := false
	cancelFailed := make(chan error, 2)
	result := -1
	// The turn's end is not the session's: background work it launched, and Claude Code's follow-ups to it, are
	// waited for (and printed) until the session is idle.
	for result < 0 || (result == ExitOK && s.BackgroundState().Working()) {
		select {
		case ev, ok := <-sub.C():
			if !ok {
				result = ExitFailure
				break
			}
			out.print(ev)
			switch {
			case ev.Kind == activity.PermissionRequested:
				handlePermission(ctx, s, ev, o.approve, stdin, env.Stderr, answers)
			case ev.Turn == turn && ev.Kind == activity.TurnCompleted:
				result = ExitOK
			case ev.Turn == turn && ev.Kind == activity.TurnFailed:
				result = ExitFailure
			case ev.Turn == turn && ev.Kind == activity.TurnCanceled:
				result = ExitFailure
				if canceledByUser {
					result = ExitCanceled
				}
			case ev.Kind == activity.SessionClosed:
				result = ExitFailure
			}
		case a := <-answers:
			if _, err := s.Answer(ctx, a.requestID, a.verdict, a.message, activity.PermissionAuthorUser); err != nil {
				fmt.Fprintf(env.Stderr, "baton: %v\n", err)
			}
		case <-interrupts:
			if result >= 0 {
				// The turn is over; only background work remains: Ctrl-C stops waiting (closing ends it).
				fmt.Fprintln(env.Stderr, "\nbaton: no longer waiting for the background work")
				result = ExitCanceled
				closeQuietly(s)
				return result
			}
			// First Ctrl-C: cancel with the default budgets (Claude Code gets the interrupt budget to stop cleanly).
			// A second one skips what is left of the interrupt budget and closes the query at once. Either way the
			// turn ends with its terminal event, which ends this loop; the cancel itself runs aside, so events keep
			// printing meanwhile.
			budgets := session.DefaultCancelBudgets
			if canceledByUser {
				budgets.SkipInterrupt = true
				fmt.Fprintln(env.Stderr, "baton: stopping Claude Code now")
			} else {
				fmt.Fprintln(env.Stderr, "\nbaton: canceling the turn (Ctrl-C again to stop at once)")
			}
			canceledByUser = true
			go func() {
				if _, err := s.Cancel(ctx, turn, budgets); err != nil {
					cancelFailed <- err
				}
			}()
		case err := <-cancelFailed:
			fmt.Fprintf(env.Stderr, "baton: %v\n", err)
			closeQuietly(s)
			return ExitCanceled
		case <-ctx.Done():
			closeQuietly(s)
			return ExitCanceled
		}
	}
	// Close is request/ack; the session's last events (session.closed) are printed before exiting.
	closeErr := s.Close(ctx)
	sub.Drain()
	for ev := range sub.C() {
		out.print(ev)
	}
	out.finish()
	if closeErr != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", closeErr)
	}
	return result
}

func handlePermission(ctx context.Context, s *session.Session, ev activity.Event, policy approvalPolicy,
	stdin *bufio.Reader, prompt io.Writer, answers chan<- answer) {
	if verdict, ok := policy.decide(ev.ToolName); ok {
		// A plain deny, as the terminal's "No": Claude stops at the first denied tool (the turn completes).
		go func() { _, _ = s.Answer(ctx, ev.RequestID, verdict, "", activity.PermissionAuthorPolicy) }()
		return
	}
	if stdin == nil {
		go func() {
			_, _ = s.Answer(ctx, ev.RequestID, activity.VerdictDeny,
				"Denied: nobody can answer permission requests here (no terminal); use --approve.", activity.PermissionAuthorPolicy)
		}()
		return
	}
	go func() { answers <- askOnTerminal(stdin, prompt, ev) }()
}

func closeQuietly(s *session.Session) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = s.Close(ctx)
}

// eventPrinter writes events as NDJSON (--json) or as a transcript. A turn that failed for authentication is
// explained as a sign-in problem: in the transcript instead of the bare error, after the JSON line on stderr.
type eventPrinter struct {
	enc        *json.Encoder
	transcript *transcript
	stderr     io.Writer
	explain    func(activity.Event) (auth.TurnFailure, bool)
}

func newEventPrinter(w io.Writer, asJSON bool) *eventPrinter {
	if asJSON {
		return &eventPrinter{enc: json.NewEncoder(w)}
	}
	return &eventPrinter{transcript: newTranscript(w)}
}

func (p *eventPrinter) print(ev activity.Event) {
	var failure *auth.TurnFailure
	if ev.Kind == activity.TurnFailed && p.explain != nil {
		if f, ok := p.explain(ev); ok {
			failure = &f
		}
	}
	if p.enc != nil {
		_ = p.enc.Encode(ev)
		if failure != nil && p.stderr != nil {
			fmt.Fprint(p.stderr, "baton: ")
			renderAuthFailure(p.stderr, *failure)
		}
		return
	}
	if failure != nil {
		p.transcript.authFailure(*failure)
		return
	}
	p.transcript.render(ev)
}

func (p *eventPrinter) finish() {
	if p.transcript != nil {
		p.transcript.finish()
	}
}
