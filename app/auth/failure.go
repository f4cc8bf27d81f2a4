package auth

import (
	"regexp"
	"strings"
)

// FailureKind says what an authentication failure means for the user.
type FailureKind string

const (
	// FailureSignedOut: the login expired, was revoked, or there is none; signing in again fixes it.
	FailureSignedOut FailureKind = "signed_out"
	// FailureKeyRejected: an API key, token or provider credential that the user supplied was refused.
	FailureKeyRejected FailureKind = "key_rejected"
)

// TurnFailure is a failed turn explained as a sign-in problem.
type TurnFailure struct {
	Kind    FailureKind `json:"kind"`
	Title   string      `json:"title"`   // "Signed out" or "Key rejected"
	Message string      `json:"message"` // what happened and what to do
	// SignInCommand is the action to offer (empty when signing in would not help, e.g. a rejected env key).
	SignInCommand string `json:"signInCommand,omitempty"`
}

// turnFailedAuth is the sidecar's turn.failed code for a 401 / authentication_failed.
const turnFailedAuth = "auth"

// turnFailedAPIError is the code of other API errors; some of them are still authentication failures.
const turnFailedAPIError = "api_error"

// authMessage matches API error texts that mean the credential was refused.
var authMessage = regexp.MustCompile(`(?i)\b401\b|authentication[_ ](error|failed)|invalid (x-)?api[ -]key|` +
	`oauth token has expired|token (has been|was) revoked|invalid bearer token|please run /login|not logged in`)

// ClassifyTurnFailure explains a turn.failed event (code and message as the sidecar sent them) in terms of the
// current sign-in state. ok=false: the failure is not about authentication and should be shown as it is.
// The API's error text is only matched, never repeated: it is not Baton's to echo.
func ClassifyTurnFailure(code, message string, st State) (f TurnFailure, ok bool) {
	if code != turnFailedAuth && !(code == turnFailedAPIError && authMessage.MatchString(message)) {
		return TurnFailure{}, false
	}
	switch {
	case st.Status == StatusSignedIn && st.Method == MethodAPIKey:
		what := "The API key"
		switch st.KeySource {
		case envAPIKey:
			what = "The API key in ANTHROPIC_API_KEY"
		case cliKeySourceHelper:
			what = "The API key from your apiKeyHelper setting"
		}
		msg := what + " was rejected by Anthropic. Replace or fix the key"
		if st.HasWarning(WarningKeyShadowsSubscription) {
			msg += ", or unset ANTHROPIC_API_KEY to use your claude.ai subscription"
		}
		return TurnFailure{Kind: FailureKeyRejected, Title: "Key rejected", Message: msg + "."}, true
	case st.Status == StatusSignedIn && st.Method == MethodOAuthToken:
		what := "The OAuth token"
		if st.KeySource != "" {
			what += " in " + st.KeySource
		}
		return TurnFailure{Kind: FailureKeyRejected, Title: "Key rejected",
			Message: what + " was rejected: it may have expired or been revoked. Create a new one with `claude setup-token`, " +
				"or remove it and sign in."}, true
	case st.Status == StatusSignedIn && st.Method == MethodThirdParty:
		return TurnFailure{Kind: FailureKeyRejected, Title: "Key rejected",
			Message: "Your " + providerName(st.Provider) + " credentials were rejected. Check them with the provider's own tools."}, true
	}
	msg := "Your Claude sign-in has expired or was revoked. Sign in again to continue."
	if st.Status == StatusSignedOut {
		msg = "Claude Code is not signed in. Sign in to continue."
	}
	action := st.SignInCommand
	if action == "" {
		action = strings.Join(SignInCommand("claude"), " ")
	}
	return TurnFailure{Kind: FailureSignedOut, Title: "Signed out", Message: msg, SignInCommand: action}, true
}
