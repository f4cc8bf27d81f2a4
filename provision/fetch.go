package provision

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

const userAgent = "baton-provision/1"

// copyBufferSize is large so a 400 MB download costs few syscalls; the hash and the write see each byte once.
const copyBufferSize = 1 << 20

// fetcher downloads one URL into a staging file, hashing and bounding the bytes as it writes them.
type fetcher struct {
	client     *http.Client
	attempts   int
	backoff    time.Duration
	maxBackoff time.Duration
	stall      time.Duration
	minRate    rateFloor
	interval   time.Duration
	log        zerolog.Logger
}

// download describes one file to fetch.
type download struct {
	url      string
	header   http.Header // extra request headers (npm auth); never logged
	path     string      // staging file; a partial one from an earlier attempt or run is resumed
	size     int64       // exact size when known, else 0
	limit    int64       // upper bound when size is 0
	checksum string      // expected sha256 hex; "" when verified after unpacking
	base     Progress    // Source, Artifact and URL for progress events
}

func (d download) bound() int64 {
	if d.size > 0 {
		return d.size
	}
	return d.limit
}

// get downloads d with retries and returns the sha256 of the complete staging file. On a permanent failure the
// staging file is removed; on a transient one it is kept so the next attempt resumes it.
func (f *fetcher) get(ctx context.Context, d download, report func(Progress)) (string, error) {
	var err error
	for attempt := 1; ; attempt++ {
		var sum string
		sum, err = f.try(ctx, d, attempt, report)
		if err == nil {
			return sum, nil
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if !retryable(err) || attempt >= f.attempts {
			_ = os.Remove(d.path)
			if attempt > 1 {
				err = fmt.Errorf("gave up after %d attempts: %w", attempt, err)
			}
			return "", err
		}
		wait := f.backoffFor(attempt, err)
		f.log.Info().Str("url", redactURL(d.url)).Int("attempt", attempt).Dur("wait", wait).Err(err).Msg("download attempt failed; retrying")
		p := d.base
		p.Phase, p.Attempt, p.Message = PhaseRetrying, attempt+1, err.Error()
		report(p)
		if err := sleepContext(ctx, wait); err != nil {
			return "", err
		}
	}
}

// try makes one request, resuming with Range when the staging file already holds a prefix.
func (f *fetcher) try(ctx context.Context, d download, attempt int, report func(Progress)) (string, error) {
	file, err := os.OpenFile(d.path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return "", fileError(d.path, "create the staging file", err)
	}
	defer file.Close()
	h := sha256.New()
	have, err := resumePoint(file, h, d.bound())
	if err != nil {
		return "", fileError(d.path, "read the partial download", err)
	}
	if d.size > 0 && have == d.size {
		return checkResumed(finishDownload(file, d, h))
	}

	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The watchdog covers the whole request: no response headers or no body bytes for f.stall abandon it.
	watchdog := time.AfterFunc(f.stall, func() { cancel(ErrStalled) })
	defer watchdog.Stop()

	u, resp, err := f.request(actx, d, have)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	have, done, sum, err := continueFrom(file, d, h, resp, have)
	if err != nil || done {
		return sum, err
	}
	resumed := have > 0
	if err := checkOffered(d, have, resp.ContentLength); err != nil {
		return "", err
	}
	rx := receipt{file: file, d: d, h: h, body: resp.Body, have: have, attempt: attempt, report: report}
	if resp.ContentLength >= 0 && d.size == 0 {
		rx.total = have + resp.ContentLength // the npm tarball: the manifest does not know its size
	}
	var got atomic.Int64
	stopFloor := f.minRate.watch(&got, func() { cancel(f.minRate.err()) })
	defer stopFloor()
	if err := f.receive(actx, u, rx, func(n int64) { watchdog.Reset(f.stall); got.Store(n) }); err != nil {
		return "", err
	}
	sum, err = finishDownload(file, d, h)
	if resumed {
		return checkResumed(sum, err)
	}
	return sum, err
}

// request sends the GET, asking for the rest of the file when have bytes are already on disk.
func (f *fetcher) request(ctx context.Context, d download, have int64) (*url.URL, *http.Response, error) {
	u, err := url.Parse(d.url)
	if err != nil {
		return nil, nil, fmt.Errorf("bad download URL %q: %w", redactURL(d.url), err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.url, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("bad download URL %q: %w", redactURL(d.url), err)
	}
	for k, v := range d.header {
		req.Header[k] = v
	}
	req.Header.Set("User-Agent", userAgent)
	if have > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", have))
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, nil, transferError(ctx, u, err)
	}
	return u, resp, nil
}

// continueFrom reads the response status against what is on disk: it returns the offset the body continues the
// file at (0 after a restart), or done with the result when the partial file already was the whole file.
func continueFrom(file *os.File, d download, h hash.Hash, resp *http.Response, have int64) (int64, bool, string, error) {
	switch {
	case resp.StatusCode == http.StatusPartialContent && have > 0:
		start, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != have {
			return 0, false, "", restart(file, errRangeIgnored)
		}
		if d.size > 0 && total >= 0 && total != d.size {
			return 0, false, "", &SizeError{Expected: d.size, Got: total}
		}
		return have, false, "", nil
	case resp.StatusCode == http.StatusOK:
		if have > 0 {
			if err := restartFile(file); err != nil {
				return 0, false, "", fileError(d.path, "restart the download", err)
			}
			h.Reset()
		}
		return 0, false, "", nil
	case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable && have > 0:
		if _, total, ok := parseContentRange(resp.Header.Get("Content-Range")); ok && d.size == 0 && total == have {
			sum, err := finishDownload(file, d, h) // the partial was already the whole file
			return have, true, sum, err
		}
		return 0, false, "", restart(file, errRangeIgnored)
	default:
		return 0, false, "", statusError(resp)
	}
}

// checkOffered refuses a body whose announced length cannot be the file.
func checkOffered(d download, have, contentLength int64) error {
	if contentLength < 0 {
		return nil
	}
	if d.size > 0 && have+contentLength != d.size {
		return &SizeError{Expected: d.size, Got: have + contentLength}
	}
	if d.size == 0 && have+contentLength > d.limit {
		return fmt.Errorf("%w: the server offered %d bytes, at most %d expected", ErrTooLarge, have+contentLength, d.limit)
	}
	return nil
}

// receipt is one body being written into the staging file from offset have.
type receipt struct {
	file    *os.File
	d       download
	h       hash.Hash
	body    io.Reader
	have    int64
	total   int64 // when the manifest does not know the size: what the server announced (0: unknown)
	attempt int
	report  func(Progress)
}

// receive appends the body to the staging file, reporting progress and feeding the watchdog on every read.
func (f *fetcher) receive(ctx context.Context, u *url.URL, rx receipt, alive func(int64)) error {
	if _, err := rx.file.Seek(rx.have, io.SeekStart); err != nil {
		return fileError(rx.d.path, "seek in the staging file", err)
	}
	base := rx.d.base
	base.Phase, base.Attempt, base.Total = PhaseDownloading, rx.attempt, rx.d.size
	if rx.total > 0 {
		base.Total = rx.total
	}
	m := newMeter(rx.report, base, rx.have, f.interval)
	have, err := copyBounded(rx.file, rx.h, rx.body, rx.have, rx.d.bound(), func(n int64) {
		alive(n)
		m.update(n)
	})
	m.finish(have)
	if err != nil {
		var le *LocalError
		if errors.As(err, &le) || errors.Is(err, ErrTooLarge) {
			return err
		}
		return transferError(ctx, u, err)
	}
	if rx.d.size > 0 && have < rx.d.size {
		return errTruncated
	}
	return nil
}

// checkResumed turns a checksum mismatch of a resumed download into a retry from byte 0: the kept prefix may
// come from a different file (a killed run, a replaced object), which only a fresh download can tell.
func checkResumed(sum string, err error) (string, error) {
	var ce *ChecksumError
	if errors.As(err, &ce) {
		return "", fmt.Errorf("%w (%v)", errStaleResume, err)
	}
	return sum, err
}

// copyBounded appends src to file and h until EOF, failing with ErrTooLarge as soon as the total would pass bound.
func copyBounded(file *os.File, h hash.Hash, src io.Reader, have, bound int64, onBytes func(int64)) (int64, error) {
	buf := make([]byte, copyBufferSize)
	for {
		n, rerr := src.Read(buf)
		if n > 0 {
			if have+int64(n) > bound {
				return have, fmt.Errorf("%w: more than %d bytes arrived", ErrTooLarge, bound)
			}
			if _, err := file.Write(buf[:n]); err != nil {
				return have, fileError(file.Name(), "write the download", err)
			}
			h.Write(buf[:n])
			have += int64(n)
			onBytes(have)
		}
		if rerr == io.EOF {
			return have, nil
		}
		if rerr != nil {
			return have, rerr
		}
	}
}

// resumePoint hashes the prefix a staging file already holds, or empties the file when it cannot be a prefix.
func resumePoint(file *os.File, h hash.Hash, bound int64) (int64, error) {
	info, err := file.Stat()
	if err != nil {
		return 0, err
	}
	have := info.Size()
	if have == 0 {
		return 0, nil
	}
	if have > bound {
		return 0, restartFile(file)
	}
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	if _, err := io.CopyN(h, file, have); err != nil {
		h.Reset()
		return 0, restartFile(file)
	}
	return have, nil
}

func finishDownload(file *os.File, d download, h hash.Hash) (string, error) {
	sum := hex.EncodeToString(h.Sum(nil))
	if d.checksum != "" && sum != d.checksum {
		_ = file.Truncate(0)
		return "", &ChecksumError{Expected: d.checksum, Got: sum}
	}
	return sum, nil
}

func restartFile(file *os.File) error {
	if err := file.Truncate(0); err != nil {
		return err
	}
	_, err := file.Seek(0, io.SeekStart)
	return err
}

// restart empties the staging file so the next attempt starts from byte 0, and returns cause.
func restart(file *os.File, cause error) error {
	if err := restartFile(file); err != nil {
		return fileError(file.Name(), "restart the download", err)
	}
	return cause
}

func statusError(resp *http.Response) error {
	e := &HTTPStatusError{Code: resp.StatusCode, Status: resp.Status}
	if s, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After"))); err == nil && s > 0 {
		e.RetryAfter = s
	}
	return e
}

