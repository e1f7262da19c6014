package v1_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// The wire schema we must match, one line per field (see its header). It sits
// beside the checkout; WORK_API_SCHEMA overrides the path.
func apiSchemaPath(t *testing.T) string {
	if p := os.Getenv("WORK_API_SCHEMA"); p != "" {
		return p
	}
	p, err := filepath.Abs("../../../../../shared/api-schema.txt")
	require.NoError(t, err)
	return p
}

var crdFiles = map[string]string{
	"ManifestWork":        "../../../../manifests/hub/work.open-cluster-management.io_manifestworks.yaml",
	"AppliedManifestWork": "../../../../manifests/managed/work.open-cluster-management.io_appliedmanifestworks.yaml",
}

// TestCRDSchemaMatchesWireSchema flattens our generated CRDs into the format of
// api-schema.txt and lists every difference. Printer columns and short names
// are the only additions allowed: they accept no new objects.
func TestCRDSchemaMatchesWireSchema(t *testing.T) {
	want := parseWireSchema(t, apiSchemaPath(t))
	require.Len(t, want, len(crdFiles), "kinds in %s", apiSchemaPath(t))

	for kind, file := range crdFiles {
		t.Run(kind, func(t *testing.T) {
			expected, ok := want[kind]
			require.True(t, ok, "kind %s missing from the wire schema", kind)
			got := flattenCRD(t, file)
			if diffs := diffKinds(expected, got); len(diffs) > 0 {
				t.Errorf("%s: %d differences from the wire schema:\n%s", file, len(diffs), strings.Join(diffs, "\n"))
			}
		})
	}
}

// kindSchema is one kind of the wire schema: header facts and field lines.
type kindSchema struct {
	header map[string]string // scope, plural, served, storage, subresources, version
	fields map[string]field  // by path
}

type field struct {
	typ         string
	constraints map[string]string // name -> value; "required" -> ""
}

func (f field) String() string {
	keys := make([]string, 0, len(f.constraints))
	for k := range f.constraints {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := []string{f.typ}
	for _, k := range keys {
		if f.constraints[k] == "" {
			parts = append(parts, k)
		} else {
			parts = append(parts, k+"="+f.constraints[k])
		}
	}
	return strings.Join(parts, " ")
}

func parseWireSchema(t *testing.T, path string) map[string]kindSchema {
	f, err := os.Open(path)
	require.NoError(t, err, "the wire schema ships in shared/ beside the checkout")
	defer func() { _ = f.Close() }()

	kinds := map[string]kindSchema{}
	var current kindSchema
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		line := scanner.Text()
		switch {
		case strings.HasPrefix(line, "# version "):
			tokens := splitTokens(strings.TrimPrefix(line, "# version "))
			current.header["version"] = tokens[0]
			addHeader(current.header, tokens[1:])
		case strings.HasPrefix(line, "# ") && strings.Contains(line, " scope="):
			tokens := splitTokens(strings.TrimPrefix(line, "# "))
			current = kindSchema{header: map[string]string{}, fields: map[string]field{}}
			kinds[tokens[0]] = current
			addHeader(current.header, tokens[1:])
		case strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "":
		default:
			path, rest, _ := strings.Cut(line, " ")
			tokens := splitTokens(rest)
			fl := field{typ: tokens[0], constraints: map[string]string{}}
			for _, tok := range tokens[1:] {
				k, v, _ := strings.Cut(tok, "=")
				fl.constraints[k] = v
			}
			current.fields[path] = fl
		}
	}
	require.NoError(t, scanner.Err())
	return kinds
}

// addHeader keeps the header facts that decide which objects are accepted;
// short names and printer columns are ours to add.
func addHeader(h map[string]string, tokens []string) {
	for _, tok := range tokens {
		k, v, _ := strings.Cut(tok, "=")
		switch k {
		case "short", "columns":
		default:
			h[k] = v
		}
	}
}

// splitTokens splits on spaces outside brackets, so enum=['A', 'B'] stays one token.
func splitTokens(s string) []string {
	var tokens []string
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case r == ' ' && depth == 0:
			if b.Len() > 0 {
				tokens = append(tokens, b.String())
				b.Reset()
			}
			continue
		}
		b.WriteRune(r)
	}
	if b.Len() > 0 {
		tokens = append(tokens, b.String())
	}
	return tokens
}

