// Command bench times provisioning a claude-sized artifact from a loopback server against the baseline
// `curl -o f && sha256sum f` in the same run, and prints the ratio (target ≤ 1.0). It is a benchmark, not a test:
// run it through scripts/bench.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"time"

	"github.com/baton-console/baton/provision"
)

func main() {
	size := flag.Int64("size", 402325736, "artifact size in bytes (default: the real linux-x64 claude's)")
	rounds := flag.Int("rounds", 3, "rounds of each; the median is compared")
	flag.Parse()
	if err := run(*size, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(size int64, rounds int) error {
	if _, err := exec.LookPath("curl"); err != nil {
		return errors.New("curl is needed for the baseline")
	}
	dir, err := os.MkdirTemp("", "baton-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	artifact := filepath.Join(dir, "claude-artifact")
	fmt.Printf("writing a %.0f MB artifact…\n", float64(size)/1e6)
	sum, err := writeArtifact(artifact, size)
	if err != nil {
		return err
	}
	url, closeServer, err := serve(artifact)
	if err != nil {
		return err
	}
	defer closeServer()

	platform, err := provision.CurrentPlatform()
	if err != nil {
		return err
	}
	m := provision.Manifest{Version: "0.0.1", SDKVersion: "0.0.1",
		Platforms: map[string]provision.Artifact{platform.String(): {Binary: "claude", Checksum: sum, Size: size}}}

	var curlTimes, batonTimes []time.Duration
	for i := range rounds {
		d, err := timeCurl(ctx, dir, url+"/0.0.1/"+platform.String()+"/claude", sum)
		if err != nil {
			return err
		}
		curlTimes = append(curlTimes, d)
		d, err = timeProvision(ctx, dir, url, m, platform.String())
		if err != nil {
			return err
		}
		batonTimes = append(batonTimes, d)
		fmt.Printf("round %d: curl+sha256sum %6.2fs   baton %6.2fs\n", i+1, curlTimes[i].Seconds(), batonTimes[i].Seconds())
	}
	c, b := median(curlTimes), median(batonTimes)
	ratio := b.Seconds() / c.Seconds()
	verdict := "within target"
	if ratio > 1.0 {
		verdict = "ABOVE TARGET"
	}
	fmt.Printf("median: curl+sha256sum %.2fs (%.0f MB/s)   baton %.2fs (%.0f MB/s)\n", c.Seconds(), float64(size)/1e6/c.Seconds(), b.Seconds(), float64(size)/1e6/b.Seconds())
	fmt.Printf("ratio baton/curl = %.2f (target ≤ 1.0: %s)\n", ratio, verdict)
	return nil
}

// writeArtifact writes incompressible bytes and returns their sha256.
func writeArtifact(path string, size int64) (string, error) {
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	rng := rand.New(rand.NewChaCha8([32]byte{1}))
	buf := make([]byte, 1<<20)
	for left := size; left > 0; {
		n := min(int64(len(buf)), left)
		for i := 0; i < int(n); i += 8 {
			v := rng.Uint64()
			for j := 0; j < 8 && i+j < int(n); j++ {
				buf[i+j] = byte(v >> (8 * j))
			}
		}
		if _, err := f.Write(buf[:n]); err != nil {
			return "", err
		}
		h.Write(buf[:n])
		left -= n
	}
	return hex.EncodeToString(h.Sum(nil)), f.Sync()
}

func serve(artifact string) (string, func(), error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := os.Open(artifact)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		defer f.Close()
		info, _ := f.Stat()
		http.ServeContent(w, r, "claude", info.ModTime(), f)
	})}
	go func() { _ = srv.Serve(l) }()
	return "http://" + l.Addr().String(), func() { _ = srv.Close() }, nil
}

func timeCurl(ctx context.Context, dir, url, want string) (time.Duration, error) {
	out := filepath.Join(dir, "curl-out")
	defer os.Remove(out)
	start := time.Now()
	cmd := exec.CommandContext(ctx, "bash", "-c", `curl -sS -o "$1" "$2" && sha256sum "$1"`, "bash", out, url)
	got, err := cmd.Output()
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("curl baseline: %w", err)
	}
	if len(got) < 64 || string(got[:64]) != want {
		return 0, fmt.Errorf("curl baseline produced sha256 %q, want %s", got, want)
	}
	return d, nil
}

func timeProvision(ctx context.Context, dir, url string, m provision.Manifest, platform string) (time.Duration, error) {
	data := filepath.Join(dir, "data")
	defer os.RemoveAll(data)
	p := provision.New(provision.Options{DataDir: data, Manifest: &m, Platform: platform, CDNBaseURL: url,
		NPMRegistry: "http://127.0.0.1:9/", NPMCommand: "-", Getenv: func(string) string { return "" }})
	start := time.Now()
	r, err := p.Ensure(ctx, nil)
	d := time.Since(start)
	if err != nil {
		return 0, err
	}
	if r.Source != provision.SourceCDN {
		return 0, fmt.Errorf("provisioned from %s, not the loopback server", r.Source)
	}
	return d, nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
