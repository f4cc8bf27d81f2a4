package auth

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
)

// fingerprint identifies what a watched file says about sign-in. It is a hash, so it can be kept and compared
// without holding a credential in memory longer than one read.
type fingerprint [sha256.Size]byte

// fingerprintFunc reads one watched file. keep=true means "no verdict, keep the previous fingerprint" (a file
// caught half-written).
type fingerprintFunc func(path string) (fp fingerprint, keep bool)

var (
	fpAbsent     = sha256.Sum256([]byte("absent"))
	fpUnreadable = sha256.Sum256([]byte("unreadable"))
)

// wholeFile fingerprints the whole content: every byte of settings.json and .credentials.json can matter.
func wholeFile(path string) (fingerprint, bool) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fpAbsent, false
	case err != nil:
		return fpUnreadable, false
	}
	return sha256.Sum256(data), false
}

// globalStateAuthKeys are the keys of ~/.claude.json that carry sign-in: the Console login's managed key, the
// claude.ai account, and the user's answers about using an environment API key. The rest of the file (project
// history, tips, counters) changes all the time and must not trigger a probe.
var globalStateAuthKeys = []string{"oauthAccount", "primaryApiKey", "customApiKeyResponses"}

// globalStateAuth fingerprints only the auth keys, so a file without them counts the same as no file.
func globalStateAuth(path string) (fingerprint, bool) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return authKeysFingerprint(nil), false
	case err != nil:
		return fpUnreadable, false
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return fingerprint{}, true // caught mid-write by a non-atomic writer; the next event rereads it
	}
	return authKeysFingerprint(doc), false
}

func authKeysFingerprint(doc map[string]json.RawMessage) fingerprint {
	h := sha256.New()
	for _, k := range globalStateAuthKeys {
		h.Write([]byte(k))
		h.Write([]byte{0})
		if v, ok := doc[k]; ok {
			var compact bytes.Buffer
			if json.Compact(&compact, v) == nil { // formatting alone is not a change
				h.Write(compact.Bytes())
			}
		}
		h.Write([]byte{0})
	}
	var fp fingerprint
	copy(fp[:], h.Sum(nil))
	return fp
}
