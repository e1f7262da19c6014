package integration

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	"github.com/manifestwork/work/test/framework"
)

const overridePolicyNamespace = "override-policy"

// policyOverride is an override of replica set web in namespace with one
// rule: patches, or a drop without them.
func policyOverride(namespace, name string, patches ...fleetv1alpha1.Patch) *fleetv1alpha1.WorkOverride {
	rule := fleetv1alpha1.WorkOverrideRule{
		Clusters:  fleetv1alpha1.ClusterSelector{ClusterNames: []string{"cluster1"}, DecisionGroups: []string{"web/canary"}},
		Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap"}},
		Patches:   patches,
		Drop:      len(patches) == 0,
	}
	return &fleetv1alpha1.WorkOverride{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       fleetv1alpha1.WorkOverrideSpec{ReplicaSet: "web", Rules: []fleetv1alpha1.WorkOverrideRule{rule}},
	}
}

func policyPatch(op fleetv1alpha1.PatchOp, path, value string) fleetv1alpha1.Patch {
	p := fleetv1alpha1.Patch{Op: op, Path: path}
	if value != "" {
		p.Value = &apiextensionsv1.JSON{Raw: []byte(value)}
	}
	return p
}

// The WorkOverride policy of manifests/hub-policy refuses, on a real API
// server, what the CRD cannot see: add and replace without a value, remove
// with one; the CRD and the policy both refuse the other shapes. An update
// is checked as a create; a namespace the policy is not bound to admits
// what the CRD admits.
func TestWorkOverrideAdmissionPolicy(t *testing.T) {
	s := server(t)
	ctx := t.Context()
	installPolicy(t, s, "workoverride-policy.yaml", overridePolicyNamespace)
	overrides := s.Work.FleetV1alpha1().WorkOverrides(overridePolicyNamespace)

	noValue := policyOverride(overridePolicyNamespace, "no-value", policyPatch(fleetv1alpha1.PatchAdd, "/data/cluster", ""))
	framework.Eventually(t, time.Minute, func() error {
		_, err := overrides.Create(ctx, noValue, metav1.CreateOptions{})
		if err == nil {
			_ = overrides.Delete(ctx, noValue.Name, metav1.DeleteOptions{})
		}
		return refused(err, "patch add /data/cluster: add needs a value")
	}, "the policy refuses an add without a value")

	for _, tt := range []struct {
		name    string
		patches []fleetv1alpha1.Patch
		msg     string
	}{
		{"replace-without-value", []fleetv1alpha1.Patch{policyPatch(fleetv1alpha1.PatchAdd, "/data/a", `"x"`),
			policyPatch(fleetv1alpha1.PatchReplace, "/data/b", "")}, "patch replace /data/b: replace needs a value"},
		{"remove-with-value", []fleetv1alpha1.Patch{policyPatch(fleetv1alpha1.PatchRemove, "/data/a", `"x"`)},
			"patch remove /data/a: remove takes no value"},
		// The CRD refuses these before any admission.
		{"bad-path", []fleetv1alpha1.Patch{policyPatch(fleetv1alpha1.PatchRemove, "data.a", "")}, "spec.rules[0].patches[0].path"},
		{"bad-op", []fleetv1alpha1.Patch{policyPatch("move", "/data/a", "")}, `Unsupported value: "move"`},
	} {
		_, err := overrides.Create(ctx, policyOverride(overridePolicyNamespace, tt.name, tt.patches...), metav1.CreateOptions{})
		require.NoError(t, refused(err, tt.msg), tt.name)
	}

	// Valid overrides are admitted, with patches or with a drop; an update
	// that breaks one is refused.
	valid, err := overrides.Create(ctx, policyOverride(overridePolicyNamespace, "valid",
		policyPatch(fleetv1alpha1.PatchAdd, "/data/cluster", `"${cluster.name}"`),
		policyPatch(fleetv1alpha1.PatchRemove, "/metadata/labels/app.kubernetes.io~1name", "")), metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = overrides.Create(ctx, policyOverride(overridePolicyNamespace, "drop"), metav1.CreateOptions{})
	require.NoError(t, err)
	valid.Spec.Rules[0].Patches[0].Value = nil
	_, err = overrides.Update(ctx, valid, metav1.UpdateOptions{})
	require.NoError(t, refused(err, "patch add /data/cluster: add needs a value"))

	// The policy is what refuses: outside its namespaces, the CRD admits an
	// add without a value.
	const unbound = overridePolicyNamespace + "-unbound"
	require.NoError(t, s.EnsureNamespaces(ctx, unbound))
	t.Cleanup(func() {
		_ = s.Kube.CoreV1().Namespaces().Delete(context.Background(), unbound, metav1.DeleteOptions{})
	})
	_, err = s.Work.FleetV1alpha1().WorkOverrides(unbound).Create(ctx,
		policyOverride(unbound, "no-value", policyPatch(fleetv1alpha1.PatchAdd, "/data/cluster", "")), metav1.CreateOptions{})
	require.NoError(t, err, "a namespace without the label is not bound")
}
