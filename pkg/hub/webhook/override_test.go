package webhook

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admission/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
)

// validOverride has a rule of each kind: patches, and a drop.
func validOverride() *fleetv1alpha1.WorkOverride {
	return &fleetv1alpha1.WorkOverride{
		ObjectMeta: metav1.ObjectMeta{Namespace: "fleet", Name: "web-environments"},
		Spec: fleetv1alpha1.WorkOverrideSpec{ReplicaSet: "web", Rules: []fleetv1alpha1.WorkOverrideRule{
			{
				Clusters: fleetv1alpha1.ClusterSelector{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}},
					DecisionGroups: []string{"web/canary", "web/1"}},
				Manifests: []fleetv1alpha1.ManifestSelector{{Group: "apps", Kind: "Deployment", Name: "web"}},
				Patches: []fleetv1alpha1.Patch{
					{Op: fleetv1alpha1.PatchReplace, Path: "/spec/replicas", Value: &apiextensionsv1.JSON{Raw: []byte(`"${cluster.labels['replicas']}"`)}},
					{Op: fleetv1alpha1.PatchAdd, Path: "/metadata/labels/app.kubernetes.io~1name", Value: &apiextensionsv1.JSON{Raw: []byte(`{"a":["${HOME}","$${cluster.name}"]}`)}},
					{Op: fleetv1alpha1.PatchRemove, Path: "/spec/template/spec/containers/0/resources"},
				},
			},
			{
				Clusters:  fleetv1alpha1.ClusterSelector{ClusterNames: []string{"cluster1"}},
				Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap", Name: "debug"}},
				Drop:      true,
			},
		}},
	}
}

// overrideRequest is a request of op on the override obj (and old).
func overrideRequest(t *testing.T, op admissionv1.Operation, obj, old *fleetv1alpha1.WorkOverride) *admissionv1.AdmissionRequest {
	t.Helper()
	encode := func(o *fleetv1alpha1.WorkOverride) runtime.RawExtension {
		raw, err := json.Marshal(o)
		require.NoError(t, err)
		return runtime.RawExtension{Raw: raw}
	}
	req := &admissionv1.AdmissionRequest{
		UID:  "req-2",
		Kind: metav1.GroupVersionKind{Group: "fleet.manifestwork.io", Version: "v1alpha1", Kind: "WorkOverride"},
		Name: obj.Name, Namespace: obj.Namespace, Operation: op, UserInfo: alice, Object: encode(obj),
	}
	if old != nil {
		req.OldObject = encode(old)
	}
	return req
}

// changed is validOverride changed by f.
func changed(f func(o *fleetv1alpha1.WorkOverride)) *fleetv1alpha1.WorkOverride {
	o := validOverride()
	f(o)
	return o
}

func value(raw string) *apiextensionsv1.JSON { return &apiextensionsv1.JSON{Raw: []byte(raw)} }

