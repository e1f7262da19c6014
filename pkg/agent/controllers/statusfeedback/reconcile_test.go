package statusfeedback

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	fakedynamic "k8s.io/client-go/dynamic/fake"
	metadatafake "k8s.io/client-go/metadata/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/component-base/metrics/testutil"

	"github.com/manifestwork/work/pkg/agent/objectwatch"
	"github.com/manifestwork/work/pkg/agent/status/conditionrules"
	"github.com/manifestwork/work/pkg/agent/status/feedback"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	fakework "github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/test/fixture"
)

var deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

func liveDeployment(ready int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"namespace": "team", "name": "web"},
		"spec":     map[string]any{"replicas": int64(2)},
		"status": map[string]any{"replicas": int64(2), "readyReplicas": ready, "availableReplicas": ready,
			"phase": "Done"},
	}}
}

// appliedWork is a work whose Deployment the agent already applied.
func appliedWork(configs ...workv1.ManifestConfigOption) *workv1.ManifestWork {
	b := fixture.NewWork(fixture.Cluster, "w").WithGeneration(3).WithManifest(fixture.Deployment("team", "web", 2))
	for _, c := range configs {
		b.WithConfig(c)
	}
	w := b.Build()
	w.Status.ResourceStatus.Manifests = []workv1.ManifestCondition{{
		ResourceMeta: workv1.ManifestResourceMeta{Ordinal: 0, Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespace: "team", Name: "web"},
		Conditions:   []metav1.Condition{},
	}}
	return w
}

type env struct {
	c   *Controller
	hub *fakework.Clientset
	dyn *fakedynamic.FakeDynamicClient
	// woken are the works the watches of Watch feedback requeued.
	woken *ct.Calls
}

func newEnv(t *testing.T, work *workv1.ManifestWork, maxWatches int, objects ...runtime.Object) *env {
	t.Helper()
	hub := fakework.NewSimpleClientset(work)
	dyn := fakedynamic.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{deployments: "DeploymentList"}, objects...)
	woken := &ct.Calls{}
	watched := objectwatch.New(objectwatch.Deps{
		Client: metadatafake.NewSimpleMetadataClient(metadatafake.NewTestScheme()), Dynamic: dyn,
		MaxWholeWatches: maxWatches, OnWholeChange: woken.Add,
	})
	return &env{
		c: &Controller{
			Deps: Deps{ClusterName: fixture.Cluster, Writes: workwriter.Shared{Client: hub}, Dynamic: dyn, Objects: watched,
				Feedback: feedback.Options{MaxJSONRawLength: 1024}, Rules: conditionrules.NewEvaluator(0)},
			writer: workwriter.New(workwriter.Shared{Client: hub}, ControllerName, workwriter.Plain),
		},
		hub: hub, dyn: dyn, woken: woken,
	}
}

