package provision

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// BuildNPMRegistry is the npm registry the build machine's npm was configured with, recorded by scripts/build:
//
//	-ldflags "-X github.com/baton-console/baton/provision.BuildNPMRegistry=$(npm config get registry)"
//
// It is used only when the user's machine has no npm configuration at all.
var BuildNPMRegistry string

// npmScope is the scope of the SDK's platform packages; npm lets a user route one scope to its own registry.
const npmScope = "@anthropic-ai"

// npmCommandTimeout bounds `npm config get`: npm is a fallback oracle, not worth a slow start.
const npmCommandTimeout = 10 * time.Second

// Registry is the npm registry the fallback download uses.
type Registry struct {
	URL       string // normalised, ending in "/"
	From      string // where it was found: an env var name, an npmrc path, "npm config" or "build"
	authToken string // from a matching //host/path/:_authToken line; never printed or logged
}

// RegistryOptions tells DiscoverRegistry where to look; zero values mean the real environment.
type RegistryOptions struct {
	Getenv     func(string) string // default os.Getenv
	HomeDir    string              // default os.UserHomeDir; holds ~/.npmrc
	NPMCommand string              // default "npm" on PATH; "-" never runs npm
}

// DiscoverRegistry finds the user's npm registry: BATON_NPM_REGISTRY, then NPM_CONFIG_REGISTRY /
// npm_config_registry, then the user and global npmrc files (an "@anthropic-ai:registry" line wins over
// "registry", as in npm), then `npm config get`, then BuildNPMRegistry.
func DiscoverRegistry(ctx context.Context, o RegistryOptions) (Registry, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	home := o.HomeDir
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	npmrc := readNPMRCs(npmrcPaths(getenv, home), getenv)

	pick := func(raw, from string) (Registry, error) {
		u, err := normaliseRegistry(raw)
		if err != nil {
			return Registry{}, fmt.Errorf("the npm registry %q from %s is not usable: %w", raw, from, err)
		}
		return Registry{URL: u, From: from, authToken: npmrc.tokenFor(u)}, nil
	}
	if v := getenv("BATON_NPM_REGISTRY"); v != "" {
		return pick(v, "BATON_NPM_REGISTRY")
	}
	for _, name := range []string{"NPM_CONFIG_REGISTRY", "npm_config_registry"} {
		if v := getenv(name); v != "" {
			return pick(v, name)
		}
	}
	if v, from := npmrc.registry(); v != "" {
		return pick(v, from)
	}
	if o.NPMCommand != "-" {
		if v := npmConfigRegistry(ctx, o.NPMCommand, home); v != "" {
			return pick(v, "npm config")
		}
	}
	if BuildNPMRegistry != "" {
		return pick(BuildNPMRegistry, "build")
	}
	return Registry{}, fmt.Errorf("%w: set BATON_NPM_REGISTRY to your npm registry's URL, or configure npm", ErrNoRegistry)
}

// String names the registry and where it came from; the token is never part of it.
func (r Registry) String() string {
	return r.URL + " (from " + r.From + ")"
}

// TarballURL is where the registry serves the SDK's platform package at the given version.
func (r Registry) TarballURL(p Platform, sdkVersion string) string {
	name := "claude-agent-sdk-" + p.String()
	return r.URL + npmScope + "/" + name + "/-/" + name + "-" + sdkVersion + ".tgz"
}

func normaliseRegistry(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", errors.New("it is not an http(s) URL")
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u.String(), nil
}

// npmrcPaths lists the project-independent npmrc files, most specific first: user, then global.
func npmrcPaths(getenv func(string) string, home string) []string {
	first := func(names ...string) string {
		for _, n := range names {
			if v := getenv(n); v != "" {
				return v
			}
		}
		return ""
	}
	var paths []string
	if p := first("NPM_CONFIG_USERCONFIG", "npm_config_userconfig"); p != "" {
		paths = append(paths, p)
	} else if home != "" {
		paths = append(paths, filepath.Join(home, ".npmrc"))
	}
	if p := first("NPM_CONFIG_GLOBALCONFIG", "npm_config_globalconfig"); p != "" {
		paths = append(paths, p)
	} else if prefix := first("NPM_CONFIG_PREFIX", "npm_config_prefix"); prefix != "" {
		paths = append(paths, globalNPMRC(prefix))
	} else if prefix := nodePrefix(getenv("PATH")); prefix != "" {
		paths = append(paths, globalNPMRC(prefix))
	}
	return paths
}

func globalNPMRC(prefix string) string {
	return filepath.Join(prefix, "etc", "npmrc")
}

// nodePrefix derives npm's default prefix from the node executable on PATH, as npm does: the directory above
// node's bin directory (the node directory itself on Windows).
func nodePrefix(pathEnv string) string {
	node := findExecutable("node", pathEnv)
	if node == "" {
		return ""
	}
	if real, err := filepath.EvalSymlinks(node); err == nil {
		node = real
	}
	if runtime.GOOS == "windows" {
		return filepath.Dir(node)
	}
	return filepath.Dir(filepath.Dir(node))
}

// npmrcSet is the merged content of npmrc files; earlier files win.
type npmrcSet struct {
	entries []npmrcEntry
}

type npmrcEntry struct {
	key, value, file string
}

func readNPMRCs(paths []string, getenv func(string) string) npmrcSet {
	var s npmrcSet
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" || line[0] == '#' || line[0] == ';' {
				continue
			}
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			v = strings.Trim(strings.TrimSpace(v), `"'`)
			s.entries = append(s.entries, npmrcEntry{key: strings.TrimSpace(k), value: expandNPMRC(v, getenv), file: p})
		}
	}
	return s
}

// expandNPMRC substitutes ${VAR} the way npm does in npmrc values.
func expandNPMRC(v string, getenv func(string) string) string {
	return os.Expand(v, func(name string) string { return getenv(name) })
}

func (s npmrcSet) get(key string) (value, file string) {
	for _, e := range s.entries {
		if e.key == key {
			return e.value, e.file
		}
	}
	return "", ""
}

func (s npmrcSet) registry() (value, file string) {
	if v, f := s.get(npmScope + ":registry"); v != "" {
		return v, f
	}
	return s.get("registry")
}

// tokenFor finds the _authToken whose "nerf dart" (//host/path/) is the longest prefix of the registry URL.
func (s npmrcSet) tokenFor(registryURL string) string {
	u, err := url.Parse(registryURL)
	if err != nil {
		return ""
	}
	target := "//" + u.Host + u.Path
	best, token := 0, ""
	for _, e := range s.entries {
		dart, ok := strings.CutSuffix(e.key, ":_authToken")
		if !ok || !strings.HasPrefix(dart, "//") {
			continue
		}
		if !strings.HasSuffix(dart, "/") {
			dart += "/"
		}
		if strings.HasPrefix(target, dart) && len(dart) > best {
			best, token = len(dart), e.value
		}
	}
	return token
}

// npmConfigRegistry asks npm itself (covering builtin configs we do not parse). It runs outside any project so a
// project's .npmrc cannot steer Baton.
func npmConfigRegistry(ctx context.Context, command, dir string) string {
	if command == "" {
		command = "npm"
	}
	path, err := exec.LookPath(command)
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, npmCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "config", "get", npmScope+":registry", "registry")
	if dir != "" {
		cmd.Dir = dir
	}
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	values := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok && v != "undefined" && v != "null" {
			values[k] = v
		}
	}
	if v := values[npmScope+":registry"]; v != "" {
		return v
	}
	return values["registry"]
}
