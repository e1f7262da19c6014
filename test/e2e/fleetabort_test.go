package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/cli"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/framework"
)

// abortNodeLabel is on the nodes of cluster1 and cluster3, not cluster2's.
const abortNodeLabel = "e2e.manifestwork.io/fleet-abort"

// A replica set with on-failure Abort rolls out group by group: {cluster1,
// cluster2}, then {cluster3}. Revision 1 completes everywhere and becomes
// the stable revision. Revision 2 asks for a node label cluster2's nodes
// lack: cluster1 runs it, cluster2 passes its progressDeadline, the rollout
// fails and aborts: cluster1 and cluster2 go back to revision 1's template
// and hash label, cluster3 never sees revision 2, RolloutAborted says so,
// and `work fleet wait` exits 1. Revision 3, a fix, then rolls out to every
// cluster and RolloutAborted goes.
func TestFleetRolloutAbort(t *testing.T) {
	e := setup(t)
	startFleetClusters(t, e)
	startFleetHub(t, e)
	writeFleetPlacementGroups(t, e, fleetClusters[:2], fleetClusters[2:])
	for _, c := range []string{"cluster1", "cluster3"} {
		labelNodes(t, e.Cluster(c), abortNodeLabel, "true")
	}
	events := watchFleetWorks(t, e)
	work := func(timeout time.Duration, args ...string) framework.Result {
		return runFleetCLI(t, e, e.WorkBinary, timeout, args...)
	}

	first := fleetTemplate(fleetDeployment(nil))
	second := fleetTemplate(fleetDeployment(map[string]string{abortNodeLabel: "true"}))
	fixed := fleetDeployment(nil)
	fixed.Spec.Template.Annotations = map[string]string{"e2e.manifestwork.io/fix": "3"}
	third := fleetTemplate(fixed)
	hash1, hash2, hash3 := templateHash(t, first), templateHash(t, second), templateHash(t, third)
	t.Logf("revision hashes: 1 %s, 2 %s, 3 %s", hash1, hash2, hash3)

	// Revision 1 completes everywhere: the stable revision.
	createFleetReplicaSetWith(t, e, map[string]string{replicaset.OnFailureAnnotation: replicaset.OnFailureAbort}, first,
		workv1alpha1.RolloutStrategy{Type: workv1alpha1.ProgressivePerGroup, ProgressivePerGroup: &workv1alpha1.RolloutProgressivePerGroup{
			RolloutConfig: workv1alpha1.RolloutConfig{ProgressDeadline: "15s", MaxFailures: intstr.FromInt32(0)},
		}})
	waitFleetRolledOut(t, e, "revision 1")
	waitFleetWorksOn(t, e, hash1, fleetClusters, "every work on revision 1")

	// Revision 2 fails on cluster2: the rollout aborts.
	updateFleetReplicaSet(t, e, func(rs *workv1alpha1.ManifestWorkReplicaSet) { rs.Spec.ManifestWorkTemplate = second })
	st := waitFleetStatus(t, e, "aborted", func(st workv1alpha1.ManifestWorkReplicaSetStatus) error {
		require.NoError(t, cluster3NeverOn(events, hash2), "while the rollout of revision 2 goes on")
		c := apimeta.FindStatusCondition(st.Conditions, replicaset.ConditionRolloutAborted)
		if c == nil || c.Status != metav1.ConditionTrue {
			return fmt.Errorf("RolloutAborted %+v", c)
		}
		return nil
	})
	assertFleetCondition(t, st, replicaset.ConditionRolloutAborted, metav1.ConditionTrue, replicaset.ReasonAborted)
	aborted := apimeta.FindStatusCondition(st.Conditions, replicaset.ConditionRolloutAborted)
	assert.Contains(t, aborted.Message, hash2+") failed on cluster2;")
	assert.Contains(t, aborted.Message, "cluster1, cluster2 went back to revision 1 (hash "+hash1+")")
	assert.Nil(t, apimeta.FindStatusCondition(st.Conditions, replicaset.ConditionRolloutStopped), "the failed clusters went back: not stopped")
	waitFleetWorksOn(t, e, hash1, fleetClusters, "every work back on revision 1")
	// summary.updated counts the works on the spec's template: none.
	waitFleetStatus(t, e, "no work on revision 2", func(st workv1alpha1.ManifestWorkReplicaSetStatus) error {
		if st.Summary.Updated != 0 || st.Summary.DesiredTotal != 3 {
			return fmt.Errorf("summary %+v", st.Summary)
		}
		return nil
	})
	assert.True(t, hadRevision(events, "cluster1", hash2), "cluster1 ran revision 2 before it went back: %v", events.list())
	assert.True(t, hadRevision(events, "cluster2", hash2), "cluster2 got revision 2 before it went back: %v", events.list())

	res := work(3*time.Minute, "fleet", "wait", fleetName, "--for", "rolled-out", "--timeout", "2m")
	assert.Equal(t, cli.ExitFailed, res.ExitCode, "%+v", res)
	assert.Contains(t, res.Stderr, replicaset.ConditionRolloutAborted+" "+replicaset.ReasonAborted)
	res = work(time.Minute, "fleet", "status", fleetName)
	assert.Equal(t, cli.ExitFailed, res.ExitCode, "%+v", res)
	assert.Regexp(t, replicaset.ConditionRolloutAborted+`\s+True\s+`+replicaset.ReasonAborted, res.Stdout)

	// Revision 3, the fix, rolls out everywhere; RolloutAborted goes.
	updateFleetReplicaSet(t, e, func(rs *workv1alpha1.ManifestWorkReplicaSet) { rs.Spec.ManifestWorkTemplate = third })
	st = waitFleetRolledOut(t, e, "revision 3")
	assert.Nil(t, apimeta.FindStatusCondition(st.Conditions, replicaset.ConditionRolloutAborted), "RolloutAborted gone")
	waitFleetWorksOn(t, e, hash3, fleetClusters, "every work on revision 3")
	res = work(3*time.Minute, "fleet", "wait", fleetName, "--for", "rolled-out", "--timeout", "2m")
	assert.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)

	require.False(t, events.endedEarly(), "the watch of the works ended early")
	assert.NoError(t, cluster3NeverOn(events, hash2))
}