// runWatches runs the env's watches until the test ends.
func (e *env) runWatches(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.c.Objects.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

// watching signals each watch the fake dynamic client starts, once the
// watch is registered: a change made after it is seen by the informer.
func (e *env) watching() <-chan struct{} {
	started := make(chan struct{}, 10)
	e.dyn.PrependWatchReactor("*", func(action k8stesting.Action) (bool, watch.Interface, error) {
		w, err := e.dyn.Tracker().Watch(action.GetResource(), action.GetNamespace())
		started <- struct{}{}
		return true, w, err
	})
	return started
}

func (e *env) work(t *testing.T) *workv1.ManifestWork {
	w, err := e.hub.WorkV1().ManifestWorks(fixture.Cluster).Get(context.Background(), "w", metav1.GetOptions{})
	require.NoError(t, err)
	return w
}

func feedbackConfig(rules ...workv1.FeedbackRule) workv1.ManifestConfigOption {
	c := fixture.Config("apps", "deployments", "team", "web")
	c.FeedbackRules = rules
	return c
}

func TestReconcileReportsFeedbackOnceAndOnlyWhenChanged(t *testing.T) {
	work := appliedWork(feedbackConfig(
		workv1.FeedbackRule{Type: workv1.WellKnownStatusType},
		workv1.FeedbackRule{Type: workv1.JSONPathsType, JsonPaths: []workv1.JsonPath{{Name: "phase", Path: ".status.phase"}}},
	))
	e := newEnv(t, work, 10, liveDeployment(1))

	r, err := e.c.reconcile(context.Background(), fixture.Cluster+"/w", work)
	require.NoError(t, err)
	assert.True(t, r.polled)
	assert.Equal(t, []string{"patch manifestworks/status " + fixture.Cluster + "/w"}, ct.Writes(e.hub.Actions()))
	got := e.work(t)
	values := got.Status.ResourceStatus.Manifests[0].StatusFeedbacks.Values
	names := []string{}
	for _, v := range values {
		names = append(names, v.Name)
	}
	assert.Equal(t, []string{"ReadyReplicas", "Replicas", "AvailableReplicas", "phase"}, names, "rule order")
	assert.Equal(t, int64(1), *values[0].Value.Integer)
	assert.Equal(t, "Done", *values[3].Value.String)
	synced := apimeta.FindStatusCondition(got.Status.ResourceStatus.Manifests[0].Conditions, workv1.ManifestStatusFeedbackSynced)
	require.NotNil(t, synced)
	assert.Equal(t, metav1.ConditionTrue, synced.Status)
	assert.Equal(t, workv1.StatusFeedbackSyncedReasonSynced, synced.Reason)
	assert.Empty(t, synced.Message)
	assert.Equal(t, int64(3), synced.ObservedGeneration)

	// Nothing changed on the managed cluster: nothing is written to the hub.
	e.hub.ClearActions()
	_, err = e.c.reconcile(context.Background(), fixture.Cluster+"/w", got)
	require.NoError(t, err)
	assert.Empty(t, ct.Writes(e.hub.Actions()))
}

// A work being deleted keeps its feedback up to date until the agent
// releases it, as OCM's agent does; then it is left alone.
func TestReconcileWhileDeleting(t *testing.T) {
	rule := workv1.FeedbackRule{Type: workv1.JSONPathsType, JsonPaths: []workv1.JsonPath{{Name: "phase", Path: ".status.phase"}}}
	tests := map[string]struct {
		finalizers []string
		wantWrites int
	}{
		"held by the agent's finalizer": {finalizers: []string{workv1.ManifestWorkFinalizer}, wantWrites: 1},
		"released":                      {finalizers: []string{"example.com/someone-else"}, wantWrites: 0},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			work := appliedWork(feedbackConfig(rule))
			work.DeletionTimestamp = &metav1.Time{Time: time.Now()}
			work.Finalizers = tt.finalizers
			e := newEnv(t, work, 10, liveDeployment(1))

			_, err := e.c.reconcile(context.Background(), fixture.Cluster+"/w", work)
			require.NoError(t, err)
			assert.Len(t, ct.Writes(e.hub.Actions()), tt.wantWrites)
		})
	}
}

func TestReconcileReportsBadRules(t *testing.T) {
	unknownTarget := fixture.Config("apps", "deployments", "team", "missing")
	unknownTarget.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	work := appliedWork(
		feedbackConfig(workv1.FeedbackRule{Type: workv1.JSONPathsType, JsonPaths: []workv1.JsonPath{{Name: "bad", Path: ".status[?("}}}),
		unknownTarget,
	)
	e := newEnv(t, work, 10, liveDeployment(1))
	_, err := e.c.reconcile(context.Background(), fixture.Cluster+"/w", work)
	require.NoError(t, err)

	got := e.work(t)
	synced := apimeta.FindStatusCondition(got.Status.ResourceStatus.Manifests[0].Conditions, workv1.ManifestStatusFeedbackSynced)
	require.NotNil(t, synced)
	assert.Equal(t, workv1.StatusFeedbackSyncedReasonFailed, synced.Reason)
	assert.Contains(t, synced.Message, "bad")
	// As OCM's agent, nothing tells about the config that names no
	// manifest of the work.
	assert.Nil(t, apimeta.FindStatusCondition(got.Status.Conditions, retiredConfigsValid))
}

