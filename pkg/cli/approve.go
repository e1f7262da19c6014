package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
)

// ApproveOptions are the flags of approve.
type ApproveOptions struct {
	Group string // --group <placement>/<group name or index>
}

// Validate refuses a --group that is not <placement>/<group>, with exit code 2.
func (o *ApproveOptions) Validate() error {
	placement, group, ok := strings.Cut(o.Group, "/")
	if !ok || placement == "" || group == "" || strings.Contains(group, "/") {
		return exitf(ExitUsage, "--group %q: want <placement>/<group name or index>, as the condition RolloutWaiting names it", o.Group)
	}
	return nil
}

// Approve approves the group's RolloutApproval of the replica set's current
// revision: it sets Approved=True on its status, with the caller's user
// name (from a SelfSubjectReview) and the time, by one merge patch of the
// status subresource (an approver needs no right on the replica set but
// get). No approval of the group for the current revision exits 1, saying
// what the rollout waits for; one already approved exits 0 and writes
// nothing.
func Approve(ctx context.Context, o *Options, ao ApproveOptions, name string) error {
	h, err := o.connectHub()
	if err != nil {
		return err
	}
	rs, err := h.work.WorkV1alpha1().ManifestWorkReplicaSets(h.namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return usageError(err)
	}
	a, err := waitingApproval(ctx, h, rs, ao.Group)
	if err != nil {
		return err
	}
	if c := apimeta.FindStatusCondition(a.Status.Conditions, fleetv1alpha1.ConditionApproved); c != nil && c.Status == metav1.ConditionTrue {
		_, err := fmt.Fprintf(o.Out, "rolloutapproval/%s already approved by %s at %s\n", a.Name, cmpOr(a.Status.ApprovedBy, "(unknown)"),
			approvedAt(a))
		return err
	}
	review, err := h.kube.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if err != nil {
		return usageError(fmt.Errorf("who you are (a SelfSubjectReview): %w", err))
	}
	user := review.Status.UserInfo.Username
	at := metav1.NewTime(o.Now().UTC())
	conds := append([]metav1.Condition(nil), a.Status.Conditions...)
	apimeta.SetStatusCondition(&conds, metav1.Condition{
		Type: fleetv1alpha1.ConditionApproved, Status: metav1.ConditionTrue, Reason: fleetv1alpha1.ReasonApproved,
		Message: fmt.Sprintf("Approved by %s with work fleet approve", user), LastTransitionTime: at,
	})
	patch, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"resourceVersion": a.ResourceVersion}, // a precondition: the approval as read
		"status":   map[string]any{"conditions": conds, "approvedBy": user, "approvedAt": at},
	})
	if err != nil {
		return err
	}
	_, err = h.work.FleetV1alpha1().RolloutApprovals(h.namespace).Patch(ctx, a.Name, types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	if err != nil {
		return usageError(err)
	}
	_, err = fmt.Fprintf(o.Out, "rolloutapproval/%s approved: group %s of manifestworkreplicaset/%s may roll out %s\n",
		a.Name, ao.Group, name, revisionText(a.Spec))
	return err
}

// waitingApproval is the approval of the group for the replica set's
// current revision; none exits 1, with what the rollout waits for.
func waitingApproval(ctx context.Context, h hub, rs *workv1alpha1.ManifestWorkReplicaSet, gate string) (*fleetv1alpha1.RolloutApproval, error) {
	overrides, err := h.overrides(ctx, fileObjects{}, rs.Name)
	if err != nil {
		return nil, err
	}
	hash := currentHash(rs, overrides...)
	list, err := h.work.FleetV1alpha1().RolloutApprovals(rs.Namespace).List(ctx, metav1.ListOptions{
		LabelSelector: replicaset.ApprovalSelector(rs.Name, hash).String(),
	})
	if err != nil {
		return nil, usageError(fmt.Errorf("the approvals of manifestworkreplicaset %s/%s: %w", rs.Namespace, rs.Name, err))
	}
	approvals := make([]*fleetv1alpha1.RolloutApproval, 0, len(list.Items))
	for i := range list.Items {
		approvals = append(approvals, &list.Items[i])
	}
	if a := replicaset.ApprovalsByGate(rs, hash, approvals)[gate]; a != nil {
		return a, nil
	}
	return nil, exitf(ExitFailed, "manifestworkreplicaset %s/%s has no approval waiting for group %s on its current revision (hash %s): %s",
		rs.Namespace, rs.Name, gate, hash, waitsFor(rs))
}

// waitsFor says what the rollout waits for, from RolloutWaiting.
func waitsFor(rs *workv1alpha1.ManifestWorkReplicaSet) string {
	if w := waitingText(rs); w != "" {
		return "it waits for this: " + replicaset.ConditionRolloutWaiting + " " + w
	}
	return "the rollout waits at no gate (the condition " + replicaset.ConditionRolloutWaiting + " is not True)"
}

func approvedAt(a *fleetv1alpha1.RolloutApproval) string {
	if a.Status.ApprovedAt == nil {
		return "(unknown)"
	}
	return a.Status.ApprovedAt.UTC().Format(time.RFC3339)
}

func revisionText(s fleetv1alpha1.RolloutApprovalSpec) string {
	if s.Revision == 0 {
		return "the revision of hash " + s.RevisionHash
	}
	return fmt.Sprintf("revision %d (hash %s)", s.Revision, s.RevisionHash)
}
