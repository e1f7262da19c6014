package manifest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func raw(s string) workv1.Manifest {
	return workv1.Manifest{RawExtension: runtime.RawExtension{Raw: []byte(s)}}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		in      workv1.Manifest
		wantErr string
	}{
		{name: "valid", in: raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"ns"},"data":{"n":"1"}}`)},
		{name: "empty", in: workv1.Manifest{}, wantErr: "manifest is empty"},
		{name: "invalid JSON", in: raw(`{"apiVersion":`), wantErr: "manifest is not a JSON object"},
		{name: "not an object", in: raw(`[1,2]`), wantErr: "manifest is not a JSON object"},
		{name: "no apiVersion", in: raw(`{"kind":"ConfigMap","metadata":{"name":"a"}}`), wantErr: "manifest has no apiVersion"},
		{name: "no kind or name", in: raw(`{"apiVersion":"v1","metadata":{}}`), wantErr: `Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{}}'`},
		{name: "no kind or apiVersion", in: raw(`{"metadata":{"name":"a"}}`), wantErr: "Object 'Kind' is missing"},
		{name: "no name", in: raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{}}`), wantErr: "manifest has no metadata.name"},
		{name: "generateName", in: raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","generateName":"a-"}}`), wantErr: "generateName"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj, err := Decode(tt.in)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "a", obj.GetName())
			// Whole numbers stay integers, as the API server keeps them.
			assert.Equal(t, "1", obj.Object["data"].(map[string]any)["n"])
		})
	}
}

// Parse leaves the name to the agent, which reports it once the manifest is
// mapped, as OCM's agent does.
func TestParse(t *testing.T) {
	tests := []struct {
		name     string
		in       workv1.Manifest
		wantErr  string
		wantName string
	}{
		{name: "no name", in: raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"ns"}}`)},
		{name: "generateName", in: raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","generateName":"a-"}}`), wantName: "a"},
		{name: "no kind", in: raw(`{"apiVersion":"v1","metadata":{"name":"a"}}`),
			wantErr: `Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"a"}}'`},
		{name: "no apiVersion", in: raw(`{"kind":"ConfigMap","metadata":{"name":"a"}}`), wantErr: "manifest has no apiVersion"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj, err := Parse(tt.in)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantName, obj.GetName())
		})
	}
}

func TestNoNameError(t *testing.T) {
	gvk := func(group, version, kind string) schema.GroupVersionKind {
		return schema.GroupVersionKind{Group: group, Version: version, Kind: kind}
	}
	tests := []struct {
		name     string
		gvk      schema.GroupVersionKind
		strategy workv1.UpdateStrategyType
		want     string
	}{
		{name: "typed kind, Update", gvk: gvk("", "v1", "ConfigMap"), strategy: workv1.UpdateStrategyTypeUpdate, want: "resource name may not be empty"},
		{name: "typed kind with a group", gvk: gvk("rbac.authorization.k8s.io", "v1", "RoleBinding"), strategy: workv1.UpdateStrategyTypeUpdate, want: "resource name may not be empty"},
		{name: "typed kind at another version", gvk: gvk("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy"), strategy: workv1.UpdateStrategyTypeUpdate, want: "name is required"},
		{name: "other kind, Update", gvk: gvk("apps", "v1", "Deployment"), strategy: workv1.UpdateStrategyTypeUpdate, want: "name is required"},
		{name: "typed kind, CreateOnly", gvk: gvk("", "v1", "ConfigMap"), strategy: workv1.UpdateStrategyTypeCreateOnly, want: "name is required"},
		{name: "typed kind, ServerSideApply", gvk: gvk("", "v1", "Secret"), strategy: workv1.UpdateStrategyTypeServerSideApply, want: "name is required"},
		{name: "custom resource", gvk: gvk("example.com", "v1", "Widget"), strategy: workv1.UpdateStrategyTypeUpdate, want: "name is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.EqualError(t, NoNameError(tt.gvk, tt.strategy), tt.want)
		})
	}
}

