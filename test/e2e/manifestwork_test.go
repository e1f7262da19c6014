package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

var (
	configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	widgets    = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
)

// The tutorial's flow: a work with a ServiceAccount and a Deployment is
// applied and reported; an edit of the work reaches the managed cluster.
func TestTutorialCreateAndUpdate(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	ctx := t.Context()
	kube := e.Cluster("cluster1").Kube
	ns := "e2e-tutorial"
	createWork(t, fixture.NewWork("cluster1", "tutorial").
		WithManifest(fixture.ServiceAccount(ns, "my-sa"), fixture.Deployment(ns, "nginx", 3), fixture.Namespace(ns)).
		Build())

	w := waitWorkCondition(t, "cluster1", "tutorial", workv1.WorkApplied, metav1.ConditionTrue)
	require.Len(t, w.Status.ResourceStatus.Manifests, 3)
	assert.Equal(t, workv1.ManifestResourceMeta{Ordinal: 1, Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Name: "nginx", Namespace: ns},
		w.Status.ResourceStatus.Manifests[1].ResourceMeta)
	assert.Contains(t, w.Finalizers, workv1.ManifestWorkFinalizer)

	// The AppliedManifestWork is named after the hub and the work, and owns
	// what was applied.
	appliedName := appliedwork.Name(appliedwork.HubHash(e.Hub.Config.Host), "tutorial")
	applied, err := e.Cluster("cluster1").Work.WorkV1().AppliedManifestWorks().Get(ctx, appliedName, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "tutorial", applied.Spec.ManifestWorkName)
	assert.Contains(t, applied.Finalizers, workv1.AppliedManifestWorkFinalizer)
	d, err := kube.AppsV1().Deployments(ns).Get(ctx, "nginx", metav1.GetOptions{})
	require.NoError(t, err)
	require.Len(t, d.OwnerReferences, 1)
	assert.Equal(t, applied.UID, d.OwnerReferences[0].UID)

	updateWork(t, "cluster1", "tutorial", func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests[1] = manifestOf(t, fixture.Deployment(ns, "nginx", 1))
	})
	framework.Eventually(t, convergeTimeout, func() error {
		d, err := kube.AppsV1().Deployments(ns).Get(ctx, "nginx", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if *d.Spec.Replicas != 1 {
			return fmt.Errorf("replicas %d", *d.Spec.Replicas)
		}
		return nil
	}, "the managed cluster follows the edit")
	waitWorkCondition(t, "cluster1", "tutorial", workv1.WorkApplied, metav1.ConditionTrue)
}

// Objects edited or deleted on the managed cluster by someone else are put
// back, by watching them rather than polling.
func TestDriftIsRepaired(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	ctx := t.Context()
	cms := e.Cluster("cluster1").Kube.CoreV1().ConfigMaps("e2e-drift")
	createWork(t, fixture.NewWork("cluster1", "drift").WithManifest(
		fixture.Namespace("e2e-drift"),
		fixture.ConfigMap("e2e-drift", "edited", map[string]string{"key": "desired"}),
		fixture.ConfigMap("e2e-drift", "deleted", map[string]string{"key": "desired"}),
	).Build())
	waitWorkCondition(t, "cluster1", "drift", workv1.WorkApplied, metav1.ConditionTrue)

	cm, err := cms.Get(ctx, "edited", metav1.GetOptions{})
	require.NoError(t, err)
	cm.Data["key"] = "drifted"
	cm.Labels = map[string]string{"added-by": "someone-else"}
	_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	require.NoError(t, err)
	require.NoError(t, cms.Delete(ctx, "deleted", metav1.DeleteOptions{}))

	for _, name := range []string{"edited", "deleted"} {
		waitConfigMapData(t, "cluster1", "e2e-drift", name, "key", "desired")
	}
	cm, err = cms.Get(ctx, "edited", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "someone-else", cm.Labels["added-by"], "labels of other actors are not fought")
}

