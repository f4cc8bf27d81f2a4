package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// statusReport is what `claude auth status --json` prints (§7 of the SDK facts; CLI 2.1.332). Fields the CLI
// prints as null decode to "".
type statusReport struct {
	LoggedIn         *bool   `json:"loggedIn"`
	AuthMethod       string  `json:"authMethod"`
	APIProvider      string  `json:"apiProvider"`
	APIKeySource     string  `json:"apiKeySource"`
	ConfigDirectory  string  `json:"configDirectory"`
	Email            *string `json:"email"`
	OrgName          *string `json:"orgName"`
	SubscriptionType *string `json:"subscriptionType"`
	PlanTier         *string `json:"planTier"`
}

// The CLI's own names, as it prints them.
const (
	cliMethodNone         = "none"
	cliMethodClaudeAI     = "claude.ai"
	cliMethodAPIKey       = "api_key"
	cliMethodAPIKeyHelper = "api_key_helper"
	cliMethodOAuthToken   = "oauth_token"
	cliMethodThirdParty   = "third_party"
	cliManagedKeySource   = "/login managed key" // the key a Console login stores
	cliKeySourceHelper    = "apiKeyHelper"
	cliProviderFirstParty = "firstParty"
)

var errNotAReport = errors.New("claude printed something other than a sign-in report")

// parseReport decodes the probe's stdout. It never quotes the output in its error: it is not ours to log.
func parseReport(stdout []byte) (statusReport, error) {
	var r statusReport
	if err := json.Unmarshal(stdout, &r); err != nil {
		return r, errNotAReport
	}
	if r.LoggedIn == nil {
		return r, errNotAReport
	}
	return r, nil
}

// stateFromReport turns a report into a State. env is the probe's environment: only variable names are read
// from it, to say which token variable is in use.
func stateFromReport(r statusReport, env []string) State {
	if !*r.LoggedIn || r.AuthMethod == cliMethodNone {
		return State{
			Status:   StatusSignedOut,
			Summary:  "Not signed in",
			Reason:   "Claude Code has no sign-in: no claude.ai or Console login, and no API key or token in the environment.",
			Provider: r.APIProvider,
		}
	}
	s := State{Status: StatusSignedIn, Provider: r.APIProvider}
	switch r.AuthMethod {
	case cliMethodClaudeAI:
		s.Method, s.Plan, s.PlanTier = MethodSubscription, deref(r.SubscriptionType), deref(r.PlanTier)
		s.Email, s.Organization = deref(r.Email), deref(r.OrgName)
		s.Summary = "Signed in with " + planPhrase(s.Plan)
	case cliMethodAPIKey, cliMethodAPIKeyHelper:
		if r.APIKeySource == cliManagedKeySource {
			s.Method, s.Email, s.Organization = MethodConsole, deref(r.Email), deref(r.OrgName)
			s.Summary = "Signed in with an Anthropic Console account"
			break
		}
		s.Method, s.KeySource = MethodAPIKey, sourceName(r.APIKeySource)
		if s.KeySource == "" && r.AuthMethod == cliMethodAPIKeyHelper {
			s.KeySource = cliKeySourceHelper
		}
		s.Summary = "Using an API key" + sourcePhrase(s.KeySource)
	case cliMethodOAuthToken:
		s.Method, s.KeySource = MethodOAuthToken, tokenVariable(env)
		s.Summary = "Using an OAuth token" + sourcePhrase(s.KeySource)
	case cliMethodThirdParty:
		s.Method = MethodThirdParty
		s.Summary = "Using " + providerName(r.APIProvider)
	default:
		s.Method = MethodOther
		s.Summary = fmt.Sprintf("Signed in (claude reports the method %q)", r.AuthMethod)
	}
	if s.Email != "" {
		s.Summary += " (" + s.Email + ")"
	}
	return s
}

// sourceName passes on a key source only when it is a name (an environment variable or a setting): whatever
// else a CLI might print there is not repeated, in case it is the key itself.
func sourceName(s string) string {
	if s == cliKeySourceHelper || sourceVariable.MatchString(s) {
		return s
	}
	return ""
}

var sourceVariable = regexp.MustCompile(`^[A-Z][A-Z0-9_]{0,63}$`)

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// planPhrase names a claude.ai plan as its owner knows it.
func planPhrase(plan string) string {
	switch plan {
	case "":
		return "a claude.ai account"
	case "pro", "max", "team", "enterprise":
		return "a Claude " + strings.ToUpper(plan[:1]) + plan[1:] + " subscription"
	default:
		return fmt.Sprintf("a claude.ai subscription (%s)", plan)
	}
}

func sourcePhrase(source string) string {
	switch source {
	case "":
		return ""
	case cliKeySourceHelper:
		return " from the apiKeyHelper setting"
	default:
		return " from " + source
	}
}

// tokenVariable names the token variable in use when exactly one is set; the CLI does not say which it took.
func tokenVariable(env []string) string {
	oauth, bearer := envSet(env, envOAuthToken), envSet(env, envAuthToken)
	switch {
	case oauth && !bearer:
		return envOAuthToken
	case bearer && !oauth:
		return envAuthToken
	default:
		return ""
	}
}

func providerName(p string) string {
	switch p {
	case "bedrock":
		return "Amazon Bedrock"
	case "vertex":
		return "Google Vertex AI"
	case "foundry":
		return "Microsoft Foundry"
	case "anthropicAws":
		return "Anthropic on AWS"
	case "anthropicGoogleCloud":
		return "Anthropic on Google Cloud"
	case "gateway":
		return "a cloud gateway"
	case "", cliProviderFirstParty:
		return "a third-party provider"
	default:
		return p
	}
}
