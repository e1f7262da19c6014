package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// A work whose objects exist is Available; deleting one of them on the
// managed cluster makes it not available until the agent has recreated it.
func TestAvailabilityFollowsTheManagedCluster(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	ctx := t.Context()
	ns := "e2e-available"
	createWork(t, fixture.NewWork("cluster1", "available").
		WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, "a", nil), fixture.ConfigMap(ns, "b", nil)).Build())

	w := waitWorkCondition(t, "cluster1", "available", workv1.WorkAvailable, metav1.ConditionTrue)
	assertAvailability(t, w, metav1.ConditionTrue, workv1.WorkAvailableReasonAvailable, workv1.WorkAvailableMessageAvailable)
	for i := range 3 {
		c := manifestCondition(w, i, workv1.ManifestAvailable)
		require.NotNil(t, c, "manifest %d has no Available condition", i)
		assert.Equal(t, metav1.ConditionTrue, c.Status, "manifest %d", i)
		assert.Equal(t, workv1.ManifestAvailableReasonAvailable, c.Reason, "manifest %d", i)
		assert.Equal(t, w.Generation, c.ObservedGeneration, "manifest %d", i)
	}

	// Every status the work goes through is seen on a watch, however short.
	watcher, err := e.Hub.Work.WorkV1().ManifestWorks("cluster1").Watch(ctx, metav1.ListOptions{
		FieldSelector:   fields.OneTermEqualSelector("metadata.name", "available").String(),
		ResourceVersion: w.ResourceVersion,
	})
	require.NoError(t, err)
	defer watcher.Stop()

	// The agent puts the ConfigMap back at once, often before the
	// availability controller has written that it was gone: it may not
	// recreate it until the work has been seen not available.
	kube := e.Cluster("cluster1").Kube
	refuse(t, kube, "e2e-refuse-available", admissionregistrationv1.RuleWithOperations{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
		Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}},
	}, fmt.Sprintf("!(object.metadata.namespace == '%s' && object.metadata.name == 'b')", ns), "e2e: not yet", func(ctx context.Context) error {
		_, err := kube.CoreV1().ConfigMaps(ns).Create(ctx, fixture.ConfigMap(ns, "b", nil), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return err
	})
	deleted := time.Now()
	require.NoError(t, kube.CoreV1().ConfigMaps(ns).Delete(ctx, "b", metav1.DeleteOptions{}))

	missing := waitForStatus(t, watcher, metav1.ConditionFalse)
	t.Logf("Available=False %s after the deletion", time.Since(deleted).Round(time.Millisecond))
	assertAvailability(t, missing, metav1.ConditionFalse, workv1.WorkAvailableReasonNotAvailable, "1 of 3 resources are not available")
	c := manifestCondition(missing, 2, workv1.ManifestAvailable)
	require.NotNil(t, c)
	assert.Equal(t, metav1.ConditionFalse, c.Status)
	assert.Equal(t, workv1.ManifestAvailableReasonNotAvailable, c.Reason)
	assert.Equal(t, metav1.ConditionTrue, manifestCondition(missing, 1, workv1.ManifestAvailable).Status, "configmap a is still there")
	applied := apimeta.FindStatusCondition(missing.Status.Conditions, workv1.WorkApplied)
	require.NotNil(t, applied, "the Applied condition is kept")

	unrefuse(t, kube, "e2e-refuse-available")
	back := waitForStatus(t, watcher, metav1.ConditionTrue)
	t.Logf("Available=True again %s after the deletion", time.Since(deleted).Round(time.Millisecond))
	assertAvailability(t, back, metav1.ConditionTrue, workv1.WorkAvailableReasonAvailable, workv1.WorkAvailableMessageAvailable)
	_, err = e.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns).Get(ctx, "b", metav1.GetOptions{})
	require.NoError(t, err, "recreated by the agent")
}

// A manifest of a kind the managed cluster does not serve has no resource to
// look for: its availability, and so the work's, is unknown.
func TestAvailabilityOfAnUnknownKind(t *testing.T) {
	setup(t)
	runningAgent(t, "cluster1")
	ns := "e2e-available-unknown"
	createWork(t, fixture.NewWork("cluster1", "available-unknown").
		WithManifest(fixture.Namespace(ns)).
		WithRawManifest(fmt.Sprintf(`{"apiVersion":"nowhere.example.com/v1","kind":"Ghost","metadata":{"namespace":%q,"name":"g"}}`, ns)).
		Build())

	w := waitWorkCondition(t, "cluster1", "available-unknown", workv1.WorkAvailable, metav1.ConditionUnknown)
	assertAvailability(t, w, metav1.ConditionUnknown, workv1.WorkAvailableReasonUnknown, "1 of 2 resources have unknown status")
	c := manifestCondition(w, 1, workv1.ManifestAvailable)
	require.NotNil(t, c)
	assert.Equal(t, workv1.ManifestAvailableReasonIncompleteResource, c.Reason)
	assert.Equal(t, metav1.ConditionTrue, manifestCondition(w, 0, workv1.ManifestAvailable).Status)
}

func assertAvailability(t *testing.T, w *workv1.ManifestWork, status metav1.ConditionStatus, reason, message string) {
	t.Helper()
	c := apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkAvailable)
	require.NotNil(t, c, "no Available condition")
	assert.Equal(t, status, c.Status)
	assert.Equal(t, reason, c.Reason)
	assert.Equal(t, message, c.Message)
	assert.Equal(t, w.Generation, c.ObservedGeneration)
}

// waitForStatus reads the watch until the work's Available condition has the
// status, and returns that version of the work.
func waitForStatus(t *testing.T, watcher watch.Interface, status metav1.ConditionStatus) *workv1.ManifestWork {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), convergeTimeout)
	defer cancel()
	var seen []string
	for {
		select {
		case <-ctx.Done():
			t.Fatalf("Available=%s not seen within %s; seen: %v", status, convergeTimeout, seen)
		case ev, ok := <-watcher.ResultChan():
			require.True(t, ok, "watch closed; seen: %v", seen)
			w, isWork := ev.Object.(*workv1.ManifestWork)
			require.True(t, isWork, "watch event %s holds %T", ev.Type, ev.Object)
			c := apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkAvailable)
			if c == nil {
				seen = append(seen, "none")
				continue
			}
			seen = append(seen, fmt.Sprintf("%s@%s", c.Status, time.Now().Format("15:04:05.000")))
			if c.Status == status {
				return w
			}
		}
	}
}
