package replicaset

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	ct "github.com/manifestwork/work/pkg/controllertest"
)

// degradedWork is a failed work as our agent reports it: Degraded with its
// message, a Deployment whose health is Degraded, a ConfigMap failing to
// apply.
func degradedWork(cluster string) *workv1.ManifestWork {
	w := reported(work(cluster, rsName, "1"), metav1.ConditionTrue, metav1.ConditionTrue, time.Minute)
	apimeta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{
		Type: workv1.WorkDegraded, Status: metav1.ConditionTrue, Reason: workv1.WorkDegradedReasonManifestsDegraded,
		Message: "1 of 2 manifests are degraded", ObservedGeneration: w.Generation, LastTransitionTime: metav1.NewTime(now.Add(-time.Minute)),
	})
	w.Status.ResourceStatus.Manifests = []workv1.ManifestCondition{{
		ResourceMeta: workv1.ManifestResourceMeta{Group: "apps", Kind: "Deployment", Namespace: "default", Name: "web"},
		Conditions: []metav1.Condition{
			{Type: workv1.ManifestApplied, Status: metav1.ConditionTrue, Reason: "R"},
			{Type: workv1.ManifestHealthy, Status: metav1.ConditionFalse, Reason: workv1.HealthyReasonDegraded, Message: "ImagePullBackOff"},
		},
	}, {
		ResourceMeta: workv1.ManifestResourceMeta{Kind: "ConfigMap", Namespace: "default", Name: "conf"},
		Conditions: []metav1.Condition{
			{Type: workv1.ManifestApplied, Status: metav1.ConditionFalse, Reason: "R", Message: "forbidden"},
		},
	}}
	return w
}

// When failures stop a rollout short of waiting clusters, RolloutStopped
// names them with what their agents report, and one Warning Event is sent
// per change of the failed set, none on a sync that changes nothing.
func TestStoppedRolloutSaysWhyOncePerChange(t *testing.T) {
	h := newHarness(t, withFinalizer(replicaSet(progressive(intstr.FromInt32(2), none))), placement(plName, 3, 1),
		decision(plName, 0, "c1", "c2", "c3"), degradedWork("c1"), reported(work("c2", rsName, "1"), metav1.ConditionTrue, metav1.ConditionFalse, time.Minute))

	steps := []struct {
		name        string
		put         *workv1.ManifestWork
		wantFailed  string // the head of RolloutStopped; "" when absent
		wantEvents  int
		wantInMsg   []string
		wantWorksOn []string
	}{{
		name:       "c1 failed: stopped",
		wantFailed: "Rollout stopped on placement prod: more clusters failed than maxFailures allows: c1",
		wantEvents: 1,
		wantInMsg: []string{"c1: Degraded=True ManifestsDegraded: 1 of 2 manifests are degraded",
			"Deployment.apps default/web is Degraded (ImagePullBackOff)", "ConfigMap default/conf fails to apply (forbidden)"},
		wantWorksOn: []string{"c1", "c2"},
	}, {
		name:        "nothing changed: no Event",
		wantFailed:  "Rollout stopped on placement prod: more clusters failed than maxFailures allows: c1",
		wantWorksOn: []string{"c1", "c2"},
	}, {
		name:        "c2 fails too: a new Event",
		put:         degradedWork("c2"),
		wantFailed:  "Rollout stopped on placement prod: more clusters failed than maxFailures allows: c1, c2",
		wantEvents:  1,
		wantWorksOn: []string{"c1", "c2"},
	}, {
		name:        "c1 recovers, c2 still failed: a new Event",
		put:         succeeded(work("c1", rsName, "1")),
		wantFailed:  "Rollout stopped on placement prod: more clusters failed than maxFailures allows: c2",
		wantEvents:  1,
		wantWorksOn: []string{"c1", "c2"},
	}, {
		name:        "c2 recovers: the rollout goes on, the condition goes",
		put:         succeeded(work("c2", rsName, "1")),
		wantWorksOn: []string{"c1", "c2", "c3"},
	}}
	for _, step := range steps {
		if step.put != nil {
			h.put(step.put)
		}
		writes, _ := h.sync()
		rs := h.replicaSet()
		c := apimeta.FindStatusCondition(rs.Status.Conditions, ConditionRolloutStopped)
		events := ct.Recorded(h.events)
		assert.Len(t, events, step.wantEvents, step.name)
		assert.Equal(t, step.wantWorksOn, h.clusters(), step.name)
		if step.wantFailed == "" {
			assert.Nil(t, c, step.name)
			continue
		}
		require.NotNil(t, c, step.name)
		assert.Equal(t, "True/"+ReasonMaxFailuresReached, conditionReason(rs, ConditionRolloutStopped), step.name)
		assert.Equal(t, step.wantFailed, firstLine(c.Message), step.name)
		for _, s := range step.wantInMsg {
			assert.Contains(t, c.Message, s, step.name)
		}
		assert.Equal(t, "Stopped by failures: see the condition RolloutStopped",
			apimeta.FindStatusCondition(rs.Status.Conditions, workv1alpha1.ConditionPlacementRolledOut).Message, step.name)
		if step.wantEvents > 0 {
			assert.True(t, strings.HasPrefix(events[0], "Warning RolloutStopped "+step.wantFailed+". c"), events[0])
			for _, s := range step.wantInMsg {
				assert.Contains(t, events[0], s, step.name)
			}
		} else {
			assert.Empty(t, writes, step.name+": nothing written")
		}
	}
}

