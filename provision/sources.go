package provision

import (
	"context"
	"iter"
	"net/http"
	"os"
	"path"
	"strings"
)

// candidateKind is how a fetched file becomes the executable.
type candidateKind int

const (
	kindPlain   candidateKind = iota // the executable itself
	kindZst                          // zstd-compressed executable
	kindTarball                      // npm package tarball holding package/<binary>
)

// candidate is one URL to try.
type candidate struct {
	source   string // SourceCDN or SourceNPM
	artifact string // file name, for progress and reports
	url      string
	kind     candidateKind
	zst      Artifact    // the compressed artifact, for kindZst
	header   http.Header // npm auth; never logged
}

// candidates yields the sources in order: the CDN's zstd artifact (when the manifest lists one), the CDN's plain
// executable, then the npm package. The registry is looked up only if the CDN fails; a lookup failure is
// recorded in tried.
func (p *Provisioner) candidates(ctx context.Context, t target, tried *[]SourceAttempt) iter.Seq[candidate] {
	return func(yield func(candidate) bool) {
		base := strings.TrimRight(p.opts.CDNBaseURL, "/") + "/" + t.manifest.Version + "/" + t.platform.String() + "/"
		if z, ok := t.manifest.Zst(t.platform); ok {
			if !yield(candidate{source: SourceCDN, artifact: z.Binary, url: base + z.Binary, kind: kindZst, zst: z}) {
				return
			}
		}
		if !yield(candidate{source: SourceCDN, artifact: t.binary.Binary, url: base + t.binary.Binary, kind: kindPlain}) {
			return
		}
		reg, err := p.registry(ctx)
		if err != nil {
			*tried = append(*tried, SourceAttempt{Source: SourceNPM, URL: "(no registry)", Err: err})
			return
		}
		c := candidate{source: SourceNPM, url: reg.TarballURL(t.platform, t.manifest.SDKVersion), kind: kindTarball}
		c.artifact = path.Base(c.url)
		if reg.authToken != "" {
			c.header = http.Header{"Authorization": {"Bearer " + reg.authToken}}
		}
		yield(c)
	}
}

func (p *Provisioner) registry(ctx context.Context) (Registry, error) {
	if p.opts.NPMRegistry != "" {
		u, err := normaliseRegistry(p.opts.NPMRegistry)
		if err != nil {
			return Registry{}, err
		}
		return Registry{URL: u, From: "options"}, nil
	}
	return DiscoverRegistry(ctx, RegistryOptions{Getenv: p.opts.Getenv, HomeDir: p.opts.HomeDir, NPMCommand: p.opts.NPMCommand})
}

// fetchCandidate downloads one candidate and leaves the verified executable at staging.
func (p *Provisioner) fetchCandidate(ctx context.Context, t target, c candidate, staging string, progress func(Progress)) error {
	base := Progress{Source: c.source, Artifact: c.artifact, URL: redactURL(c.url)}
	d := download{url: c.url, header: c.header, base: base}
	switch c.kind {
	case kindPlain:
		d.path, d.size, d.checksum = staging, t.binary.Size, t.binary.Checksum
		_, err := p.fetch.get(ctx, d, progress)
		return err
	case kindZst:
		d.path, d.size, d.checksum = t.layout.stagingPath(t.manifest.Version, c.zst.Binary), c.zst.Size, c.zst.Checksum
		if _, err := p.fetch.get(ctx, d, progress); err != nil {
			return err
		}
		defer os.Remove(d.path)
		return unpackZst(ctx, d.path, staging, t.binary, p.unpackMeter(base, t.binary.Size, progress))
	default:
		// The tarball has no checksum of its own in the manifest; its member is verified against the executable's.
		d.path = t.layout.stagingPath(t.manifest.Version, c.artifact)
		d.limit = t.binary.Size + t.binary.Size/32 + 16<<20
		if _, err := p.fetch.get(ctx, d, progress); err != nil {
			return err
		}
		defer os.Remove(d.path)
		return unpackTarball(ctx, d.path, staging, t.binary.Binary, t.binary, p.unpackMeter(base, t.binary.Size, progress))
	}
}

func (p *Provisioner) unpackMeter(base Progress, total int64, progress func(Progress)) *meter {
	base.Phase, base.Total = PhaseUnpacking, total
	return newMeter(progress, base, 0, p.opts.ProgressInterval)
}
