package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/terminal"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// trail records, in order, each step the Host opens and closes around the real step, and the Host it builds.
type trail struct {
	mu   sync.Mutex
	got  []string
	host *Host
}

func (tr *trail) add(what string) {
	tr.mu.Lock()
	tr.got = append(tr.got, what)
	tr.mu.Unlock()
}

func (tr *trail) wrap(steps []hostStep) []hostStep {
	out := make([]hostStep, len(steps))
	for i, s := range steps {
		open, close := s.open, s.close
		out[i] = hostStep{name: s.name,
			open: func(ctx context.Context, h *Host) error {
				tr.host = h
				tr.add("open " + s.name)
				return open(ctx, h)
			},
			close: func(h *Host) {
				close(h)
				tr.add("close " + s.name)
			},
		}
	}
	return out
}

// useTempHome runs the Host's real services in a temporary home and data dir, with the claude already there.
func useTempHome(t *testing.T) (dataDir string) {
	t.Helper()
	claude := testenv.RequireClaude(t)
	home := testenv.NewHome(t)
	testenv.UseHome(t, home, claude)
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".claude", "projects"), 0o700))
	return filepath.Join(home, "baton")
}

// receiptLocks are the host registrations the open receipts store holds in the data dir.
func receiptLocks(t *testing.T, dataDir string) []string {
	t.Helper()
	locks, err := filepath.Glob(filepath.Join(dataDir, "hosts", "*.lock"))
	require.NoError(t, err)
	return locks
}

func consoleOpenOrder() []string {
	return []string{"open provisioning", "open the sign-in watcher", "open model discovery",
		"open turn receipts", "open sessions", "open the session index", "open session pins and archives",
		"open console settings", "open the session watcher", "open terminals"}
}

// The window's and serve's Host opens its real services in order and closes them in reverse: the watcher
// (which asks the sessions) first, the sessions before the receipts they write, provisioning last.
func TestHostOpensInOrderAndClosesInReverse(t *testing.T) {
	dataDir := useTempHome(t)
	tr := &trail{}
	h, err := openHost(context.Background(), zerolog.Nop(), tr.wrap(consoleSteps()))
	require.NoError(t, err)
	require.Equal(t, consoleOpenOrder(), tr.got)
	require.NotNil(t, h.auth, "the real sign-in watcher runs")
	require.NotNil(t, h.models)
	require.NotNil(t, h.receipts)
	require.NotNil(t, h.meta)
	require.NotNil(t, h.watcher)
	require.NotNil(t, h.index, "the real index opens in the data dir")
	require.FileExists(t, filepath.Join(dataDir, "index.db"))
	require.Same(t, h.sessions, h.ConsoleOptions().Sessions)
	require.Len(t, receiptLocks(t, dataDir), 1, "the receipts store registers this host while open")
	shell, err := h.terminals.Open(terminal.Spec{Dir: t.TempDir(), Argv: []string{"/bin/sh"}})
	require.NoError(t, err)
	ended, err := h.terminals.Done(shell.ID)
	require.NoError(t, err)

	h.Close()
	select {
	case <-ended:
	default:
		t.Fatal("a shell outlived Baton's host")
	}
	require.Equal(t, append(consoleOpenOrder(), "close terminals", "close the session watcher", "close console settings", "close session pins and archives",
		"close the session index", "close sessions", "close turn receipts", "close model discovery", "close the sign-in watcher", "close provisioning"), tr.got)
	require.Empty(t, receiptLocks(t, dataDir), "the receipts store was really closed")
	updates, _ := h.auth.Subscribe()
	_, open := <-updates
	require.False(t, open, "the sign-in watcher was really closed")
	require.Error(t, h.provision.ctx.Err(), "provisioning's runs are cancelled")

	h.Close()
	require.Len(t, tr.got, 2*len(consoleOpenOrder()), "closing twice closes nothing again")
}

// When a service cannot open, what was already opened is closed again in reverse and nothing after it opens.
// Every real service here opens in a temporary folder (or does without), so the failure is injected: the pins
// store's constructor is replaced by one that fails.
func TestHostClosesWhatItOpenedWhenAServiceFails(t *testing.T) {
	dataDir := useTempHome(t)
	tr := &trail{}
	steps := consoleSteps()
	for i := range steps {
		if steps[i].name == "session pins and archives" {
			steps[i].open = func(context.Context, *Host) error { return errors.New("the disk is full") }
		}
	}
	h, err := openHost(context.Background(), zerolog.Nop(), tr.wrap(steps))
	require.Nil(t, h)
	require.EqualError(t, err, "start session pins and archives: the disk is full")
	require.Equal(t, append(consoleOpenOrder()[:7], "close the session index", "close sessions", "close turn receipts", "close model discovery",
		"close the sign-in watcher", "close provisioning"), tr.got)
	require.Empty(t, receiptLocks(t, dataDir), "the receipts store opened before the failure was closed")
	require.Error(t, tr.host.provision.ctx.Err())
}

// A stop (Ctrl-C on `baton serve`) while the Host is opening ends the opening there, closing what was opened.
func TestHostStoppedWhileOpeningClosesWhatItOpened(t *testing.T) {
	useTempHome(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := &trail{}
	steps := tr.wrap(commandSteps())
	open := steps[1].open
	steps[1].open = func(ctx context.Context, h *Host) error {
		err := open(ctx, h)
		cancel() // the signal arrives once the receipts are open
		return err
	}
	h, err := openHost(ctx, zerolog.Nop(), steps)
	require.Nil(t, h)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, []string{"open the claude executable", "open turn receipts", "close turn receipts",
		"close the claude executable"}, tr.got)
}
