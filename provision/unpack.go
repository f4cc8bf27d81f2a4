package provision

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// unpackZst decompresses a verified claude.zst into dst, never writing past the executable's manifest size, and
// verifies the executable's size and sha256.
func unpackZst(ctx context.Context, src, dst string, want Artifact, m *meter) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("could not reopen the download %s: %w", src, err)
	}
	defer in.Close()
	// The window may legitimately reach the content size; anything larger is refused rather than allocated.
	dec, err := zstd.NewReader(in, zstd.WithDecoderMaxWindow(uint64(max(2*want.Size, zstd.MinWindowSize))))
	if err != nil {
		return fmt.Errorf("could not start decompressing: %w", err)
	}
	defer dec.Close()
	if err := writeVerified(ctx, dst, dec, want, m); err != nil {
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) {
			err = fmt.Errorf("%w: %w", ErrTooLarge, err) // the frame itself declares too much
		}
		return fmt.Errorf("decompressing %s: %w", strings.TrimSuffix(strings.TrimPrefix(path.Base(src), "."), stagingSuffix), err)
	}
	return nil
}

// unpackTarball extracts only the executable member of an npm package tarball into dst. It refuses the whole
// tarball when any member is a link, an absolute path or climbs with "..", and bounds the member by want.Size.
func unpackTarball(ctx context.Context, src, dst, binary string, want Artifact, m *meter) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("could not reopen the download %s: %w", src, err)
	}
	defer in.Close()
	gz, err := gzip.NewReader(in)
	if err != nil {
		return fmt.Errorf("the package tarball is not gzip data: %w", err)
	}
	defer gz.Close()
	tr := tar.NewReader(ctxReader{ctx: ctx, r: gz})
	found := false
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			_ = os.Remove(dst)
			return fmt.Errorf("the package tarball is damaged: %w", err)
		}
		if reason := unsafeMember(hdr); reason != "" {
			_ = os.Remove(dst)
			return &UnsafeArchiveError{Member: hdr.Name, Reason: reason}
		}
		if hdr.Typeflag != tar.TypeReg || packagePath(hdr.Name) != binary {
			continue
		}
		if found {
			_ = os.Remove(dst)
			return &UnsafeArchiveError{Member: hdr.Name, Reason: "appears twice"}
		}
		if hdr.Size != want.Size {
			return fmt.Errorf("the package's %s: %w", binary, &SizeError{Expected: want.Size, Got: hdr.Size})
		}
		if err := writeVerified(ctx, dst, tr, want, m); err != nil {
			return fmt.Errorf("the package's %s: %w", binary, err)
		}
		found = true
	}
	if !found {
		return fmt.Errorf("the package tarball holds no regular file package/%s", binary)
	}
	return nil
}

// unsafeMember explains why a tar member is refused, or returns "" for a plain file or directory inside the package.
func unsafeMember(hdr *tar.Header) string {
	name := strings.ReplaceAll(hdr.Name, `\`, "/")
	switch {
	case strings.HasPrefix(name, "/") || (len(name) > 1 && name[1] == ':'):
		return "has an absolute path"
	case containsDotDot(name):
		return "climbs out of the package with .."
	}
	switch hdr.Typeflag {
	case tar.TypeReg, tar.TypeDir, tar.TypeXGlobalHeader:
		return ""
	case tar.TypeSymlink, tar.TypeLink:
		return "is a link (to " + hdr.Linkname + ")"
	}
	return fmt.Sprintf("is not a regular file (type %q)", hdr.Typeflag)
}

func containsDotDot(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return true
		}
	}
	return false
}

// packagePath strips the tarball's top directory ("package/" for npm), as npm itself does.
func packagePath(name string) string {
	name = strings.TrimPrefix(path.Clean(strings.ReplaceAll(name, `\`, "/")), "./")
	if _, rest, ok := strings.Cut(name, "/"); ok {
		return rest
	}
	return ""
}

// writeVerified writes r into a fresh dst, failing at the first byte past want.Size, then checks size and sha256.
// On any failure dst is removed.
func writeVerified(ctx context.Context, dst string, r io.Reader, want Artifact, m *meter) error {
	out, err := os.OpenFile(dst, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fileError(dst, "create the staging file", err)
	}
	h := sha256.New()
	n, err := copyBounded(out, h, ctxReader{ctx: ctx, r: r}, 0, want.Size, m.update)
	m.finish(n)
	if cerr := out.Close(); err == nil && cerr != nil {
		err = fileError(dst, "write the staging file", cerr)
	}
	if err == nil && n != want.Size {
		err = &SizeError{Expected: want.Size, Got: n}
	}
	if err == nil {
		if sum := hex.EncodeToString(h.Sum(nil)); sum != want.Checksum {
			err = &ChecksumError{Expected: want.Checksum, Got: sum}
		}
	}
	if err != nil {
		_ = os.Remove(dst)
	}
	return err
}

// ctxReader stops a long local copy (decompression, extraction) when the run is canceled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
