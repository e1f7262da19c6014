package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admission/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// fakeSARs answers SubjectAccessReviews with allowed (or err) and records them.
type fakeSARs struct {
	allowed bool
	err     error
	got     []authorizationv1.SubjectAccessReviewSpec
}

func (f *fakeSARs) Create(_ context.Context, sar *authorizationv1.SubjectAccessReview, _ metav1.CreateOptions) (*authorizationv1.SubjectAccessReview, error) {
	f.got = append(f.got, sar.Spec)
	if f.err != nil {
		return nil, f.err
	}
	out := sar.DeepCopy()
	out.Status.Allowed = f.allowed
	return out, nil
}

var alice = authenticationv1.UserInfo{
	Username: "alice", UID: "alice-uid", Groups: []string{"devs", "system:authenticated"},
	Extra: map[string]authenticationv1.ExtraValue{"scopes": {"a", "b"}},
}

func withExecutor(w *workv1.ManifestWork, namespace, name string) *workv1.ManifestWork {
	w.Spec.Executor = fixture.NewWork("", "").WithExecutor(namespace, name).Build().Spec.Executor
	return w
}

func validWork() *workv1.ManifestWork {
	return fixture.NewWork("cluster1", "w").WithManifest(fixture.ConfigMap("default", "a", map[string]string{"k": "v"})).Build()
}

func encode(t *testing.T, w *workv1.ManifestWork) runtime.RawExtension {
	t.Helper()
	raw, err := json.Marshal(w)
	require.NoError(t, err)
	return runtime.RawExtension{Raw: raw}
}

func request(t *testing.T, op admissionv1.Operation, obj, old *workv1.ManifestWork) *admissionv1.AdmissionRequest {
	t.Helper()
	req := &admissionv1.AdmissionRequest{
		UID:       "req-1",
		Kind:      metav1.GroupVersionKind{Group: workv1.GroupName, Version: "v1", Kind: "ManifestWork"},
		Name:      obj.Name,
		Namespace: obj.Namespace,
		Operation: op,
		UserInfo:  alice,
		Object:    encode(t, obj),
	}
	if old != nil {
		req.OldObject = encode(t, old)
	}
	return req
}

// The refusals are OCM's messages, word for word; the refusal of an
// executor adds what to grant, as the check asks it.
const executor1Denied = "user alice cannot manipulate the Manifestwork with executor default/executor1 in namespace cluster1" +
	"; to allow it, grant the user the verb execute-as on manifestworks (apiGroup work.open-cluster-management.io)" +
	" with resourceName system:serviceaccount:default:executor1 in namespace cluster1"

