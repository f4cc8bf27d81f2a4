package sidecar

import (
	"os"
	"slices"
	"strings"
)

// runtimeOptions tune the sidecar's own JavaScript runtime (Bun's JavaScriptCore). useFTLJIT=0 leaves out JSC's
// last optimizing tier: the sidecar's work is short, uniform message handling, on which that tier's background
// compiling cost more CPU than it saved — measured with the runtime bench (scripts/bench runtime): the sidecar's
// CPU over a 20,000-delta reply fell by about a quarter.
var runtimeOptions = []string{"BUN_JSC_useFTLJIT=0"}

// sidecarOnlyEnv names (comma-separated) the variables set here, so the sidecar keeps them from claude, which
// must run exactly as it would without Baton (sidecar/src/session/childEnv.ts).
const sidecarOnlyEnv = "BATON_SIDECAR_ONLY_ENV"

// runtimeEnv is env (nil: Baton's own) with the runtime options and extra (one sidecar's own) added, except one
// the person set themselves: theirs stays, and reaches claude too.
func runtimeEnv(env []string, extra ...string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+len(runtimeOptions)+len(extra)+1)
	set := map[string]bool{}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name == sidecarOnlyEnv {
			continue // only this host says what it set
		}
		set[name] = true
		out = append(out, kv)
	}
	var added []string
	for _, kv := range slices.Concat(runtimeOptions, extra) {
		name, _, _ := strings.Cut(kv, "=")
		if !set[name] {
			out = append(out, kv)
			added = append(added, name)
		}
	}
	if len(added) > 0 {
		out = append(out, sidecarOnlyEnv+"="+strings.Join(added, ","))
	}
	return out
}