func TestDecodeKeepsIntegers(t *testing.T) {
	obj, err := Decode(raw(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":3}}`))
	require.NoError(t, err)
	assert.Equal(t, int64(3), obj.Object["spec"].(map[string]any)["replicas"])
}

func TestOrder(t *testing.T) {
	gk := func(group, kind string) schema.GroupKind { return schema.GroupKind{Group: group, Kind: kind} }
	kinds := []schema.GroupKind{
		gk("apps", "Deployment"), // 0: last tier
		gk("", "ConfigMap"),      // 1: tier 4
		gk("apiextensions.k8s.io", "CustomResourceDefinition"), // 2: tier 0
		gk("example.com", "Widget"),                            // 3: last tier, after 0
		gk("", "ServiceAccount"),                               // 4: tier 3
		gk("rbac.authorization.k8s.io", "ClusterRole"),         // 5: tier 2
		gk("", "Namespace"),                                    // 6: tier 1
		{},                                                     // 7: undecodable, last tier
		gk("", "Secret"),                                       // 8: tier 4, after 1
	}
	assert.Equal(t, []int{2, 6, 5, 4, 1, 8, 0, 3, 7}, Order(kinds))
}

func TestConfigFor(t *testing.T) {
	deployments := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	configs := []workv1.ManifestConfigOption{
		{ResourceIdentifier: workv1.ResourceIdentifier{Group: "apps", Resource: "deployments", Namespace: "ns", Name: "other"}},
		{
			ResourceIdentifier: workv1.ResourceIdentifier{Group: "apps", Resource: "deployments", Namespace: "ns", Name: "web"},
			UpdateStrategy:     &workv1.UpdateStrategy{Type: workv1.UpdateStrategyTypeServerSideApply},
		},
	}
	c := ConfigFor(configs, deployments, "ns", "web")
	require.NotNil(t, c)
	assert.Equal(t, configs[1], *c, "one exact config is returned as it is")
	assert.Equal(t, workv1.UpdateStrategyTypeServerSideApply, StrategyOf(c))
	assert.Nil(t, ConfigFor(configs, deployments, "other-ns", "web"))
	assert.Nil(t, ConfigFor(configs, schema.GroupVersionResource{Version: "v1", Resource: "deployments"}, "ns", "web"), "group must match")
	assert.Equal(t, workv1.UpdateStrategyTypeUpdate, StrategyOf(nil))
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern, s string
		want       bool
	}{
		{"web", "web", true},
		{"web", "web2", false},
		{"", "", true},
		{"", "ns", false},
		{"*", "", true}, // a cluster-scoped object's namespace
		{"*", "anything", true},
		{"web-*", "web-1", true},
		{"web-*", "web-", true},
		{"web-*", "web", false},
		{"*-db", "orders-db", true},
		{"*-db", "orders-db2", false},
		{"a*b*c", "abc", true},
		{"a*b*c", "axxbyyc", true},
		{"a*b*c", "acb", false},
		{"a*a", "a", false},
		{"a**", "a", true},
		{"*b*", "abc", true},
		{"*b*", "ac", false},
		{"*ab", "aab", true},
		// Only '*' is special: every other character stands for itself.
		{"web?", "webs", false},
		{"web?", "web?", true},
		{"w.b", "web", false},
		{"[a-z]*", "web", false},
		{"[a-z]*", "[a-z]x", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Glob(tt.pattern, tt.s), "Glob(%q, %q)", tt.pattern, tt.s)
	}
}

func TestMatches(t *testing.T) {
	deployments := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	namespaces := schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	id := func(group, resource, namespace, name string) workv1.ResourceIdentifier {
		return workv1.ResourceIdentifier{Group: group, Resource: resource, Namespace: namespace, Name: name}
	}
	tests := []struct {
		name           string
		id             workv1.ResourceIdentifier
		gvr            schema.GroupVersionResource
		namespace, obj string
		want           bool
	}{
		{"exact", id("apps", "deployments", "ns", "web"), deployments, "ns", "web", true},
		{"all deployments", id("apps", "deployments", "*", "*"), deployments, "ns", "web", true},
		{"name glob", id("apps", "deployments", "ns", "we*"), deployments, "ns", "web", true},
		{"namespace glob", id("apps", "deployments", "n*", "web"), deployments, "other", "web", false},
		{"group is exact", id("", "deployments", "*", "*"), deployments, "ns", "web", false},
		{"group is no glob", id("*", "deployments", "*", "*"), deployments, "ns", "web", false},
		{"resource is no glob", id("apps", "*", "*", "*"), deployments, "ns", "web", false},
		{"cluster-scoped by *", id("", "namespaces", "*", "team-*"), namespaces, "", "team-a", true},
		{"cluster-scoped by empty", id("", "namespaces", "", "team-a"), namespaces, "", "team-a", true},
		{"empty namespace names no namespaced object", id("apps", "deployments", "", "web"), deployments, "ns", "web", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Matches(tt.id, tt.gvr, tt.namespace, tt.obj))
		})
	}
}