// The webhook refuses an override whose rules cannot render, naming the
// rule, the patch and why (422 Invalid, as the API server's own
// validation); it asks no SubjectAccessReview.
func TestReviewOverride(t *testing.T) {
	patch0 := func(f func(p *fleetv1alpha1.Patch)) *fleetv1alpha1.WorkOverride {
		return changed(func(o *fleetv1alpha1.WorkOverride) { f(&o.Spec.Rules[0].Patches[0]) })
	}
	for _, tt := range []struct {
		name string
		req  *admissionv1.AdmissionRequest
		msg  string // "" is allowed
	}{
		{name: "valid", req: overrideRequest(t, admissionv1.Create, validOverride(), nil)},
		{name: "add without a value", req: overrideRequest(t, admissionv1.Create, patch0(func(p *fleetv1alpha1.Patch) { p.Op, p.Value = fleetv1alpha1.PatchAdd, nil }), nil),
			msg: `WorkOverride.fleet.manifestwork.io "web-environments" is invalid: spec.rules[0].patches[0].value: Required value: add needs a value`},
		{name: "replace without a value", req: overrideRequest(t, admissionv1.Create, patch0(func(p *fleetv1alpha1.Patch) { p.Value = nil }), nil),
			msg: `spec.rules[0].patches[0].value: Required value: replace needs a value`},
		{name: "remove with a value", req: overrideRequest(t, admissionv1.Create, patch0(func(p *fleetv1alpha1.Patch) { p.Op = fleetv1alpha1.PatchRemove }), nil),
			msg: `spec.rules[0].patches[0].value: Forbidden: remove takes no value`},
		{name: "an unknown variable", req: overrideRequest(t, admissionv1.Create, patch0(func(p *fleetv1alpha1.Patch) { p.Value = value(`"${cluster.region}"`) }), nil),
			msg: `spec.rules[0].patches[0].value: Invalid value: "\"${cluster.region}\"": ${cluster.region} is not a variable: use ${cluster.name}`},
		{name: "a variable deep in the value, unclosed", req: overrideRequest(t, admissionv1.Create,
			changed(func(o *fleetv1alpha1.WorkOverride) {
				o.Spec.Rules[0].Patches[1].Value = value(`{"a":["x","${cluster.labels['k']"]}`)
			}), nil),
			msg: `spec.rules[0].patches[1].value: Invalid value: "{\"a\":[\"x\",\"${cluster.labels['k']\"]}": "${cluster.labels['k']" has no closing } for its variable`},
		{name: "a path that is not a pointer", req: overrideRequest(t, admissionv1.Create, patch0(func(p *fleetv1alpha1.Patch) { p.Path = "spec.replicas" }), nil),
			msg: `spec.rules[0].patches[0].path: Invalid value: "spec.replicas": a path is a JSON pointer, such as /spec/replicas: it starts with /`},
		{name: "a bad escape in the path", req: overrideRequest(t, admissionv1.Create, patch0(func(p *fleetv1alpha1.Patch) { p.Path = "/metadata/labels/a~2b" }), nil),
			msg: `spec.rules[0].patches[0].path: Invalid value: "/metadata/labels/a~2b": ~ at 18 is neither ~0 (a ~) nor ~1 (a /)`},
		{name: "an unknown op", req: overrideRequest(t, admissionv1.Create, patch0(func(p *fleetv1alpha1.Patch) { p.Op = "move" }), nil),
			msg: `spec.rules[0].patches[0].op: Unsupported value: "move": supported values: "add", "replace", "remove"`},
		{name: "an invalid label selector", req: overrideRequest(t, admissionv1.Create, changed(func(o *fleetv1alpha1.WorkOverride) {
			o.Spec.Rules[0].Clusters.LabelSelector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "env", Operator: "Near"}}
		}), nil), msg: `spec.rules[0].clusters.labelSelector: Invalid value: `},
		{name: "a decision group without its placement", req: overrideRequest(t, admissionv1.Create, changed(func(o *fleetv1alpha1.WorkOverride) {
			o.Spec.Rules[0].Clusters.DecisionGroups[1] = "canary"
		}), nil), msg: `spec.rules[0].clusters.decisionGroups[1]: Invalid value: "canary": a decision group is <placement>/<group>, the group by its name or index`},
		{name: "a rule that selects no cluster", req: overrideRequest(t, admissionv1.Create, changed(func(o *fleetv1alpha1.WorkOverride) {
			o.Spec.Rules[1].Clusters = fleetv1alpha1.ClusterSelector{}
		}), nil), msg: `spec.rules[1].clusters: Required value: set at least one of clusterNames, labelSelector, decisionGroups`},
		{name: "patches and drop", req: overrideRequest(t, admissionv1.Create, changed(func(o *fleetv1alpha1.WorkOverride) {
			o.Spec.Rules[0].Drop = true
		}), nil), msg: `spec.rules[0]: Invalid value: "": a rule has either patches or drop: true, not both`},
		{name: "neither patches nor drop", req: overrideRequest(t, admissionv1.Create, changed(func(o *fleetv1alpha1.WorkOverride) {
			o.Spec.Rules[1].Drop = false
		}), nil), msg: `spec.rules[1]: Invalid value: "": a rule has either patches or drop: true, not both`},
		{name: "no manifests named", req: overrideRequest(t, admissionv1.Create, changed(func(o *fleetv1alpha1.WorkOverride) {
			o.Spec.Rules[1].Manifests = nil
		}), nil), msg: `spec.rules[1].manifests: Required value`},
		{name: "no rules", req: overrideRequest(t, admissionv1.Create, changed(func(o *fleetv1alpha1.WorkOverride) {
			o.Spec.Rules = nil
		}), nil), msg: `spec.rules: Required value: an override has at least one rule`},
		{name: "every error at once", req: overrideRequest(t, admissionv1.Create, changed(func(o *fleetv1alpha1.WorkOverride) {
			o.Spec.Rules[0].Patches[0].Value = nil
			o.Spec.Rules[1].Clusters.DecisionGroups = []string{"a/b/c"}
		}), nil), msg: `[spec.rules[0].patches[0].value: Required value: replace needs a value, spec.rules[1].clusters.decisionGroups[0]: Invalid value: "a/b/c"`},
		{name: "update of the spec is checked", req: overrideRequest(t, admissionv1.Update,
			patch0(func(p *fleetv1alpha1.Patch) { p.Value = nil }), validOverride()), msg: `replace needs a value`},
		{name: "update that leaves an invalid spec alone", req: func() *admissionv1.AdmissionRequest {
			bad := patch0(func(p *fleetv1alpha1.Patch) { p.Value = nil })
			labelled := bad.DeepCopy()
			labelled.Labels = map[string]string{"team": "a"}
			return overrideRequest(t, admissionv1.Update, labelled, bad)
		}()},
		{name: "status", req: func() *admissionv1.AdmissionRequest {
			r := overrideRequest(t, admissionv1.Update, patch0(func(p *fleetv1alpha1.Patch) { p.Value = nil }), validOverride())
			r.SubResource = "status"
			return r
		}()},
		{name: "undecodable", req: func() *admissionv1.AdmissionRequest {
			r := overrideRequest(t, admissionv1.Create, validOverride(), nil)
			r.Object = runtime.RawExtension{Raw: []byte(`{"spec":"nope"}`)}
			return r
		}(), msg: "cannot decode the WorkOverride: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sars := &fakeSARs{}
			resp := (&reviewer{sars: sars}).review(context.Background(), tt.req)
			require.NotNil(t, resp)
			assert.Equal(t, tt.req.UID, resp.UID)
			assert.Empty(t, sars.got, "an override needs no SubjectAccessReview")
			if tt.msg == "" {
				assert.True(t, resp.Allowed, "denied: %+v", resp.Result)
				return
			}
			require.False(t, resp.Allowed)
			require.NotNil(t, resp.Result)
			assert.Contains(t, resp.Result.Message, tt.msg)
			if resp.Result.Code != 400 {
				assert.Equal(t, int32(422), resp.Result.Code)
				assert.Equal(t, metav1.StatusReasonInvalid, resp.Result.Reason)
			}
		})
	}
}

// A value that is not JSON cannot come in a request (the API server sends
// JSON); the check stands for callers that build an override by hand.
func TestValidateOverrideValueNotJSON(t *testing.T) {
	o := validOverride()
	o.Spec.Rules[0].Patches[0].Value = value(`{x`)
	errs := validateOverride(o)
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), `spec.rules[0].patches[0].value: Invalid value: "{x": the value is not JSON: `)
}