// templateHash is the hash of the revision of a replica set with template.
func templateHash(t *testing.T, template workv1.ManifestWorkSpec) string {
	t.Helper()
	h, err := revision.Hash(revision.Input{ManifestWorkTemplate: template})
	require.NoError(t, err)
	return h
}

// waitFleetRolledOut waits until the replica set's three works are on its
// template and rolled out, and returns its status.
func waitFleetRolledOut(t *testing.T, e *framework.E2E, what string) workv1alpha1.ManifestWorkReplicaSetStatus {
	t.Helper()
	return waitFleetStatus(t, e, what+" rolled out", func(st workv1alpha1.ManifestWorkReplicaSetStatus) error {
		return fleetSummaryIs(st, workv1alpha1.ManifestWorkReplicaSetSummary{
			Total: 3, Applied: 3, Available: 3, DesiredTotal: 3, Updated: 3,
		}, workv1alpha1.ReasonComplete)
	})
}

// waitFleetWorksOn waits until the works of clusters on the hub have the
// template of the revision hash and its label.
func waitFleetWorksOn(t *testing.T, e *framework.E2E, hash string, clusters []string, what string) {
	t.Helper()
	framework.Eventually(t, 2*convergeTimeout, func() error {
		for _, c := range clusters {
			w, err := getWork(t.Context(), c, fleetName)
			if err != nil {
				return err
			}
			if h := templateHash(t, w.Spec); h != hash || revision.OfWork(w) != hash {
				return fmt.Errorf("the work of %s has the template of hash %s and the label %q", c, h, revision.OfWork(w))
			}
		}
		return nil
	}, "%s (hash %s)", what, hash)
}

// hadRevision tells whether the hub's watch saw cluster's work with the
// template of the revision hash.
func hadRevision(events *fleetEvents, cluster, hash string) bool {
	for _, ev := range events.list() {
		if h, err := revision.Hash(revision.Input{ManifestWorkTemplate: ev.spec}); err == nil && ev.cluster == cluster && h == hash {
			return true
		}
	}
	return false
}

// cluster3NeverOn fails when the hub's watch saw cluster3's work with the
// template of the revision hash.
func cluster3NeverOn(events *fleetEvents, hash string) error {
	if hadRevision(events, "cluster3", hash) {
		return fmt.Errorf("cluster3's work had revision %s: %v", hash, events.list())
	}
	return nil
}
