package cloudevents

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// A status patch goes to the source first, then into the copy; while the
// broker is away it fails as an unavailable hub would, and nothing changes.
func TestStatusPatch(t *testing.T) {
	h, tr := newTestHub()
	ctx := context.Background()
	h.Receive(ctx, fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 3))
	client := h.Client().WorkV1().ManifestWorks(cluster)
	current, err := client.Get(ctx, "w", metav1.GetOptions{})
	require.NoError(t, err)

	applied := metav1.Condition{Type: workv1.WorkApplied, Status: metav1.ConditionTrue, Reason: "AppliedManifestWorkComplete",
		ObservedGeneration: 3, LastTransitionTime: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}
	patch := statusPatchOf(t, current.ResourceVersion, applied)

	tr.setDown(true)
	_, err = client.Patch(ctx, "w", types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	require.True(t, apierrors.IsServiceUnavailable(err), "got %v", err)
	unchanged, _ := client.Get(ctx, "w", metav1.GetOptions{})
	assert.Empty(t, unchanged.Status.Conditions)

	tr.setDown(false)
	updated, err := client.Patch(ctx, "w", types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	require.NoError(t, err)
	require.Len(t, updated.Status.Conditions, 1)
	sent := tr.take()
	require.Len(t, sent, 1)
	status := readStatus(t, sent[0])
	assert.Equal(t, fixture.StatusUpdateType, status.Type)
	assert.Equal(t, fixture.Status{
		Type: fixture.StatusUpdateType, ResourceID: "w", Version: 3, Cluster: cluster, Source: agentID, Original: source,
		Hash: status.Hash, Sequence: status.Sequence, Status: updated.Status,
	}, status)
	hash, err := hashStatus(updated.Status)
	require.NoError(t, err)
	assert.Equal(t, hash, status.Hash)

	_, err = client.Patch(ctx, "w", types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	require.True(t, apierrors.IsConflict(err), "a patch of an older resource version: got %v", err)

	_, err = client.Patch(ctx, "w", types.MergePatchType, statusPatchOf(t, updated.ResourceVersion, applied), metav1.PatchOptions{}, "status")
	require.NoError(t, err)
	assert.Empty(t, tr.take(), "the same status is not sent again")
}

// The agent's finalizer stays local; its removal from a work being deleted
// sends the last status, with Deleted, and the work leaves the copy.
func TestFinalizerPatches(t *testing.T) {
	h, tr := newTestHub()
	ctx := context.Background()
	h.Receive(ctx, fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1))
	client := h.Client().WorkV1().ManifestWorks(cluster)
	current, _ := client.Get(ctx, "w", metav1.GetOptions{})
	withFinalizer, err := client.Patch(ctx, "w", types.MergePatchType,
		finalizerPatch(t, current.ResourceVersion, workv1.ManifestWorkFinalizer), metav1.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{workv1.ManifestWorkFinalizer}, withFinalizer.Finalizers)
	assert.Empty(t, tr.take())

	h.Receive(ctx, fixture.DeleteEvent(source, cluster, "w", 1))
	deleting, _ := client.Get(ctx, "w", metav1.GetOptions{})
	require.NotNil(t, deleting.DeletionTimestamp)
	assert.Equal(t, []string{workv1.ManifestWorkFinalizer}, deleting.Finalizers)

	_, err = client.Patch(ctx, "w", types.MergePatchType, finalizerPatch(t, deleting.ResourceVersion), metav1.PatchOptions{})
	require.NoError(t, err)
	sent := tr.take()
	require.Len(t, sent, 1)
	status := readStatus(t, sent[0])
	assert.Equal(t, fixture.StatusDeleteType, status.Type)
	deleted := meta.FindStatusCondition(status.Status.Conditions, DeletedCondition)
	require.NotNil(t, deleted)
	assert.Equal(t, "ManifestsDeleted", deleted.Reason)
	_, err = client.Get(ctx, "w", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err))
}

// A source's status resync gets the status of each work whose hash it does
// not have; an empty list asks for every work of that source.
func TestStatusResync(t *testing.T) {
	h, tr := newTestHub()
	ctx := context.Background()
	for _, name := range []string{"a", "b", "c"} {
		h.Receive(ctx, fixture.SpecEvent(source, fixture.SpecCreateType, work(name), 1))
	}
	h.Receive(ctx, fixture.SpecEvent("other-source", fixture.SpecCreateType, work("d"), 1))
	a, _ := h.store.get("a")
	hashA, err := hashStatus(a.Status)
	require.NoError(t, err)

	tests := []struct {
		name   string
		hashes map[string]string
		want   []string
	}{
		{"every work of the source", nil, []string{"a", "b", "c"}},
		{"only those that differ", map[string]string{"a": hashA, "b": "stale"}, []string{"b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.Receive(ctx, fixture.StatusResyncEvent(source, cluster, tt.hashes))
			var got []string
			for _, e := range tr.take() {
				s := readStatus(t, e)
				assert.Equal(t, fixture.StatusReplyType, s.Type)
				got = append(got, s.ResourceID)
			}
			assert.ElementsMatch(t, tt.want, got)
		})
	}
}

func statusPatchOf(t *testing.T, resourceVersion string, conditions ...metav1.Condition) []byte {
	raw, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"resourceVersion": resourceVersion},
		"status":   map[string]any{"conditions": conditions},
	})
	require.NoError(t, err)
	return raw
}

func finalizerPatch(t *testing.T, resourceVersion string, finalizers ...string) []byte {
	var list any
	if len(finalizers) > 0 {
		list = finalizers
	}
	raw, err := json.Marshal(map[string]any{"metadata": map[string]any{"resourceVersion": resourceVersion, "finalizers": list}})
	require.NoError(t, err)
	return raw
}
