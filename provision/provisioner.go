package provision

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/baton-console/baton/provision/platform"
	"github.com/rs/zerolog"
)

// DefaultCDNBaseURL is Anthropic's release bucket: <base>/<version>/<platform>/<file>. BATON_CDN_URL overrides it.
const DefaultCDNBaseURL = "https://storage.googleapis.com/claude-code-dist-86c565f3-f756-42ad-8dfa-d59b1c096819/claude-code-releases"

// Sources an executable can be provisioned from.
const (
	SourceCDN = "cdn"
	SourceNPM = "npm"
)

// Options configures a Provisioner. Zero values mean the real environment and production timings; tests shorten
// the timings and inject a manifest.
type Options struct {
	DataDir     string    // default platform.DataDir() (BATON_DATA_DIR, else the platform convention)
	Manifest    *Manifest // default Pinned()
	Platform    string    // manifest key such as "linux-x64"; default CurrentPlatform()
	CDNBaseURL  string    // default BATON_CDN_URL, else DefaultCDNBaseURL
	NPMRegistry string    // default discovered by DiscoverRegistry
	Force       bool      // download and install again even when the version is installed

	Getenv     func(string) string // default os.Getenv
	HomeDir    string              // for ~/.npmrc; default os.UserHomeDir
	NPMCommand string              // default "npm"; "-" never runs npm

	Attempts         int           // per URL; default 4
	Backoff          time.Duration // first retry delay, doubling; default 1s
	MaxBackoff       time.Duration // default 30s
	StallTimeout     time.Duration // no bytes for this long abandons a connection; default 30s
	MinRateBytes     int64         // fewer bytes than this in any MinRateWindow abandons the source; default 64 KB
	MinRateWindow    time.Duration // default 30s
	ConnectTimeout   time.Duration // default 20s
	LockPoll         time.Duration // how often a waiting process retries the lock; default 250ms
	ProgressInterval time.Duration // minimum gap between download progress events; default 100ms

	// Proxy chooses a proxy per request; default http.ProxyFromEnvironment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY).
	Proxy  func(*http.Request) (*url.URL, error)
	Logger *zerolog.Logger // nil: no logs
}

// Result describes the installed executable.
type Result struct {
	Path             string          `json:"path"`
	Version          string          `json:"version"`
	Platform         string          `json:"platform"`
	Source           string          `json:"source"`   // "cdn" or "npm"
	Artifact         string          `json:"artifact"` // the file fetched: "claude.zst", "claude", or the npm tarball
	URL              string          `json:"url,omitempty"`
	SHA256           string          `json:"sha256"`
	Size             int64           `json:"size"`
	AlreadyInstalled bool            `json:"alreadyInstalled"`
	Tried            []SourceAttempt `json:"-"` // sources that failed before the one that worked
}

// Provisioner installs the pinned claude executable into the data directory.
type Provisioner struct {
	opts      Options
	log       zerolog.Logger
	transport *http.Transport
	fetch     *fetcher
}

