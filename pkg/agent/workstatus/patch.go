// Package workstatus writes a ManifestWork's status back to the hub.
package workstatus

import (
	"context"
	"encoding/json"
	"fmt"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/pkg/metrics"
)

// Patch sends the new status as one merge patch, only when it differs from
// the work's, and counts in metrics.StatusPatches, for the controller, whether
// it sent one. The patch carries the resourceVersion it was computed from, so
// a concurrent writer makes it fail with a conflict and the caller reconciles
// again instead of losing that writer's change. updated is the work as the
// hub now holds it, nil when nothing was sent.
func Patch(ctx context.Context, controller string, client workclient.Interface, work *workv1.ManifestWork, status workv1.ManifestWorkStatus) (updated *workv1.ManifestWork, err error) {
	if equality.Semantic.DeepEqual(work.Status, status) {
		metrics.StatusPatches.WithLabelValues(controller, metrics.PatchSkipped).Inc()
		return nil, nil
	}
	patch, err := mergePatch(work, status)
	if err != nil {
		return nil, err
	}
	updated, err = client.WorkV1().ManifestWorks(work.Namespace).Patch(ctx, work.Name, types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	if err != nil {
		metrics.StatusPatches.WithLabelValues(controller, metrics.PatchError).Inc()
		return nil, fmt.Errorf("patching status: %w", err)
	}
	metrics.StatusPatches.WithLabelValues(controller, metrics.PatchSent).Inc()
	return updated, nil
}

// mergePatch is the merge patch from the work's status to the new one, with
// explicit nulls for what disappeared.
func mergePatch(work *workv1.ManifestWork, status workv1.ManifestWorkStatus) ([]byte, error) {
	type doc struct {
		Metadata map[string]string         `json:"metadata"`
		Status   workv1.ManifestWorkStatus `json:"status"`
	}
	before, err := json.Marshal(doc{Metadata: map[string]string{}, Status: work.Status})
	if err != nil {
		return nil, err
	}
	after, err := json.Marshal(doc{Metadata: map[string]string{"resourceVersion": work.ResourceVersion}, Status: status})
	if err != nil {
		return nil, err
	}
	return jsonpatch.CreateMergePatch(before, after)
}
