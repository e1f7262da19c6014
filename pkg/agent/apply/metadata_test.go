package apply

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic/fake"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// parentRef is an owner reference a manifest gives its object, and
// removeParent the manifest's request to take it away again.
var (
	parentRef    = metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "parent", UID: "uid-parent"}
	removeParent = metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "parent", UID: "uid-parent-"}
)

// withRemovals is the Deployment manifest asking to remove the label
// "stale", the annotation "note" and the owner reference to parent.
func withRemovals(t *testing.T) *unstructured.Unstructured {
	obj := desiredDeployment(t)
	obj.SetLabels(map[string]string{"app": "hello", "stale-": ""})
	obj.SetAnnotations(map[string]string{"note-": ""})
	obj.SetOwnerReferences([]metav1.OwnerReference{removeParent})
	return obj
}

// holdingRemoved is the served Deployment still holding what withRemovals
// removes, next to what other actors added.
func holdingRemoved(t *testing.T) *unstructured.Unstructured {
	live := servedDeployment(t, parentRef, ownerA)
	live.SetLabels(map[string]string{"app": "hello", "team": "platform", "stale": "1"})
	live.SetAnnotations(map[string]string{"deployment.kubernetes.io/revision": "1", "note": "x"})
	return live
}

// createdWithoutRemovals checks the object created from withRemovals.
func createdWithoutRemovals(t *testing.T, c *fake.FakeDynamicClient) {
	obj := stored(t, c, deploymentsGVR, "default", "hello")
	assert.Equal(t, map[string]string{"app": "hello"}, obj.GetLabels())
	assert.Empty(t, obj.GetAnnotations())
	assert.Equal(t, []metav1.OwnerReference{ownerA}, obj.GetOwnerReferences())
}

// TestMetadataRemovals applies manifests whose metadata asks for removals,
// with the key syntax of kubectl label: what OCM's agent does with its Update
// strategy (library-go's resourcemerge) and its CreateOnly creates.
func TestMetadataRemovals(t *testing.T) {
	tests := []struct {
		name      string
		strategy  Strategy
		desired   *unstructured.Unstructured
		live      *unstructured.Unstructured // nil: absent
		last      bool                       // the agent remembers applying desired
		wantVerbs []string
		check     func(t *testing.T, c *fake.FakeDynamicClient)
	}{
		{
			name:      "Update creates without the removal keys",
			strategy:  updateStrategy{},
			desired:   withRemovals(t),
			wantVerbs: []string{"get", "create"},
			check:     createdWithoutRemovals,
		},
		{
			name:      "CreateOnly creates without the removal keys",
			strategy:  createOnlyStrategy{},
			desired:   withRemovals(t),
			wantVerbs: []string{"get", "create"},
			check:     createdWithoutRemovals,
		},
		{
			name:      "Update removes the keys and the reference, keeping what others added",
			strategy:  updateStrategy{},
			desired:   withRemovals(t),
			live:      holdingRemoved(t),
			last:      true,
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient) {
				obj := stored(t, c, deploymentsGVR, "default", "hello")
				assert.Equal(t, map[string]string{"app": "hello", "team": "platform"}, obj.GetLabels())
				assert.Equal(t, map[string]string{"deployment.kubernetes.io/revision": "1"}, obj.GetAnnotations())
				assert.Equal(t, []metav1.OwnerReference{ownerA}, obj.GetOwnerReferences())
			},
		},
		{
			name:      "Update of an object without the removed keys writes nothing",
			strategy:  updateStrategy{},
			desired:   withRemovals(t),
			live:      servedDeployment(t, ownerA),
			last:      true,
			wantVerbs: []string{"get", dryRun},
		},
		{
			name:      "CreateOnly leaves an existing object as it is",
			strategy:  createOnlyStrategy{},
			desired:   withRemovals(t),
			live:      holdingRemoved(t),
			wantVerbs: []string{"get"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := tableClient(tt.live, nil)
			req := Request{Resource: deploymentsGVR, Desired: tt.desired, Owner: ownerA, Spec: specOf(t, tt.desired, nil)}
			if tt.last {
				req.Last = remembered(t, tt.desired, nil)
			}
			_, err := tt.strategy.Apply(context.Background(), client, req)
			require.NoError(t, err)
			assert.Equal(t, tt.wantVerbs, verbs(client))
			if tt.check != nil {
				tt.check(t, client)
			}
		})
	}
}

