package manifestwork

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/component-base/metrics/testutil"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/test/fixture"
)

// recorded takes the Events recorded so far, as "type reason message".
func (e *env) recorded() []string { return ct.Recorded(e.events) }

// A manifest that fails records one Warning when it starts failing and one
// each time its failure changes, not on every retry; success records none.
func TestApplyEventsOnTransitionsOnly(t *testing.T) {
	metrics.Register()
	ctx := context.Background()
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).
		WithManifest(fixture.Namespace("team")).
		WithRawManifest(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"namespace": "team"}}`).
		Build()
	e := newEnv(t, work)

	require.Error(t, e.c.reconcile(ctx, work))
	assert.Equal(t, []string{"Warning ManifestApplyFailed Manifest 1 (ConfigMap without a name): Failed to apply manifest: " +
		"resource name may not be empty"}, e.recorded())

	skipped := patches(t, metrics.PatchSkipped)
	require.Error(t, e.c.reconcile(ctx, e.work(t)), "the manifest still fails")
	assert.Empty(t, e.recorded(), "the same failure again is no news")
	assert.Equal(t, skipped+1, patches(t, metrics.PatchSkipped), "nor a status patch")

	// A different failure of the same manifest is.
	updated := e.update(t, func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests[1].Raw = []byte(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}`)
	})
	require.Error(t, e.c.reconcile(ctx, updated))
	events := e.recorded()
	require.Len(t, events, 1)
	assert.Contains(t, events[0], "Warning ManifestApplyFailed Manifest 1 (ConfigMap x): Failed to apply manifest: ")

	// Dropping it makes the work Applied: the status says so, and no Event
	// costs the hub a second write.
	fixed := e.update(t, func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests = w.Spec.Workload.Manifests[:1]
	})
	sent := patches(t, metrics.PatchSent)
	require.NoError(t, e.c.reconcile(ctx, fixed))
	assert.Empty(t, e.recorded())
	assert.Equal(t, sent+1, patches(t, metrics.PatchSent))
}

// The applies are counted by strategy and result; one the agent knows to be
// unchanged counts as unchanged without a request.
func TestApplyMetrics(t *testing.T) {
	metrics.Register()
	ctx := context.Background()
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithManifest(fixture.Namespace("team")).Build()
	e := newEnv(t, work)
	written, unchanged := applies(t, metrics.ApplyWritten), applies(t, metrics.ApplyUnchanged)

	require.NoError(t, e.c.reconcile(ctx, work))
	assert.Equal(t, written+1, applies(t, metrics.ApplyWritten))

	require.NoError(t, e.c.reconcile(ctx, e.work(t)))
	assert.Equal(t, written+1, applies(t, metrics.ApplyWritten))
	assert.Equal(t, unchanged+1, applies(t, metrics.ApplyUnchanged))
}

// update changes the work's spec on the hub, as a user would, and returns it.
func (e *env) update(t *testing.T, mutate func(*workv1.ManifestWork)) *workv1.ManifestWork {
	t.Helper()
	w := e.work(t)
	mutate(w)
	w.Generation++
	updated, err := e.hub.WorkV1().ManifestWorks(fixture.Cluster).Update(context.Background(), w, metav1.UpdateOptions{})
	require.NoError(t, err)
	return updated
}

func patches(t *testing.T, result string) float64 {
	t.Helper()
	v, err := testutil.GetCounterMetricValue(metrics.StatusPatches.WithLabelValues(ControllerName, result))
	require.NoError(t, err)
	return v
}

func applies(t *testing.T, result string) float64 {
	t.Helper()
	v, err := testutil.GetCounterMetricValue(metrics.ManifestApplies.WithLabelValues(string(workv1.UpdateStrategyTypeUpdate), result))
	require.NoError(t, err)
	return v
}