func flattenCRD(t *testing.T, file string) kindSchema {
	data, err := os.ReadFile(file)
	require.NoError(t, err, "run hack/update-codegen.sh")
	var crd apiextensionsv1.CustomResourceDefinition
	require.NoError(t, yaml.UnmarshalStrict(data, &crd))
	require.Len(t, crd.Spec.Versions, 1, "one version")
	v := crd.Spec.Versions[0]

	var subresources []string
	if v.Subresources != nil && v.Subresources.Status != nil {
		subresources = append(subresources, "status")
	}
	if v.Subresources != nil && v.Subresources.Scale != nil {
		subresources = append(subresources, "scale")
	}
	ks := kindSchema{
		header: map[string]string{
			"scope":        string(crd.Spec.Scope),
			"plural":       crd.Spec.Names.Plural,
			"version":      v.Name,
			"served":       pyBool(v.Served),
			"storage":      pyBool(v.Storage),
			"subresources": pyList(subresources),
		},
		fields: map[string]field{},
	}
	require.NotNil(t, v.Schema)
	flattenProps(t, "", *v.Schema.OpenAPIV3Schema, false, ks.fields)
	return ks
}

func flattenProps(t *testing.T, path string, p apiextensionsv1.JSONSchemaProps, required bool, out map[string]field) {
	typ := p.Type
	if p.XPreserveUnknownFields != nil && *p.XPreserveUnknownFields {
		typ += "+preserve"
	}
	if p.XEmbeddedResource {
		typ += "+embedded"
	}
	c := map[string]string{}
	if len(p.Enum) > 0 {
		var values []string
		for _, e := range p.Enum {
			var s string
			require.NoError(t, json.Unmarshal(e.Raw, &s), "enum of %s", path)
			values = append(values, s)
		}
		c["enum"] = pyList(values)
	}
	if p.Default != nil {
		var s string
		if json.Unmarshal(p.Default.Raw, &s) == nil {
			c["default"] = s
		} else {
			c["default"] = string(p.Default.Raw)
		}
	}
	if p.Pattern != "" {
		c["pattern"] = p.Pattern
	}
	if p.MaxLength != nil {
		c["maxLength"] = fmt.Sprint(*p.MaxLength)
	}
	if p.MinLength != nil {
		c["minLength"] = fmt.Sprint(*p.MinLength)
	}
	if p.Minimum != nil {
		c["minimum"] = fmt.Sprint(*p.Minimum)
	}
	if p.Maximum != nil {
		c["maximum"] = fmt.Sprint(*p.Maximum)
	}
	if p.MaxItems != nil {
		c["maxItems"] = fmt.Sprint(*p.MaxItems)
	}
	if p.MinItems != nil {
		c["minItems"] = fmt.Sprint(*p.MinItems)
	}
	if p.Format != "" {
		c["format"] = p.Format
	}
	if p.XListType != nil {
		c["listType"] = *p.XListType
	}
	if len(p.XListMapKeys) > 0 {
		c["listMapKeys"] = strings.Join(p.XListMapKeys, ",")
	}
	if len(p.XValidations) > 0 {
		c["x-kubernetes-validations"] = fmt.Sprint(len(p.XValidations))
	}
	if required {
		c["required"] = ""
	}
	out[path] = field{typ: typ, constraints: c}

	for name, child := range p.Properties {
		if path == "" && (name == "apiVersion" || name == "kind" || name == "metadata") {
			continue // every kind has these; the wire schema leaves them out
		}
		flattenProps(t, path+"."+name, child, slices.Contains(p.Required, name), out)
	}
	if p.Items != nil && p.Items.Schema != nil {
		flattenProps(t, path+"[]", *p.Items.Schema, false, out)
	}
	require.Nil(t, p.AdditionalProperties, "additionalProperties at %s is not in the wire schema", path)
}

func diffKinds(want, got kindSchema) []string {
	var diffs []string
	for k, v := range want.header {
		if got.header[k] != v {
			diffs = append(diffs, fmt.Sprintf("header %s: want %s, got %s", k, v, got.header[k]))
		}
	}
	for path, w := range want.fields {
		g, ok := got.fields[path]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("missing  %q: %s", path, w))
		case g.String() != w.String():
			diffs = append(diffs, fmt.Sprintf("differs  %q:\n    want %s\n    got  %s", path, w, g))
		}
	}
	for path, g := range got.fields {
		if _, ok := want.fields[path]; !ok {
			diffs = append(diffs, fmt.Sprintf("extra    %q: %s", path, g))
		}
	}
	sort.Strings(diffs)
	return diffs
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// pyList renders strings the way the wire schema does: ['a', 'b'].
func pyList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "'" + v + "'"
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}