// The availability probe of OCM's addon framework asks for the well-known
// status of every Deployment of the work with one "*" config.
func TestWildcardConfigGivesFeedbackToEveryMatchingManifest(t *testing.T) {
	prober := fixture.Config("apps", "deployments", "*", "*")
	prober.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	work := appliedWork(prober)
	// Written by an earlier version, which did not match globs.
	work.Status.Conditions = []metav1.Condition{{Type: retiredConfigsValid, Status: metav1.ConditionFalse,
		Reason: "ManifestConfigWithoutManifest", LastTransitionTime: metav1.Now()}}
	e := newEnv(t, work, 10, liveDeployment(2))

	_, err := e.c.reconcile(context.Background(), fixture.Cluster+"/w", work)
	require.NoError(t, err)
	got := e.work(t)
	mc := got.Status.ResourceStatus.Manifests[0]
	assert.True(t, apimeta.IsStatusConditionTrue(mc.Conditions, workv1.ManifestStatusFeedbackSynced))
	require.Len(t, mc.StatusFeedbacks.Values, 3)
	assert.Equal(t, "ReadyReplicas", mc.StatusFeedbacks.Values[0].Name, "OCM's order of the well-known values")
	assert.Equal(t, int64(2), *mc.StatusFeedbacks.Values[0].Value.Integer)
	assert.Nil(t, apimeta.FindStatusCondition(got.Status.Conditions, retiredConfigsValid), "the retired condition is removed")
}

// A "*" config asking for a watch has every manifest it matches watched.
func TestWildcardConfigWatches(t *testing.T) {
	config := fixture.Config("apps", "deployments", "te*", "*")
	config.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	config.FeedbackScrapeType = workv1.FeedbackWatchType
	work := appliedWork(config)
	e := newEnv(t, work, 10, liveDeployment(2))
	metrics.Register()
	e.runWatches(t)

	ctx := context.Background()
	key := fixture.Cluster + "/w"
	_, err := e.c.reconcile(ctx, key, work)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		_, ok, _ := e.c.Objects.GetWhole(web)
		return ok
	}, 5*time.Second, 10*time.Millisecond, "the watch of the matched Deployment syncs")
	r, err := e.c.reconcile(ctx, key, e.work(t))
	require.NoError(t, err)
	assert.False(t, r.polled, "read from the watch")
	watches, err := testutil.GetGaugeMetricValue(metrics.FeedbackWatches)
	require.NoError(t, err)
	assert.Equal(t, 1.0, watches)
}

var web = objectwatch.ObjectKey{Resource: deployments, Namespace: "team", Name: "web"}

// A watched object's change requeues the work and is read from the watch,
// not the API.
func TestWatchedFeedbackFollowsChangesWithoutPolling(t *testing.T) {
	config := feedbackConfig(workv1.FeedbackRule{Type: workv1.WellKnownStatusType})
	config.FeedbackScrapeType = workv1.FeedbackWatchType
	work := appliedWork(config)
	live := liveDeployment(1)
	live.SetResourceVersion("1")
	e := newEnv(t, work, 10, live)
	watchStarted := e.watching()
	e.runWatches(t)
	ctx := context.Background()
	key := fixture.Cluster + "/w"

	r, err := e.c.reconcile(ctx, key, work)
	require.NoError(t, err)
	assert.True(t, r.polled, "read from the API while the watch starts")
	<-watchStarted
	require.Eventually(t, func() bool {
		_, ok, _ := e.c.Objects.GetWhole(web)
		return ok
	}, 5*time.Second, 10*time.Millisecond, "the watch of the Deployment syncs")
	require.Eventually(t, func() bool { return count(e.woken.List(), key) == 1 }, 5*time.Second, 10*time.Millisecond,
		"the informer's list wakes the work")
	r, err = e.c.reconcile(ctx, key, e.work(t))
	require.NoError(t, err)
	assert.False(t, r.polled, "read from the watch")

	e.dyn.ClearActions()
	changed := liveDeployment(2)
	changed.SetResourceVersion("2")
	_, err = e.dyn.Resource(deployments).Namespace("team").Update(ctx, changed, metav1.UpdateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		obj, ok, _ := e.c.Objects.GetWhole(web)
		return ok && obj.GetResourceVersion() == "2"
	}, 5*time.Second, 10*time.Millisecond, "the change reaches the watch")
	require.Eventually(t, func() bool { return count(e.woken.List(), key) == 2 }, 5*time.Second, 10*time.Millisecond,
		"the change wakes the work")
	r, err = e.c.reconcile(ctx, key, e.work(t))
	require.NoError(t, err)
	assert.False(t, r.polled)
	assert.Equal(t, []string{"update deployments"}, verbs(e.dyn.Actions()), "nothing read from the API")
	values := e.work(t).Status.ResourceStatus.Manifests[0].StatusFeedbacks.Values
	require.NotEmpty(t, values)
	assert.Equal(t, int64(2), *values[0].Value.Integer, "ReadyReplicas of the change")
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

