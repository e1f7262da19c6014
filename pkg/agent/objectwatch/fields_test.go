package objectwatch

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/manifestwork/work/pkg/agent/sharedstrings"
)

func deploymentObject() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{
			"namespace": "ns1", "name": "web", "uid": "u1", "resourceVersion": "7", "generation": int64(2),
			"labels":      map[string]any{"app": "web"},
			"annotations": map[string]any{"kubectl.kubernetes.io/last-applied-configuration": "{...}"},
			"ownerReferences": []any{map[string]any{
				"apiVersion": "work.open-cluster-management.io/v1", "kind": "AppliedManifestWork", "name": "hub-work1", "uid": "a1",
			}},
		},
		"spec": map[string]any{"replicas": int64(3), "template": map[string]any{"spec": map[string]any{"containers": []any{}}}},
		"status": map[string]any{
			"observedGeneration": int64(2), "availableReplicas": int64(2),
			"conditions": []any{map[string]any{"type": "Available", "status": "True"}},
		},
	}}
}

var deploymentFields = [][]string{{"spec", "replicas"}, {"status", "availableReplicas"}, {"status", "conditions"}}

func TestKeepFieldsTrimsToWhatRulesRead(t *testing.T) {
	out, err := keepFields(deploymentFields, sharedstrings.New(16))(deploymentObject())
	require.NoError(t, err)
	got := out.(*unstructured.Unstructured)

	assert.Equal(t, map[string]any{"replicas": int64(3)}, got.Object["spec"], "the pod template is dropped")
	assert.Equal(t, int64(2), got.Object["status"].(map[string]any)["availableReplicas"])
	assert.NotContains(t, got.Object["status"], "observedGeneration", "not named, so not kept")
	assert.Len(t, got.Object["status"].(map[string]any)["conditions"], 1)
	assert.Empty(t, got.GetLabels())
	assert.Empty(t, got.GetAnnotations())
	_, _, kept := cachedContentVersion(got)
	assert.True(t, kept, "the content version is kept")
	assert.Equal(t, "hub-work1", got.GetOwnerReferences()[0].Name)

	again, err := keepFields(deploymentFields, sharedstrings.New(16))(got)
	require.NoError(t, err)
	assert.Equal(t, got, again, "transforming twice changes nothing")
}

func TestStatusCacheServesObjectsAndMetadata(t *testing.T) {
	gvr := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{gvr: "DeploymentList"}, deploymentObject())
	tracker := startWith(t, newFakeClient(), Deps{Dynamic: dyn, StatusFields: func(gr schema.GroupResource) [][]string {
		if gr == gvr.GroupResource() {
			return deploymentFields
		}
		return nil
	}}).tracker

	tracker.SetUses("ns/work1", everywhere(gvr, configMaps))
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	defer cancel()
	require.True(t, tracker.WaitForSync(ctx, everywhere(gvr, configMaps)))

	obj, synced, err := tracker.GetObject(gvr, "ns1", "web")
	require.NoError(t, err)
	require.True(t, synced)
	require.NotNil(t, obj)
	assert.Equal(t, int64(2), obj.Object["status"].(map[string]any)["availableReplicas"])
	assert.NotContains(t, obj.Object["spec"], "template")

	meta, synced, err := tracker.Get(gvr, "ns1", "web")
	require.NoError(t, err)
	require.True(t, synced)
	require.NotNil(t, meta)
	assert.Equal(t, "7", meta.ResourceVersion)
	assert.Equal(t, "hub-work1", meta.OwnerReferences[0].Name)
	assert.Equal(t, ContentVersion(deploymentObject()), ContentVersion(meta), "the content version survives the trimming")
	assert.IsType(t, &metav1.PartialObjectMetadata{}, meta)

	_, synced, err = tracker.GetObject(configMaps, "ns1", "cm")
	require.NoError(t, err)
	assert.False(t, synced, "a metadata-only cache has no objects to give")
}