// CreateOnly leaves edits alone, ReadOnly never writes, ServerSideApply owns
// only the fields of its manifest.
func TestUpdateStrategies(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	ctx := t.Context()
	ns := "e2e-strategies"
	cms := e.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns)
	require.NoError(t, e.Cluster("cluster1").EnsureNamespaces(ctx, ns))
	_, err := cms.Create(ctx, fixture.ConfigMap(ns, "read-only", map[string]string{"key": "by-hand"}), metav1.CreateOptions{})
	require.NoError(t, err)

	createWork(t, fixture.NewWork("cluster1", "strategies").
		WithManifest(
			fixture.ConfigMap(ns, "create-only", map[string]string{"key": "desired"}),
			fixture.ConfigMap(ns, "read-only", map[string]string{"key": "desired"}),
			fixture.ConfigMap(ns, "ssa", map[string]string{"key": "desired"}),
		).
		WithConfig(fixture.WithStrategy(fixture.Config("", "configmaps", ns, "create-only"), workv1.UpdateStrategyTypeCreateOnly)).
		WithConfig(fixture.WithStrategy(fixture.Config("", "configmaps", ns, "read-only"), workv1.UpdateStrategyTypeReadOnly)).
		WithConfig(fixture.WithStrategy(fixture.Config("", "configmaps", ns, "ssa"), workv1.UpdateStrategyTypeServerSideApply)).
		Build())
	waitWorkCondition(t, "cluster1", "strategies", workv1.WorkApplied, metav1.ConditionTrue)

	readOnly, err := cms.Get(ctx, "read-only", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "by-hand", readOnly.Data["key"], "ReadOnly never writes")
	assert.Empty(t, readOnly.OwnerReferences, "ReadOnly never writes")

	ssa, err := cms.Get(ctx, "ssa", metav1.GetOptions{})
	require.NoError(t, err)
	assert.True(t, hasManager(ssa.ManagedFields, "work-agent"), "applied with field manager work-agent: %v", ssa.ManagedFields)

	// Someone else edits both. CreateOnly leaves its object alone. The
	// ServerSideApply manifest now conflicts with that other field manager,
	// which the work reports; with force it takes the field back.
	for _, name := range []string{"create-only", "ssa"} {
		cm, err := cms.Get(ctx, name, metav1.GetOptions{})
		require.NoError(t, err)
		cm.Data["key"] = "edited"
		_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
		require.NoError(t, err)
	}
	w := waitManifestsApplied(t, "cluster1", "strategies", map[int]string{2: "conflict"}, "the ServerSideApply conflict is reported")
	assert.Contains(t, manifestCondition(w, 2, workv1.ManifestApplied).Message, "e2e.test", "names the conflicting manager")

	updateWork(t, "cluster1", "strategies", func(w *workv1.ManifestWork) {
		w.Spec.ManifestConfigs[2].UpdateStrategy.ServerSideApply = &workv1.ServerSideApplyConfig{Force: true}
	})
	waitConfigMapData(t, "cluster1", ns, "ssa", "key", "desired") // with force it takes the field back
	waitWorkCondition(t, "cluster1", "strategies", workv1.WorkApplied, metav1.ConditionTrue)
	createOnly, err := cms.Get(ctx, "create-only", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "edited", createOnly.Data["key"], "CreateOnly leaves the object alone")
}

func hasManager(fields []metav1.ManagedFieldsEntry, manager string) bool {
	for _, f := range fields {
		if f.Manager == manager && f.Operation == metav1.ManagedFieldsOperationApply {
			return true
		}
	}
	return false
}

