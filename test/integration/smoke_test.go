package integration

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// setup returns the API server with the cluster namespace in place.
func setup(t *testing.T) (*framework.APIServer, context.Context) {
	t.Helper()
	s := server(t)
	ctx := t.Context()
	require.NoError(t, s.EnsureNamespaces(ctx, fixture.Cluster))
	return s, ctx
}

// configMapWork is a work of one ConfigMap, both named name.
func configMapWork(name string) *workv1.ManifestWork {
	return fixture.NewWork(fixture.Cluster, name).WithManifest(fixture.ConfigMap("default", name, map[string]string{"key": "value"})).Build()
}

func TestManifestWorkRoundTripWithDefaults(t *testing.T) {
	s, ctx := setup(t)
	work := configMapWork("defaults")
	work.Spec.DeleteOption = &workv1.DeleteOption{}
	work.Spec.ManifestConfigs = []workv1.ManifestConfigOption{{
		ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "default", Name: "defaults"},
		UpdateStrategy: &workv1.UpdateStrategy{
			Type:            workv1.UpdateStrategyTypeServerSideApply,
			ServerSideApply: &workv1.ServerSideApplyConfig{},
		},
	}}

	works := s.Work.WorkV1().ManifestWorks(fixture.Cluster)
	_, err := works.Create(ctx, work, metav1.CreateOptions{})
	require.NoError(t, err)
	got, err := works.Get(ctx, work.Name, metav1.GetOptions{})
	require.NoError(t, err)

	require.Len(t, got.Spec.Workload.Manifests, 1)
	assert.Contains(t, string(got.Spec.Workload.Manifests[0].Raw), `"name":"defaults"`)
	require.NotNil(t, got.Spec.DeleteOption)
	assert.Equal(t, workv1.DeletePropagationPolicyTypeForeground, got.Spec.DeleteOption.PropagationPolicy)
	require.Len(t, got.Spec.ManifestConfigs, 1)
	config := got.Spec.ManifestConfigs[0]
	assert.Equal(t, workv1.FeedbackPollType, config.FeedbackScrapeType)
	require.NotNil(t, config.UpdateStrategy)
	require.NotNil(t, config.UpdateStrategy.ServerSideApply)
	assert.Equal(t, "work-agent", config.UpdateStrategy.ServerSideApply.FieldManager)
}

// An updateStrategy without type (as a user writes it in YAML) gets type Update.
func TestUpdateStrategyTypeDefaultsToUpdate(t *testing.T) {
	s, ctx := setup(t)
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": workv1.SchemeGroupVersion.String(),
		"kind":       "ManifestWork",
		"metadata":   map[string]any{"name": "strategy-default", "namespace": fixture.Cluster},
		"spec": map[string]any{
			"workload": map[string]any{"manifests": []any{map[string]any{
				"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "strategy-default", "namespace": "default"},
			}}},
			"manifestConfigs": []any{map[string]any{
				"resourceIdentifier": map[string]any{"resource": "configmaps", "namespace": "default", "name": "strategy-default"},
				"updateStrategy":     map[string]any{},
			}},
		},
	}}
	gvr := workv1.SchemeGroupVersion.WithResource("manifestworks")
	_, err := s.Dynamic.Resource(gvr).Namespace(fixture.Cluster).Create(ctx, obj, metav1.CreateOptions{})
	require.NoError(t, err)

	got, err := s.Work.WorkV1().ManifestWorks(fixture.Cluster).Get(ctx, "strategy-default", metav1.GetOptions{})
	require.NoError(t, err)
	require.Len(t, got.Spec.ManifestConfigs, 1)
	require.NotNil(t, got.Spec.ManifestConfigs[0].UpdateStrategy)
	assert.Equal(t, workv1.UpdateStrategyTypeUpdate, got.Spec.ManifestConfigs[0].UpdateStrategy.Type)
}

