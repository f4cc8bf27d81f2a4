package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/google/uuid"
	"github.com/rs/zerolog"
)

const smokeUsage = "baton smoke [--sidecar PATH] [--timeout DURATION]"

// testDriverExecutable is what the sidecar's test driver reports as its claude executable
// (TEST_DRIVER_EXECUTABLE in sidecar/src/driver/testDriver.ts; a test keeps the two equal). Seeing it proves the
// sidecar really switched to the driver instead of starting an SDK session.
const testDriverExecutable = "test-driver"

// RunSmoke is `baton smoke`: it runs the installed sidecar through start → exec → close with the sidecar's
// deterministic test driver (no claude, no network, no account), so users and support can tell a broken install
// from a broken session. Packaging runs the same check on every bundle. The wire version is the host's own
// protocol.ProtocolVersion, so a sidecar from another Baton version fails here.
func RunSmoke(ctx context.Context, args []string, stdout, stderr io.Writer, sidecarPath string) int {
	fs := newFlagSet("smoke", smokeUsage, stderr)
	path := fs.String("sidecar", sidecarPath, "the sidecar executable to check (default: the one this baton uses)")
	timeout := fs.Duration("timeout", 60*time.Second, "give up after this long")
	rest, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	if err != nil {
		return ExitUsage
	}
	if len(rest) > 0 {
		return usageError(stderr, smokeUsage, "smoke takes no arguments, got %q", rest[0])
	}
	if *path == "" {
		return usageError(stderr, smokeUsage, "no sidecar executable to check")
	}
	if *timeout <= 0 {
		return usageError(stderr, smokeUsage, "--timeout must be positive")
	}
	// The sidecar runs in a temp working folder, where a relative path would no longer point at it.
	abs, err := filepath.Abs(*path)
	if err != nil {
		return usageError(stderr, smokeUsage, "cannot resolve %s: %v", *path, err)
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()

	began := time.Now()
	fmt.Fprintf(stdout, "baton smoke: %s (protocol v%d, test driver)\n", abs, protocol.ProtocolVersion)
	s := &smokeRun{path: abs, out: stdout}
	if step, err := s.run(ctx); err != nil {
		fmt.Fprintf(stdout, "  FAIL %s\n", step)
		fmt.Fprintf(stderr, "baton smoke: failed at %s: %v\n", step, err)
		return ExitFailure
	}
	fmt.Fprintf(stdout, "smoke passed in %.2fs\n", time.Since(began).Seconds())
	return ExitOK
}

// Smoke steps, named in the output so a failure says where it happened.
const (
	stepLaunch = "launch"
	stepStart  = "start"
	stepExec   = "exec"
	stepClose  = "close"
	stepExit   = "exit"
)

type smokeRun struct {
	path   string
	out    io.Writer
	client *sidecar.Client
}

// run performs the steps in order and returns the failing step's name with its error.
func (s *smokeRun) run(ctx context.Context) (string, error) {
	dir, err := os.MkdirTemp("", "baton-smoke-")
	if err != nil {
		return stepLaunch, fmt.Errorf("could not make a working folder: %w", err)
	}
	defer os.RemoveAll(dir)

	s.client, err = sidecar.Start(ctx, sidecar.Config{
		Path:   s.path,
		Env:    append(os.Environ(), "BATON_SIDECAR_TEST_DRIVER=1"),
		Dir:    dir,
		Logger: zerolog.Nop(),
	})
	if err != nil {
		return stepLaunch, err
	}
	exited := false
	defer func() {
		if !exited {
			go func() {
				for range s.client.Events() {
				}
			}()
			s.client.Kill()
		}
	}()
	s.ok(stepLaunch, fmt.Sprintf("pid %d", s.client.PID()))

	session := uuid.NewString()
	if err := s.start(ctx, session, dir); err != nil {
		return stepStart, err
	}
	if err := s.exec(ctx, session); err != nil {
		return stepExec, err
	}
	if err := s.client.Call(ctx, protocol.ReqClose, protocol.CloseRequest{Session: session}, nil); err != nil {
		return stepClose, s.requestFailed(ctx, protocol.ReqClose, err)
	}
	if _, err := s.await(ctx, "session.closed", func(ev activity.Event) bool { return ev.Kind == activity.SessionClosed }); err != nil {
		return stepClose, err
	}
	s.ok(stepClose, "")

	// Drain what is left so the client's delivery never waits on us while the process shuts down.
	go func() {
		for range s.client.Events() {
		}
	}()
	exited = true
	if err := s.client.Close(10 * time.Second); err != nil {
		return stepExit, fmt.Errorf("the sidecar did not exit cleanly when its input closed: %w", err)
	}
	s.ok(stepExit, "")
	return "", nil
}

func (s *smokeRun) start(ctx context.Context, session, dir string) error {
	var reply protocol.StartReply
	if err := s.client.Call(ctx, protocol.ReqStart, protocol.StartRequest{Session: session, Cwd: dir}, &reply); err != nil {
		return s.requestFailed(ctx, protocol.ReqStart, err)
	}
	if reply.Session != session {
		return fmt.Errorf("the sidecar answered start for session %q instead of %q", reply.Session, session)
	}
	if reply.Executable != testDriverExecutable {
		return fmt.Errorf("the sidecar did not switch to its test driver (it chose claude at %q); is it Baton's sidecar?", reply.Executable)
	}
	if _, err := s.await(ctx, "session.started", func(ev activity.Event) bool {
		return ev.Kind == activity.SessionStarted && ev.Session == session
	}); err != nil {
		return err
	}
	s.ok(stepStart, "session "+session)
	return nil
}

func (s *smokeRun) exec(ctx context.Context, session string) error {
	prompt := "smoke " + randomHex()
	want := "Echo: " + prompt
	if err := s.client.Call(ctx, protocol.ReqExec, protocol.ExecRequest{Session: session, Turn: "smoke-1", Prompt: prompt}, nil); err != nil {
		return s.requestFailed(ctx, protocol.ReqExec, err)
	}
	if _, err := s.await(ctx, "turn.started", func(ev activity.Event) bool {
		return ev.Kind == activity.TurnStarted && ev.Turn == "smoke-1" && ev.Prompt == prompt
	}); err != nil {
		return err
	}
	reply, err := s.await(ctx, "the assistant's message", func(ev activity.Event) bool {
		return ev.Kind == activity.MessageCompleted && ev.Turn == "smoke-1"
	})
	if err != nil {
		return err
	}
	if reply.Text != want {
		return fmt.Errorf("the sidecar answered %q, expected %q", oneLine(reply.Text, 120), want)
	}
	if _, err := s.await(ctx, "turn.completed", func(ev activity.Event) bool {
		return ev.Kind == activity.TurnCompleted && ev.Turn == "smoke-1"
	}); err != nil {
		return err
	}
	s.ok(stepExec, fmt.Sprintf("%q", want))
	return nil
}

// await reads events until one matches. A protocol error, a failed turn or the sidecar ending stops the wait.
func (s *smokeRun) await(ctx context.Context, what string, match func(activity.Event) bool) (activity.Event, error) {
	for {
		select {
		case ev, ok := <-s.client.Events():
			if !ok {
				<-s.client.Done()
				return activity.Event{}, fmt.Errorf("the sidecar ended before %s: %w", what, s.client.Err())
			}
			switch {
			case match(ev):
				return ev, nil
			case ev.Kind == activity.ProtocolError:
				return activity.Event{}, fmt.Errorf("protocol error while waiting for %s: %s: %s", what, ev.Code, ev.Message)
			case ev.Kind == activity.TurnFailed:
				return activity.Event{}, fmt.Errorf("the turn failed while waiting for %s: %s: %s", what, ev.Code, ev.Message)
			}
		case <-ctx.Done():
			return activity.Event{}, fmt.Errorf("no %s from the sidecar: %w", what, ctx.Err())
		}
	}
}

// requestFailed explains a failed request. A request written into a closed pipe means the sidecar is gone;
// how it ended (its exit status) tells a user more than the pipe error does.
func (s *smokeRun) requestFailed(ctx context.Context, req protocol.RequestType, err error) error {
	if errors.Is(err, syscall.EPIPE) {
		select {
		case <-s.client.Done():
			return fmt.Errorf("the %s request failed: %w", req, s.client.Err())
		case <-ctx.Done():
		}
	}
	return fmt.Errorf("the %s request failed: %w", req, err)
}

func (s *smokeRun) ok(step, detail string) {
	if detail == "" {
		fmt.Fprintf(s.out, "  ok   %s\n", step)
		return
	}
	fmt.Fprintf(s.out, "  ok   %-6s %s\n", step, detail)
}

func randomHex() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
