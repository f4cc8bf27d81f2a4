package auth

import (
	"maps"
	"slices"
)

// readings maps a target's path to its fingerprint. A target caught half-written has no entry: it gives no
// verdict, so it neither counts as a change nor replaces what was read before.
type readings map[string]fingerprint

func readTargets(targets []watchTarget) readings {
	r := readings{}
	for _, t := range targets {
		if fp, keep := t.read(t.path); !keep {
			r[t.path] = fp
		}
	}
	return r
}

// changedFrom lists the targets whose fingerprint in now differs from r (a nil r has seen nothing, so every
// target read counts as changed).
func (r readings) changedFrom(now readings) []string {
	var changed []string
	for path, fp := range now {
		if prev, ok := r[path]; !ok || prev != fp {
			changed = append(changed, path)
		}
	}
	slices.Sort(changed)
	return changed
}

// updated returns r with now's verdicts laid over it (r itself is not modified).
func (r readings) updated(now readings) readings {
	out := maps.Clone(r)
	if out == nil {
		out = readings{}
	}
	maps.Copy(out, now)
	return out
}
