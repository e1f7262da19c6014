package eviction

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// evictionSlack is added to the remaining grace period when requeueing, so the
// check never comes early (evictionStartTime is stored with second precision),
// with as much again of random jitter.
const evictionSlack = time.Second

// reconcile marks, unmarks or deletes one AppliedManifestWork and returns how
// long until it must be checked again (0: only on events).
func (c *Controller) reconcile(ctx context.Context, applied *workv1.AppliedManifestWork) (time.Duration, error) {
	if applied.Spec.AgentID != c.AgentID || applied.DeletionTimestamp != nil {
		return 0, nil // another agent's, or already on its way out
	}
	orphaned, why, err := c.orphaned(applied)
	if err != nil {
		return 0, err
	}
	if !orphaned {
		return 0, c.cancelEviction(ctx, applied)
	}
	start := applied.Status.EvictionStartTime
	if start == nil {
		return c.startEviction(ctx, applied, why)
	}
	if remaining := start.Add(c.GracePeriod).Sub(c.Clock.Now()); remaining > 0 {
		return remaining + wait.Jitter(evictionSlack, 1), nil
	}
	return 0, c.evict(ctx, applied, why)
}

// orphaned tells whether the work of an AppliedManifestWork is gone from the
// hub this agent serves, and why.
func (c *Controller) orphaned(applied *workv1.AppliedManifestWork) (bool, string, error) {
	if applied.Spec.HubHash != c.HubHash {
		return true, "it was applied from another hub", nil
	}
	_, err := c.works.Get(applied.Spec.ManifestWorkName)
	if apierrors.IsNotFound(err) {
		return true, "its ManifestWork is gone from the hub", nil
	}
	if err != nil {
		return false, "", err
	}
	return false, "", nil
}

// startEviction records when the grace period began.
func (c *Controller) startEviction(ctx context.Context, applied *workv1.AppliedManifestWork, why string) (time.Duration, error) {
	now := metav1.NewTime(c.Clock.Now())
	if err := c.patchEvictionStart(ctx, applied, &now); err != nil {
		return 0, err
	}
	klog.FromContext(ctx).Info("AppliedManifestWork will be evicted unless its ManifestWork returns",
		"reason", why, "gracePeriod", c.GracePeriod, "evictionStartTime", now.UTC().Format(time.RFC3339))
	return c.GracePeriod + wait.Jitter(evictionSlack, 1), nil
}

// cancelEviction removes the mark from an AppliedManifestWork whose work came
// back.
func (c *Controller) cancelEviction(ctx context.Context, applied *workv1.AppliedManifestWork) error {
	if applied.Status.EvictionStartTime == nil {
		return nil
	}
	if err := c.patchEvictionStart(ctx, applied, nil); err != nil {
		return err
	}
	klog.FromContext(ctx).Info("Eviction cancelled: the ManifestWork is back on the hub")
	return nil
}

// evict deletes the AppliedManifestWork; its finalizer removes what it owns.
// The UID precondition keeps a newer one of the same name safe.
func (c *Controller) evict(ctx context.Context, applied *workv1.AppliedManifestWork, why string) error {
	uid := applied.UID
	err := c.SpokeClient.WorkV1().AppliedManifestWorks().Delete(ctx, applied.Name, metav1.DeleteOptions{
		Preconditions: &metav1.Preconditions{UID: &uid},
	})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("evicting: %w", err)
	}
	klog.FromContext(ctx).Info("Evicted AppliedManifestWork after its grace period",
		"reason", why, "gracePeriod", c.GracePeriod,
		"evictionStartTime", applied.Status.EvictionStartTime.UTC().Format(time.RFC3339))
	return nil
}

// patchEvictionStart sets (or, with nil, clears) status.evictionStartTime. The
// patch carries the resourceVersion the decision was made on, so a decision
// on stale data fails with a conflict and is made again.
func (c *Controller) patchEvictionStart(ctx context.Context, applied *workv1.AppliedManifestWork, start *metav1.Time) error {
	patch, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"resourceVersion": applied.ResourceVersion},
		"status":   map[string]any{"evictionStartTime": start}, // nil becomes null: removed
	})
	if err != nil {
		return err
	}
	_, err = c.SpokeClient.WorkV1().AppliedManifestWorks().Patch(ctx, applied.Name, types.MergePatchType, patch,
		metav1.PatchOptions{}, "status")
	if err != nil {
		return fmt.Errorf("patching evictionStartTime: %w", err)
	}
	return nil
}
