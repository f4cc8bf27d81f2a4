package fakeapi_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
)

// gatewayEnv signs the CLI in with a token for an LLM gateway (a JWT whose audience is claude-gateway) instead
// of the API key: the one sign-in besides a Claude subscription (OAuth, which cannot run here) for which the CLI
// reads the unified rate-limit headers. The token is unsigned; the CLI only reads its claims.
func gatewayEnv() []string {
	enc := base64.RawURLEncoding.EncodeToString
	token := enc([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc([]byte(`{"aud":"claude-gateway","exp":4102444800}`)) + "."
	return []string{"ANTHROPIC_API_KEY=", "ANTHROPIC_AUTH_TOKEN=" + token}
}

type rateLimitLine struct {
	Type string `json:"type"`
	Info struct {
		Status         string  `json:"status"`
		ResetsAt       int64   `json:"resetsAt"`
		RateLimitType  string  `json:"rateLimitType"`
		Utilization    float64 `json:"utilization"`
		UnifiedWindows map[string]struct {
			Utilization float64 `json:"utilization"`
			ResetsAt    int64   `json:"resetsAt"`
		} `json:"unifiedWindows"`
	} `json:"rate_limit_info"`
}

func rateLimitEvents(t *testing.T, res *testenv.PrintResult) []rateLimitLine {
	var out []rateLimitLine
	for _, l := range res.Lines {
		if l.Type == "rate_limit_event" {
			var e rateLimitLine
			require.NoError(t, json.Unmarshal(l.Raw, &e))
			out = append(out, e)
		}
	}
	return out
}

// The CLI turns the unified rate-limit headers into rate_limit_event for a plan's sign-in only: with an API key
// it ignores them (so an API-key session never has a plan meter), with a gateway token it reports the window
// that decides, both windows, and a rejected 429 as rejected with its reset.
func TestCLIReadsPlanLimitHeadersOnlyForAPlan(t *testing.T) {
	testenv.RequireClaude(t)
	fiveHour := fakeapi.PlanWindow{Name: fakeapi.WindowFiveHour, Utilization: 0.92, Surpassed: 0.9, ResetsAt: time.Now().Add(90 * time.Minute)}
	week := fakeapi.PlanWindow{Name: fakeapi.WindowSevenDay, Utilization: 0.4, ResetsAt: time.Now().Add(72 * time.Hour)}
	srv, err := fakeapi.Start(func(req *fakeapi.Request) fakeapi.Reply {
		if req.LastUserText() == "over the limit" {
			full := fiveHour
			full.Utilization = 1
			return fakeapi.Reply{Status: http.StatusTooManyRequests, Headers: fakeapi.RateLimitHeaders("rejected", full, week)}
		}
		r := fakeapi.TextReply("ok")
		r.Headers = fakeapi.RateLimitHeaders("allowed_warning", fiveHour, week)
		return r
	})
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	run := func(prompt string, env []string) *testenv.PrintResult {
		return testenv.RunPrint(t, testenv.PrintRun{BaseURL: srv.URL(), Home: testenv.NewHome(t), Dir: testenv.NewProject(t), Prompt: prompt, Env: env})
	}

	apiKey := run("hello", nil)
	require.Equal(t, 0, apiKey.ExitCode, "stderr: %s", apiKey.Stderr)
	assert.Empty(t, rateLimitEvents(t, apiKey), "an API key's session reads no plan limits")

	plan := run("hello", gatewayEnv())
	require.Equal(t, 0, plan.ExitCode, "stderr: %s", plan.Stderr)
	events := rateLimitEvents(t, plan)
	require.NotEmpty(t, events, "stdout: %s", plan.Stdout)
	e := events[len(events)-1].Info
	assert.Equal(t, "allowed_warning", e.Status)
	assert.Equal(t, fakeapi.WindowFiveHour, e.RateLimitType)
	assert.Equal(t, fiveHour.ResetsAt.Unix(), e.ResetsAt)
	assert.InDelta(t, 0.92, e.Utilization, 1e-9)
	assert.Equal(t, week.ResetsAt.Unix(), e.UnifiedWindows[fakeapi.WindowSevenDay].ResetsAt)

	rejected := run("over the limit", gatewayEnv())
	events = rateLimitEvents(t, rejected)
	require.NotEmpty(t, events, "stdout: %s", rejected.Stdout)
	e = events[len(events)-1].Info
	assert.Equal(t, "rejected", e.Status)
	assert.Equal(t, fiveHour.ResetsAt.Unix(), e.ResetsAt)
	r := rejected.Result()
	require.NotNil(t, r, "stdout: %s", rejected.Stdout)
	assert.True(t, r.IsError, "result: %s", r.Raw)
	t.Logf("rejected result: %s", r.Raw)
}
