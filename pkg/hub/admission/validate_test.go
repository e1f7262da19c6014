package admission

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	tests := []struct {
		name  string
		work  *workv1.ManifestWork
		opts  Options
		wants []string // each one error, in order; none means valid
	}{
		{name: "tutorial work", work: work(raw(sa), raw(deploy))},
		{name: "no manifests", work: work(),
			wants: []string{"spec.workload.manifests: Required value: a ManifestWork needs at least one manifest"}},
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
		{name: "not JSON", work: work(raw(cmA), raw(`{"apiVersion":`)),
			wants: []string{"spec.workload.manifests[1]: Invalid value: manifest is not a JSON object"}},
		{name: "JSON array", work: work(raw(`[1]`)),
			wants: []string{"spec.workload.manifests[0]: Invalid value: manifest is not a JSON object"}},
		{name: "empty manifest", work: work(raw(cmA), workv1.Manifest{}),
			wants: []string{"spec.workload.manifests[1]: Invalid value: manifest is empty"}},
		{name: "no apiVersion", work: work(raw(`{"kind":"ConfigMap","metadata":{"name":"a"}}`)),
			wants: []string{"spec.workload.manifests[0]: Invalid value: manifest has no apiVersion"}},
		{name: "no kind", work: work(raw(`{"apiVersion":"v1","metadata":{"name":"a"}}`)),
			wants: []string{"spec.workload.manifests[0]: Invalid value: manifest has no kind"}},
		{name: "no name", work: work(raw(cmA), raw(cmB), raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"ns"}}`)),
			wants: []string{"spec.workload.manifests[2]: Invalid value: manifest has no metadata.name"}},
		{name: "generateName", work: work(raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","generateName":"a-"}}`)),
			wants: []string{`spec.workload.manifests[0]: Invalid value: manifest ConfigMap "a" sets metadata.generateName`}},
		{name: "object instead of raw", work: work(workv1.Manifest{RawExtension: runtime.RawExtension{Object: &runtime.Unknown{Raw: []byte(cmA)}}})},
		{name: "duplicate", work: work(raw(cmA), raw(cmB), raw(cmA)),
			wants: []string{`spec.workload.manifests[2]: Duplicate value: ConfigMap "a" in namespace "ns" is already in spec.workload.manifests[0]`}},
		{name: "duplicate across versions", work: work(raw(deploy), raw(deployV1b)),
			wants: []string{`spec.workload.manifests[1]: Duplicate value: Deployment.apps "hello-world" in namespace "default" is already in spec.workload.manifests[0]`}},
		{name: "duplicate cluster-scoped", work: work(raw(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"}}`), raw(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"}}`)),
			wants: []string{`spec.workload.manifests[1]: Duplicate value: Namespace "n" is already in spec.workload.manifests[0]`}},
		{name: "same name, other namespace", work: work(raw(cmA), raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"other"}}`))},
		{name: "same name, other kind", work: work(raw(cmA), raw(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"a","namespace":"ns"}}`))},
		{name: "same name and kind, other group", work: work(raw(`{"apiVersion":"a.example.com/v1","kind":"Widget","metadata":{"name":"w"}}`), raw(`{"apiVersion":"b.example.com/v1","kind":"Widget","metadata":{"name":"w"}}`))},
		{name: "at the limit", work: work(raw(cmA), raw(cmB)), opts: Options{ManifestLimit: len(cmA) + len(cmB)}},
		{name: "over the limit", work: work(raw(cmA), raw(cmB)), opts: Options{ManifestLimit: len(cmA) + len(cmB) - 1},
			wants: []string{"spec.workload.manifests: Too long: the manifests total 158 bytes, over the limit of 157 (--manifest-limit)"}},
		{name: "over the default limit", work: work(raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"` + strings.Repeat("x", DefaultManifestLimit) + `"}}`)),
			wants: []string{"over the limit of 512000 (--manifest-limit)"}},
		{name: "every problem reported", work: work(raw(cmA), raw(`{}`), raw(cmA)), opts: Options{ManifestLimit: 10},
			wants: []string{
				"spec.workload.manifests[1]: Invalid value: manifest has no apiVersion, kind, metadata.name",
				"spec.workload.manifests[2]: Duplicate value",
				"spec.workload.manifests: Too long: the manifests total 160 bytes, over the limit of 10",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := Validate(tt.work, tt.opts)
			require.Len(t, errs, len(tt.wants), "errors: %v", errs)
			for i, want := range tt.wants {
				assert.Contains(t, errs[i].Error(), want)
			}
		})
	}
}

func TestValidateNil(t *testing.T) {
	assert.Len(t, Validate(nil, Options{}), 1)
}
