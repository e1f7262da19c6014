package admission

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func raw(s string) workv1.Manifest {
	return workv1.Manifest{RawExtension: runtime.RawExtension{Raw: []byte(s)}}
}

func work(manifests ...workv1.Manifest) *workv1.ManifestWork {
	return &workv1.ManifestWork{
		ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "cluster1"},
		Spec:       workv1.ManifestWorkSpec{Workload: workv1.ManifestsTemplate{Manifests: manifests}},
	}
}

const (
	cmA       = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"ns"}}`
	cmB       = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b","namespace":"ns"}}`
	sa        = `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"my-sa","namespace":"default"}}`
	deploy    = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"hello-world","namespace":"default"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"hello-world"}},"template":{"metadata":{"labels":{"app":"hello-world"}},"spec":{"serviceAccountName":"my-sa","containers":[{"name":"hello","image":"quay.io/asmacdo/busybox","command":["sh","-c","echo Hello && sleep 3600"]}]}}}}`
	deployV1b = `{"apiVersion":"apps/v1beta1","kind":"Deployment","metadata":{"name":"hello-world","namespace":"default"}}`
)

func TestValidate(t *testing.T) {
	twoCMs := Size(raw(cmA)) + Size(raw(cmB))
	tests := []struct {
		name string
		work *workv1.ManifestWork
		opts Options
		code int32  // 0: valid
		want string // the message, whole for OCM's checks (400), a part of it for ours (422)
	}{
		{name: "tutorial work", work: work(raw(sa), raw(deploy))},
		{name: "no manifests", work: work(), code: 400, want: "manifests should not be empty"},
		{name: "one manifest", work: work(raw(cmA))},
		// As OCM's webhook, manifestConfigs are not checked: "*" in a
		// resourceIdentifier's name or namespace is a glob the agent matches.
		{name: "wildcard manifestConfigs", work: func() *workv1.ManifestWork {
			w := work(raw(deploy))
			w.Spec.ManifestConfigs = []workv1.ManifestConfigOption{{
				ResourceIdentifier: workv1.ResourceIdentifier{Group: "apps", Resource: "deployments", Namespace: "*", Name: "*"},
				FeedbackRules:      []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}},
			}, {
				ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "team-*", Name: "*-settings"},
				UpdateStrategy:     &workv1.UpdateStrategy{Type: workv1.UpdateStrategyTypeServerSideApply},
			}}
			return w
		}()},
		// OCM's checks: the decoder's error, then name and generateName.
		{name: "not JSON", work: work(raw(cmA), raw(`{"apiVersion":`)), code: 400, want: "unexpected end of JSON input"},
		{name: "JSON array", work: work(raw(`[1]`)), code: 400,
			want: "json: cannot unmarshal array into Go value of type map[string]interface {}"},
		{name: "empty manifest", work: work(raw(cmA), workv1.Manifest{}), code: 400, want: "unexpected end of JSON input"},
		{name: "no kind", work: work(raw(`{"apiVersion":"v1","metadata":{"name":"a"}}`)), code: 400,
			want: `Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"a"}}'`},
		{name: "no name", work: work(raw(cmA), raw(cmB), raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"ns"}}`)),
			code: 400, want: "name must be set in manifest"},
		{name: "generateName", work: work(raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","generateName":"a-"}}`)),
			code: 400, want: "generateName must not be set in manifest"},
		{name: "the first problem in OCM's order", work: work(raw(`{"kind":"ConfigMap","metadata":{"generateName":"a-"}}`), raw(`{}`)),
			code: 400, want: "name must be set in manifest"},
		{name: "at the limit", work: work(raw(cmA), raw(cmB)), opts: Options{ManifestLimit: twoCMs}},
		{name: "over the limit", work: work(raw(cmA), raw(cmB)), opts: Options{ManifestLimit: twoCMs - 1}, code: 400,
			want: "the size of manifests is 162 bytes which exceeds the 161 limit"},
		{name: "over the default limit", work: work(raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"` + strings.Repeat("x", DefaultManifestLimit) + `"}}`)),
			code: 400, want: "the size of manifests is 512082 bytes which exceeds the 512000 limit"},
		{name: "the size before any manifest", work: work(raw(`{}`)), opts: Options{ManifestLimit: 1}, code: 400,
			want: "the size of manifests is 4 bytes which exceeds the 1 limit"},
		{name: "object instead of raw", work: work(workv1.Manifest{RawExtension: runtime.RawExtension{Object: &runtime.Unknown{Raw: []byte(cmA)}}})},
		// Beyond OCM: what the agent could not apply, and duplicates.
		{name: "no apiVersion", work: work(raw(`{"kind":"ConfigMap","metadata":{"name":"a"}}`)), code: 422,
			want: `ManifestWork.work.open-cluster-management.io "w" is invalid: spec.workload.manifests[0]: Invalid value: manifest has no apiVersion`},
		{name: "duplicate", work: work(raw(cmA), raw(cmB), raw(cmA)), code: 422,
			want: `spec.workload.manifests[2]: Duplicate value: ConfigMap "a" in namespace "ns" is already in spec.workload.manifests[0]`},
		{name: "duplicate across versions", work: work(raw(deploy), raw(deployV1b)), code: 422,
			want: `spec.workload.manifests[1]: Duplicate value: Deployment.apps "hello-world" in namespace "default" is already in spec.workload.manifests[0]`},
		{name: "duplicate cluster-scoped", work: work(raw(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"}}`), raw(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"}}`)),
			code: 422, want: `spec.workload.manifests[1]: Duplicate value: Namespace "n" is already in spec.workload.manifests[0]`},
		{name: "every problem beyond OCM reported", work: work(raw(cmA), raw(`{"kind":"Secret","metadata":{"name":"s"}}`), raw(cmA)), code: 422,
			want: `[spec.workload.manifests[1]: Invalid value: manifest has no apiVersion, spec.workload.manifests[2]: Duplicate value`},
		{name: "same name, other namespace", work: work(raw(cmA), raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"other"}}`))},
		{name: "same name, other kind", work: work(raw(cmA), raw(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"a","namespace":"ns"}}`))},
		// Beyond OCM: a jqPathExpression of ignoreFields must parse.
		{name: "valid jqPathExpressions", work: withJQ(`.spec.template.spec.containers[] | select(.name == "app") | .image`, ".data.key")},
		{name: "an unparsable jqPathExpression", work: withJQ(".data.key", ".data | invalid syntax"), code: 422,
			want: `spec.manifestConfigs[0].updateStrategy.serverSideApply.ignoreFields[0].jqPathExpressions[1]: ` +
				`Invalid value: ".data | invalid syntax": not a jq expression: unexpected token "syntax"`},
		{name: "an empty jqPathExpression", work: withJQ(" "), code: 422,
			want: `jqPathExpressions[0]: Invalid value: " ": not a jq expression: expression is empty`},
		{name: "same name and kind, other group", work: work(raw(`{"apiVersion":"a.example.com/v1","kind":"Widget","metadata":{"name":"w"}}`), raw(`{"apiVersion":"b.example.com/v1","kind":"Widget","metadata":{"name":"w"}}`))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.work, tt.opts)
			if tt.code == 0 {
				assert.NoError(t, err)
				return
			}
			var status apierrors.APIStatus
			require.ErrorAs(t, err, &status)
			assert.Equal(t, tt.code, status.Status().Code)
			if tt.code == 400 {
				assert.Equal(t, metav1.StatusReasonBadRequest, status.Status().Reason)
				assert.Equal(t, tt.want, status.Status().Message)
				return
			}
			assert.Contains(t, status.Status().Message, tt.want)
		})
	}
}