func verbs(actions []k8stesting.Action) []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.GetVerb()+" "+a.GetResource().Resource)
	}
	return out
}

func TestReconcileFallsBackToPollingBeyondTheWatchLimit(t *testing.T) {
	config := feedbackConfig(workv1.FeedbackRule{Type: workv1.WellKnownStatusType})
	config.FeedbackScrapeType = workv1.FeedbackWatchType
	work := appliedWork(config)
	e := newEnv(t, work, 0, liveDeployment(2))
	r, err := e.c.reconcile(context.Background(), fixture.Cluster+"/w", work)
	require.NoError(t, err)
	assert.True(t, r.polled, "no watch could be had")
	synced := apimeta.FindStatusCondition(e.work(t).Status.ResourceStatus.Manifests[0].Conditions, workv1.ManifestStatusFeedbackSynced)
	require.NotNil(t, synced)
	assert.Equal(t, metav1.ConditionTrue, synced.Status)
	assert.Contains(t, synced.Message, "--max-feedback-watch=0")
}

// reconciledWithRule reconciles once a work whose Deployment has one CEL
// rule setting condition, and returns the work as the hub then holds it.
func reconciledWithRule(t *testing.T, condition, expression string) (*env, *workv1.ManifestWork) {
	t.Helper()
	config := fixture.Config("apps", "deployments", "team", "web")
	config.ConditionRules = []workv1.ConditionRule{{
		Type: workv1.CELConditionExpressionsType, Condition: condition, CelExpressions: []string{expression},
	}}
	work := appliedWork(config)
	e := newEnv(t, work, 10, liveDeployment(1))
	_, err := e.c.reconcile(context.Background(), fixture.Cluster+"/w", work)
	require.NoError(t, err)
	return e, e.work(t)
}

func TestConditionRulesCompleteAndStayComplete(t *testing.T) {
	e, got := reconciledWithRule(t, workv1.ManifestComplete, `object.status.phase == "Done"`)
	assert.True(t, apimeta.IsStatusConditionTrue(got.Status.ResourceStatus.Manifests[0].Conditions, workv1.ManifestComplete))
	complete := apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkComplete)
	require.NotNil(t, complete)
	assert.Equal(t, metav1.ConditionTrue, complete.Status)
	assert.Equal(t, workv1.ConditionRulesAggregated, complete.Reason)

	// The object goes away (as a finished Job may): Complete stays True and
	// the object is not even read.
	require.NoError(t, e.dyn.Resource(deployments).Namespace("team").Delete(context.Background(), "web", metav1.DeleteOptions{}))
	e.hub.ClearActions()
	e.dyn.ClearActions()
	r, err := e.c.reconcile(context.Background(), fixture.Cluster+"/w", got)
	require.NoError(t, err)
	assert.False(t, r.polled)
	assert.Empty(t, e.dyn.Actions())
	assert.Empty(t, ct.Writes(e.hub.Actions()))
}