func TestInvalidManifestWorkIsRejected(t *testing.T) {
	s, ctx := setup(t)
	cases := map[string]struct {
		mutate func(*workv1.ManifestWork)
		field  string
	}{
		"executor service account name with uppercase letters": {
			mutate: func(w *workv1.ManifestWork) {
				w.Spec.Executor = &workv1.ManifestWorkExecutor{Subject: workv1.ManifestWorkExecutorSubject{
					Type:           workv1.ExecutorSubjectTypeServiceAccount,
					ServiceAccount: &workv1.ManifestWorkSubjectServiceAccount{Namespace: "default", Name: "Bad-Name"},
				}}
			},
			field: "spec.executor.subject.serviceAccount.name",
		},
		"unknown update strategy type": {
			mutate: func(w *workv1.ManifestWork) {
				w.Spec.ManifestConfigs = []workv1.ManifestConfigOption{{
					ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "default", Name: "x"},
					UpdateStrategy:     &workv1.UpdateStrategy{Type: "Bogus"},
				}}
			},
			field: "spec.manifestConfigs[0].updateStrategy.type",
		},
		// The agent reports a manifest without kind or apiVersion precisely too,
		// but the CRD schema already refuses it with the field's path.
		"manifest without kind": {
			mutate: func(w *workv1.ManifestWork) {
				w.Spec.Workload.Manifests = append(w.Spec.Workload.Manifests, workv1.Manifest{RawExtension: runtime.RawExtension{
					Raw: []byte(`{"apiVersion": "v1", "metadata": {"name": "x", "namespace": "default"}}`),
				}})
			},
			field: "spec.workload.manifests[1].kind",
		},
		"manifest without apiVersion": {
			mutate: func(w *workv1.ManifestWork) {
				w.Spec.Workload.Manifests = append(w.Spec.Workload.Manifests, workv1.Manifest{RawExtension: runtime.RawExtension{
					Raw: []byte(`{"kind": "ConfigMap", "metadata": {"name": "x", "namespace": "default"}}`),
				}})
			},
			field: "spec.workload.manifests[1].apiVersion",
		},
		"unknown propagation policy": {
			mutate: func(w *workv1.ManifestWork) {
				w.Spec.DeleteOption = &workv1.DeleteOption{PropagationPolicy: "Bogus"}
			},
			field: "spec.deleteOption.propagationPolicy",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			work := configMapWork("invalid")
			tc.mutate(work)
			_, err := s.Work.WorkV1().ManifestWorks(fixture.Cluster).Create(ctx, work, metav1.CreateOptions{})
			require.Error(t, err)
			assert.True(t, apierrors.IsInvalid(err), "want an Invalid error, got %v", err)
			assert.Contains(t, err.Error(), tc.field)
		})
	}
}

func TestAppliedManifestWorkRoundTrip(t *testing.T) {
	s, ctx := setup(t)
	applied := &workv1.AppliedManifestWork{
		ObjectMeta: metav1.ObjectMeta{Name: "0123abcd-smoke"},
		Spec: workv1.AppliedManifestWorkSpec{
			HubHash:          "0123abcd",
			AgentID:          "agent-1",
			ManifestWorkName: "smoke",
		},
	}
	client := s.Work.WorkV1().AppliedManifestWorks()
	created, err := client.Create(ctx, applied, metav1.CreateOptions{})
	require.NoError(t, err)

	created.Status.AppliedResources = []workv1.AppliedManifestResourceMeta{{
		ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "default", Name: "smoke"},
		Version:            "v1",
		UID:                "uid-1",
	}}
	_, err = client.UpdateStatus(ctx, created, metav1.UpdateOptions{})
	require.NoError(t, err)

	got, err := client.Get(ctx, applied.Name, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, applied.Spec, got.Spec)
	require.Len(t, got.Status.AppliedResources, 1)
	assert.Equal(t, "smoke", got.Status.AppliedResources[0].Name)
	assert.Equal(t, "v1", got.Status.AppliedResources[0].Version)
}

// hubHash and manifestWorkName are required (sent by a YAML user who forgets them).
func TestAppliedManifestWorkRequiresSpecFields(t *testing.T) {
	s, ctx := setup(t)
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": workv1.SchemeGroupVersion.String(),
		"kind":       "AppliedManifestWork",
		"metadata":   map[string]any{"name": "missing-fields"},
		"spec":       map[string]any{"agentID": "agent-1"},
	}}
	gvr := workv1.SchemeGroupVersion.WithResource("appliedmanifestworks")
	_, err := s.Dynamic.Resource(gvr).Create(ctx, obj, metav1.CreateOptions{})
	require.Error(t, err)
	assert.True(t, apierrors.IsInvalid(err), "want an Invalid error, got %v", err)
	assert.Contains(t, err.Error(), "spec.hubHash")
	assert.Contains(t, err.Error(), "spec.manifestWorkName")
}
