package provision

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func forgetVerifiedInMemory(t *testing.T) {
	t.Helper()
	verifiedMu.Lock()
	clear(verifiedMem)
	verifiedMu.Unlock()
}

// A file is hashed once per version of its bytes: the next check (in this process or, through verified.json, the
// next one) reads the cache; any change to the file, even one that keeps its size and modification time, makes
// it hashed again.
func TestVerifyFileHashesOncePerFileVersion(t *testing.T) {
	fx := newFixture(t, 4096, false)
	a := fx.manifest.Platforms[testPlatform]
	cache := t.TempDir()
	exe := filepath.Join(t.TempDir(), "claude")
	require.NoError(t, os.WriteFile(exe, fx.plain, 0o755))
	require.NoError(t, verifyFile(exe, a, cache))

	// The cache is what answers: an entry that lies is believed, so no hash was taken.
	store := readVerifiedStore(cache)
	require.Len(t, store.Files, 1)
	assert.Equal(t, exe, store.Files[0].Path)
	store.Files[0].SHA256 = strings.Repeat("0", 64)
	require.NoError(t, writeVerifiedStore(cache, store))
	forgetVerifiedInMemory(t)
	var ce *ChecksumError
	require.ErrorAs(t, verifyFile(exe, a, cache), &ce)
	assert.Equal(t, strings.Repeat("0", 64), ce.Got)

	// The same size and modification time but other bytes: hashed afresh and refused.
	info, err := os.Stat(exe)
	require.NoError(t, err)
	changed := append([]byte(nil), fx.plain...)
	changed[2000] ^= 1
	require.NoError(t, os.WriteFile(exe, changed, 0o755))
	require.NoError(t, os.Chtimes(exe, info.ModTime(), info.ModTime()))
	require.ErrorAs(t, verifyFile(exe, a, cache), &ce)
	assert.Equal(t, sha(changed), ce.Got)

	// A damaged cache is an empty one.
	require.NoError(t, os.WriteFile(exe, fx.plain, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(cache, verifiedName), []byte("{not json"), 0o644))
	forgetVerifiedInMemory(t)
	require.NoError(t, verifyFile(exe, a, cache))
	b, err := os.ReadFile(filepath.Join(cache, verifiedName))
	require.NoError(t, err)
	require.True(t, json.Valid(b))
}
