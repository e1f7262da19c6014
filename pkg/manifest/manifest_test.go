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
		{name: "no kind or name", in: raw(`{"apiVersion":"v1","metadata":{}}`), wantErr: "manifest has no kind, metadata.name"},
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
	assert.Equal(t, workv1.UpdateStrategyTypeServerSideApply, StrategyOf(c))
	assert.Nil(t, ConfigFor(configs, deployments, "other-ns", "web"))
	assert.Nil(t, ConfigFor(configs, schema.GroupVersionResource{Version: "v1", Resource: "deployments"}, "ns", "web"), "group must match")
	assert.Equal(t, workv1.UpdateStrategyTypeUpdate, StrategyOf(nil))
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
