package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/cli"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/framework"
)

// fleetApprover is the user of `work fleet approve` in the e2e: bound to
// the ClusterRole work-rollout-approver of deploy/hub, and to nothing else.
const fleetApprover = "e2e-approver"

// gatedTemplate is a template every fleet cluster runs, told apart by v.
func gatedTemplate(v string) workv1.ManifestWorkSpec {
	d := fleetDeployment(nil)
	d.Spec.Template.Annotations = map[string]string{"e2e.manifestwork.io/gate": v}
	return fleetTemplate(d)
}

// checkFleetGate runs an approval gate on the fleet of TestFleetCLI, whose
// group 1 is {cluster2, cluster3}: a new template with approve-before on
// that group reaches cluster1, then holds through several syncs with
// RolloutWaiting AwaitingApproval, and no work of group 1 changes. A user
// with only work-rollout-approver cannot edit the replica set, and
// approves with `work fleet approve`: cluster2 and cluster3 get the
// revision. A new revision needs a new approval.
func checkFleetGate(t *testing.T, e *framework.E2E, hub *framework.Process, work func(time.Duration, ...string) framework.Result) {
	t.Helper()
	approver := approverKubeconfig(t, e)
	events := watchFleetWorks(t, e)
	group := fleetName + "/1"
	before := templateHash(t, fleetTemplate(fleetDeployment(nil))) // the revision undo brought back
	for i, v := range []string{"a", "b"} {
		template := gatedTemplate(v)
		hash := templateHash(t, template)
		updateFleetReplicaSet(t, e, func(rs *workv1alpha1.ManifestWorkReplicaSet) {
			metav1.SetMetaDataAnnotation(&rs.ObjectMeta, replicaset.ApproveBeforeAnnotation, group)
			rs.Spec.ManifestWorkTemplate = template
		})
		waitFleetWorksOn(t, e, hash, fleetClusters[:1], "cluster1, of group 0, gets revision "+v)
		waitFleetStatus(t, e, "waits for the approval of revision "+v, func(st workv1alpha1.ManifestWorkReplicaSetStatus) error {
			c := apimeta.FindStatusCondition(st.Conditions, replicaset.ConditionRolloutWaiting)
			if c == nil || c.Status != metav1.ConditionTrue || c.Reason != replicaset.ReasonAwaitingApproval {
				return fmt.Errorf("RolloutWaiting %+v", c)
			}
			assert.Contains(t, c.Message, "work fleet approve "+fleetName+" -n "+fleetNamespace+" --group "+group)
			assert.Contains(t, c.Message, hash)
			return nil
		})
		for n := range 3 {
			nudgeFleet(t, e, hub, fmt.Sprintf("gate-%s-%d", v, n))
		}
		waitFleetWorksOn(t, e, before, fleetClusters[1:], "group 1 stays on the revision before, across syncs")
		for _, c := range fleetClusters[1:] {
			require.False(t, hadRevision(events, c, hash), "the work of %s had revision %s before its approval: %v", c, v, events.list())
		}
		require.False(t, events.endedEarly(), "the watch of the works ended early")
		res := work(time.Minute, "fleet", "status", fleetName)
		assert.Contains(t, res.Stdout, "Waiting:     AwaitingApproval: group "+group+" (cluster2, cluster3)")

		if i == 0 {
			res = work(time.Minute, "fleet", "pause", fleetName, "--kubeconfig", approver)
			assert.Equal(t, cli.ExitUsage, res.ExitCode, "the approver may not edit the replica set: %+v", res)
			assert.Contains(t, res.Stderr, "forbidden")
			res = work(time.Minute, "fleet", "approve", fleetName, "--group", fleetName+"/0", "--kubeconfig", approver)
			assert.Equal(t, cli.ExitFailed, res.ExitCode, "group 0 waits for nothing: %+v", res)
		}
		res = work(time.Minute, "fleet", "approve", fleetName, "--group", group, "--kubeconfig", approver)
		require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
		assert.Contains(t, res.Stdout, "approved: group "+group+" of manifestworkreplicaset/"+fleetName)
		waitFleetWorksOn(t, e, hash, fleetClusters, "every cluster on revision "+v+" once approved")
		approval := approvalOf(t, e, hash)
		assert.Equal(t, fleetApprover, approval.Status.ApprovedBy)
		assert.True(t, apimeta.IsStatusConditionTrue(approval.Status.Conditions, fleetv1alpha1.ConditionApproved))
		before = hash
	}
	res := work(time.Minute, "fleet", "approve", fleetName, "--group", group, "--kubeconfig", approver)
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	assert.Contains(t, res.Stdout, "already approved by "+fleetApprover)
}

// approvalOf is the replica set's approval of group 1 for the revision hash.
func approvalOf(t *testing.T, e *framework.E2E, hash string) fleetv1alpha1.RolloutApproval {
	t.Helper()
	list, err := e.Hub.Work.FleetV1alpha1().RolloutApprovals(fleetNamespace).List(t.Context(), metav1.ListOptions{
		LabelSelector: revision.ReplicaSetLabel + "=" + fleetName + "," + revision.HashLabel + "=" + hash,
	})
	require.NoError(t, err)
	require.Len(t, list.Items, 1, "one approval of group 1 for hash %s", hash)
	return list.Items[0]
}

// approverKubeconfig binds fleetApprover to work-rollout-approver and
// returns a kubeconfig of the hub that impersonates that user.
func approverKubeconfig(t *testing.T, e *framework.E2E) string {
	t.Helper()
	ctx := t.Context()
	bindings := e.Hub.Kube.RbacV1().ClusterRoleBindings()
	_, err := bindings.Create(ctx, &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: fleetApprover},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "work-rollout-approver"},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: fleetApprover}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = bindings.Delete(context.Background(), fleetApprover, metav1.DeleteOptions{}) })
	require.NoError(t, e.Hub.WaitAccess(t.Context(), time.Minute, fleetApprover, authorizationv1.ResourceAttributes{
		Namespace: fleetNamespace, Verb: "patch", Group: fleetv1alpha1.GroupName, Resource: "rolloutapprovals", Subresource: "status",
	}, true))
	cfg, err := clientcmd.LoadFromFile(e.Hub.Kubeconfig)
	require.NoError(t, err)
	for _, auth := range cfg.AuthInfos {
		auth.Impersonate, auth.ImpersonateGroups = fleetApprover, []string{"system:authenticated"}
	}
	data, err := clientcmd.Write(*cfg)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "approver.kubeconfig")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}