// A rule that sets Healthy gives the manifest its Healthy condition; the
// work's Healthy is the availability controller's aggregate of every
// manifest, so this controller does not aggregate it.
func TestHealthyRuleIsNotAggregatedHere(t *testing.T) {
	_, got := reconciledWithRule(t, workv1.ManifestHealthy, `object.status.readyReplicas >= 1`)
	assert.True(t, apimeta.IsStatusConditionTrue(got.Status.ResourceStatus.Manifests[0].Conditions, workv1.ManifestHealthy))
	assert.Nil(t, apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkHealthy))
}

// Removing a rule removes the conditions it gave the manifest and the work
// (OCM v1.3.x); a rule the work keeps keeps its conditions while the object
// cannot be read.
func TestRemovedRuleLeavesNoConditions(t *testing.T) {
	e, got := reconciledWithRule(t, "Ready", `object.status.readyReplicas >= 1`)
	require.NotNil(t, apimeta.FindStatusCondition(got.Status.Conditions, "Ready"))

	require.NoError(t, e.dyn.Resource(deployments).Namespace("team").Delete(context.Background(), "web", metav1.DeleteOptions{}))
	_, err := e.c.reconcile(context.Background(), fixture.Cluster+"/w", got)
	require.NoError(t, err)
	kept := e.work(t)
	assert.True(t, apimeta.IsStatusConditionTrue(kept.Status.ResourceStatus.Manifests[0].Conditions, "Ready"))
	assert.True(t, apimeta.IsStatusConditionTrue(kept.Status.Conditions, "Ready"))

	kept.Spec.ManifestConfigs[0].ConditionRules = nil
	kept.Generation++
	_, err = e.c.reconcile(context.Background(), fixture.Cluster+"/w", kept)
	require.NoError(t, err)
	pruned := e.work(t)
	assert.Nil(t, apimeta.FindStatusCondition(pruned.Status.ResourceStatus.Manifests[0].Conditions, "Ready"))
	assert.Nil(t, apimeta.FindStatusCondition(pruned.Status.Conditions, "Ready"))
}

