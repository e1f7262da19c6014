package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// watchTimeout bounds a Watch-mode update; the agents of these tests poll
// only every 5 minutes, so only a watch can be this quick.
const watchTimeout = 10 * time.Second

// feedbackValue is the value of a named feedback of the manifest at ordinal.
func feedbackValue(w *workv1.ManifestWork, ordinal int, name string) *workv1.FieldValue {
	for _, m := range w.Status.ResourceStatus.Manifests {
		if int(m.ResourceMeta.Ordinal) != ordinal {
			continue
		}
		for _, v := range m.StatusFeedbacks.Values {
			if v.Name == name {
				return &v.Value
			}
		}
	}
	return nil
}

// waitFeedbackInteger waits until a feedback value is the integer want.
func waitFeedbackInteger(t *testing.T, timeout time.Duration, cluster, work string, ordinal int, name string, want int64) {
	t.Helper()
	waitWork(t, timeout, cluster, work, func(w *workv1.ManifestWork) error {
		if v := feedbackValue(w, ordinal, name); v == nil || v.Integer == nil || *v.Integer != want {
			return fmt.Errorf("%s is %+v", name, v)
		}
		return nil
	}, "feedback %s=%d of %s/%s", name, want, cluster, work)
}

// A Deployment's well-known status reaches the hub by polling; a Watch-mode
// value follows a scale on the managed cluster at once; switching back to
// Poll stops the watch.
func TestStatusFeedback(t *testing.T) {
	e := setup(t)
	agent := startAgent(t, "cluster2", "--status-sync-interval=5m")
	ns := "e2e-feedback"
	// ServerSideApply: Update holds a Deployment's whole spec, as OCM's
	// agent does, and would put the default replicas back.
	config := fixture.WithStrategy(fixture.Config("apps", "deployments", ns, "web"), workv1.UpdateStrategyTypeServerSideApply)
	config.FeedbackRules = []workv1.FeedbackRule{
		{Type: workv1.WellKnownStatusType},
		{Type: workv1.JSONPathsType, JsonPaths: []workv1.JsonPath{
			{Name: "replicas", Path: ".spec.replicas"},
			{Name: "available", Path: `.status.conditions[?(@.type=="Available")].status`},
		}},
	}
	config.FeedbackScrapeType = workv1.FeedbackWatchType
	// Without replicas in a ServerSideApply manifest, a scale on the managed
	// cluster is not drift: the agent leaves it, and the feedback follows it.
	deployment := fixture.Deployment(ns, "web", 1)
	deployment.Spec.Replicas = nil
	createWork(t, fixture.NewWork("cluster2", "feedback").
		WithManifest(fixture.Namespace(ns), deployment).WithConfig(config).Build())

	waitFeedbackInteger(t, convergeTimeout, "cluster2", "feedback", 1, "ReadyReplicas", 1)
	w := waitWorkCondition(t, "cluster2", "feedback", workv1.WorkApplied, metav1.ConditionTrue)
	assert.Equal(t, "True", *feedbackValue(w, 1, "available").String)
	synced := manifestCondition(w, 1, workv1.ManifestStatusFeedbackSynced)
	require.NotNil(t, synced)
	assert.Equal(t, metav1.ConditionTrue, synced.Status, synced.Message)

	// Scale on the managed cluster: the watch reports it within seconds.
	scaled := time.Now()
	_, err := e.Kubectl("cluster2", "-n", ns, "scale", "deployment", "web", "--replicas=3")
	require.NoError(t, err)
	waitFeedbackInteger(t, watchTimeout, "cluster2", "feedback", 1, "replicas", 3)
	t.Logf("Watch: a scale on the managed cluster reached the hub in %s", time.Since(scaled).Round(time.Millisecond))
	assert.Contains(t, agent.Tail(200), "Started a feedback watch")

	updateWork(t, "cluster2", "feedback", func(w *workv1.ManifestWork) {
		w.Spec.ManifestConfigs[0].FeedbackScrapeType = workv1.FeedbackPollType
	})
	framework.Eventually(t, convergeTimeout, func() error {
		if !strings.Contains(agent.Tail(200), "Stopped a feedback watch") {
			return fmt.Errorf("the watch is still running")
		}
		return nil
	}, "switching to Poll stops the watch")
}

