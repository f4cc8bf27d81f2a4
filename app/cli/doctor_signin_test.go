package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
)

// doctor asks the real claude CLI for the sign-in state, in a temp home; the key itself is never printed.
func TestDoctorReportsTheSignInState(t *testing.T) {
	claude := testenv.RequireClaude(t)
	home := testenv.NewHome(t)
	testenv.UseHome(t, home, claude)

	run := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := RunDoctor(context.Background(), args, &out, &errb)
		return code, out.String() + errb.String()
	}
	code, text := run()
	require.Equal(t, ExitFailure, code, "signed out is a problem doctor reports")
	require.Contains(t, text, "sign-in\n")
	require.Contains(t, text, "auth login")

	const secret = "sk-ant-doctor-test-secret-123"
	t.Setenv("ANTHROPIC_API_KEY", secret)
	code, text = run("--json")
	require.Equal(t, ExitOK, code, text)
	require.NotContains(t, text, secret)
	var rep DoctorReport
	require.NoError(t, json.Unmarshal([]byte(text), &rep))
	require.NotNil(t, rep.SignIn)
	require.Equal(t, auth.StatusSignedIn, rep.SignIn.Status)
	require.Equal(t, auth.MethodAPIKey, rep.SignIn.Method)
	require.Equal(t, "ANTHROPIC_API_KEY", rep.SignIn.KeySource)
}