func TestConfigForMergesMatchingConfigs(t *testing.T) {
	deployments := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	config := func(namespace, name string) workv1.ManifestConfigOption {
		return workv1.ManifestConfigOption{ResourceIdentifier: workv1.ResourceIdentifier{
			Group: "apps", Resource: "deployments", Namespace: namespace, Name: name}}
	}
	wellKnown := []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	jsonPaths := []workv1.FeedbackRule{{Type: workv1.JSONPathsType, JsonPaths: []workv1.JsonPath{{Name: "g", Path: ".status.observedGeneration"}}}}
	complete := []workv1.ConditionRule{{Type: workv1.WellKnownConditionsType, Condition: workv1.ManifestComplete}}
	ssa := &workv1.UpdateStrategy{Type: workv1.UpdateStrategyTypeServerSideApply}
	readOnly := &workv1.UpdateStrategy{Type: workv1.UpdateStrategyTypeReadOnly}

	// The all-Deployments prober of OCM's addon framework.
	prober := config("*", "*")
	prober.FeedbackRules = wellKnown
	strategyOnly := config("ns", "web")
	strategyOnly.UpdateStrategy = ssa
	watched := config("ns", "web")
	watched.FeedbackRules, watched.FeedbackScrapeType = jsonPaths, workv1.FeedbackWatchType
	rules := config("*", "web")
	rules.ConditionRules, rules.FeedbackScrapeType = complete, workv1.FeedbackWatchType
	readOnlyAll := config("*", "*")
	readOnlyAll.UpdateStrategy = readOnly
	emptyRules := config("ns", "web")
	emptyRules.FeedbackRules, emptyRules.ConditionRules = []workv1.FeedbackRule{}, []workv1.ConditionRule{}

	tests := []struct {
		name    string
		configs []workv1.ManifestConfigOption
		want    *workv1.ManifestConfigOption // without its resourceIdentifier
	}{
		{name: "none match", configs: []workv1.ManifestConfigOption{config("ns", "db")}},
		{name: "prober", configs: []workv1.ManifestConfigOption{prober}, want: &workv1.ManifestConfigOption{FeedbackRules: wellKnown}},
		{
			name:    "feedback from the first, strategy from the second",
			configs: []workv1.ManifestConfigOption{prober, strategyOnly},
			want:    &workv1.ManifestConfigOption{FeedbackRules: wellKnown, UpdateStrategy: ssa},
		},
		{
			name:    "the first non-empty of each wins",
			configs: []workv1.ManifestConfigOption{strategyOnly, prober, watched, readOnlyAll},
			want:    &workv1.ManifestConfigOption{FeedbackRules: wellKnown, UpdateStrategy: ssa},
		},
		{
			name:    "empty rules are not rules",
			configs: []workv1.ManifestConfigOption{emptyRules, watched},
			want:    &workv1.ManifestConfigOption{FeedbackRules: jsonPaths, FeedbackScrapeType: workv1.FeedbackWatchType},
		},
		{
			name:    "the scrape type comes with the feedback rules",
			configs: []workv1.ManifestConfigOption{rules, prober},
			want:    &workv1.ManifestConfigOption{FeedbackRules: wellKnown, ConditionRules: complete},
		},
		{
			name:    "else with the condition rules",
			configs: []workv1.ManifestConfigOption{strategyOnly, rules},
			want: &workv1.ManifestConfigOption{ConditionRules: complete, UpdateStrategy: ssa,
				FeedbackScrapeType: workv1.FeedbackWatchType},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ConfigFor(tt.configs, deployments, "ns", "web")
			if tt.want == nil {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			want := *tt.want
			want.ResourceIdentifier = workv1.ResourceIdentifier{Group: "apps", Resource: "deployments", Namespace: "ns", Name: "web"}
			assert.Equal(t, want, *got)
		})
	}
}