// A Job with a well-known completion rule completes, and its work is deleted
// by the hub after ttlSecondsAfterFinished.
func TestJobCompletesAndTTLDeletesTheWork(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	hub, err := e.StartHub("--disable-leader-election")
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = hub.Stop(convergeTimeout) })
	completedWorkIsDeletedAfterTTL(t, "e2e-job", "job")
}

// completedWorkIsDeletedAfterTTL creates a work of a Job with a well-known
// completion rule and a TTL of 2s for cluster1, and waits until it completes
// and is deleted by a running hub controller.
func completedWorkIsDeletedAfterTTL(t *testing.T, ns, name string) {
	t.Helper()
	config := fixture.Config("batch", "jobs", ns, "once")
	config.ConditionRules = []workv1.ConditionRule{{Type: workv1.WellKnownConditionsType, Condition: workv1.WorkComplete}}
	ttl := int64(2)
	createWork(t, fixture.NewWork("cluster1", name).
		WithManifest(fixture.Namespace(ns), fixture.Job(ns, "once")).WithConfig(config).
		WithDeleteOption(workv1.DeleteOption{TTLSecondsAfterFinished: &ttl}).Build())

	w := waitWorkCondition(t, "cluster1", name, workv1.WorkComplete, metav1.ConditionTrue)
	c := apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkComplete)
	assert.Equal(t, workv1.ConditionRulesAggregated, c.Reason)
	assert.Equal(t, metav1.ConditionTrue, manifestCondition(w, 1, workv1.ManifestComplete).Status)
	waitGone(t, "the work after its TTL", func(ctx context.Context) error {
		_, err := getWork(ctx, "cluster1", name)
		return err
	})
}

// A CEL condition rule on a custom resource follows its status.
func TestCELConditionRuleOnCustomResource(t *testing.T) {
	e := setup(t)
	ctx := t.Context()
	startAgent(t, "cluster2", "--status-sync-interval=1s")
	c2 := e.Cluster("cluster2")
	ensureWidgetCRD(t, "cluster2")
	grantAgentWidgets(t, "cluster2")
	ns := "e2e-cel"
	config := fixture.Config("example.com", "widgets", ns, "w")
	config.ConditionRules = []workv1.ConditionRule{{
		Type: workv1.CELConditionExpressionsType, Condition: workv1.WorkComplete,
		CelExpressions:    []string{`has(object.status) && object.status.phase == "Done"`},
		MessageExpression: `result ? "Widget is done" : "Widget is not done"`,
	}}
	createWork(t, fixture.NewWork("cluster2", "cel").
		WithManifest(fixture.Namespace(ns), fixture.Widget(ns, "w", map[string]any{"size": int64(1)})).WithConfig(config).Build())

	waitWorkCondition(t, "cluster2", "cel", workv1.WorkApplied, metav1.ConditionTrue)
	waitWork(t, convergeTimeout, "cluster2", "cel", func(w *workv1.ManifestWork) error {
		c := manifestCondition(w, 1, workv1.ManifestComplete)
		if c == nil || c.Status != metav1.ConditionFalse || c.Message != "Widget is not done" {
			return fmt.Errorf("Complete is %+v", c)
		}
		return nil
	}, "the rule is evaluated")

	widgetsNS := c2.Dynamic.Resource(widgets).Namespace(ns)
	widget, err := widgetsNS.Get(ctx, "w", metav1.GetOptions{})
	require.NoError(t, err)
	require.NoError(t, unstructured.SetNestedField(widget.Object, "Done", "status", "phase"))
	_, err = widgetsNS.UpdateStatus(ctx, widget, metav1.UpdateOptions{})
	require.NoError(t, err)
	w := waitWorkCondition(t, "cluster2", "cel", workv1.WorkComplete, metav1.ConditionTrue)
	assert.Equal(t, "Widget is done", manifestCondition(w, 1, workv1.ManifestComplete).Message)
}
