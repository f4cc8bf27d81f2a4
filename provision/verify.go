package provision

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Every claude Baton picks is checked against the manifest's sha256 before it runs. Hashing ~400 MB takes
// seconds, so the result is remembered per file identity (fileStamp): in memory for this process, and on disk in
// <data dir>/runtime/claude/verified.json so the next `baton exec` need not hash again. A file that changes in
// any way gets a new stamp and is hashed afresh.

const verifiedName = "verified.json"

// maxVerified bounds verified.json: a few executables (provisioned, dev tree, PATH) are ever checked.
const maxVerified = 8

// fileStamp identifies one version of a file's bytes (see stampOf).
type fileStamp struct {
	Dev      uint64 `json:"dev"`
	Ino      uint64 `json:"ino"`
	Size     int64  `json:"size"`
	ModNs    int64  `json:"modNs"`
	ChangeNs int64  `json:"changeNs"`
}

// verifiedFile is one hashed file: its path, its stamp when hashed and its sha256.
type verifiedFile struct {
	Path   string    `json:"path"`
	Stamp  fileStamp `json:"stamp"`
	SHA256 string    `json:"sha256"`
}

type verifiedStore struct {
	Files []verifiedFile `json:"files"`
}

var (
	verifiedMu  sync.Mutex
	verifiedMem = map[string]verifiedFile{}
	hashMu      sync.Mutex // one 400 MB hash at a time; a second caller waits and finds the first one's result
)

// verifyFile checks path's size and sha256 against a, hashing only when this version of the file has not been
// hashed before. cacheDir holds verified.json ("": memory only).
func verifyFile(path string, a Artifact, cacheDir string) error {
	stamp, err := statStamp(path)
	if err != nil {
		return err
	}
	if stamp.Size != a.Size {
		return fmt.Errorf("it is %d bytes, not the manifest's %d", stamp.Size, a.Size)
	}
	sum, err := fileSum(path, stamp, cacheDir)
	if err != nil {
		return err
	}
	if sum != a.Checksum {
		return &ChecksumError{Expected: a.Checksum, Got: sum}
	}
	return nil
}

// fileSum returns the sha256 of path, whose stamp is stamp: from the cache when that version was hashed before.
func fileSum(path string, stamp fileStamp, cacheDir string) (string, error) {
	if sum, ok := cachedSum(path, stamp, cacheDir); ok {
		return sum, nil
	}
	hashMu.Lock()
	defer hashMu.Unlock()
	if sum, ok := cachedSum(path, stamp, cacheDir); ok {
		return sum, nil
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return "", err
	}
	// Remember the sum only if the file did not change while it was read.
	if after, err := statStamp(path); err == nil && after == stamp {
		rememberSum(verifiedFile{Path: path, Stamp: stamp, SHA256: sum}, cacheDir)
	}
	return sum, nil
}

func statStamp(path string) (fileStamp, error) {
	info, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, err
	}
	if !info.Mode().IsRegular() {
		return fileStamp{}, fmt.Errorf("%s is not a regular file", path)
	}
	return stampOf(info), nil
}

// recordVerified remembers a file whose bytes were just verified some other way (a download hashed as it arrived).
func recordVerified(path, sum, cacheDir string) {
	if stamp, err := statStamp(path); err == nil {
		rememberSum(verifiedFile{Path: path, Stamp: stamp, SHA256: sum}, cacheDir)
	}
}

func cachedSum(path string, stamp fileStamp, cacheDir string) (string, bool) {
	verifiedMu.Lock()
	defer verifiedMu.Unlock()
	if v, ok := verifiedMem[path]; ok && v.Stamp == stamp {
		return v.SHA256, true
	}
	if !stampIsStrong || cacheDir == "" {
		return "", false
	}
	for _, v := range readVerifiedStore(cacheDir).Files {
		if v.Path == path && v.Stamp == stamp {
			verifiedMem[path] = v
			return v.SHA256, true
		}
	}
	return "", false
}

func rememberSum(v verifiedFile, cacheDir string) {
	verifiedMu.Lock()
	defer verifiedMu.Unlock()
	verifiedMem[v.Path] = v
	if !stampIsStrong || cacheDir == "" {
		return
	}
	store := readVerifiedStore(cacheDir)
	store.Files = slices.DeleteFunc(store.Files, func(f verifiedFile) bool { return f.Path == v.Path })
	store.Files = append(store.Files, v)
	if n := len(store.Files); n > maxVerified {
		store.Files = store.Files[n-maxVerified:]
	}
	// Only a cache: a failure to write it costs a hash next time, nothing more.
	_ = writeVerifiedStore(cacheDir, store)
}

// readVerifiedStore reads verified.json; a missing or damaged file is an empty cache.
func readVerifiedStore(dir string) verifiedStore {
	var s verifiedStore
	if b, err := os.ReadFile(filepath.Join(dir, verifiedName)); err == nil {
		if json.Unmarshal(b, &s) != nil {
			return verifiedStore{}
		}
	}
	return s
}

// writeVerifiedStore replaces verified.json atomically, so a concurrent reader sees the old or the new one.
func writeVerifiedStore(dir string, s verifiedStore) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".verified-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, verifiedName))
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}