// Bad manifests fail alone with a precise condition, and a custom resource
// whose definition is missing is applied by itself once the definition
// arrives from another work.
func TestBadManifestsAndRecovery(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	grantAgentWidgets(t, "cluster1")
	ctx := t.Context()
	ns := "e2e-bad"
	createWork(t, fixture.NewWork("cluster1", "bad").WithManifest(
		fixture.Namespace(ns),
		fixture.Widget(ns, "w", map[string]any{"size": int64(3)}),
		fixture.ConfigMap("", "no-namespace", nil),
		fixture.ConfigMap(ns, "good", map[string]string{"key": "value"}),
	).WithRawManifest(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"namespace": "e2e-bad"}}`).Build())

	waitManifestsApplied(t, "cluster1", "bad", map[int]string{
		0: workv1.ManifestAppliedReasonComplete,
		1: `the server doesn't have a resource type "Widget"`,
		2: `ConfigMap "no-namespace" is namespaced but the manifest has no metadata.namespace`,
		3: workv1.ManifestAppliedReasonComplete,
		4: "resource name may not be empty",
	}, "each manifest's Applied condition")
	_, err := e.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns).Get(ctx, "good", metav1.GetOptions{})
	require.NoError(t, err, "the good manifest is applied all the same")

	createWork(t, fixture.NewWork("cluster1", "bad-crd").WithManifest(fixture.WidgetCRD()).Build())
	framework.Eventually(t, convergeTimeout, func() error {
		_, err := e.Cluster("cluster1").Dynamic.Resource(widgets).Namespace(ns).Get(ctx, "w", metav1.GetOptions{})
		return err
	}, "the widget is applied once its CRD is established")

	// Dropping the bad manifests makes the work Applied.
	updateWork(t, "cluster1", "bad", func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests = append(w.Spec.Workload.Manifests[:2], w.Spec.Workload.Manifests[3])
	})
	waitWorkCondition(t, "cluster1", "bad", workv1.WorkApplied, metav1.ConditionTrue)
}

// An immutable field changed in the work is reported with the server's message.
func TestImmutableFieldChange(t *testing.T) {
	setup(t)
	runningAgent(t, "cluster1")
	ns := "e2e-immutable"
	createWork(t, fixture.NewWork("cluster1", "immutable").WithManifest(fixture.Namespace(ns), fixture.Job(ns, "once")).Build())
	waitWorkCondition(t, "cluster1", "immutable", workv1.WorkApplied, metav1.ConditionTrue)

	job := fixture.Job(ns, "once")
	job.Spec.Template.Spec.Containers[0].Image = "fake-image:2"
	updateWork(t, "cluster1", "immutable", func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests[1] = manifestOf(t, job)
	})
	w := waitWorkCondition(t, "cluster1", "immutable", workv1.WorkApplied, metav1.ConditionFalse)
	c := manifestCondition(w, 1, workv1.ManifestApplied)
	require.NotNil(t, c)
	assert.Equal(t, workv1.ManifestAppliedReasonFailed, c.Reason)
	assert.Contains(t, c.Message, "field is immutable", "the server's message")
}

// waitManifestsApplied waits until the Applied conditions of the work's manifests are
// as expectApplied wants them, and returns the work.
func waitManifestsApplied(t *testing.T, namespace, name string, want map[int]string, what string) *workv1.ManifestWork {
	t.Helper()
	return waitWork(t, convergeTimeout, namespace, name, func(w *workv1.ManifestWork) error {
		return expectApplied(w, want)
	}, "%s", what)
}

// expectApplied checks the Applied condition of manifests: a reason for those
// that must succeed, a message fragment for those that must fail.
func expectApplied(w *workv1.ManifestWork, want map[int]string) error {
	for ordinal, expect := range want {
		c := manifestCondition(w, ordinal, workv1.ManifestApplied)
		switch {
		case c == nil:
			return fmt.Errorf("manifest %d has no Applied condition", ordinal)
		case expect == workv1.ManifestAppliedReasonComplete && c.Status != metav1.ConditionTrue:
			return fmt.Errorf("manifest %d not applied: %s", ordinal, c.Message)
		case expect != workv1.ManifestAppliedReasonComplete && (c.Status != metav1.ConditionFalse || !strings.Contains(c.Message, expect)):
			return fmt.Errorf("manifest %d: want failure %q, got %s %s", ordinal, expect, c.Status, c.Message)
		}
	}
	return nil
}

