//go:build linux

package provision

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An old version whose executable is running (a session started by another tool, or an older Baton) is kept.
func TestOldVersionRunningIsKept(t *testing.T) {
	sleepBin, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep executable to run from an old version directory")
	}
	fx := newFixture(t, 4096, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	o := testOptions(t, s, fx)
	old := filepath.Join(o.DataDir, "runtime", "claude", "1.0.0")
	require.NoError(t, os.MkdirAll(old, 0o755))
	copyFile(t, sleepBin, filepath.Join(old, "claude"))
	cmd := exec.Command(filepath.Join(old, "claude"), "60")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })

	_, _, err = ensure(t, o)
	require.NoError(t, err)
	assert.DirExists(t, old)

	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	o.Force = true
	_, _, err = ensure(t, o)
	require.NoError(t, err)
	assert.NoDirExists(t, old, "once nothing runs from it, the next install removes it")
}

func copyFile(t *testing.T, src, dst string) {
	in, err := os.Open(src)
	require.NoError(t, err)
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	require.NoError(t, err)
	_, err = io.Copy(out, in)
	require.NoError(t, err)
	require.NoError(t, out.Close())
}