// transferError names a stalled transfer as such (the watchdog canceled it) and an unreachable host as offline.
func transferError(actx context.Context, u *url.URL, err error) error {
	if errors.Is(context.Cause(actx), ErrStalled) {
		return ErrStalled
	}
	var slow *TooSlowError
	if errors.As(context.Cause(actx), &slow) {
		return slow
	}
	return classifyTransportErr(u, err)
}

// parseContentRange reads "bytes start-end/total" or "bytes */total"; total is -1 when "*".
func parseContentRange(v string) (start, total int64, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(v), "bytes ")
	if !found {
		return 0, 0, false
	}
	span, totalStr, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, false
	}
	total = -1
	if totalStr != "*" {
		t, err := strconv.ParseInt(totalStr, 10, 64)
		if err != nil {
			return 0, 0, false
		}
		total = t
	}
	if span == "*" {
		return 0, total, true
	}
	startStr, _, found := strings.Cut(span, "-")
	if !found {
		return 0, 0, false
	}
	s, err := strconv.ParseInt(startStr, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return s, total, true
}

func (f *fetcher) backoffFor(attempt int, err error) time.Duration {
	var st *HTTPStatusError
	if errors.As(err, &st) && st.RetryAfter > 0 {
		return min(time.Duration(st.RetryAfter)*time.Second, f.maxBackoff)
	}
	d := f.backoff << (attempt - 1)
	if d <= 0 || d > f.maxBackoff {
		d = f.maxBackoff
	}
	// Jitter keeps two Baton processes from retrying in lockstep.
	return d/2 + rand.N(d/2+1)
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// fileError wraps a file-system error, marking disk-full and read-only faults as LocalError.
func fileError(path, action string, err error) error {
	if le := localFault(path, err); le != nil {
		return le
	}
	return fmt.Errorf("could not %s %s: %w", action, path, err)
}
