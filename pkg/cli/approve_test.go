package cli

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// waitingFleet is the replica set fleet/web waiting for the approval of
// group web/1 for its current revision, and an approval of that group for
// another revision, approved.
func waitingFleet(t *testing.T) []runtime.Object {
	rs := replicaSet(false, completeSummary(), append(rolledOut(),
		cond(replicaset.ConditionRolloutWaiting, metav1.ConditionTrue, replicaset.ReasonAwaitingApproval,
			"group web/1 (cluster2, cluster3) waits for the approval of revision 2: RolloutApproval web-web-1-x; approve with: work fleet approve web -n fleet --group web/1"))...)
	rs.UID = "uid-web"
	approval := func(name, hash string, number int64) *fleetv1alpha1.RolloutApproval {
		return &fleetv1alpha1.RolloutApproval{
			ObjectMeta: metav1.ObjectMeta{Namespace: "fleet", Name: name, ResourceVersion: "3",
				Labels:          map[string]string{revision.ReplicaSetLabel: "web", revision.HashLabel: hash},
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(rs, workv1alpha1.SchemeGroupVersion.WithKind("ManifestWorkReplicaSet"))}},
			Spec: fleetv1alpha1.RolloutApprovalSpec{ReplicaSet: "web", Placement: "web", Group: "1", Revision: number, RevisionHash: hash},
		}
	}
	old := approval("web-web-1-old", "old", 1)
	old.Status.Conditions = []metav1.Condition{cond(fleetv1alpha1.ConditionApproved, metav1.ConditionTrue, fleetv1alpha1.ReasonApproved, "")}
	return []runtime.Object{rs, old, approval("web-web-1-x", currentHash(rs), 2)}
}

// approver answers SelfSubjectReviews with the user alice.
func approver(o *Options) {
	kube := kubefake.NewSimpleClientset()
	kube.PrependReactor("create", "selfsubjectreviews", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, &authenticationv1.SelfSubjectReview{Status: authenticationv1.SelfSubjectReviewStatus{
			UserInfo: authenticationv1.UserInfo{Username: "alice"}}}, nil
	})
	o.Kube = kube
}

// Approve sets Approved, approvedBy and approvedAt on the approval of the
// group for the current revision, by one patch of its status; again, it
// writes nothing and says it was approved already.
func TestApprove(t *testing.T) {
	ctx := context.Background()
	o, client, out := options(waitingFleet(t)...)
	approver(o)
	require.NoError(t, Approve(ctx, o, ApproveOptions{Group: "web/1"}, "web"))
	patches := func() []string {
		var out []string
		for _, a := range client.Actions() {
			if a.GetVerb() == "patch" {
				out = append(out, a.GetResource().Resource+"/"+a.GetSubresource()+" "+a.(clienttesting.PatchAction).GetName())
			}
		}
		return out
	}
	assert.Equal(t, []string{"rolloutapprovals/status web-web-1-x"}, patches())
	a, err := client.FleetV1alpha1().RolloutApprovals("fleet").Get(ctx, "web-web-1-x", metav1.GetOptions{})
	require.NoError(t, err)
	assert.True(t, apimeta.IsStatusConditionTrue(a.Status.Conditions, fleetv1alpha1.ConditionApproved))
	assert.Equal(t, "alice", a.Status.ApprovedBy)
	require.NotNil(t, a.Status.ApprovedAt)
	assert.True(t, a.Status.ApprovedAt.Time.Equal(now))

	require.NoError(t, Approve(ctx, o, ApproveOptions{Group: "web/1"}, "web"))
	assert.Equal(t, []string{"rolloutapprovals/status web-web-1-x"}, patches(), "approved already: no second patch")
	golden(t, "approve.txt", out.String())
}

// No approval of the group for the current revision exits 1, saying what
// the rollout waits for; an approval of another revision does not count.
func TestApproveNothingWaiting(t *testing.T) {
	fleet := waitingFleet(t)
	o, client, _ := options(fleet[:2]...) // the approval of the current revision is not there
	approver(o)
	err := Approve(context.Background(), o, ApproveOptions{Group: "web/1"}, "web")
	assert.Equal(t, ExitFailed, ExitCode(err, -1), "%v", err)
	assert.Contains(t, err.Error(), "manifestworkreplicaset fleet/web has no approval waiting for group web/1 on its current revision")
	assert.Contains(t, err.Error(), "it waits for this: RolloutWaiting AwaitingApproval: group web/1 (cluster2, cluster3)")
	for _, a := range client.Actions() {
		assert.NotEqual(t, "patch", a.GetVerb())
	}

	o, _, _ = options(replicaSet(false, completeSummary(), rolledOut()...))
	err = Approve(context.Background(), o, ApproveOptions{Group: "web/0"}, "web")
	assert.Equal(t, ExitFailed, ExitCode(err, -1), "%v", err)
	assert.Contains(t, err.Error(), "the rollout waits at no gate")

	assert.Equal(t, ExitUsage, ExitCode((&ApproveOptions{Group: "web"}).Validate(), -1))
	assert.NoError(t, (&ApproveOptions{Group: "web/canary"}).Validate())
}

// Status shows a gate that holds the rollout in its glance.
func TestStatusWaiting(t *testing.T) {
	o, _, out := options(waitingFleet(t)[0])
	require.NoError(t, Status(context.Background(), o, OutputOptions{}, "web"))
	golden(t, "status-waiting.txt", out.String())
}
