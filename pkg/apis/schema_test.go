// Package apis_test checks the CRDs generated from this folder's types
// against OCM's.
package apis_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// The CRDs OCM publishes in its API module are the contract: our generated
// CRDs must accept exactly the objects they accept. The release is pinned in
// the module hack/tools/ocm-api; the test reads it from the Go module cache.
const (
	repoRoot       = "../.."
	upstreamModule = "open-cluster-management.io/api"
	upstreamPin    = "hack/tools/ocm-api"
)

// upstreamCRDs are the CRDs of the module we implement, each group and
// version we have types of: every one of them must be among ours.
var upstreamCRDs = []string{
	"work/v1/*.crd.yaml",
	"work/v1alpha1/*.crd.yaml",
	"cluster/v1beta1/*placements.crd.yaml",
	"cluster/v1beta1/*placementdecisions.crd.yaml",
}

// ourCRDs are the folders of manifests/ that hold generated CRDs.
var ourCRDs = []string{
	repoRoot + "/manifests/hub/*.yaml",
	repoRoot + "/manifests/managed/*.yaml",
	repoRoot + "/manifests/placement/*.yaml",
}

// notCompared are the parts of a CRD that accept no new objects: documentation
// and what kubectl shows. They are ours to write.
var notCompared = struct{ schema, names, version []string }{
	schema:  []string{"description", "title", "example", "externalDocs"},
	names:   []string{"shortNames", "categories"},
	version: []string{"additionalPrinterColumns"},
}

// allowedDiffs are the differences from upstream we keep on purpose: the fact,
// our exact value of it, and why. An entry that no longer matches fails the test.
var allowedDiffs = []struct{ fact, ours, reason string }{{
	fact:   "manifestworks.work.open-cluster-management.io v1 schema.spec.manifestConfigs[].conditionRules[]",
	ours:   "type=object",
	reason: `the wire schema we implement has no CEL rule here; upstream's rejects condition "" on a CEL-type rule, which our agent skips`,
}, {
	fact:   "manifestworkreplicasets.work.open-cluster-management.io v1alpha1 schema.spec.manifestWorkTemplate.manifestConfigs[].conditionRules[]",
	ours:   "type=object",
	reason: "the template is a ManifestWork's spec, and accepts what a ManifestWork accepts (the entry above)",
}}

// TestCRDsMatchUpstream flattens our CRDs and upstream's into facts (one per
// schema field, plus the names, scope and versions) and lists every
// difference.
func TestCRDsMatchUpstream(t *testing.T) {
	dir, version := upstreamModuleDir(t)
	var patterns []string
	for _, p := range upstreamCRDs {
		patterns = append(patterns, filepath.Join(dir, p))
	}
	upstream := readCRDs(t, patterns...)
	ours := readCRDs(t, ourCRDs...)
	// CRDs of our own groups (fleet.manifestwork.io) have no upstream.
	maps.DeleteFunc(ours, func(name string, _ facts) bool { return strings.HasSuffix(name, ".manifestwork.io") })
	require.ElementsMatch(t, slices.Collect(maps.Keys(upstream)), slices.Collect(maps.Keys(ours)), "CRDs of %s@%s and ours", upstreamModule, version)

	for name, want := range upstream {
		t.Run(name, func(t *testing.T) {
			diffs := diffFacts(want, ours[name])
			for _, allowed := range allowedDiffs {
				if strings.HasPrefix(allowed.fact, name+" ") {
					_, differs := diffs[allowed.fact]
					require.True(t, differs && ours[name][allowed.fact] == allowed.ours,
						"allowedDiffs: %s is no longer %q (%s); update or remove the entry", allowed.fact, allowed.ours, allowed.reason)
					delete(diffs, allowed.fact)
				}
			}
			if len(diffs) > 0 {
				t.Errorf("%d differences from %s@%s (want is upstream, got is ours):\n%s",
					len(diffs), upstreamModule, version, strings.Join(slices.Sorted(maps.Values(diffs)), "\n"))
			}
		})
	}
}

