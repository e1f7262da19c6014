package finalize

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

// recorded takes the Events recorded so far, as "type reason message".
func (e *env) recorded() []string { return ct.Recorded(e.events) }

// A deletion records one Event per transition: when it starts, each time the
// set of objects it waits for changes, and when cleanup is done; reconciles
// in between record none.
func TestDeletionEventsOnTransitionsOnly(t *testing.T) {
	ctx := context.Background()
	work := deleting(webWork())
	applied := deleting(fixture.WebApplied(cmRes, deployRes))
	e := newEnv(t, given{work: work, applied: applied,
		objects: []*metav1.PartialObjectMetadata{cmObj(), ct.Terminating(deployObj())}})

	_, err := e.work.reconcile(ctx, work)
	require.NoError(t, err)
	assert.Equal(t, []string{"Normal DeletionStarted Cleaning up on the managed cluster: waiting for AppliedManifestWork " +
		fixture.AppliedName + " to be deleted"}, e.recorded())
	_, err = e.work.reconcile(ctx, e.hubWork(t))
	require.NoError(t, err)
	assert.Empty(t, e.recorded(), "the deletion has started already")

	e.applied.works = listerOf(t, e.hubWork(t))
	_, err = e.applied.reconcile(ctx, applied)
	require.NoError(t, err)
	assert.Equal(t, []string{"Normal WaitingForResources waiting for configmaps v1 default/cm, deployments apps/v1 default/web to be deleted"},
		e.recorded())

	// The config map is gone; the deployment is still held.
	e.applied.works = listerOf(t, e.hubWork(t))
	_, err = e.applied.reconcile(ctx, applied)
	require.NoError(t, err)
	assert.Equal(t, []string{"Normal WaitingForResources waiting for deployments apps/v1 default/web to be deleted"}, e.recorded())

	e.applied.works = listerOf(t, e.hubWork(t))
	_, err = e.applied.reconcile(ctx, applied)
	require.NoError(t, err)
	assert.Empty(t, e.recorded(), "still waiting for the same objects")

	// The deployment goes, the AppliedManifestWork is released and gone.
	require.NoError(t, e.metadata.Tracker().Delete(ct.Deployments, "default", "web"))
	_, err = e.applied.reconcile(ctx, applied)
	require.NoError(t, err)
	assert.Empty(t, e.recorded(), "the work's cleanup is not over before its AppliedManifestWork is gone")
	appliedWorks := schema.GroupVersionResource{Group: "work.open-cluster-management.io", Version: "v1", Resource: "appliedmanifestworks"}
	require.NoError(t, e.spoke.Tracker().Delete(appliedWorks, "", fixture.AppliedName))
	e.work.applied = worklisters.NewAppliedManifestWorkLister(cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}))

	_, err = e.work.reconcile(ctx, e.hubWork(t))
	require.NoError(t, err)
	assert.Equal(t, []string{"Normal ResourcesCleanedUp The applied resources are cleaned up on the managed cluster; the work is released"},
		e.recorded())
}
