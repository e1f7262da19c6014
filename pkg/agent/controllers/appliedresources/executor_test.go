package appliedresources

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

// A resource dropped from a work is pruned by the agent as itself, as OCM's
// agent prunes: the work's executor was checked, delete included, when it
// was applied, and one that lost its rights since asks nothing now.
func TestPruneAsTheAgent(t *testing.T) {
	deploy := ct.Resource(ct.Deployments, "default", "web", "uid-web")
	work := webWork()
	work.Spec.Executor = &workv1.ManifestWorkExecutor{Subject: workv1.ManifestWorkExecutorSubject{
		Type: workv1.ExecutorSubjectTypeServiceAccount, ServiceAccount: &workv1.ManifestWorkSubjectServiceAccount{Namespace: "default", Name: "executor1"}}}
	e := newEnv(t, fixture.WebApplied(deploy), nil, ct.Object(ct.Deployments, "default", "web", "uid-web", fixture.OurRef))

	_, err := e.c.reconcile(context.Background(), work)
	require.NoError(t, err)
	assert.Equal(t, []string{"delete deployments default/web"}, ct.Writes(e.metadata.Actions()))
	assert.Empty(t, e.appliedResources(t), "pruned, and gone from the record")
}

// Objects are recorded as the watch cache sees them: one the cache has not
// seen yet is not read from the API, and the record is written once, when
// every object can be recorded.
func TestRecordWaitsForTheCache(t *testing.T) {
	cmObj := ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OurRef)
	deployObj := ct.Object(ct.Deployments, "default", "web", "uid-web", fixture.OurRef)
	work := webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true), manifestStatus(ct.Deployments, "default", "web", true))
	cache := ct.Cache{}.Put(ct.ConfigMaps, cmObj).Put(ct.Deployments)
	e := newEnv(t, fixture.WebApplied(), cache, cmObj, deployObj)

	recheck, err := e.c.reconcile(context.Background(), work)
	require.NoError(t, err)
	assert.Positive(t, recheck, "looked at again soon")
	assert.Empty(t, e.spokeWrites(), "no partial record")
	assert.Empty(t, e.metadata.Actions(), "no read: the cache answers")

	cache.Put(ct.Deployments, deployObj)
	recheck, err = e.c.reconcile(context.Background(), work)
	require.NoError(t, err)
	assert.Zero(t, recheck)
	assert.Len(t, e.spokeWrites(), 1)
	assert.Len(t, e.appliedResources(t), 2)
}
