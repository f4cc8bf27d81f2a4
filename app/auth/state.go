package auth

import (
	"slices"
	"time"
)

// Status is whether Claude Code can work with the current sign-in.
type Status string

const (
	StatusSignedIn  Status = "signed_in"
	StatusSignedOut Status = "signed_out"
	// StatusUnknown means the probe failed; State.Reason says why.
	StatusUnknown Status = "unknown"
)

// Method is how a signed-in CLI authenticates.
type Method string

const (
	// MethodSubscription is a claude.ai (Pro, Max, Team, Enterprise) login; State.Plan names the plan.
	MethodSubscription Method = "claude_ai"
	// MethodConsole is an Anthropic Console login (claude keeps a managed API key for it).
	MethodConsole Method = "console"
	// MethodAPIKey is an API key from the environment or an apiKeyHelper; State.KeySource names where.
	MethodAPIKey Method = "api_key"
	// MethodOAuthToken is a long-lived token from the environment (CLAUDE_CODE_OAUTH_TOKEN, ANTHROPIC_AUTH_TOKEN).
	MethodOAuthToken Method = "oauth_token"
	// MethodThirdParty is a cloud provider (Bedrock, Vertex AI, Foundry…); State.Provider names it.
	MethodThirdParty Method = "third_party"
	// MethodOther is a sign-in this Baton does not recognise (a newer CLI); it still counts as signed in.
	MethodOther Method = "other"
)

// WarningCode names a warning on a State.
type WarningCode string

// WarningKeyShadowsSubscription: ANTHROPIC_API_KEY is set, so sessions bill that key instead of the subscription
// the user signed in with.
const WarningKeyShadowsSubscription WarningCode = "api_key_shadows_subscription"

// Warning is a problem worth showing even though Claude Code can work.
type Warning struct {
	Code    WarningCode `json:"code"`
	Message string      `json:"message"`
}

// State is the sign-in state as the console, the CLI and `baton doctor` show it. It never holds a secret:
// key sources are variable or setting names, never values.
type State struct {
	Status Status `json:"status"`
	Method Method `json:"method,omitempty"`
	// Summary is one line for people, e.g. "Signed in with a Claude Max subscription".
	Summary string `json:"summary"`
	// Reason explains a signed-out or unknown state and what to do about it.
	Reason string `json:"reason,omitempty"`
	// Plan is the claude.ai subscription ("pro", "max", "team", "enterprise") and PlanTier the CLI's finer tier.
	Plan     string `json:"plan,omitempty"`
	PlanTier string `json:"planTier,omitempty"`
	// Provider is where requests go: "firstParty", or a third party such as "bedrock" or "vertex".
	Provider string `json:"provider,omitempty"`
	// KeySource names where an API key or token comes from ("ANTHROPIC_API_KEY", "apiKeyHelper").
	KeySource string `json:"keySource,omitempty"`
	// Email and Organization identify a claude.ai or Console account when the CLI knows them.
	Email        string    `json:"email,omitempty"`
	Organization string    `json:"organization,omitempty"`
	Warnings     []Warning `json:"warnings,omitempty"`
	// ConfigDir is the directory whose files decide this state.
	ConfigDir string `json:"configDir,omitempty"`
	// SignInCommand is the exact command that signs in, to run or to copy (empty when no claude was found).
	SignInCommand string    `json:"signInCommand,omitempty"`
	CheckedAt     time.Time `json:"checkedAt,omitzero"`
}

// SignedIn reports whether Claude Code can authenticate.
func (s State) SignedIn() bool { return s.Status == StatusSignedIn }

// HasWarning reports whether the state carries the warning.
func (s State) HasWarning(code WarningCode) bool {
	return slices.ContainsFunc(s.Warnings, func(w Warning) bool { return w.Code == code })
}

// Same reports whether two states would look the same to a person (CheckedAt aside).
func (s State) Same(o State) bool {
	return s.Status == o.Status && s.Method == o.Method && s.Summary == o.Summary && s.Reason == o.Reason &&
		s.Plan == o.Plan && s.PlanTier == o.PlanTier && s.Provider == o.Provider && s.KeySource == o.KeySource &&
		s.Email == o.Email && s.Organization == o.Organization && s.ConfigDir == o.ConfigDir &&
		s.SignInCommand == o.SignInCommand && slices.Equal(s.Warnings, o.Warnings)
}

// unknownState is the state when the probe could not answer; reason is for people.
func unknownState(reason string) State {
	return State{Status: StatusUnknown, Summary: "Sign-in state unknown", Reason: reason}
}

// checkingState is the state before the first probe has answered.
func checkingState() State {
	return unknownState("Baton has not checked the sign-in yet.")
}