// TestUpdateKeepsLiveFinalizers: as OCM's agent, the Update strategy writes a
// manifest's finalizers only when it creates the object; after that the
// finalizers stay as live has them.
func TestUpdateKeepsLiveFinalizers(t *testing.T) {
	withFinalizer := func(t *testing.T) *unstructured.Unstructured {
		obj := desiredDeployment(t)
		obj.SetFinalizers([]string{"example.com/mine"})
		return obj
	}
	tests := []struct {
		name           string
		live           *unstructured.Unstructured
		last           bool
		wantVerbs      []string
		wantFinalizers []string
	}{
		{
			name:           "created with the manifest's finalizers",
			wantVerbs:      []string{"get", "create"},
			wantFinalizers: []string{"example.com/mine"},
		},
		{
			name:           "a finalizer taken away since is not put back: no write",
			live:           servedDeployment(t, ownerA),
			last:           true,
			wantVerbs:      []string{"get", dryRun},
			wantFinalizers: []string{"example.com/protect"},
		},
		{
			name:           "a change of the work writes live's finalizers",
			live:           func() *unstructured.Unstructured { o := servedDeployment(t, ownerA); o.SetLabels(nil); return o }(),
			wantVerbs:      []string{"get", "update"},
			wantFinalizers: []string{"example.com/protect"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := tableClient(tt.live, nil)
			desired := withFinalizer(t)
			req := Request{Resource: deploymentsGVR, Desired: desired, Owner: ownerA, Spec: specOf(t, desired, nil)}
			if tt.last {
				req.Last = remembered(t, desired, nil)
			}
			res, err := updateStrategy{}.Apply(context.Background(), client, req)
			require.NoError(t, err)
			assert.Equal(t, tt.wantVerbs, verbs(client))
			assert.True(t, res.Differences.InSync())
			assert.Equal(t, tt.wantFinalizers, stored(t, client, deploymentsGVR, "default", "hello").GetFinalizers())
		})
	}
}

// TestServerSideApplySendsRemovalKeysAsTheyAre: OCM's agent sends a
// server-side apply body as the manifest is, so the API server refuses a key
// ending in "-" (422), and ours does the same, even over an object that
// lacks the key.
func TestServerSideApplySendsRemovalKeysAsTheyAre(t *testing.T) {
	config := &workv1.ManifestConfigOption{UpdateStrategy: &workv1.UpdateStrategy{Type: workv1.UpdateStrategyTypeServerSideApply}}
	for _, live := range []*unstructured.Unstructured{nil, servedDeployment(t, ownerA)} {
		client := tableClient(live, nil)
		desired := withRemovals(t)
		_, _ = serverSideApplyStrategy{}.Apply(context.Background(), client, Request{
			Resource: deploymentsGVR, Desired: desired, Owner: ownerA, Config: config, Spec: specOf(t, desired, config),
		})
		var sent *unstructured.Unstructured
		for _, action := range client.Actions() {
			if p, ok := action.(interface{ GetPatch() []byte }); ok && sent == nil {
				sent = &unstructured.Unstructured{}
				require.NoError(t, sent.UnmarshalJSON(p.GetPatch()))
			}
		}
		require.NotNil(t, sent, "an apply patch was sent (live: %v)", live != nil)
		assert.Equal(t, map[string]string{"app": "hello", "stale-": ""}, sent.GetLabels())
	}
}
