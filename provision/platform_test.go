package provision

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlatformForMapsGoNamesToManifestKeys(t *testing.T) {
	glibc := fstest.MapFS{"lib64/ld-linux-x86-64.so.2": {}}
	musl := fstest.MapFS{"lib/ld-musl-x86_64.so.1": {}}
	cases := []struct {
		goos, goarch string
		root         fstest.MapFS
		want         string
	}{
		{"darwin", "arm64", nil, "darwin-arm64"},
		{"darwin", "amd64", nil, "darwin-x64"},
		{"windows", "amd64", nil, "win32-x64"},
		{"windows", "arm64", nil, "win32-arm64"},
		{"linux", "amd64", glibc, "linux-x64"},
		{"linux", "arm64", musl, "linux-arm64-musl"},
		{"darwin", "amd64", musl, "darwin-x64"}, // musl is a Linux-only question
	}
	for _, c := range cases {
		p, err := platformFor(c.goos, c.goarch, c.root)
		require.NoError(t, err)
		assert.Equal(t, c.want, p.String())
	}
	_, err := platformFor("freebsd", "amd64", nil)
	assert.ErrorContains(t, err, "freebsd")
	_, err = platformFor("linux", "386", glibc)
	assert.ErrorContains(t, err, "386")
}

func TestMuslDetection(t *testing.T) {
	assert.False(t, isMuslSystem(fstest.MapFS{"lib/x86_64-linux-gnu/libc.so.6": {}}), "Debian glibc")
	assert.False(t, isMuslSystem(fstest.MapFS{"lib/ld-linux-aarch64.so.1": {}}), "arm64 glibc")
	assert.True(t, isMuslSystem(fstest.MapFS{"lib/ld-musl-aarch64.so.1": {}}), "Alpine")
	assert.False(t, isMuslSystem(fstest.MapFS{"lib/ld-musl-x86_64.so.1": {}, "lib64/ld-linux-x86-64.so.2": {}}),
		"glibc with musl-tools installed is still glibc")
	assert.False(t, isMuslSystem(fstest.MapFS{}), "nothing found: assume glibc")
}

func TestParsePlatform(t *testing.T) {
	for _, key := range []string{"linux-x64", "linux-arm64-musl", "darwin-arm64", "win32-x64"} {
		p, err := ParsePlatform(key)
		require.NoError(t, err)
		assert.Equal(t, key, p.String())
	}
	for _, bad := range []string{"", "linux", "darwin-x64-musl", "linux-x64-glibc", "linux-ia32", "aix-x64", "a-b-c-d"} {
		_, err := ParsePlatform(bad)
		assert.Error(t, err, bad)
	}
}
