// Package auth knows whether Claude Code can work, and why not: it watches the CLI's sign-in files, asks the
// CLI (`claude auth status`) whenever they change, gates every piece of credential work behind one process-wide
// semaphore, opens claude's own login in a terminal, and explains failed turns as sign-in problems.
//
// Wiring (done by the host):
//
//	svc, err := auth.NewService(auth.Options{Executable: pickClaude, Env: sessionEnv, Logger: log})
//	svc.Start(ctx); defer svc.Close()
//	updates, cancel := svc.Subscribe() // the current State first, then each change
//
// Session start and model discovery take the same gate as the probe:
//
//	release, err := auth.Acquire(ctx, "session start")
//	if err != nil { return err }
//	defer release()
//
// Nothing here ever holds a token or key longer than one file read, and no State, error or log line carries
// one: key sources are reported by name only.
package auth