// New prepares a Provisioner; nothing touches the disk or network until Ensure.
func New(opts Options) *Provisioner {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.CDNBaseURL == "" {
		opts.CDNBaseURL = opts.Getenv("BATON_CDN_URL")
	}
	if opts.CDNBaseURL == "" {
		opts.CDNBaseURL = DefaultCDNBaseURL
	}
	setDefault(&opts.Attempts, 4)
	setDefault(&opts.Backoff, time.Second)
	setDefault(&opts.MaxBackoff, 30*time.Second)
	setDefault(&opts.StallTimeout, 30*time.Second)
	if opts.MinRateBytes <= 0 {
		opts.MinRateBytes = 64 << 10
	}
	setDefault(&opts.MinRateWindow, 30*time.Second)
	setDefault(&opts.ConnectTimeout, 20*time.Second)
	setDefault(&opts.LockPoll, 250*time.Millisecond)
	setDefault(&opts.ProgressInterval, 100*time.Millisecond)
	if opts.Proxy == nil {
		opts.Proxy = http.ProxyFromEnvironment
	}
	log := zerolog.Nop()
	if opts.Logger != nil {
		log = opts.Logger.With().Str("component", "provision").Logger()
	}
	tr := &http.Transport{
		Proxy:               opts.Proxy,
		DialContext:         (&net.Dialer{Timeout: opts.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout: opts.ConnectTimeout,
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 2,
		IdleConnTimeout:     30 * time.Second,
		ReadBufferSize:      256 << 10,
		// Transparent gzip would hide the real byte counts that Range and the size checks depend on.
		DisableCompression: true,
	}
	return &Provisioner{
		opts:      opts,
		log:       log,
		transport: tr,
		fetch: &fetcher{
			client:     &http.Client{Transport: tr},
			attempts:   opts.Attempts,
			backoff:    opts.Backoff,
			maxBackoff: opts.MaxBackoff,
			stall:      opts.StallTimeout,
			minRate:    rateFloor{Bytes: opts.MinRateBytes, Window: opts.MinRateWindow},
			interval:   opts.ProgressInterval,
			log:        log,
		},
	}
}

func setDefault[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// target is what one run installs.
type target struct {
	manifest Manifest
	platform Platform
	binary   Artifact
	layout   layout
}

func (p *Provisioner) resolve() (target, error) {
	var t target
	if p.opts.Manifest != nil {
		t.manifest = *p.opts.Manifest
	} else {
		t.manifest = Pinned()
	}
	var err error
	if p.opts.Platform != "" {
		t.platform, err = ParsePlatform(p.opts.Platform)
	} else {
		t.platform, err = CurrentPlatform()
	}
	if err != nil {
		return target{}, err
	}
	if t.binary, err = t.manifest.Plain(t.platform); err != nil {
		return target{}, err
	}
	dataDir := p.opts.DataDir
	if dataDir == "" {
		if dataDir, err = platform.DataDir(); err != nil {
			return target{}, err
		}
	}
	t.layout = newLayout(dataDir)
	return t, nil
}

// Ensure installs the pinned executable unless it already is, and returns where it is. It is safe to call from
// several goroutines and processes at once: one installs, the others wait (PhaseWaiting) and return the same path.
// progress may be nil.
func (p *Provisioner) Ensure(ctx context.Context, progress func(Progress)) (Result, error) {
	if progress == nil {
		progress = func(Progress) {}
	}
	defer p.transport.CloseIdleConnections()
	t, err := p.resolve()
	if err != nil {
		return Result{}, err
	}
	if !p.opts.Force {
		if r, ok, pointerOK := p.installed(t); ok && pointerOK {
			progress(Progress{Phase: PhaseDone, Bytes: r.Size, Total: r.Size, Source: r.Source})
			return r, nil
		}
	}
	if err := os.MkdirAll(t.layout.root, 0o755); err != nil {
		return Result{}, p.fail(t, nil, fileError(t.layout.root, "create the directory", err))
	}
	lock, waited, err := acquireInstallLock(ctx, t.layout.lockPath(), p.opts.LockPoll, func(pid int) {
		msg := fmt.Sprintf("waiting for process %d, which is installing claude %s", pid, t.manifest.Version)
		if pid == os.Getpid() {
			msg = fmt.Sprintf("waiting for the install of claude %s already running in this process", t.manifest.Version)
		}
		progress(Progress{Phase: PhaseWaiting, HolderPID: pid, Message: msg})
	})
	if err != nil {
		var le *LocalError
		if errors.As(err, &le) {
			return Result{}, p.fail(t, nil, err)
		}
		return Result{}, err
	}
	defer lock.release()
	// Whoever held the lock may have just installed it.
	if !p.opts.Force || waited {
		if r, ok, pointerOK := p.installed(t); ok {
			if !pointerOK {
				repairPointer(t, r)
			}
			progress(Progress{Phase: PhaseDone, Bytes: r.Size, Total: r.Size, Source: r.Source})
			return r, nil
		}
	}
	r, err := p.install(ctx, t, progress)
	if err != nil {
		return Result{}, err
	}
	progress(Progress{Phase: PhaseDone, Source: r.Source, Artifact: r.Artifact, Bytes: r.Size, Total: r.Size})
	return r, nil
}

// installed reports an executable already in place for this version. pointerOK is false when current.json does
// not name it; only a caller holding the install lock may repair that (see repairPointer).
func (p *Provisioner) installed(t target) (r Result, ok, pointerOK bool) {
	path := t.layout.executable(t.manifest.Version, t.binary.Binary)
	if !ready(path, t.binary) {
		return Result{}, false, false
	}
	// The right size is not the right bytes: a damaged or replaced file is downloaded again.
	if err := verifyFile(path, t.binary, t.layout.root); err != nil {
		p.log.Warn().Str("path", path).Err(err).Msg("the installed claude does not match the manifest; installing it again")
		return Result{}, false, false
	}
	r = Result{Path: path, Version: t.manifest.Version, Platform: t.platform.String(), SHA256: t.binary.Checksum,
		Size: t.binary.Size, AlreadyInstalled: true, Source: "unknown"}
	ptr, err := readPointer(t.layout.pointerPath())
	if err == nil && ptr.Version == r.Version && ptr.Executable == path {
		r.Source, r.Artifact, r.URL = ptr.Source, ptr.Artifact, ptr.URL
		return r, true, true
	}
	return r, true, false
}

func repairPointer(t target, r Result) {
	_ = writePointer(t.layout, Pointer{Version: r.Version, Platform: r.Platform, Executable: r.Path, SHA256: r.SHA256,
		Size: r.Size, Source: r.Source, InstalledAt: time.Now().UTC()})
}

// install tries each source in order until one yields a verified executable, then promotes it.
func (p *Provisioner) install(ctx context.Context, t target, progress func(Progress)) (Result, error) {
	version := t.manifest.Version
	dir := t.layout.versionDir(version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Result{}, p.fail(t, nil, fileError(dir, "create the directory", err))
	}
	defer removeStaging(dir)
	staging := t.layout.stagingPath(version, t.binary.Binary)
	var tried []SourceAttempt
	unreachable := map[string]bool{} // hosts that refused every connection: their other files are skipped
	for c := range p.candidates(ctx, t, &tried) {
		if unreachable[hostOf(c.url)] {
			continue
		}
		p.log.Info().Str("source", c.source).Str("url", redactURL(c.url)).Msg("fetching claude")
		err := p.fetchCandidate(ctx, t, c, staging, progress)
		if err == nil {
			return p.finish(t, c, staging, tried, progress)
		}
		if ctx.Err() != nil {
			return Result{}, fmt.Errorf("installing claude %s was canceled: %w", version, ctx.Err())
		}
		p.log.Warn().Str("source", c.source).Str("url", redactURL(c.url)).Err(err).Msg("source failed")
		tried = append(tried, SourceAttempt{Source: c.source, URL: redactURL(c.url), Err: err})
		var le *LocalError
		if errors.As(err, &le) {
			return Result{}, p.fail(t, tried[:len(tried)-1], err)
		}
		var ue *UnreachableError
		if errors.As(err, &ue) {
			unreachable[hostOf(c.url)] = true
		}
		progress(Progress{Phase: PhaseFallback, Source: c.source, Artifact: c.artifact, URL: redactURL(c.url), Message: err.Error()})
	}
	return Result{}, p.fail(t, tried, nil)
}

func (p *Provisioner) finish(t target, c candidate, staging string, tried []SourceAttempt, progress func(Progress)) (Result, error) {
	final := t.layout.executable(t.manifest.Version, t.binary.Binary)
	progress(Progress{Phase: PhaseInstalling, Source: c.source, Artifact: c.artifact, Bytes: t.binary.Size, Total: t.binary.Size})
	if err := promote(staging, final); err != nil {
		return Result{}, p.fail(t, tried, err)
	}
	recordVerified(final, t.binary.Checksum, t.layout.root) // hashed as it arrived: no need to hash it again
	r := Result{Path: final, Version: t.manifest.Version, Platform: t.platform.String(), Source: c.source,
		Artifact: c.artifact, URL: redactURL(c.url), SHA256: t.binary.Checksum, Size: t.binary.Size, Tried: tried}
	if err := writePointer(t.layout, Pointer{Version: r.Version, Platform: r.Platform, Executable: final,
		SHA256: r.SHA256, Size: r.Size, Source: r.Source, Artifact: r.Artifact, URL: r.URL, InstalledAt: time.Now().UTC()}); err != nil {
		return Result{}, p.fail(t, tried, err)
	}
	kept, err := removeOldVersions(t.layout, t.manifest.Version)
	if err != nil {
		p.log.Warn().Err(err).Msg("could not remove an old claude version")
	}
	for _, dir := range kept {
		p.log.Info().Str("dir", dir).Msg("kept an old claude version that is in use")
	}
	p.log.Info().Str("version", r.Version).Str("source", r.Source).Str("path", r.Path).Msg("claude installed")
	return r, nil
}

func (p *Provisioner) fail(t target, tried []SourceAttempt, local error) error {
	return &Error{Version: t.manifest.Version, Platform: t.platform.String(), Attempts: tried, Local: local}
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Host
}
