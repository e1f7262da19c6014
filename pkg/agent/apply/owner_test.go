package apply

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
)

// staleA is a reference to an earlier AppliedManifestWork of ownerA's name.
var staleA = workOwner("hubhash-work-a", "uid-a-before")

func strategyConfig(t workv1.UpdateStrategyType) *workv1.ManifestConfigOption {
	return &workv1.ManifestConfigOption{
		ResourceIdentifier: workv1.ResourceIdentifier{Group: "apps", Resource: "deployments", Namespace: "default", Name: "hello"},
		UpdateStrategy:     &workv1.UpdateStrategy{Type: t},
	}
}

// requests lists the client's requests as verbs, a patch with its type
// ("patch merge", "patch apply").
func requests(client *fake.FakeDynamicClient) []string {
	var out []string
	for _, action := range client.Actions() {
		if patch, ok := action.(clienttesting.PatchActionImpl); ok {
			out = append(out, "patch "+map[types.PatchType]string{types.MergePatchType: "merge", types.ApplyPatchType: "apply"}[patch.GetPatchType()])
			continue
		}
		if update, ok := action.(clienttesting.UpdateActionImpl); ok && len(update.UpdateOptions.DryRun) > 0 {
			out = append(out, dryRun)
			continue
		}
		out = append(out, action.GetVerb())
	}
	return out
}

// An object that the work's deleteOption orphans never gets our owner
// reference, whatever the strategy, and one that has it loses it with a
// patch of its own that changes nothing else; other owners stay.
func TestOrphanedObjectsCarryNoOwnerReference(t *testing.T) {
	desired := desiredDeployment(t)
	withReplicas := func(live *unstructured.Unstructured, n int64) *unstructured.Unstructured {
		require.NoError(t, unstructured.SetNestedField(live.Object, n, "spec", "replicas"))
		return live
	}
	conflict := apierrors.NewConflict(deploymentsGVR.GroupResource(), "hello", errors.New("the object has been modified"))
	tests := []struct {
		name         string
		strategy     workv1.UpdateStrategyType
		live         *unstructured.Unstructured // nil: the object does not exist
		last         *LastApplied               // nil: the work is unchanged since
		reactors     []func(*fake.FakeDynamicClient)
		wantRequests []string
		wantOwners   []metav1.OwnerReference // of the stored object
		wantReplicas int64
	}{{
		name:         "Update creates without our owner reference",
		strategy:     workv1.UpdateStrategyTypeUpdate,
		wantRequests: []string{"get", "create"},
		wantReplicas: 3,
	}, {
		name:         "Update: an object we own loses our reference, and only that, in one patch",
		strategy:     workv1.UpdateStrategyTypeUpdate,
		live:         servedDeployment(t, ownerB, ownerA),
		wantRequests: []string{"get", "patch merge"},
		wantOwners:   []metav1.OwnerReference{ownerB},
		wantReplicas: 3,
	}, {
		name:         "Update: the last reference goes, and so does a stale one of an earlier record of the same name",
		strategy:     workv1.UpdateStrategyTypeUpdate,
		live:         servedDeployment(t, ownerA, staleA),
		wantRequests: []string{"get", "patch merge"},
		wantReplicas: 3,
	}, {
		name:         "Update: an orphaned object in sync costs no write",
		strategy:     workv1.UpdateStrategyTypeUpdate,
		live:         servedDeployment(t, ownerB),
		wantRequests: []string{"get", dryRun},
		wantOwners:   []metav1.OwnerReference{ownerB},
		wantReplicas: 3,
	}, {
		name:         "Update: a conflicting writer makes the owner patch retry on a fresh read",
		strategy:     workv1.UpdateStrategyTypeUpdate,
		live:         servedDeployment(t, ownerA),
		reactors:     []func(*fake.FakeDynamicClient){failOnce("patch", conflict)},
		wantRequests: []string{"get", "patch merge", "get", "patch merge"},
		wantReplicas: 3,
	}, {
		name:         "Update: drift is repaired and our reference goes in the same update",
		strategy:     workv1.UpdateStrategyTypeUpdate,
		live:         withReplicas(servedDeployment(t, ownerB, ownerA), 5),
		wantRequests: []string{"get", "update"},
		wantOwners:   []metav1.OwnerReference{ownerB},
		wantReplicas: 3,
	}, {
		name:         "Update: a changed work is updated without our reference",
		strategy:     workv1.UpdateStrategyTypeUpdate,
		live:         servedDeployment(t, ownerA),
		last:         &LastApplied{Spec: 1},
		wantRequests: []string{"get", "update"},
		wantReplicas: 3,
	}, {
		name:         "CreateOnly creates without our owner reference",
		strategy:     workv1.UpdateStrategyTypeCreateOnly,
		wantRequests: []string{"get", "create"},
		wantReplicas: 3,
	}, {
		name:         "CreateOnly: an object we created loses our reference, its content stays as it is",
		strategy:     workv1.UpdateStrategyTypeCreateOnly,
		live:         withReplicas(servedDeployment(t, ownerB, ownerA), 7),
		wantRequests: []string{"get", "patch merge"},
		wantOwners:   []metav1.OwnerReference{ownerB},
		wantReplicas: 7,
	}, {
		name:         "CreateOnly: an object without our reference is not touched",
		strategy:     workv1.UpdateStrategyTypeCreateOnly,
		live:         withReplicas(servedDeployment(t, ownerB), 7),
		wantRequests: []string{"get"},
		wantOwners:   []metav1.OwnerReference{ownerB},
		wantReplicas: 7,
	}, {
		name:         "ServerSideApply creates without our owner reference",
		strategy:     workv1.UpdateStrategyTypeServerSideApply,
		wantRequests: []string{"get", "patch apply"},
		wantReplicas: 3,
	}, {
		name:         "ServerSideApply: an object we own loses our reference in one merge patch",
		strategy:     workv1.UpdateStrategyTypeServerSideApply,
		live:         servedDeployment(t, ownerA),
		wantRequests: []string{"get", "patch merge"},
		wantReplicas: 3,
	}, {
		name:         "ReadOnly never writes",
		strategy:     workv1.UpdateStrategyTypeReadOnly,
		live:         servedDeployment(t, ownerA),
		wantRequests: []string{"get"},
		wantOwners:   []metav1.OwnerReference{ownerA},
		wantReplicas: 3,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := tableClient(tt.live, tt.reactors)
			if tt.strategy == workv1.UpdateStrategyTypeServerSideApply {
				recordApplies(client)
			}
			config := strategyConfig(tt.strategy)
			last := tt.last
			if last == nil {
				last = remembered(t, desired, config)
			}
			strategy, err := For(manifest.StrategyOf(config))
			require.NoError(t, err)

			res, err := strategy.Apply(context.Background(), client, Request{
				Resource: deploymentsGVR, Desired: desired, Owner: ownerA, Orphaned: true, Config: config,
				Spec: specOf(t, desired, config), Last: last,
			})

			require.NoError(t, err)
			assert.Equal(t, tt.wantRequests, requests(client))
			assert.Equal(t, wroteAny(client), res.Written)
			obj := stored(t, client, deploymentsGVR, "default", "hello")
			assert.Equal(t, tt.wantOwners, obj.GetOwnerReferences())
			assert.Equal(t, tt.wantOwners, res.Object.GetOwnerReferences(), "the result is the object as stored")
			replicas, _, err := unstructured.NestedFieldNoCopy(obj.Object, "spec", "replicas")
			require.NoError(t, err)
			assert.EqualValues(t, tt.wantReplicas, replicas)
			for _, action := range client.Actions() {
				if patch, ok := action.(clienttesting.PatchActionImpl); ok && patch.GetPatchType() == types.MergePatchType {
					body := decode(t, string(patch.GetPatch()))
					assert.Equal(t, "9f1c", string(body.GetUID()), "the owner patch is conditional on the UID")
					assert.NotEmpty(t, body.GetResourceVersion(), "and on the resourceVersion")
					assert.Equal(t, []string{"metadata"}, slices.Collect(maps.Keys(body.Object)), "and changes nothing else")
				}
			}
		})
	}
}

