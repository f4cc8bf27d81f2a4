package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/provision"
)

const doctorUsage = "baton doctor [--json]"

// doctorTestHook lets tests isolate executable selection (manifest, PATH, data dir); nil in production.
var doctorTestHook func(*provision.SelectOptions)

// doctorSignInHook replaces the sign-in probe in tests whose claude is a stand-in script; nil in production.
var doctorSignInHook func(exe string) *auth.State

// DoctorReport is what `baton doctor` prints. Each concern is its own section; a new one (sign-in) is a new
// field, a line in buildDoctorReport and a render function.
type DoctorReport struct {
	Executable ExecutableReport `json:"executable"`
	SignIn     *auth.State      `json:"signIn,omitempty"`
}

// OK reports whether every section is healthy: an executable was found and Claude Code is signed in.
func (r DoctorReport) OK() bool {
	return r.Executable.OK && r.SignIn != nil && r.SignIn.SignedIn()
}

// ExecutableReport says which claude executable will run, where it came from, its version and whether it was
// verified against the pinned manifest.
type ExecutableReport struct {
	OK              bool   `json:"ok"`
	Path            string `json:"path,omitempty"`
	Source          string `json:"source,omitempty"` // env | sdk-package | provisioned | path
	Version         string `json:"version,omitempty"`
	ExpectedVersion string `json:"expectedVersion"`
	Verified        bool   `json:"verified"`
	Platform        string `json:"platform,omitempty"`
	InstalledFrom   string `json:"installedFrom,omitempty"` // for provisioned: cdn | npm, and the URL
	Warning         string `json:"warning,omitempty"`
	Error           string `json:"error,omitempty"`
}

// RunDoctor reports on Baton's environment; it exits 1 when a section is unhealthy.
func RunDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("doctor", doctorUsage, stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if fs.NArg() > 0 {
		return usageError(stderr, doctorUsage, "unexpected argument %q", fs.Arg(0))
	}
	opts := provision.SelectOptions{VerifyChecksum: true, ProbeEnvVersion: true}
	if doctorTestHook != nil {
		doctorTestHook(&opts)
	}
	report := buildDoctorReport(ctx, opts)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			fmt.Fprintf(stderr, "baton doctor: %v\n", err)
			return ExitFailure
		}
	} else {
		renderExecutable(stdout, report.Executable)
		fmt.Fprintln(stdout)
		renderSignIn(stdout, report.SignIn)
	}
	if !report.OK() {
		return ExitFailure
	}
	return ExitOK
}

func buildDoctorReport(ctx context.Context, opts provision.SelectOptions) DoctorReport {
	exe := executableReport(ctx, opts)
	probe := func(path string) *auth.State { return signInReport(ctx, path) }
	if doctorSignInHook != nil {
		probe = doctorSignInHook
	}
	return DoctorReport{Executable: exe, SignIn: probe(exe.Path)}
}

func executableReport(ctx context.Context, opts provision.SelectOptions) ExecutableReport {
	m := provision.Pinned()
	if opts.Manifest != nil {
		m = *opts.Manifest
	}
	rep := ExecutableReport{ExpectedVersion: m.Version, Platform: opts.Platform}
	if rep.Platform == "" {
		if p, err := provision.CurrentPlatform(); err == nil {
			rep.Platform = p.String()
		}
	}
	sel, err := provision.Select(ctx, opts)
	if err != nil {
		rep.Error = err.Error()
		return rep
	}
	rep.OK = true
	rep.Path, rep.Source, rep.Version, rep.Verified, rep.Warning = sel.Path, sel.Source, sel.Version, sel.Verified, sel.Warning
	if sel.Source == provision.FromEnv && sel.Version != "" && sel.Version != m.Version && rep.Warning == "" {
		rep.Warning = fmt.Sprintf("CLAUDE_CODE_EXECUTABLE is claude %s; Baton's SDK was built for %s", sel.Version, m.Version)
	}
	if sel.Source == provision.FromProvisioned {
		if ptr, err := provision.Installed(opts.DataDir); err == nil && ptr.Executable == sel.Path {
			rep.InstalledFrom = strings.TrimSpace(ptr.Source + " " + ptr.URL)
		}
	}
	return rep
}

func renderExecutable(w io.Writer, r ExecutableReport) {
	fmt.Fprintln(w, "claude executable")
	if !r.OK {
		fmt.Fprintf(w, "  problem   %s\n", r.Error)
		fmt.Fprintf(w, "  needs     claude %s for %s\n", r.ExpectedVersion, r.Platform)
		return
	}
	fmt.Fprintf(w, "  path      %s\n", r.Path)
	from := describeSelection(r.Source)
	if r.InstalledFrom != "" {
		from += ", downloaded from " + r.InstalledFrom
	}
	fmt.Fprintf(w, "  from      %s\n", from)
	version := r.Version
	if version == "" {
		version = "unknown"
	}
	fmt.Fprintf(w, "  version   %s (Baton needs %s)\n", version, r.ExpectedVersion)
	verified := "no: its sha256 was not checked against the pinned manifest"
	if r.Verified {
		verified = "yes: size and sha256 match the pinned manifest"
	}
	fmt.Fprintf(w, "  verified  %s\n", verified)
	fmt.Fprintf(w, "  platform  %s\n", r.Platform)
	if r.Warning != "" {
		fmt.Fprintf(w, "  warning   %s\n", r.Warning)
	}
}

func describeSelection(source string) string {
	switch source {
	case provision.FromEnv:
		return "CLAUDE_CODE_EXECUTABLE"
	case provision.FromSDKPackage:
		return "the SDK's native package in the checkout " + provision.DevTreeEnv + " names"
	case provision.FromProvisioned:
		return "installed by baton provision"
	case provision.FromPath:
		return "PATH"
	}
	return source
}
