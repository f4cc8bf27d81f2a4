package layering

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/baton-console/baton"

// pkg is what `go list -json` says of one of our packages, paths made relative to the module.
type pkg struct {
	path    string
	imports []string // ours, direct
	deps    []string // ours, transitive
}

// builds are the ones scripts/build makes, per shipped platform: build-tagged files import differently.
var builds = []struct{ goos, tags string }{
	{"linux", "desktop,production"}, {"linux", "headless,production"},
	{"windows", "desktop,production"}, {"windows", "headless,production"},
}

// TestLayering fails, naming the import, when a package of ours imports one its rule forbids.
func TestLayering(t *testing.T) {
	for _, b := range builds {
		t.Run(b.goos+"/"+b.tags, func(t *testing.T) {
			pkgs, err := listPackages(b.goos, b.tags)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range checkRules(rules, pkgs) {
				t.Error(v)
			}
		})
	}
}

// TestRulesNameRealPackages keeps the table honest: a rule whose packages were renamed away would pass forever.
func TestRulesNameRealPackages(t *testing.T) {
	pkgs, err := listPackages(builds[0].goos, builds[0].tags)
	if err != nil {
		t.Fatal(err)
	}
	exists := func(pattern string) bool {
		return slices.ContainsFunc(pkgs, func(p pkg) bool { return matches(pattern, p.path) })
	}
	for _, r := range rules {
		for _, pattern := range slices.Concat([]string{r.pkg}, r.except, r.only, r.never) {
			if !exists(pattern) {
				t.Errorf("rule for %s names %s, which matches no package of the module", r.pkg, pattern)
			}
		}
	}
}

// TestCheckRulesNamesTheImport pins the checker itself on a made-up module: a direct and an indirect breach are
// both reported with the import to remove.
func TestCheckRulesNamesTheImport(t *testing.T) {
	pkgs := []pkg{
		{path: "app/low", imports: []string{"app/mid"}, deps: []string{"app/mid", "app/top"}},
		{path: "app/mid", imports: []string{"app/top"}, deps: []string{"app/top"}},
		{path: "app/top"},
	}
	got := checkRules([]rule{
		{pkg: "app/low", never: []string{"app/top"}, why: "low is low"},
		{pkg: "app/mid", only: []string{}, why: "mid stands alone"},
	}, pkgs)
	want := []string{
		"app/low imports app/mid (which leads to app/top); it must not depend on app/top: low is low",
		"app/mid imports app/top; it must import no package of ours: mid stands alone",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("checkRules:\n got %q\nwant %q", got, want)
	}
}

// checkRules returns one message per broken rule and offending import.
func checkRules(rules []rule, pkgs []pkg) []string {
	byPath := map[string]pkg{}
	for _, p := range pkgs {
		byPath[p.path] = p
	}
	var out []string
	for _, r := range rules {
		for _, p := range pkgs {
			if !matches(r.pkg, p.path) || slices.ContainsFunc(r.except, func(e string) bool { return matches(e, p.path) }) {
				continue
			}
			if r.only != nil {
				for _, imp := range p.imports {
					if !slices.Contains(r.only, imp) {
						out = append(out, fmt.Sprintf("%s imports %s; %s: %s", p.path, imp, allowed(r.only), r.why))
					}
				}
			}
			for _, forbidden := range r.never {
				for _, imp := range p.imports {
					via := imp
					if !matches(forbidden, imp) {
						via = firstMatch(forbidden, byPath[imp].deps)
						if via == "" {
							continue
						}
						via = imp + " (which leads to " + via + ")"
					}
					out = append(out, fmt.Sprintf("%s imports %s; it must not depend on %s: %s", p.path, via, forbidden, r.why))
				}
			}
		}
	}
	return out
}

// listPackages asks the go command for the module's packages as built for goos with tags. `go test` puts its own
// GOROOT/bin first on PATH, so this is the toolchain running the test.
func listPackages(goos, tags string) ([]pkg, error) {
	cmd := exec.Command("go", "list", "-tags", tags, "-json=ImportPath,Imports,Deps", module+"/...")
	cmd.Env = append(os.Environ(), "GOOS="+goos)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list for %s with tags %s: %w: %s", goos, tags, err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath    string
			Imports, Deps []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("reading go list: %w", err)
		}
		pkgs = append(pkgs, pkg{path: rel(p.ImportPath), imports: ours(p.Imports), deps: ours(p.Deps)})
	}
}

func ours(paths []string) []string {
	var out []string
	for _, p := range paths {
		if p == module || strings.HasPrefix(p, module+"/") {
			out = append(out, rel(p))
		}
	}
	return out
}

// rel makes an import path relative to the module; the module's own package is ".".
func rel(path string) string {
	if path == module {
		return "."
	}
	return strings.TrimPrefix(path, module+"/")
}

// matches reports whether path is pattern, or below it when pattern ends in "/..."; "..." is every package.
func matches(pattern, path string) bool {
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == pattern
}

func firstMatch(pattern string, paths []string) string {
	for _, p := range paths {
		if matches(pattern, p) {
			return p
		}
	}
	return ""
}

func allowed(only []string) string {
	if len(only) == 0 {
		return "it must import no package of ours"
	}
	return "of ours it may import only " + strings.Join(only, ", ")
}