// OwnersSettled tells the caller, from a cached copy, whether a strategy
// still has an owner reference to add or remove.
func TestOwnersSettled(t *testing.T) {
	tests := []struct {
		strategy workv1.UpdateStrategyType
		orphaned bool
		refs     []metav1.OwnerReference
		want     bool
	}{
		{strategy: "", refs: []metav1.OwnerReference{ownerA}, want: true},
		{strategy: "", refs: []metav1.OwnerReference{ownerB}, want: false},
		{strategy: "", orphaned: true, refs: []metav1.OwnerReference{ownerB}, want: true},
		{strategy: "", orphaned: true, refs: []metav1.OwnerReference{ownerB, ownerA}, want: false},
		{strategy: "", orphaned: true, refs: []metav1.OwnerReference{staleA}, want: false},
		{strategy: workv1.UpdateStrategyTypeServerSideApply, refs: nil, want: false},
		{strategy: workv1.UpdateStrategyTypeServerSideApply, orphaned: true, refs: []metav1.OwnerReference{ownerA}, want: false},
		{strategy: workv1.UpdateStrategyTypeCreateOnly, refs: nil, want: true},
		{strategy: workv1.UpdateStrategyTypeCreateOnly, orphaned: true, refs: []metav1.OwnerReference{ownerA}, want: false},
		{strategy: workv1.UpdateStrategyTypeReadOnly, refs: nil, want: true},
		{strategy: workv1.UpdateStrategyTypeReadOnly, orphaned: true, refs: []metav1.OwnerReference{ownerA}, want: true},
	}
	for _, tt := range tests {
		config := strategyConfig(tt.strategy)
		if tt.strategy == "" {
			config = nil
		}
		got := OwnersSettled(Request{Owner: ownerA, Orphaned: tt.orphaned, Config: config}, tt.refs)
		assert.Equal(t, tt.want, got, "strategy %q, orphaned %v, owners %v", tt.strategy, tt.orphaned, tt.refs)
	}
}
