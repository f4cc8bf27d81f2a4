package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/provision"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// isolateDoctor makes selection see only the fixture's data dir and the given environment.
func isolateDoctor(t *testing.T, f *cliFixture, env map[string]string) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake claude is a shell script")
	}
	doctorTestHook = func(o *provision.SelectOptions) {
		m := f.manifest
		o.Manifest, o.Platform, o.DataDir = &m, cliTestPlatform, f.dataDir
		o.Getenv = func(k string) string { return env[k] }
	}
	// These tests are about the executable section and their claude is a stand-in script; the sign-in
	// section is tested against the real CLI in doctor_signin_test.go.
	doctorSignInHook = func(string) *auth.State { return &auth.State{Status: auth.StatusSignedIn, Summary: "stand-in"} }
	t.Cleanup(func() { doctorTestHook, doctorSignInHook = nil, nil })
}

func runDoctor(t *testing.T, args ...string) (int, DoctorReport, string) {
	var out, errb bytes.Buffer
	code := RunDoctor(context.Background(), args, &out, &errb)
	var rep DoctorReport
	if len(args) > 0 && args[0] == "--json" {
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep), out.String())
	}
	return code, rep, out.String() + errb.String()
}

func TestDoctorReportsTheProvisionedExecutable(t *testing.T) {
	f := newCLIFixture(t)
	isolateDoctor(t, f, nil)
	code, _, stderr := runProvision()
	require.Equal(t, ExitOK, code, stderr)

	code, rep, _ := runDoctor(t, "--json")
	require.Equal(t, ExitOK, code)
	assert.Equal(t, ExecutableReport{
		OK: true, Path: filepath.Join(f.dataDir, "runtime", "claude", cliTestVersion, "claude"), Source: "provisioned",
		Version: cliTestVersion, ExpectedVersion: cliTestVersion, Verified: true, Platform: cliTestPlatform,
		InstalledFrom: "cdn " + f.server.URL + "/cdn/" + cliTestVersion + "/" + cliTestPlatform + "/claude",
	}, rep.Executable)

	code, _, text := runDoctor(t)
	require.Equal(t, ExitOK, code)
	assert.Contains(t, text, "claude executable\n")
	assert.Contains(t, text, "  from      installed by baton provision, downloaded from cdn ")
	assert.Contains(t, text, "  verified  yes")
}

func TestDoctorDetectsADamagedInstall(t *testing.T) {
	f := newCLIFixture(t)
	isolateDoctor(t, f, nil)
	code, _, _ := runProvision()
	require.Equal(t, ExitOK, code)
	exe := filepath.Join(f.dataDir, "runtime", "claude", cliTestVersion, "claude")
	b, err := os.ReadFile(exe)
	require.NoError(t, err)
	b[len(b)-2] = '!'
	require.NoError(t, os.WriteFile(exe, b, 0o755))

	code, rep, _ := runDoctor(t, "--json")
	assert.Equal(t, ExitFailure, code)
	assert.False(t, rep.Executable.OK)
	assert.Contains(t, rep.Executable.Error, "damaged")
}

func TestDoctorWithNothingInstalled(t *testing.T) {
	f := newCLIFixture(t)
	isolateDoctor(t, f, nil)
	code, rep, _ := runDoctor(t, "--json")
	assert.Equal(t, ExitFailure, code)
	assert.False(t, rep.Executable.OK)
	assert.Equal(t, cliTestVersion, rep.Executable.ExpectedVersion)
	assert.Contains(t, rep.Executable.Error, "baton provision")

	code, _, text := runDoctor(t)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, text, "  problem   no claude "+cliTestVersion+" executable is available")
}

func TestDoctorReportsCLAUDE_CODE_EXECUTABLE(t *testing.T) {
	f := newCLIFixture(t)
	exe := filepath.Join(t.TempDir(), "claude")
	require.NoError(t, os.WriteFile(exe, []byte("#!/bin/sh\necho '1.0.0 (Claude Code)'\n"), 0o755))
	isolateDoctor(t, f, map[string]string{"CLAUDE_CODE_EXECUTABLE": exe})

	code, rep, _ := runDoctor(t, "--json")
	require.Equal(t, ExitOK, code)
	assert.Equal(t, "env", rep.Executable.Source)
	assert.Equal(t, exe, rep.Executable.Path)
	assert.Equal(t, "1.0.0", rep.Executable.Version)
	assert.False(t, rep.Executable.Verified)
	assert.Contains(t, rep.Executable.Warning, "built for "+cliTestVersion)
}

func TestDoctorUsageErrors(t *testing.T) {
	var out, errb bytes.Buffer
	assert.Equal(t, ExitUsage, RunDoctor(context.Background(), []string{"--nope"}, &out, &errb))
	assert.Equal(t, ExitUsage, RunDoctor(context.Background(), []string{"extra"}, &out, &errb))
	assert.Contains(t, errb.String(), "usage: baton doctor")
}