func TestStoppedReasons(t *testing.T) {
	progressing := reported(work("c1", rsName, "1"), metav1.ConditionTrue, metav1.ConditionFalse, 20*time.Minute)
	progressing.Status.Conditions[2].Message = "1 of 1 manifests are not rolled out yet: Deployment.apps default/web is Progressing"
	tests := []struct {
		name       string
		strategy   workv1alpha1.RolloutStrategy
		c1         *workv1.ManifestWork
		wantReason string // "" for no RolloutStopped
		wantInMsg  string
	}{{
		name: "past the progressDeadline", strategy: progressive(one, deadline("10m")), c1: progressing,
		wantReason: ReasonProgressDeadlineExceeded,
		wantInMsg:  "c1: past the progressDeadline, Progressing=True R: 1 of 1 manifests are not rolled out yet",
	}, {
		name: "within the progressDeadline", strategy: progressive(one, deadline("30m")), c1: progressing,
	}, {
		name: "within maxFailures", strategy: progressive(one, failures(one)), c1: degradedWork("c1"),
	}, {
		name: "All reaches every cluster: nothing stopped", strategy: all(none), c1: degradedWork("c1"),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, withFinalizer(replicaSet(tt.strategy)), placement(plName, 2, 1), decision(plName, 0, "c1", "c2"), tt.c1)
			h.sync()
			rs := h.replicaSet()
			c := apimeta.FindStatusCondition(rs.Status.Conditions, ConditionRolloutStopped)
			if tt.wantReason == "" {
				assert.Nil(t, c)
				assert.Empty(t, ct.Recorded(h.events))
				return
			}
			require.NotNil(t, c)
			assert.Equal(t, tt.wantReason, c.Reason)
			assert.Contains(t, c.Message, tt.wantInMsg)
			assert.Len(t, ct.Recorded(h.events), 1)
		})
	}
}

func TestShorten(t *testing.T) {
	assert.Equal(t, "abc", shorten("abc", 3))
	assert.Equal(t, "abc …", shorten("abcdefgh", 7), "at most n bytes, the mark included")
	assert.Equal(t, "a …", shorten("aéééé", 6), "cut on a rune boundary")
}

// A sync that reads the replica set from a cache a write behind (without
// the RolloutStopped it wrote) sends no second Event.
func TestStoppedEventNotRepeatedFromAStaleCache(t *testing.T) {
	stale := withFinalizer(replicaSet(progressiveOne))
	h := newHarness(t, stale.DeepCopy(), placement(plName, 2, 1), decision(plName, 0, "c1", "c2"), degradedWork("c1"))
	h.sync()
	require.Len(t, ct.Recorded(h.events), 1)

	require.NoError(t, h.informers.Work().V1alpha1().ManifestWorkReplicaSets().Informer().GetIndexer().Update(stale))
	require.NoError(t, h.c.sync(t.Context(), ct.NewSyncContext(rsKey)))
	assert.Empty(t, ct.Recorded(h.events))
}
