package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/discovery"
	"github.com/baton-console/baton/app/index"
	"github.com/baton-console/baton/app/receipts"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/sessionmeta"
	"github.com/baton-console/baton/app/sessionwatch"
	"github.com/baton-console/baton/provision"
	"github.com/baton-console/baton/provision/platform"
	"github.com/rs/zerolog"
)

// consoleSteps are the window's and `baton serve`'s services, in the order they open. Receipts open before
// sessions because sessions write to them (and so close after them: a turn still settling is recorded).
func consoleSteps() []hostStep {
	return []hostStep{provisioningStep(), signInStep(), discoveryStep(), receiptsStep(), sessionsStep(), indexStep(indexBuild), metaStep(),
		settingsStep(), watcherStep(), terminalsStep()}
}

// commandSteps are a headless command's: the claude it runs (installed with progress on stderr), receipts,
// sessions, the index (only the session a command reads is indexed) and the session records (worktrees).
func commandSteps() []hostStep { return headlessSteps(indexRead) }

// listingSteps are `baton sessions`'s: a headless command's, with an index whose sidecar only lists.
func listingSteps() []hostStep { return headlessSteps(indexList) }

func headlessSteps(use indexUse) []hostStep {
	return []hostStep{commandClaudeStep(), receiptsStep(), sessionsStep(), indexStep(use), metaStep()}
}

// provisioningStep installs claude on first launch, shown in the console's state; a session started meanwhile
// waits for it.
func provisioningStep() hostStep {
	return hostStep{name: "provisioning",
		open: func(_ context.Context, h *Host) error {
			h.state = console.NewHostState()
			h.provision = newProvisioner(h.state, h.log)
			h.claude = h.provision.resolver
			h.provision.run()
			return nil
		},
		close: func(h *Host) { h.provision.close() },
	}
}

// commandClaudeStep is provisioning for a headless command: it happens when a session needs claude, on stderr.
func commandClaudeStep() hostStep {
	return hostStep{name: "the claude executable",
		open: func(_ context.Context, h *Host) error {
			h.claude = &claudeResolver{log: h.log, onProgress: progressLines(os.Stderr)}
			return nil
		},
		close: func(*Host) {},
	}
}

// signInStep watches the sign-in state into the console's state. Without it the console shows sign-in as
// unknown, and the log says why.
func signInStep() hostStep {
	return hostStep{name: "the sign-in watcher",
		open: func(_ context.Context, h *Host) error {
			// Its own context, so closing it also stops a refresh provisioning asked for.
			ctx, stop := context.WithCancel(context.Background())
			svc, err := auth.NewService(auth.Options{Executable: selectedClaude, Logger: h.log})
			if err == nil {
				if err = svc.Start(ctx); err != nil {
					svc.Close()
				}
			}
			if err != nil {
				stop()
				h.log.Error().Err(err).Msg("sign-in watcher")
				return nil
			}
			h.auth, h.authStop = svc, stop
			updates, _ := svc.Subscribe() // closed by svc.Close
			go func() {
				for st := range updates {
					h.state.SetAuth(st)
				}
			}()
			h.provision.afterReady(func() { _, _ = svc.Refresh(ctx) })
			return nil
		},
		close: func(h *Host) {
			h.provision.afterReady(nil)
			if h.auth != nil {
				h.authStop()
				h.auth.Close()
			}
		},
	}
}

// discoveryStep runs hidden model discoveries from <data dir>/discovery, cached per account; a sign-in change
// clears the cache. None when there is no data directory.
func discoveryStep() hostStep {
	return hostStep{name: "model discovery",
		open: func(_ context.Context, h *Host) error {
			dir, err := discovery.DefaultDir()
			if err != nil {
				h.log.Error().Err(err).Msg("model discovery")
				return nil
			}
			signIn := h.auth
			hidden := &discovery.HiddenQuery{SidecarPath: sidecarPath(), Dir: dir, Executable: installedClaude, Logger: h.log}
			h.models = discovery.New(discovery.Options{Discover: hidden.Discover, Logger: h.log, Account: func() discovery.Account {
				if signIn == nil {
					return discovery.Account{}
				}
				return discovery.AccountOf(signIn.State(), signIn.Paths().Credentials)
			}})
			if signIn != nil {
				updates, _ := signIn.Subscribe() // closed by signIn.Close
				go h.models.FollowAuth(updates)
			}
			return nil
		},
		close: func(h *Host) {
			if h.models != nil {
				h.models.Close()
			}
		},
	}
}

