package manifestwork

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// The conditions the apply writes carry OCM's statuses, reasons and
// messages, which clients match on.
func TestApplyConditionsAsOCM(t *testing.T) {
	type cond struct {
		status          metav1.ConditionStatus
		reason, message string
	}
	none := cond{}
	withFeedback := fixture.Config("", "configmaps", "team", "a")
	withFeedback.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	tests := []struct {
		name        string
		work        *workv1.ManifestWork
		applied     cond // of the manifest
		avail       cond // of the manifest, as the apply sets it
		synced      cond // StatusFeedbackSynced of the manifest, as the apply sets it
		workApplied cond // Applied of the work
	}{
		{
			name:        "applied, without feedback rules",
			work:        fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithManifest(fixture.ConfigMap("team", "a", nil)).Build(),
			applied:     cond{metav1.ConditionTrue, "AppliedManifestComplete", "Apply manifest complete"},
			avail:       cond{metav1.ConditionTrue, "ResourceAvailable", "Resource is available"},
			synced:      cond{metav1.ConditionTrue, "NoStatusFeedbackSynced", ""},
			workApplied: cond{metav1.ConditionTrue, "AppliedManifestWorkComplete", "Apply manifest work complete"},
		},
		{
			name: "applied, with feedback rules: the feedback controller's",
			work: fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithManifest(fixture.ConfigMap("team", "a", nil)).
				WithConfig(withFeedback).Build(),
			applied:     cond{metav1.ConditionTrue, "AppliedManifestComplete", "Apply manifest complete"},
			avail:       cond{metav1.ConditionTrue, "ResourceAvailable", "Resource is available"},
			synced:      none,
			workApplied: cond{metav1.ConditionTrue, "AppliedManifestWorkComplete", "Apply manifest work complete"},
		},
		{
			name:        "a manifest that cannot be decoded",
			work:        fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithRawManifest(`[1]`).Build(),
			applied:     cond{metav1.ConditionFalse, "AppliedManifestFailed", "Failed to apply manifest: manifest is not a JSON object: "},
			avail:       none,
			synced:      none,
			workApplied: cond{metav1.ConditionFalse, "AppliedManifestWorkFailed", "Failed to apply manifest work"},
		},
		{
			name: "ReadOnly of a missing object is applied; the availability says it is missing",
			work: fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithManifest(fixture.ConfigMap("team", "a", nil)).
				WithConfig(fixture.WithStrategy(fixture.Config("", "configmaps", "team", "a"), workv1.UpdateStrategyTypeReadOnly)).Build(),
			applied:     cond{metav1.ConditionTrue, "AppliedManifestComplete", "Apply manifest complete"},
			avail:       none,
			synced:      none,
			workApplied: cond{metav1.ConditionTrue, "AppliedManifestWorkComplete", "Apply manifest work complete"},
		},
	}
	find := func(conds []metav1.Condition, typ string) cond {
		c := apimeta.FindStatusCondition(conds, typ)
		if c == nil {
			return none
		}
		return cond{c.Status, c.Reason, c.Message}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.work)
			_ = e.c.reconcile(context.Background(), tt.work)
			got := e.work(t).Status
			require.Len(t, got.ResourceStatus.Manifests, 1)
			m := got.ResourceStatus.Manifests[0].Conditions
			applied := find(m, workv1.ManifestApplied)
			if tt.applied.status == metav1.ConditionFalse {
				assert.Contains(t, applied.message, tt.applied.message)
				applied.message = tt.applied.message
			}
			assert.Equal(t, tt.applied, applied, "manifest Applied")
			assert.Equal(t, tt.avail, find(m, workv1.ManifestAvailable), "manifest Available")
			assert.Equal(t, tt.synced, find(m, workv1.ManifestStatusFeedbackSynced), "manifest StatusFeedbackSynced")
			assert.Equal(t, tt.workApplied, find(got.Conditions, workv1.WorkApplied), "work Applied")
		})
	}
}

