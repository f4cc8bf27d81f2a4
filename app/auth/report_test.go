package auth

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Reports the CLI prints for sign-ins this machine cannot make offline (a Console login, a newer method),
// written after the CLI's report code (2.1.332).
func TestStateFromReportsThatNeedAnAccount(t *testing.T) {
	cases := []struct {
		name, json string
		want       State
	}{
		{"console login", `{"loggedIn":true,"authMethod":"api_key","apiProvider":"firstParty","apiKeySource":"/login managed key",
			"email":"dev@example.com","orgId":"o1","orgName":"Example"}`,
			State{Status: StatusSignedIn, Method: MethodConsole, Provider: "firstParty", Email: "dev@example.com", Organization: "Example",
				Summary: "Signed in with an Anthropic Console account (dev@example.com)"}},
		{"team subscription with email", `{"loggedIn":true,"authMethod":"claude.ai","apiProvider":"firstParty","email":"a@b.c",
			"orgName":"Org","subscriptionType":"team","planTier":"team"}`,
			State{Status: StatusSignedIn, Method: MethodSubscription, Provider: "firstParty", Plan: "team", PlanTier: "team",
				Email: "a@b.c", Organization: "Org", Summary: "Signed in with a Claude Team subscription (a@b.c)"}},
		{"subscription without a plan", `{"loggedIn":true,"authMethod":"claude.ai","subscriptionType":null}`,
			State{Status: StatusSignedIn, Method: MethodSubscription, Summary: "Signed in with a claude.ai account"}},
		{"a method this Baton does not know", `{"loggedIn":true,"authMethod":"quantum","apiProvider":"firstParty"}`,
			State{Status: StatusSignedIn, Method: MethodOther, Provider: "firstParty", Summary: `Signed in (claude reports the method "quantum")`}},
		{"gateway without sign-in", `{"loggedIn":false,"authMethod":"none","apiProvider":"gateway"}`,
			State{Status: StatusSignedOut, Provider: "gateway", Summary: "Not signed in"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := parseReport([]byte(c.json))
			require.NoError(t, err)
			got := stateFromReport(r, nil)
			if c.want.Status == StatusSignedOut {
				assert.NotEmpty(t, got.Reason)
				got.Reason = ""
			}
			assert.Equal(t, c.want, got)
		})
	}
}

func TestParseReportRejectsWhatIsNotAReport(t *testing.T) {
	for _, in := range []string{``, `Not logged in.`, `{}`, `[]`, `{"authMethod":"api_key"}`, `{"loggedIn":"yes"}`} {
		_, err := parseReport([]byte(in))
		assert.ErrorIs(t, err, errNotAReport, in)
	}
}

func TestTokenVariableNamesOnlyAnUnambiguousSource(t *testing.T) {
	assert.Equal(t, envOAuthToken, tokenVariable([]string{envOAuthToken + "=x"}))
	assert.Equal(t, envAuthToken, tokenVariable([]string{envAuthToken + "=x", envOAuthToken + "="}))
	assert.Equal(t, "", tokenVariable([]string{envAuthToken + "=x", envOAuthToken + "=y"}))
	assert.Equal(t, "", tokenVariable(nil))
}