// receiptsStep opens the turn receipts in Baton's data dir. Without a usable data dir Baton still runs, keeping
// no receipts, and says so in its log.
func receiptsStep() hostStep {
	return hostStep{name: "turn receipts",
		open: func(_ context.Context, h *Host) error {
			dir, err := platform.DataDir()
			if err == nil {
				if h.receipts, err = receipts.Open(dir); err == nil {
					return nil
				}
			}
			h.log.Warn().Err(err).Msg("turn receipts are not kept")
			return nil
		},
		close: func(h *Host) {
			if h.receipts != nil {
				_ = h.receipts.Close()
			}
		},
	}
}

// sessionsStep makes the session manager; no process starts until a session does. Closing it closes every open
// session (a process killed instead leaves its turns host_exited in the receipts).
func sessionsStep() hostStep {
	return hostStep{name: "sessions",
		open: func(_ context.Context, h *Host) error {
			cfg := session.Config{SidecarPath: sidecarPath(), Executable: h.claude.resolve, Gate: auth.Acquire, Logger: h.log,
				Idle: sessionIdle(h.log)}
			if h.receipts != nil {
				cfg.Receipts = h.receipts
			}
			h.sessions = session.NewManager(cfg)
			return nil
		},
		close: func(h *Host) {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			h.sessions.Shutdown(ctx)
		},
	}
}

// sessionIdle is how long an open session may sit idle before it sleeps: BATON_SESSION_IDLE, else the default.
func sessionIdle(log zerolog.Logger) time.Duration {
	idle, err := session.ParseIdle(os.Getenv("BATON_SESSION_IDLE"))
	if err != nil {
		log.Warn().Err(err).Dur("idle", session.DefaultIdle).Msg("BATON_SESSION_IDLE ignored")
		fmt.Fprintf(os.Stderr, "baton: %v; using %s\n", err, session.DefaultIdle)
		return session.DefaultIdle
	}
	return idle
}

// metaStep opens the pins, archives and forks kept in Baton's data dir. Without it Baton still runs (the console
// says pins are unavailable, or that the file is damaged and what to do), and the log says why. The store holds no open file, so closing is nothing.
func metaStep() hostStep {
	return hostStep{name: "session pins and archives",
		open: func(_ context.Context, h *Host) error {
			dir, err := platform.DataDir()
			if err == nil {
				// A store over an unreadable file is kept: it records nothing, and the console's pin says why.
				if h.meta, err = sessionmeta.Open(dir); err == nil {
					return nil
				}
			}
			h.log.Warn().Err(err).Msg("pinned and archived sessions are not kept")
			return nil
		},
		close: func(*Host) {},
	}
}

// watcherStep tells every console when Claude Code's stored sessions change outside this Baton (the CLI,
// `baton exec`, another Baton). Sessions open here are left out: their own events already reach the console.
// None when the folder cannot be watched; the console then sees such sessions on its next refresh.
func watcherStep() hostStep {
	return hostStep{name: "the session watcher",
		open: func(_ context.Context, h *Host) error {
			paths, err := auth.ResolvePaths(os.Environ())
			if err == nil {
				m := h.sessions
				h.watcher, err = sessionwatch.Start(sessionwatch.Options{
					ProjectsDir: filepath.Join(paths.ConfigDir, "projects"),
					Ignore: func(id string) bool {
						_, open := m.Get(id)
						return open
					},
					OnChange: h.state.SessionsChanged,
					Written:  touch(h.index),
					Logger:   h.log,
				})
			}
			if err != nil {
				h.log.Warn().Err(err).Msg("sessions from outside Baton are not watched")
			}
			return nil
		},
		close: func(h *Host) {
			if h.watcher != nil {
				h.watcher.Close()
			}
		},
	}
}

// touch is what the watcher tells the index of a transcript written (nil: no index).
func touch(ix *index.Index) func(string) {
	if ix == nil {
		return nil
	}
	return ix.Touch
}

// installedClaude is the claude a discovery runs: only one already there (discovery never downloads).
func installedClaude(ctx context.Context) (string, error) {
	sel, err := provision.Select(ctx, provision.SelectOptions{})
	if err != nil {
		return "", fmt.Errorf("claude is not installed yet: %w", err)
	}
	return sel.Path, nil
}

// selectedClaude is the executable the sign-in probe runs: only what is already there (a probe must be quick
// and never download), "" when there is none yet.
func selectedClaude(ctx context.Context) (string, error) {
	sel, err := provision.Select(ctx, provision.SelectOptions{})
	if err != nil {
		return "", nil
	}
	return sel.Path, nil
}
