package appliedwork_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

const (
	ours   = types.UID("amw-ours")
	theirs = types.UID("amw-theirs")
)

var (
	ourRef   = fixture.Owner("hash-web", ours)
	theirRef = fixture.Owner("hash-other", theirs)
	plainRef = metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "parent", UID: "cm-parent"}
)

func TestClean(t *testing.T) {
	cm := func(uid types.UID, owners ...metav1.OwnerReference) *metav1.PartialObjectMetadata {
		return ct.Object(ct.ConfigMaps, "default", "web", uid, owners...)
	}
	record := ct.Resource(ct.ConfigMaps, "default", "web", "uid-1")
	cases := []struct {
		name       string
		live       *metav1.PartialObjectMetadata // nil: absent
		record     workv1.AppliedManifestResourceMeta
		action     appliedwork.Action
		want       appliedwork.Outcome
		wantWrites []string
		wantOwners []metav1.OwnerReference // of the object left, when one is left
		wantGone   bool                    // the object is gone afterwards
	}{{
		name: "deletes the recorded object we alone own", live: cm("uid-1", ourRef), record: record,
		want: appliedwork.Deleting, wantWrites: []string{"delete configmaps default/web"}, wantGone: true,
	}, {
		name: "a non-work owner does not make the object shared", live: cm("uid-1", ourRef, plainRef), record: record,
		want: appliedwork.Deleting, wantWrites: []string{"delete configmaps default/web"}, wantGone: true,
	}, {
		name: "leaves a recreated object (another UID) alone", live: cm("uid-2", ourRef), record: record,
		want: appliedwork.Gone, wantOwners: []metav1.OwnerReference{ourRef},
	}, {
		name: "an absent object is gone", record: record, want: appliedwork.Gone,
	}, {
		name: "a shared object only loses our owner reference", live: cm("uid-1", theirRef, ourRef), record: record,
		want: appliedwork.Kept, wantWrites: []string{"patch configmaps default/web"}, wantOwners: []metav1.OwnerReference{theirRef},
	}, {
		name: "orphan removes our owner reference and deletes nothing", live: cm("uid-1", ourRef), record: record,
		action: appliedwork.Orphan, want: appliedwork.Kept, wantWrites: []string{"patch configmaps default/web"},
	}, {
		name: "orphan keeps the other owners", live: cm("uid-1", plainRef, ourRef), record: record,
		action: appliedwork.Orphan, want: appliedwork.Kept, wantWrites: []string{"patch configmaps default/web"},
		wantOwners: []metav1.OwnerReference{plainRef},
	}, {
		name: "waits for a terminating object without writing", live: ct.Terminating(cm("uid-1", ourRef)), record: record,
		want: appliedwork.Terminating, wantOwners: []metav1.OwnerReference{ourRef},
	}, {
		name: "never deletes an object we do not own", live: cm("uid-1", theirRef), record: record,
		want: appliedwork.Kept, wantOwners: []metav1.OwnerReference{theirRef},
	}, {
		name: "never orphans an object we do not own", live: cm("uid-1"), record: record,
		action: appliedwork.Orphan, want: appliedwork.Kept,
	}, {
		name:   "without a recorded UID our owner reference identifies the object",
		live:   cm("uid-9", ourRef),
		record: ct.Resource(ct.ConfigMaps, "default", "web", ""),
		want:   appliedwork.Deleting, wantWrites: []string{"delete configmaps default/web"}, wantGone: true,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var objs []*metav1.PartialObjectMetadata
			if tc.live != nil {
				objs = append(objs, tc.live)
			}
			client := ct.NewClient(t, objs...)
			c := &appliedwork.Cleaner{Client: client}

			got, err := c.Clean(context.Background(), ours, tc.record, tc.action)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.wantWrites, ct.Writes(client.Actions()))

			left := ct.Stored(t, client, ct.ConfigMaps, "default", "web")
			if tc.wantGone || tc.live == nil {
				assert.Nil(t, left, "object must be gone")
				return
			}
			require.NotNil(t, left, "object must stay")
			if tc.wantOwners == nil {
				assert.Empty(t, left.OwnerReferences)
			} else {
				assert.Equal(t, tc.wantOwners, left.OwnerReferences)
			}
		})
	}
}

// Deletes are conditional on the UID; when decided on a cached copy, also
// on its resourceVersion. They let the garbage collector remove dependents
// afterwards.
func TestCleanDeleteIsConditional(t *testing.T) {
	obj := ct.Object(ct.Deployments, "default", "web", "uid-1", ourRef)
	for name, objects := range map[string]appliedwork.ObjectCache{
		"fresh read": nil,
		"cached":     ct.Cache{}.Put(ct.Deployments, obj),
	} {
		t.Run(name, func(t *testing.T) {
			client := ct.NewClient(t, obj)
			c := &appliedwork.Cleaner{Client: client, Objects: objects}

			_, err := c.Clean(context.Background(), ours, ct.Resource(ct.Deployments, "default", "web", "uid-1"), appliedwork.Delete)
			require.NoError(t, err)

			del := findAction[clienttesting.DeleteActionImpl](t, client.Actions(), "delete")
			opts := del.GetDeleteOptions()
			require.NotNil(t, opts.Preconditions)
			assert.Equal(t, types.UID("uid-1"), *opts.Preconditions.UID)
			if objects == nil {
				assert.Nil(t, opts.Preconditions.ResourceVersion)
			} else {
				require.NotNil(t, opts.Preconditions.ResourceVersion)
				assert.Equal(t, "7", *opts.Preconditions.ResourceVersion)
			}
			require.NotNil(t, opts.PropagationPolicy)
			assert.Equal(t, metav1.DeletePropagationBackground, *opts.PropagationPolicy)
		})
	}
}