// manifestOf encodes an object as a manifest.
func manifestOf(t *testing.T, obj runtime.Object) workv1.Manifest {
	t.Helper()
	w := fixture.NewWork("x", "x").WithManifest(obj).Build()
	return w.Spec.Workload.Manifests[0]
}

// Changes made on the hub while the agent is down are caught up when it
// comes back, with nothing duplicated.
func TestAgentRestartCatchesUp(t *testing.T) {
	e := setup(t)
	agent := runningAgent(t, "cluster1")
	ctx := t.Context()
	ns := "e2e-restart"
	cms := e.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns)
	createWork(t, fixture.NewWork("cluster1", "restart").
		WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, "a", map[string]string{"v": "1"})).Build())
	createWork(t, fixture.NewWork("cluster1", "restart-deleted").WithManifest(fixture.ConfigMap(ns, "gone", nil)).Build())
	waitWorkCondition(t, "cluster1", "restart", workv1.WorkApplied, metav1.ConditionTrue)
	waitWorkCondition(t, "cluster1", "restart-deleted", workv1.WorkApplied, metav1.ConditionTrue)

	_, err := agent.Kill()
	require.NoError(t, err)
	require.NoError(t, e.Hub.Work.WorkV1().ManifestWorks("cluster1").Delete(ctx, "restart-deleted", metav1.DeleteOptions{}))
	updateWork(t, "cluster1", "restart", func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests = append(w.Spec.Workload.Manifests[:1],
			manifestOf(t, fixture.ConfigMap(ns, "a", map[string]string{"v": "2"})),
			manifestOf(t, fixture.ConfigMap(ns, "b", nil)))
	})
	runningAgent(t, "cluster1") // a new process

	waitWorkCondition(t, "cluster1", "restart", workv1.WorkApplied, metav1.ConditionTrue)
	waitConfigMapData(t, "cluster1", ns, "a", "v", "2")
	framework.Eventually(t, convergeTimeout, func() error {
		_, err := cms.Get(ctx, "b", metav1.GetOptions{})
		return err
	}, "the added ConfigMap")
	waitGone(t, "the work deleted while the agent was down", func(ctx context.Context) error {
		_, err := getWork(ctx, "cluster1", "restart-deleted")
		return err
	})
	waitGone(t, "its ConfigMap", func(ctx context.Context) error {
		_, err := cms.Get(ctx, "gone", metav1.GetOptions{})
		return err
	})
	applied, err := e.Cluster("cluster1").Work.WorkV1().AppliedManifestWorks().List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	n := 0
	for _, a := range applied.Items {
		if a.Spec.ManifestWorkName == "restart" {
			n++
		}
	}
	assert.Equal(t, 1, n, "one AppliedManifestWork for the work")
}

// A work close to the 500 KiB limit is applied whole.
func TestLargeWork(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	ns := "e2e-large"
	b := fixture.NewWork("cluster1", "large").WithManifest(fixture.Namespace(ns))
	value := strings.Repeat("x", 95*1024)
	for i := range 5 {
		b.WithManifest(fixture.ConfigMap(ns, fmt.Sprintf("big-%d", i), map[string]string{"blob": value}))
	}
	work := b.Build()
	size := 0
	for _, m := range work.Spec.Workload.Manifests {
		size += len(m.Raw)
	}
	require.Greater(t, size, 475*1024, "close to the limit")
	require.LessOrEqual(t, size, 500*1024)
	createWork(t, work)

	waitWorkCondition(t, "cluster1", "large", workv1.WorkApplied, metav1.ConditionTrue)
	cm, err := e.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns).Get(t.Context(), "big-4", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Len(t, cm.Data["blob"], len(value))
}