func TestReview(t *testing.T) {
	labelled := withExecutor(validWork(), "default", "executor1")
	labelled.Labels = map[string]string{"team": "a"}
	labelled.Finalizers = []string{"cluster.open-cluster-management.io/manifest-work-cleanup"}
	changed := withExecutor(validWork(), "default", "executor1")
	changed.Spec.Workload.Manifests = append(changed.Spec.Workload.Manifests, fixture.NewWork("", "").
		WithManifest(fixture.ConfigMap("default", "b", nil)).Build().Spec.Workload.Manifests...)
	tooBig := fixture.NewWork("cluster1", "w").
		WithManifest(fixture.ConfigMap("default", "a", map[string]string{"k": strings.Repeat("x", 2000)})).Build()
	noSA := validWork()
	noSA.Spec.Executor = &workv1.ManifestWorkExecutor{Subject: workv1.ManifestWorkExecutorSubject{Type: workv1.ExecutorSubjectTypeServiceAccount}}

	tests := []struct {
		name      string
		req       *admissionv1.AdmissionRequest
		nilGate   bool
		sars      fakeSARs
		wantCode  int32 // 0 means allowed
		wantMsg   string
		wantSARs  int
		wantSARAs string // the executor user of the one SAR
		ocm       bool   // a refusal of OCM's: BadRequest, wantMsg whole
	}{
		{name: "create without executor", req: request(t, admissionv1.Create, validWork(), nil)},
		{name: "create with permitted executor", req: request(t, admissionv1.Create, withExecutor(validWork(), "default", "executor1"), nil),
			sars: fakeSARs{allowed: true}, wantSARs: 1, wantSARAs: "system:serviceaccount:default:executor1"},
		{name: "create with forbidden executor", req: request(t, admissionv1.Create, withExecutor(validWork(), "default", "executor1"), nil),
			wantCode: 400, ocm: true, wantMsg: executor1Denied, wantSARs: 1, wantSARAs: "system:serviceaccount:default:executor1"},
		{name: "hub cannot answer: fail closed", req: request(t, admissionv1.Create, withExecutor(validWork(), "default", "executor1"), nil),
			sars: fakeSARs{err: errors.New("connection refused")}, wantCode: 400, wantSARs: 1, wantSARAs: "system:serviceaccount:default:executor1",
			ocm: true, wantMsg: "connection refused"},
		{name: "no executor with NilExecutorValidating, forbidden", req: request(t, admissionv1.Create, validWork(), nil), nilGate: true,
			wantCode: 400, wantSARs: 1, wantSARAs: "system:serviceaccount::klusterlet-work-sa",
			ocm: true, wantMsg: "user alice cannot manipulate the Manifestwork with executor /klusterlet-work-sa in namespace cluster1" +
				"; to allow it, grant the user the verb execute-as on manifestworks (apiGroup work.open-cluster-management.io)" +
				" with resourceName system:serviceaccount::klusterlet-work-sa in namespace cluster1"},
		{name: "no executor with NilExecutorValidating, permitted", req: request(t, admissionv1.Create, validWork(), nil), nilGate: true,
			sars: fakeSARs{allowed: true}, wantSARs: 1, wantSARAs: "system:serviceaccount::klusterlet-work-sa"},
		{name: "executor without serviceAccount", req: request(t, admissionv1.Create, noSA, nil), wantCode: 400,
			ocm: true, wantMsg: "executor service account can not be nil"},
		{name: "no manifests: refused before any SAR", req: request(t, admissionv1.Create, withExecutor(fixture.NewWork("cluster1", "w").Build(), "default", "executor1"), nil),
			wantCode: 400, ocm: true, wantMsg: "manifests should not be empty"},
		{name: "duplicate manifests", req: request(t, admissionv1.Create, fixture.NewWork("cluster1", "w").
			WithManifest(fixture.ConfigMap("default", "a", nil), fixture.ConfigMap("default", "a", nil)).Build(), nil),
			wantCode: 422, wantMsg: `spec.workload.manifests[1]: Duplicate value: ConfigMap "a" in namespace "default" is already in spec.workload.manifests[0]`},
		{name: "over the manifest limit", req: request(t, admissionv1.Create, tooBig, nil), wantCode: 400,
			ocm: true, wantMsg: "the size of manifests is 2103 bytes which exceeds the 1024 limit"},
		{name: "update of labels and finalizers only needs no execute-as", req: request(t, admissionv1.Update, labelled, withExecutor(validWork(), "default", "executor1"))},
		{name: "update of spec is checked", req: request(t, admissionv1.Update, changed, withExecutor(validWork(), "default", "executor1")),
			wantCode: 400, ocm: true, wantMsg: executor1Denied, wantSARs: 1, wantSARAs: "system:serviceaccount:default:executor1"},
		{name: "update of an invalid work that leaves spec alone", req: request(t, admissionv1.Update, fixture.NewWork("cluster1", "w").Build(), fixture.NewWork("cluster1", "w").Build())},
		{name: "status subresource", req: func() *admissionv1.AdmissionRequest {
			r := request(t, admissionv1.Update, changed, validWork())
			r.SubResource = "status"
			return r
		}()},
		{name: "delete", req: func() *admissionv1.AdmissionRequest {
			r := request(t, admissionv1.Delete, validWork(), nil)
			r.Object = runtime.RawExtension{}
			return r
		}()},
		{name: "not a ManifestWork", req: func() *admissionv1.AdmissionRequest {
			r := request(t, admissionv1.Create, validWork(), nil)
			r.Kind = metav1.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
			return r
		}(), wantCode: 400, wantMsg: "this webhook reviews only ManifestWork.work.open-cluster-management.io and WorkOverride.fleet.manifestwork.io, not ConfigMap"},
		{name: "undecodable object", req: func() *admissionv1.AdmissionRequest {
			r := request(t, admissionv1.Create, validWork(), nil)
			r.Object = runtime.RawExtension{Raw: []byte(`{"spec":"nope"}`)}
			return r
		}(), wantCode: 400, wantMsg: "cannot decode the ManifestWork: "},
		{name: "update without a readable old object", req: func() *admissionv1.AdmissionRequest {
			r := request(t, admissionv1.Update, validWork(), nil)
			r.OldObject = runtime.RawExtension{Raw: []byte(`{`)}
			return r
		}(), wantCode: 400, wantMsg: "cannot compare the ManifestWork with its previous version: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sars := tt.sars
			r := &reviewer{sars: &sars, manifestLimit: 1024, nilExecutorValidating: tt.nilGate}
			resp := r.review(context.Background(), tt.req)
			require.NotNil(t, resp)
			assert.Equal(t, tt.req.UID, resp.UID, "the response answers the request")
			if tt.wantCode == 0 {
				assert.True(t, resp.Allowed, "denied: %+v", resp.Result)
			} else {
				require.False(t, resp.Allowed)
				require.NotNil(t, resp.Result)
				assert.Equal(t, metav1.StatusFailure, resp.Result.Status)
				assert.Equal(t, tt.wantCode, resp.Result.Code)
				if tt.ocm {
					assert.Equal(t, tt.wantMsg, resp.Result.Message, "OCM's message, whole")
					assert.Equal(t, metav1.StatusReasonBadRequest, resp.Result.Reason)
				} else {
					assert.Contains(t, resp.Result.Message, tt.wantMsg)
				}
			}
			require.Len(t, sars.got, tt.wantSARs)
			if tt.wantSARs == 1 {
				assert.Equal(t, authorizationv1.SubjectAccessReviewSpec{
					User: "alice", UID: "alice-uid", Groups: []string{"devs", "system:authenticated"},
					Extra: map[string]authorizationv1.ExtraValue{"scopes": {"a", "b"}},
					ResourceAttributes: &authorizationv1.ResourceAttributes{
						Namespace: "cluster1", Verb: "execute-as", Group: "work.open-cluster-management.io",
						Resource: "manifestworks", Name: tt.wantSARAs,
					},
				}, sars.got[0])
			}
		})
	}
}

func TestSameSpecIgnoresKeyOrder(t *testing.T) {
	same, err := sameSpec([]byte(`{"spec":{"a":1,"b":[{"x":"y"}]}}`), []byte(`{"metadata":{"labels":{"l":"v"}},"spec":{"b":[{"x":"y"}], "a":1}}`))
	require.NoError(t, err)
	assert.True(t, same)
	same, err = sameSpec([]byte(`{"spec":{"a":1}}`), []byte(`{"spec":{"a":2}}`))
	require.NoError(t, err)
	assert.False(t, same)
}