// The owner patch tests the object's UID and the reference it removes, so
// that a concurrent change of the owners makes it fail.
func TestCleanReleasePatchTestsWhatItRemoves(t *testing.T) {
	client := ct.NewClient(t, ct.Object(ct.ConfigMaps, "default", "web", "uid-1", plainRef, ourRef))
	c := &appliedwork.Cleaner{Client: client}

	_, err := c.Clean(context.Background(), ours, ct.Resource(ct.ConfigMaps, "default", "web", "uid-1"), appliedwork.Orphan)
	require.NoError(t, err)

	patch := findAction[clienttesting.PatchActionImpl](t, client.Actions(), "patch")
	assert.Equal(t, types.JSONPatchType, patch.GetPatchType())
	assert.JSONEq(t, `[
		{"op":"test","path":"/metadata/uid","value":"uid-1"},
		{"op":"test","path":"/metadata/ownerReferences/1/uid","value":"amw-ours"},
		{"op":"remove","path":"/metadata/ownerReferences/1"}
	]`, string(patch.GetPatch()))
}

// A patch whose test fails (the owners changed since they were read) is
// decided again on a fresh read.
func TestCleanReleaseRetriesWhenTheOwnersChanged(t *testing.T) {
	stale := ct.Object(ct.ConfigMaps, "default", "web", "uid-1", ourRef)
	fresh := ct.Object(ct.ConfigMaps, "default", "web", "uid-1", theirRef, ourRef)
	client := ct.NewClient(t, fresh)
	// The API server answers a failed JSON patch test with 422.
	failed := false
	client.PrependReactor("patch", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
		if failed {
			return false, nil, nil
		}
		failed = true
		return true, nil, apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "patch",
			schema.GroupResource{Resource: "configmaps"}, "web", "testing value /metadata/ownerReferences/0/uid failed", 0, false)
	})
	c := &appliedwork.Cleaner{Client: client, Objects: ct.Cache{}.Put(ct.ConfigMaps, stale)}

	got, err := c.Clean(context.Background(), ours, ct.Resource(ct.ConfigMaps, "default", "web", "uid-1"), appliedwork.Orphan)
	require.NoError(t, err)
	assert.Equal(t, appliedwork.Kept, got)
	assert.Equal(t, []string{"patch", "get", "patch"}, verbs(client.Actions()))
	left := ct.Stored(t, client, ct.ConfigMaps, "default", "web")
	require.NotNil(t, left)
	assert.Equal(t, []metav1.OwnerReference{theirRef}, left.OwnerReferences)
}

// A cached object is used as it is: no read goes to the API.
func TestCleanUsesTheCache(t *testing.T) {
	obj := ct.Object(ct.ConfigMaps, "default", "web", "uid-1", ourRef)
	client := ct.NewClient(t, obj)
	c := &appliedwork.Cleaner{Client: client, Objects: ct.Cache{}.Put(ct.ConfigMaps, obj)}

	got, err := c.Clean(context.Background(), ours, ct.Resource(ct.ConfigMaps, "default", "web", "uid-1"), appliedwork.Delete)
	require.NoError(t, err)
	assert.Equal(t, appliedwork.Deleting, got)
	assert.Equal(t, []string{"delete"}, verbs(client.Actions()))
}

// A cache that has not seen an object is not trusted to say it is gone.
func TestCleanConfirmsAbsenceWithTheAPI(t *testing.T) {
	client := ct.NewClient(t, ct.Object(ct.ConfigMaps, "default", "web", "uid-1", ourRef))
	c := &appliedwork.Cleaner{Client: client, Objects: ct.Cache{}.Put(ct.ConfigMaps)}

	got, err := c.Clean(context.Background(), ours, ct.Resource(ct.ConfigMaps, "default", "web", "uid-1"), appliedwork.Delete)
	require.NoError(t, err)
	assert.Equal(t, appliedwork.Deleting, got)
	assert.Equal(t, []string{"get", "delete"}, verbs(client.Actions()))
}

// sawDeleted is a cache that has seen the deletion of some UIDs.
type sawDeleted struct {
	ct.Cache
	uids map[types.UID]bool
}

func (s sawDeleted) Deleted(_ schema.GroupVersionResource, uid types.UID) bool { return s.uids[uid] }