// A work whose condition rules set Progressing has it aggregated from them
// (by the status feedback controller); the apply does not overwrite it.
func TestApplyLeavesARuleProgressingAlone(t *testing.T) {
	config := fixture.Config("", "configmaps", "team", "a")
	config.ConditionRules = []workv1.ConditionRule{{Type: workv1.CELConditionExpressionsType,
		Condition: workv1.WorkProgressing, CelExpressions: []string{"true"}}}
	fromRules := metav1.Condition{Type: workv1.WorkProgressing, Status: metav1.ConditionTrue,
		Reason: workv1.ConditionRulesAggregated, ObservedGeneration: 1, LastTransitionTime: metav1.Now()}
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithManifest(fixture.ConfigMap("team", "a", nil)).
		WithConfig(config).WithCondition(fromRules).Build()
	e := newEnv(t, work)
	require.NoError(t, e.c.reconcile(context.Background(), work))
	got := apimeta.FindStatusCondition(e.work(t).Status.Conditions, workv1.WorkProgressing)
	require.NotNil(t, got)
	assert.Equal(t, workv1.ConditionRulesAggregated, got.Reason)
	assert.Equal(t, metav1.ConditionTrue, got.Status)
}

// A namespaced manifest without a namespace fails, but its status names the
// resource, as OCM's does: its availability is then looked up (and found
// missing) rather than unknown.
func TestAFailedManifestNamesItsResource(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).
		WithRawManifest(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}`).Build()
	e := newEnv(t, work)
	require.Error(t, e.c.reconcile(context.Background(), work))
	got := e.work(t).Status.ResourceStatus.Manifests
	require.Len(t, got, 1)
	assert.Equal(t, workv1.ManifestResourceMeta{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Name: "a"}, got[0].ResourceMeta)
	assert.False(t, apimeta.IsStatusConditionTrue(got[0].Conditions, workv1.ManifestApplied))
}

// A ReadOnly manifest whose object is gone is Applied, as in OCM; its InSync
// turns False, saying that the object does not exist (it was True while the
// object was there).
func TestReadOnlyOfAMissingObjectIsNotInSync(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithManifest(fixture.ConfigMap("team", "a", nil)).
		WithConfig(fixture.WithStrategy(fixture.Config("", "configmaps", "team", "a"), workv1.UpdateStrategyTypeReadOnly)).Build()
	live := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"namespace": "team", "name": "a"}}}
	e := newEnv(t, work, live)
	e.c.Objects = trackerCache{dynamic: e.dynamic}
	require.NoError(t, e.c.reconcile(context.Background(), work))
	_, inSync := e.inSync(t)
	require.NotNil(t, inSync)
	assert.Equal(t, metav1.ConditionTrue, inSync.Status)

	require.NoError(t, e.dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).
		Namespace("team").Delete(context.Background(), "a", metav1.DeleteOptions{}))
	require.NoError(t, e.c.reconcile(context.Background(), e.work(t)))
	workInSync, inSync := e.inSync(t)
	assert.Equal(t, metav1.ConditionFalse, inSync.Status)
	assert.Equal(t, InSyncReasonDrifted, inSync.Reason)
	assert.Contains(t, inSync.Message, "does not exist")
	assert.Equal(t, metav1.ConditionFalse, workInSync.Status)
	assert.True(t, apimeta.IsStatusConditionTrue(e.work(t).Status.ResourceStatus.Manifests[0].Conditions, workv1.ManifestApplied))
}

// A ReadOnly manifest never fails to apply, as in OCM: an object the agent
// may not read is Applied (the availability controller reports it
// Available=Unknown, FetchingResourceFailed), not compared (InSync Unknown,
// with the server's message), and the work stays Applied. A forbidden read
// is tried again when RBAC changes, not with the work's backoff; a failing
// server is.
func TestReadOnlyOfAnUnreadableObjectIsApplied(t *testing.T) {
	forbidden := apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "a",
		errors.New(`User "agent" cannot get resource "configmaps" in API group "" in the namespace "team"`))
	for _, tt := range []struct {
		name    string
		readErr error
		retried bool
	}{
		{"the agent may not read it", forbidden, false},
		{"the server fails", apierrors.NewInternalError(errors.New("etcd is down")), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithManifest(fixture.ConfigMap("team", "a", nil)).
				WithConfig(fixture.WithStrategy(fixture.Config("", "configmaps", "team", "a"), workv1.UpdateStrategyTypeReadOnly)).Build()
			e := newEnv(t, work)
			e.dynamic.PrependReactor("get", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
				return true, nil, tt.readErr
			})

			err := e.c.reconcile(context.Background(), work)
			if tt.retried {
				require.Error(t, err)
				assert.ErrorIs(t, err, tt.readErr)
			} else {
				require.NoError(t, err)
			}
			got := e.work(t).Status
			m := got.ResourceStatus.Manifests[0].Conditions
			assert.True(t, apimeta.IsStatusConditionTrue(m, workv1.ManifestApplied), "manifest Applied: %v", m)
			assert.True(t, apimeta.IsStatusConditionTrue(got.Conditions, workv1.WorkApplied), "work Applied")
			assert.Nil(t, apimeta.FindStatusCondition(m, workv1.ManifestAvailable), "left to the availability controller")
			_, inSync := e.inSync(t)
			require.NotNil(t, inSync)
			assert.Equal(t, metav1.ConditionUnknown, inSync.Status)
			assert.Equal(t, InSyncReasonNotCompared, inSync.Reason)
			assert.Contains(t, inSync.Message, "could not be read")
			assert.Contains(t, inSync.Message, tt.readErr.Error())
			degraded := apimeta.FindStatusCondition(got.Conditions, workv1.WorkDegraded)
			require.NotNil(t, degraded)
			assert.Equal(t, metav1.ConditionFalse, degraded.Status)
		})
	}
}

// TestUserRuleReplacesOwnProgressing: a condition rule of type Progressing,
// on any manifest, replaces the work-level Progressing the agent writes; the
// rule's aggregate is kept, the agent's own is dropped.
func TestUserRuleReplacesOwnProgressing(t *testing.T) {
	cm := fixture.Config("", "configmaps", "team", "cm")
	other := fixture.Config("", "configmaps", "team", "not-in-the-work")
	ruled := metav1.Condition{Type: workv1.WorkProgressing, Status: metav1.ConditionTrue,
		Reason: workv1.ConditionRulesAggregated, Message: "from the rule"}
	own := metav1.Condition{Type: workv1.WorkProgressing, Status: metav1.ConditionTrue,
		Reason: workv1.WorkProgressingReasonApplying, Message: "from the agent"}

	cases := []struct {
		name    string
		configs []workv1.ManifestConfigOption
		before  []metav1.Condition
		failed  bool
		want    *metav1.Condition // nil: no Progressing
	}{
		{"no rule: the agent's", nil, nil, false,
			&metav1.Condition{Status: metav1.ConditionFalse, Reason: workv1.WorkProgressingReasonCompleted}},
		{"no rule: the agent's replaces an old aggregate", nil, []metav1.Condition{ruled}, true,
			&metav1.Condition{Status: metav1.ConditionTrue, Reason: workv1.WorkProgressingReasonApplying}},
		{"rule of another type: the agent's",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(cm, fixture.CELRule(workv1.WorkDegraded, "false"))}, nil, false,
			&metav1.Condition{Status: metav1.ConditionFalse, Reason: workv1.WorkProgressingReasonCompleted}},
		{"rule: nothing before, nothing written",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(cm, fixture.CELRule(workv1.WorkProgressing, "false"))}, nil, false,
			nil},
		{"rule: the rule's aggregate is kept",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(cm, fixture.CELRule(workv1.WorkProgressing, "false"))},
			[]metav1.Condition{ruled}, true,
			&metav1.Condition{Status: metav1.ConditionTrue, Reason: workv1.ConditionRulesAggregated}},
		{"rule: the agent's from before goes",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(cm, fixture.CELRule(workv1.WorkProgressing, "false"))},
			[]metav1.Condition{own}, true,
			nil},
		{"rule on a config naming no manifest of the work",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(other, fixture.CELRule(workv1.WorkProgressing, "false"))}, nil, false,
			nil},
		{"well-known rule of the type",
			[]workv1.ManifestConfigOption{fixture.WithConditionRules(cm,
				workv1.ConditionRule{Type: workv1.WellKnownConditionsType, Condition: workv1.WorkProgressing})}, nil, false,
			nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := fixture.NewWork(fixture.Cluster, "w").WithGeneration(2).WithManifest(fixture.ConfigMap("team", "cm", nil))
			for _, c := range tc.configs {
				b = b.WithConfig(c)
			}
			if len(tc.before) > 0 {
				b = b.WithCondition(tc.before...)
			}
			result := manifestResult{
				meta:   workv1.ManifestResourceMeta{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "team", Name: "cm"},
				exists: !tc.failed,
			}
			if tc.failed {
				result.err = errors.New("refused")
			}
			status := buildStatus(b.Build(), []manifestResult{result}, time.Now())

			got := apimeta.FindStatusCondition(status.Conditions, workv1.WorkProgressing)
			if tc.want == nil {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tc.want.Status, got.Status)
			assert.Equal(t, tc.want.Reason, got.Reason)
		})
	}
}

// TestCarryOverMatchesAsOCM: a manifest keeps the status of the entry with
// its resourceMeta, else of the one entry naming the same object at another
// ordinal; an object listed twice, or a manifest that did not decode, only
// keeps its exact entry.
func TestCarryOverMatchesAsOCM(t *testing.T) {
	cms := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	entry := func(ordinal int32, name, marker string) workv1.ManifestCondition {
		mc := fixture.ManifestStatus(cms, "team", name, metav1.Condition{Type: "Marker", Reason: marker})
		mc.ResourceMeta.Ordinal = ordinal
		return mc
	}
	undecoded := func(ordinal int32, marker string) workv1.ManifestCondition {
		return workv1.ManifestCondition{ResourceMeta: workv1.ManifestResourceMeta{Ordinal: ordinal},
			Conditions: []metav1.Condition{{Type: "Marker", Reason: marker}}}
	}
	tests := []struct {
		name     string
		previous []workv1.ManifestCondition
		meta     workv1.ManifestResourceMeta
		want     string // the marker carried over; "" for none
	}{
		{"exact", []workv1.ManifestCondition{entry(0, "a", "a0"), entry(1, "b", "b1")}, entry(1, "b", "").ResourceMeta, "b1"},
		{"moved", []workv1.ManifestCondition{entry(0, "a", "a0"), entry(1, "b", "b1")}, entry(0, "b", "").ResourceMeta, "b1"},
		{"new object", []workv1.ManifestCondition{entry(0, "a", "a0")}, entry(1, "c", "").ResourceMeta, ""},
		{"listed twice: the exact entry", []workv1.ManifestCondition{entry(0, "a", "a0"), entry(1, "a", "a1")}, entry(1, "a", "").ResourceMeta, "a1"},
		{"listed twice, moved: none", []workv1.ManifestCondition{entry(0, "a", "a0"), entry(1, "a", "a1")}, entry(2, "a", "").ResourceMeta, ""},
		{"undecoded: the exact entry", []workv1.ManifestCondition{undecoded(0, "u0"), undecoded(1, "u1")}, undecoded(1, "").ResourceMeta, "u1"},
		{"undecoded, moved: none", []workv1.ManifestCondition{undecoded(0, "u0")}, undecoded(1, "").ResourceMeta, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := carryOver(tt.previous, tt.meta)
			marker := ""
			if c := apimeta.FindStatusCondition(got.Conditions, "Marker"); c != nil {
				marker = c.Reason
			}
			assert.Equal(t, tt.want, marker)
			assert.NotNil(t, got.Conditions)
		})
	}
}

// TestEmptyWorkHasNoApplied: as OCM's agent, a work without manifests gets
// no Applied condition; one left from manifests it had stays as it was.
func TestEmptyWorkHasNoApplied(t *testing.T) {
	stale := metav1.Condition{Type: workv1.WorkApplied, Status: metav1.ConditionTrue,
		Reason: workv1.WorkAppliedReasonComplete, Message: workv1.WorkAppliedMessageComplete, ObservedGeneration: 1}
	tests := []struct {
		name   string
		before []metav1.Condition
		want   *metav1.Condition
	}{
		{name: "never had manifests"},
		{name: "had manifests", before: []metav1.Condition{stale}, want: &stale},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := fixture.NewWork(fixture.Cluster, "w").WithGeneration(2)
			if len(tt.before) > 0 {
				b = b.WithCondition(tt.before...)
			}
			status := buildStatus(b.Build(), nil, time.Now())
			got := apimeta.FindStatusCondition(status.Conditions, workv1.WorkApplied)
			if tt.want == nil {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tt.want.ObservedGeneration, got.ObservedGeneration, "left as it was")
		})
	}
}