// upstreamModuleDir returns the directory of the pinned upstream module in
// the module cache, downloading it through the Go module proxy when absent.
// go.sum of the pin verifies what is downloaded.
func upstreamModuleDir(t *testing.T) (dir, version string) {
	cmd := exec.Command("go", "mod", "download", "-json", upstreamModule)
	cmd.Dir = filepath.Join(repoRoot, upstreamPin)
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var mod struct{ Version, Dir, Error string }
	if err := json.Unmarshal(out, &mod); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil || mod.Error != "" || mod.Dir == "" {
		t.Fatalf("cannot get %s as pinned in %s/go.mod from the module cache or the Go module proxy: %v %s %s",
			upstreamModule, upstreamPin, runErr, mod.Error, stderr.String())
	}
	return mod.Dir, mod.Version
}

// readCRDs flattens the CRDs in the files matching the patterns, by CRD name.
func readCRDs(t *testing.T, patterns ...string) map[string]facts {
	crds := map[string]facts{}
	for _, pattern := range patterns {
		files, err := filepath.Glob(pattern)
		require.NoError(t, err)
		require.NotEmpty(t, files, "no CRD matches %s; run hack/update-codegen.sh", pattern)
		for _, file := range files {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			var crd apiextensionsv1.CustomResourceDefinition
			require.NoError(t, yaml.UnmarshalStrict(data, &crd), file)
			crds[crd.Name] = flattenCRD(t, crd)
		}
	}
	return crds
}

// facts are what a CRD accepts, keyed "<crd> <what>" so that a difference
// names its place: "<crd> names", "<crd> v1", "<crd> v1 schema.spec.workload".
type facts map[string]string

func flattenCRD(t *testing.T, crd apiextensionsv1.CustomResourceDefinition) facts {
	prefix := crd.Name + " "
	f := facts{
		prefix + "spec":  render(t, crd.Spec, []string{"names", "versions"}),
		prefix + "names": render(t, crd.Spec.Names, notCompared.names),
	}
	for _, v := range crd.Spec.Versions {
		require.NotNil(t, v.Schema, "%s %s has no schema", crd.Name, v.Name)
		flattenSchema(t, prefix+v.Name+" schema", *v.Schema.OpenAPIV3Schema, false, f)
		f[prefix+v.Name] = render(t, v, append([]string{"schema"}, notCompared.version...))
	}
	return f
}

// flattenSchema adds one fact per field, keyed by its path ("schema.spec.
// manifestConfigs[].resourceIdentifier", "[]" for items, "{}" for map values):
// its keywords without its children, and "required" if its parent requires it.
func flattenSchema(t *testing.T, path string, p apiextensionsv1.JSONSchemaProps, required bool, f facts) {
	for name, child := range p.Properties {
		flattenSchema(t, path+"."+name, child, slices.Contains(p.Required, name), f)
	}
	if p.Items != nil && p.Items.Schema != nil {
		flattenSchema(t, path+"[]", *p.Items.Schema, false, f)
		p.Items = nil
	}
	if p.AdditionalProperties != nil && p.AdditionalProperties.Schema != nil {
		flattenSchema(t, path+"{}", *p.AdditionalProperties.Schema, false, f)
		p.AdditionalProperties = nil
	}
	p.Properties, p.Required = nil, nil
	fact := render(t, p, notCompared.schema)
	if required {
		fact += " required"
	}
	f[path] = fact
}

// render writes v's JSON fields as sorted "key=value", leaving out the
// skipped keys; string values are unquoted.
func render(t *testing.T, v any, skip []string) string {
	data, err := json.Marshal(v)
	require.NoError(t, err)
	var fields map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &fields))
	parts := make([]string, 0, len(fields))
	for k, raw := range fields {
		if slices.Contains(skip, k) {
			continue
		}
		value := string(raw)
		var s string
		if json.Unmarshal(raw, &s) == nil {
			value = s
		}
		parts = append(parts, k+"="+value)
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// diffFacts describes each fact that differs, by fact.
func diffFacts(want, got facts) map[string]string {
	diffs := map[string]string{}
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			diffs[k] = fmt.Sprintf("missing %s: %s", k, w)
		case g != w:
			diffs[k] = fmt.Sprintf("differs %s:\n    want %s\n    got  %s", k, w, g)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			diffs[k] = fmt.Sprintf("extra   %s: %s", k, g)
		}
	}
	return diffs
}
