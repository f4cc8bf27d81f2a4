package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/baton-console/baton/provision"
	"golang.org/x/term"
)

const provisionUsage = "baton provision [--json] [--force]"

// provisionTestHook lets tests point provisioning at loopback servers and a test manifest; nil in production.
var provisionTestHook func(*provision.Options)

// RunProvision installs the pinned claude executable: a progress bar on a terminal, NDJSON with --json, and
// finally the path, version, source and sha256.
func RunProvision(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("provision", provisionUsage, stderr)
	asJSON := fs.Bool("json", false, "print progress and the result as NDJSON")
	force := fs.Bool("force", false, "download and install again even if it is installed")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if fs.NArg() > 0 {
		return usageError(stderr, provisionUsage, "unexpected argument %q", fs.Arg(0))
	}
	opts := provision.Options{Force: *force}
	if provisionTestHook != nil {
		provisionTestHook(&opts)
	}
	var out provisionPrinter
	if *asJSON {
		out = &jsonProvisionPrinter{enc: json.NewEncoder(stdout)}
	} else {
		out = &textProvisionPrinter{w: stdout, stderr: stderr, tty: isTerminal(stdout)}
	}
	r, err := provision.New(opts).Ensure(ctx, out.progress)
	if err != nil {
		out.failure(err)
		if ctx.Err() != nil {
			return ExitCanceled
		}
		return ExitFailure
	}
	out.result(r)
	return ExitOK
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

type provisionPrinter interface {
	progress(provision.Progress)
	result(provision.Result)
	failure(error)
}

// NDJSON lines of `baton provision --json`, told apart by "type".
type (
	provisionProgressLine struct {
		Type string `json:"type"` // "progress"
		provision.Progress
	}
	provisionResultLine struct {
		Type string `json:"type"` // "result"
		provision.Result
	}
	provisionErrorLine struct {
		Type     string                 `json:"type"` // "error"
		Message  string                 `json:"message"`
		Attempts []provisionAttemptLine `json:"attempts,omitempty"`
	}
	provisionAttemptLine struct {
		Source string `json:"source"`
		URL    string `json:"url"`
		Error  string `json:"error"`
	}
)

type jsonProvisionPrinter struct {
	enc *json.Encoder
}

func (p *jsonProvisionPrinter) progress(pr provision.Progress) {
	_ = p.enc.Encode(provisionProgressLine{Type: "progress", Progress: pr})
}

func (p *jsonProvisionPrinter) result(r provision.Result) {
	_ = p.enc.Encode(provisionResultLine{Type: "result", Result: r})
}

func (p *jsonProvisionPrinter) failure(err error) {
	line := provisionErrorLine{Type: "error", Message: err.Error()}
	var pe *provision.Error
	if errors.As(err, &pe) {
		for _, a := range pe.Attempts {
			line.Attempts = append(line.Attempts, provisionAttemptLine{Source: a.Source, URL: a.URL, Error: a.Err.Error()})
		}
	}
	_ = p.enc.Encode(line)
}

// textProvisionPrinter draws a one-line progress bar on a terminal; elsewhere it prints one line per step.
type textProvisionPrinter struct {
	w, stderr io.Writer
	tty       bool
	barShown  bool
	lastStep  string
}

func (p *textProvisionPrinter) progress(pr provision.Progress) {
	switch pr.Phase {
	case provision.PhaseDownloading, provision.PhaseUnpacking:
		step := fmt.Sprintf("%s %s from %s", verbFor(pr.Phase), pr.Artifact, sourceName(pr.Source))
		if p.tty {
			fmt.Fprintf(p.w, "\r\x1b[K%s", progressBar(step, pr, 24))
			p.barShown = true
		} else if step != p.lastStep {
			fmt.Fprintf(p.w, "%s…\n", step)
		}
		p.lastStep = step
	case provision.PhaseWaiting:
		p.line(pr.Message + "…")
	case provision.PhaseRetrying:
		p.line(fmt.Sprintf("retrying (attempt %d): %s", pr.Attempt, pr.Message))
	case provision.PhaseFallback:
		p.line(fmt.Sprintf("%s from %s did not work: %s", pr.Artifact, sourceName(pr.Source), pr.Message))
	case provision.PhaseInstalling:
		p.line("verified; installing…")
	case provision.PhaseDone:
		p.clearBar()
	}
}

// line prints a message on its own line, below a progress bar if one is showing.
func (p *textProvisionPrinter) line(s string) {
	p.clearBar()
	fmt.Fprintln(p.w, s)
	p.lastStep = ""
}

func (p *textProvisionPrinter) clearBar() {
	if p.barShown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.barShown = false
	}
}

func (p *textProvisionPrinter) result(r provision.Result) {
	p.clearBar()
	if r.AlreadyInstalled {
		fmt.Fprintf(p.w, "claude %s is already installed.\n", r.Version)
	} else {
		fmt.Fprintf(p.w, "claude %s is installed.\n", r.Version)
	}
	source := sourceName(r.Source)
	if r.URL != "" {
		source += " (" + r.URL + ")"
	}
	fmt.Fprintf(p.w, "  path     %s\n  version  %s\n  source   %s\n  sha256   %s\n", r.Path, r.Version, source, r.SHA256)
}

func (p *textProvisionPrinter) failure(err error) {
	p.clearBar()
	fmt.Fprintf(p.stderr, "baton provision: %v\n", err)
}

func verbFor(ph provision.Phase) string {
	if ph == provision.PhaseUnpacking {
		return "unpacking"
	}
	return "downloading"
}

func sourceName(source string) string {
	switch source {
	case provision.SourceCDN:
		return "the release CDN"
	case provision.SourceNPM:
		return "the npm registry"
	case "", "unknown":
		return "an earlier install"
	}
	return source
}

// progressBar renders "step [#####-----]  45%  62.1/137.7 MB  48.2 MB/s".
func progressBar(step string, pr provision.Progress, width int) string {
	if pr.Total <= 0 {
		return fmt.Sprintf("%s  %s  %s", step, megabytes(pr.Bytes), rate(pr.Rate))
	}
	frac := min(max(float64(pr.Bytes)/float64(pr.Total), 0), 1)
	filled := int(frac * float64(width))
	return fmt.Sprintf("%s [%s%s] %3.0f%%  %s/%s  %s", step, strings.Repeat("#", filled), strings.Repeat("-", width-filled),
		frac*100, strings.TrimSuffix(megabytes(pr.Bytes), " MB"), megabytes(pr.Total), rate(pr.Rate))
}

func megabytes(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

func rate(bps float64) string {
	return fmt.Sprintf("%.1f MB/s", bps/1e6)
}