// TestSize: a manifest's size is that of its RawExtension's protobuf
// encoding, OCM's measure: the raw JSON, a tag byte and the varint length.
func TestSize(t *testing.T) {
	for _, tc := range []struct{ raw, want int }{
		{0, 2}, {1, 3}, {127, 129}, {128, 131}, {16383, 16386}, {16384, 16388}, {2_000_000, 2_000_004},
	} {
		assert.Equal(t, tc.want, Size(raw(strings.Repeat("x", tc.raw))), "raw of %d bytes", tc.raw)
	}
	assert.Zero(t, Size(workv1.Manifest{}), "a manifest without raw encodes to nothing")
}

func TestValidateNil(t *testing.T) {
	assert.EqualError(t, Validate(nil, Options{}), "manifests should not be empty")
}

// withJQ is a work with one ServerSideApply manifestConfig ignoring the
// fields the jqPathExpressions pick.
func withJQ(expressions ...string) *workv1.ManifestWork {
	w := work(raw(cmA))
	w.Spec.ManifestConfigs = []workv1.ManifestConfigOption{{
		ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "ns", Name: "a"},
		UpdateStrategy: &workv1.UpdateStrategy{Type: workv1.UpdateStrategyTypeServerSideApply, ServerSideApply: &workv1.ServerSideApplyConfig{
			IgnoreFields: []workv1.IgnoreField{{Condition: workv1.IgnoreFieldsConditionOnSpokePresent, JQPathExpressions: expressions}},
		}},
	}}
	return w
}