func TestStrategyForAndReadOnly(t *testing.T) {
	work := &workv1.ManifestWork{Spec: workv1.ManifestWorkSpec{ManifestConfigs: []workv1.ManifestConfigOption{{
		ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "ns", Name: "watched"},
		UpdateStrategy:     &workv1.UpdateStrategy{Type: workv1.UpdateStrategyTypeReadOnly},
	}}}}
	configmaps := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	assert.Equal(t, workv1.UpdateStrategyTypeReadOnly, StrategyFor(work, configmaps, "ns", "watched"))
	assert.Equal(t, workv1.UpdateStrategyTypeUpdate, StrategyFor(work, configmaps, "ns", "applied"))
	assert.True(t, ReadOnly(work, workv1.ManifestResourceMeta{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "ns", Name: "watched"}))
	assert.False(t, ReadOnly(work, workv1.ManifestResourceMeta{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "ns", Name: "applied"}))
}

// A manifest without a resource or a name has no object, whatever config
// patterns match it.
func TestConfigOf(t *testing.T) {
	work := &workv1.ManifestWork{Spec: workv1.ManifestWorkSpec{ManifestConfigs: []workv1.ManifestConfigOption{{
		ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "*", Name: "*"},
		FeedbackRules:      []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}},
	}}}}
	tests := []struct {
		name  string
		meta  workv1.ManifestResourceMeta
		found bool
	}{
		{name: "mapped and named", meta: workv1.ManifestResourceMeta{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "ns", Name: "a"}, found: true},
		{name: "no name", meta: workv1.ManifestResourceMeta{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "ns"}},
		{name: "not mapped", meta: workv1.ManifestResourceMeta{Version: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.found, ConfigOf(work, tt.meta) != nil)
		})
	}
}

func TestOrphaned(t *testing.T) {
	cm := workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "ns", Name: "cm"}
	deploy := workv1.ResourceIdentifier{Group: "apps", Resource: "deployments", Namespace: "ns", Name: "web"}
	selectively := func(policy workv1.DeletePropagationPolicyType, rules ...workv1.OrphaningRule) *workv1.DeleteOption {
		return &workv1.DeleteOption{PropagationPolicy: policy, SelectivelyOrphan: &workv1.SelectivelyOrphan{OrphaningRules: rules}}
	}
	cmRule := workv1.OrphaningRule{Resource: "configmaps", Namespace: "ns", Name: "cm"}
	tests := []struct {
		name   string
		option *workv1.DeleteOption
		id     workv1.ResourceIdentifier
		want   bool
	}{
		{name: "no deleteOption owns everything", id: cm},
		{name: "Foreground owns everything", option: &workv1.DeleteOption{PropagationPolicy: workv1.DeletePropagationPolicyTypeForeground}, id: cm},
		{name: "Foreground ignores orphaning rules", option: selectively(workv1.DeletePropagationPolicyTypeForeground, cmRule), id: cm},
		{name: "Orphan orphans everything", option: &workv1.DeleteOption{PropagationPolicy: workv1.DeletePropagationPolicyTypeOrphan}, id: deploy, want: true},
		{name: "SelectivelyOrphan orphans what a rule names", option: selectively(workv1.DeletePropagationPolicyTypeSelectivelyOrphan, cmRule), id: cm, want: true},
		{name: "SelectivelyOrphan owns the rest", option: selectively(workv1.DeletePropagationPolicyTypeSelectivelyOrphan, cmRule), id: deploy},
		{name: "SelectivelyOrphan without rules owns everything", option: &workv1.DeleteOption{PropagationPolicy: workv1.DeletePropagationPolicyTypeSelectivelyOrphan}, id: cm},
		{name: "a rule matches the group exactly", option: selectively(workv1.DeletePropagationPolicyTypeSelectivelyOrphan,
			workv1.OrphaningRule{Group: "extensions", Resource: "deployments", Namespace: "ns", Name: "web"}), id: deploy},
		{name: "a rule matches the namespace exactly", option: selectively(workv1.DeletePropagationPolicyTypeSelectivelyOrphan,
			workv1.OrphaningRule{Resource: "configmaps", Name: "cm"}), id: cm},
		{name: "a rule has no wildcard", option: selectively(workv1.DeletePropagationPolicyTypeSelectivelyOrphan,
			workv1.OrphaningRule{Resource: "configmaps", Namespace: "*", Name: "*"}), id: cm},
		{name: "a policy left empty goes by the rules", option: selectively("", cmRule), id: cm, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Orphaned(tt.option, tt.id))
		})
	}
}
