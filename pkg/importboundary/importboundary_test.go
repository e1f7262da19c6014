package importboundary

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// imports are the module's own imports of one package, of its code and of its
// tests apart.
type imports struct{ code, tests map[string]bool }

// parseModule reads the import clauses of every Go file of the module below
// root (vendor and testdata aside), keyed by package import path.
func parseModule(t *testing.T, root, module string) map[string]*imports {
	t.Helper()
	pkgs := map[string]*imports{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || name == "_output") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := module + "/" + filepath.ToSlash(rel)
		if pkgs[pkg] == nil {
			pkgs[pkg] = &imports{code: map[string]bool{}, tests: map[string]bool{}}
		}
		into := pkgs[pkg].code
		if strings.HasSuffix(path, "_test.go") {
			into = pkgs[pkg].tests
		}
		for _, spec := range f.Imports {
			p, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			if p == module || strings.HasPrefix(p, module+"/") {
				into[p] = true
			}
		}
		return nil
	})
	require.NoError(t, err)
	return pkgs
}

// reach lists the module packages pkg and its tests import, directly or
// through the code of the packages imported.
func reach(pkgs map[string]*imports, pkg string) map[string]bool {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		if i := pkgs[p]; i != nil {
			for q := range i.code {
				visit(q)
			}
		}
	}
	visit(pkg)
	if i := pkgs[pkg]; i != nil {
		for q := range i.tests {
			visit(q)
		}
	}
	delete(seen, pkg)
	return seen
}

// crossings lists, for each package under from, the packages under to it
// reaches, as "package -> package".
func crossings(pkgs map[string]*imports, from, to string) []string {
	var out []string
	for pkg := range pkgs {
		if pkg != from && !strings.HasPrefix(pkg, from+"/") {
			continue
		}
		for q := range reach(pkgs, pkg) {
			if q == to || strings.HasPrefix(q, to+"/") {
				out = append(out, pkg+" -> "+q)
			}
		}
	}
	sort.Strings(out)
	return out
}

func moduleRoot(t *testing.T) (root, module string) {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					return dir, strings.Trim(strings.TrimSpace(m), `"`)
				}
			}
			t.Fatalf("%s/go.mod names no module", dir)
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod above the test")
		dir = parent
	}
}

func TestHubAndAgentDoNotImportEachOther(t *testing.T) {
	root, module := moduleRoot(t)
	pkgs := parseModule(t, root, module)
	hub, agent := module+"/pkg/hub", module+"/pkg/agent"
	require.Contains(t, pkgs, hub)
	require.Contains(t, pkgs, agent)

	assert.Empty(t, crossings(pkgs, hub, agent), "the hub must not import the agent; move what both use out of pkg/agent")
	assert.Empty(t, crossings(pkgs, agent, hub), "the agent must not import the hub; move what both use out of pkg/hub")
}

// TestCrossings checks the check on a made-up module.
func TestCrossings(t *testing.T) {
	pkg := func(code []string, tests ...string) *imports {
		i := &imports{code: map[string]bool{}, tests: map[string]bool{}}
		for _, c := range code {
			i.code[c] = true
		}
		for _, c := range tests {
			i.tests[c] = true
		}
		return i
	}
	pkgs := map[string]*imports{
		"m/pkg/hub":          pkg([]string{"m/pkg/hub/webhook", "m/pkg/shared"}),
		"m/pkg/hub/webhook":  pkg(nil, "m/test/fixture"),
		"m/test/fixture":     pkg([]string{"m/pkg/agent/names"}),
		"m/pkg/shared":       pkg(nil),
		"m/pkg/agent":        pkg([]string{"m/pkg/shared", "m/pkg/agent/names"}),
		"m/pkg/agent/names":  pkg(nil),
		"m/pkg/agent/client": pkg(nil, "m/pkg/agent"),
	}
	assert.Equal(t, []string{"m/pkg/hub/webhook -> m/pkg/agent/names"}, crossings(pkgs, "m/pkg/hub", "m/pkg/agent"),
		"through a test's import, then the code of the package imported")
	assert.Empty(t, crossings(pkgs, "m/pkg/agent", "m/pkg/hub"))
	assert.Equal(t, map[string]bool{"m/pkg/shared": true, "m/pkg/agent/names": true}, reach(pkgs, "m/pkg/agent"))
}