// An object whose deletion the watch saw is gone without a request; one of
// the same name that is not that UID is not trusted to be it.
func TestCleanTrustsASeenDeletion(t *testing.T) {
	client := ct.NewClient(t)
	c := &appliedwork.Cleaner{Client: client, Objects: sawDeleted{Cache: ct.Cache{}.Put(ct.ConfigMaps), uids: map[types.UID]bool{"uid-1": true}}}

	got, err := c.Clean(context.Background(), ours, ct.Resource(ct.ConfigMaps, "default", "web", "uid-1"), appliedwork.Delete)
	require.NoError(t, err)
	assert.Equal(t, appliedwork.Gone, got)
	assert.Empty(t, client.Actions(), "no read")

	got, err = c.Clean(context.Background(), ours, ct.Resource(ct.ConfigMaps, "default", "web", "uid-2"), appliedwork.Delete)
	require.NoError(t, err)
	assert.Equal(t, appliedwork.Gone, got)
	assert.Equal(t, []string{"get"}, verbs(client.Actions()), "an unseen deletion is confirmed with the API")
}

// When the cached copy is stale, the conditional delete fails; the object is
// read again and the decision made on what it is now: here another work
// took a share of it in between, so it is only released.
func TestCleanRetriesOnAFreshReadAfterAConflict(t *testing.T) {
	stale := ct.Object(ct.ConfigMaps, "default", "web", "uid-1", ourRef)
	fresh := ct.Object(ct.ConfigMaps, "default", "web", "uid-1", ourRef, theirRef)
	fresh.ResourceVersion = "8"
	client := ct.NewClient(t, fresh)
	client.PrependReactor("delete", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "web", nil)
	})
	c := &appliedwork.Cleaner{Client: client, Objects: ct.Cache{}.Put(ct.ConfigMaps, stale)}

	got, err := c.Clean(context.Background(), ours, ct.Resource(ct.ConfigMaps, "default", "web", "uid-1"), appliedwork.Delete)
	require.NoError(t, err)
	assert.Equal(t, appliedwork.Kept, got)
	assert.Equal(t, []string{"delete", "get", "patch"}, verbs(client.Actions()))
	left := ct.Stored(t, client, ct.ConfigMaps, "default", "web")
	require.NotNil(t, left)
	assert.Equal(t, []metav1.OwnerReference{theirRef}, left.OwnerReferences)
}

// The fresh read after a conflict may fail too: the object is not known to
// be gone then, and the failure is returned, so that the caller keeps it
// pending instead of dropping it as Gone.
func TestCleanReportsAFailedReadAfterAConflict(t *testing.T) {
	stale := ct.Object(ct.ConfigMaps, "default", "web", "uid-1", ourRef)
	client := ct.NewClient(t, ct.Object(ct.ConfigMaps, "default", "web", "uid-1", ourRef, theirRef))
	client.PrependReactor("delete", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "web", nil)
	})
	client.PrependReactor("get", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewServiceUnavailable("the API server is restarting")
	})
	c := &appliedwork.Cleaner{Client: client, Objects: ct.Cache{}.Put(ct.ConfigMaps, stale)}

	_, err := c.Clean(context.Background(), ours, ct.Resource(ct.ConfigMaps, "default", "web", "uid-1"), appliedwork.Delete)
	require.Error(t, err)
	assert.True(t, apierrors.IsServiceUnavailable(err), "the read's failure: %v", err)
	assert.Equal(t, []string{"delete", "get"}, verbs(client.Actions()))
}

func TestCleanReportsErrors(t *testing.T) {
	client := ct.NewClient(t, ct.Object(ct.ConfigMaps, "default", "web", "uid-1", ourRef))
	client.PrependReactor("delete", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "web", nil)
	})
	c := &appliedwork.Cleaner{Client: client}

	_, err := c.Clean(context.Background(), ours, ct.Resource(ct.ConfigMaps, "default", "web", "uid-1"), appliedwork.Delete)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "configmaps default/web")
}

func TestCleanClusterScoped(t *testing.T) {
	client := ct.NewClient(t, ct.Object(ct.Namespaces, "", "web", "uid-1", ourRef))
	c := &appliedwork.Cleaner{Client: client}

	got, err := c.Clean(context.Background(), ours, ct.Resource(ct.Namespaces, "", "web", "uid-1"), appliedwork.Delete)
	require.NoError(t, err)
	assert.Equal(t, appliedwork.Deleting, got)
	assert.Nil(t, ct.Stored(t, client, ct.Namespaces, "", "web"))
}

func TestDescribe(t *testing.T) {
	assert.Equal(t, "deployments apps/v1 default/web", appliedwork.Describe(ct.Resource(ct.Deployments, "default", "web", "")))
	assert.Equal(t, "namespaces v1 web", appliedwork.Describe(ct.Resource(ct.Namespaces, "", "web", "")))
}

func verbs(actions []clienttesting.Action) []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.GetVerb())
	}
	return out
}

func findAction[T clienttesting.Action](t *testing.T, actions []clienttesting.Action, verb string) T {
	t.Helper()
	for _, a := range actions {
		if got, ok := a.(T); ok && a.GetVerb() == verb {
			return got
		}
	}
	var zero T
	t.Fatalf("no %s action in %v", verb, actions)
	return zero
}
