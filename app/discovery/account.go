package discovery

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"

	"github.com/baton-console/baton/app/auth"
)

// Account identifies whose models a discovery returns: the provider and a fingerprint of the sign-in that holds
// nothing secret. Two sign-ins that may offer different models get different accounts.
type Account struct {
	Provider     string
	Status       auth.Status
	Method       auth.Method
	KeySource    string // a variable or setting name, never a key
	Email        string
	Organization string
	// Credentials fingerprints the credentials FILE (its modification time and size, never its content), so a
	// new login or a refreshed token in it makes a new account.
	Credentials string
}

// AccountOf derives the account from a sign-in state and the path of the CLI's credentials file.
func AccountOf(st auth.State, credentialsPath string) Account {
	return Account{Provider: st.Provider, Status: st.Status, Method: st.Method, KeySource: st.KeySource,
		Email: st.Email, Organization: st.Organization, Credentials: fileStamp(credentialsPath)}
}

// Key is the account's cache key and the name the console sees: "<provider>/<method>:<fingerprint>".
func (a Account) Key() string {
	h := sha256.New()
	for _, f := range []string{a.Provider, string(a.Status), string(a.Method), a.KeySource, a.Email, a.Organization, a.Credentials} {
		h.Write([]byte(f))
		h.Write([]byte{0})
	}
	provider, method := a.Provider, string(a.Method)
	if provider == "" {
		provider = "unknown"
	}
	if method == "" {
		method = string(a.Status)
	}
	return fmt.Sprintf("%s/%s:%s", provider, strings.ToLower(method), hex.EncodeToString(h.Sum(nil))[:16])
}

// fileStamp is a hash of a file's modification time and size ("" when it is absent or unreadable).
func fileStamp(path string) string {
	if path == "" {
		return ""
	}
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%d/%d", fi.ModTime().UnixNano(), fi.Size()))
	return hex.EncodeToString(sum[:8])
}