// The StatusFeedbackSynced condition and the values of a manifest with
// feedback rules, as OCM's agent sets them.
func TestReconcileFeedbackAsOCM(t *testing.T) {
	previous := workv1.StatusFeedbackResult{Values: []workv1.FeedbackValue{{Name: "old",
		Value: workv1.FieldValue{Type: workv1.Integer, Integer: ptr(int64(7))}}}}
	previousSynced := metav1.Condition{Type: workv1.ManifestStatusFeedbackSynced, Status: metav1.ConditionTrue,
		Reason: workv1.StatusFeedbackSyncedReasonSynced, ObservedGeneration: 3, LastTransitionTime: metav1.Now()}
	paths := func(p ...workv1.JsonPath) workv1.FeedbackRule {
		return workv1.FeedbackRule{Type: workv1.JSONPathsType, JsonPaths: p}
	}
	cases := []struct {
		name        string
		rules       []workv1.FeedbackRule
		objects     []runtime.Object
		wantNames   []string
		wantStatus  metav1.ConditionStatus
		wantReason  string
		wantMessage string
	}{
		{
			name:       "paths that match nothing are skipped: synced, without values",
			rules:      []workv1.FeedbackRule{paths(workv1.JsonPath{Name: "x", Path: ".status.x"})},
			objects:    []runtime.Object{liveDeployment(1)},
			wantNames:  []string{},
			wantStatus: metav1.ConditionTrue, wantReason: workv1.StatusFeedbackSyncedReasonSynced,
		},
		{
			name:       "one problem is the message alone, and the values found are kept",
			rules:      []workv1.FeedbackRule{paths(workv1.JsonPath{Name: "phase", Path: ".status.phase"}, workv1.JsonPath{Name: "bad", Path: ".status[?("})},
			objects:    []runtime.Object{liveDeployment(1)},
			wantNames:  []string{"phase"},
			wantStatus: metav1.ConditionFalse, wantReason: workv1.StatusFeedbackSyncedReasonFailed,
			wantMessage: "Sync status feedback failed with error failed to parse json path .status[?( of bad with error: " +
				"unterminated filter",
		},
		{
			name:       "several problems are listed in brackets",
			rules:      []workv1.FeedbackRule{paths(workv1.JsonPath{Name: "spec", Path: ".spec"}, workv1.JsonPath{Name: "meta", Path: ".metadata"}), {Type: workv1.WellKnownStatusType}},
			objects:    []runtime.Object{liveDeployment(1)},
			wantNames:  []string{"ReadyReplicas", "Replicas", "AvailableReplicas"},
			wantStatus: metav1.ConditionFalse, wantReason: workv1.StatusFeedbackSyncedReasonFailed,
			wantMessage: "Sync status feedback failed with error [the type map[string]interface {} of the value for spec is not found, " +
				"the type map[string]interface {} of the value for meta is not found]",
		},
		{
			name: "a path for another version reads that version, in rule order",
			rules: []workv1.FeedbackRule{paths(
				workv1.JsonPath{Name: "a", Path: ".status.readyReplicas"},
				workv1.JsonPath{Name: "b", Version: "v2", Path: ".status.phase"},
				workv1.JsonPath{Name: "c", Path: ".status.replicas"})},
			objects:    []runtime.Object{liveDeployment(1)},
			wantNames:  []string{"a", "b", "c"},
			wantStatus: metav1.ConditionTrue, wantReason: workv1.StatusFeedbackSyncedReasonSynced,
		},
		{
			name:       "a missing object keeps the values and the condition",
			rules:      []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}},
			wantNames:  []string{"old"},
			wantStatus: metav1.ConditionTrue, wantReason: workv1.StatusFeedbackSyncedReasonSynced,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			work := appliedWork(feedbackConfig(tc.rules...))
			work.Status.ResourceStatus.Manifests[0].StatusFeedbacks = previous
			work.Status.ResourceStatus.Manifests[0].Conditions = []metav1.Condition{previousSynced}
			e := newEnv(t, work, 10, tc.objects...)
			e.dyn.PrependReactor("get", "deployments", func(action k8stesting.Action) (bool, runtime.Object, error) {
				if action.GetResource().Version != "v2" {
					return false, nil, nil
				}
				obj := liveDeployment(1)
				obj.SetAPIVersion("apps/v2")
				return true, obj, nil
			})
			_, err := e.c.reconcile(context.Background(), fixture.Cluster+"/w", work)
			require.NoError(t, err)
			mc := e.work(t).Status.ResourceStatus.Manifests[0]
			names := []string{}
			for _, v := range mc.StatusFeedbacks.Values {
				names = append(names, v.Name)
			}
			assert.Equal(t, tc.wantNames, names)
			synced := apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestStatusFeedbackSynced)
			require.NotNil(t, synced)
			assert.Equal(t, tc.wantStatus, synced.Status)
			assert.Equal(t, tc.wantReason, synced.Reason)
			assert.Equal(t, tc.wantMessage, synced.Message)
		})
	}
}

func ptr[T any](v T) *T { return &v }

// A work the agent has let go of (deleted, its finalizer off) releases
// what it watched for its rules: the watch no longer counts against
// --max-feedback-watch.
func TestReleasedWorkReleasesItsWatch(t *testing.T) {
	config := feedbackConfig(workv1.FeedbackRule{Type: workv1.WellKnownStatusType})
	config.FeedbackScrapeType = workv1.FeedbackWatchType
	work := appliedWork(config)
	e := newEnv(t, work, 1, liveDeployment(1))
	e.runWatches(t)
	ctx := context.Background()
	key := fixture.Cluster + "/w"
	watched := func() bool {
		_, _, watched := e.c.Objects.GetWhole(web)
		return watched
	}

	_, err := e.c.reconcile(ctx, key, work)
	require.NoError(t, err)
	require.Eventually(t, watched, 5*time.Second, 10*time.Millisecond, "the Deployment is watched for the work")

	released := e.work(t)
	released.DeletionTimestamp = &metav1.Time{Time: time.Now()}
	released.Finalizers = nil
	_, err = e.c.reconcile(ctx, key, released)
	require.NoError(t, err)
	assert.False(t, watched(), "released")
}
