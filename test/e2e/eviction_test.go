package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// evictionGrace is the grace period of the agent of the eviction test.
const evictionGrace = 10 * time.Second

// AppliedManifestWorks whose ManifestWork disappeared from the hub while the
// agent was stopped are evicted after the grace period, unless the work comes
// back in time; those of another hub are evicted too, and those of another
// agent are left alone.
func TestOrphanedAppliedWorksAreEvicted(t *testing.T) {
	e := setup(t)
	ctx := t.Context()
	spoke := e.Cluster("cluster1").Work.WorkV1().AppliedManifestWorks()
	hubHash := appliedwork.HubHash(e.Hub.Config.Host)
	ns := "e2e-eviction"

	// This test needs an agent with a short grace period, alone on cluster1.
	stopSharedAgent(t, "cluster1")
	agent, err := e.StartAgent("cluster1", "--disable-leader-election",
		"--appliedmanifestwork-eviction-grace-period="+evictionGrace.String())
	require.NoError(t, err)
	t.Cleanup(func() {
		if agent.Running() {
			_, _ = agent.Stop(30 * time.Second)
		}
	})

	for _, name := range []string{"evicted", "returns"} {
		createWork(t, fixture.NewWork("cluster1", name).
			WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, name, nil)).Build())
	}
	for _, name := range []string{"evicted", "returns"} {
		waitWorkCondition(t, "cluster1", name, workv1.WorkApplied, metav1.ConditionTrue)
	}
	// An AppliedManifestWork of this agent from another hub, and one of
	// another agent, both without work on our hub.
	otherHub := createApplied(t, "old-hub", "cluster1", "from-old-hub")
	otherAgent := createApplied(t, "old-hub", "another-agent", "of-another-agent")

	_, err = agent.Stop(30 * time.Second)
	require.NoError(t, err)
	for _, name := range []string{"evicted", "returns"} {
		forceDeleteWork(t, "cluster1", name)
	}
	require.NoError(t, agent.Restart(e.Options.ReadyTimeout))

	// Both orphans are marked; the returning work is back within the grace
	// period and its mark is removed.
	evicted := waitEvictionStart(t, appliedwork.Name(hubHash, "evicted"))
	waitEvictionStart(t, appliedwork.Name(hubHash, "returns"))
	createWork(t, fixture.NewWork("cluster1", "returns").
		WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, "returns", nil)).Build())
	framework.Eventually(t, convergeTimeout, func() error {
		a, err := spoke.Get(ctx, appliedwork.Name(hubHash, "returns"), metav1.GetOptions{})
		if err != nil {
			return err
		}
		if a.Status.EvictionStartTime != nil {
			return fmt.Errorf("still marked since %s", a.Status.EvictionStartTime)
		}
		return nil
	}, "eviction of the returning work cancelled")
	waitEvictionStart(t, otherHub.Name)

	// The orphan goes once the grace period is over, not before.
	framework.Eventually(t, convergeTimeout, func() error {
		a, err := spoke.Get(ctx, evicted.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) || (err == nil && a.DeletionTimestamp != nil) {
			return nil
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("not deleted; eviction started %s", a.Status.EvictionStartTime)
	}, "AppliedManifestWork of the deleted work evicted")
	waited := time.Since(evicted.Status.EvictionStartTime.Time)
	t.Logf("evicted %s after the eviction started", waited.Round(100*time.Millisecond))
	assert.GreaterOrEqual(t, waited, evictionGrace-time.Second, "evicted before the grace period was over")
	waitGone(t, "AppliedManifestWork "+otherHub.Name, func(ctx context.Context) error {
		_, err := spoke.Get(ctx, otherHub.Name, metav1.GetOptions{})
		return err
	})

	// The work that came back is applied again and keeps its AppliedManifestWork.
	waitWorkCondition(t, "cluster1", "returns", workv1.WorkApplied, metav1.ConditionTrue)
	kept, err := spoke.Get(ctx, appliedwork.Name(hubHash, "returns"), metav1.GetOptions{})
	require.NoError(t, err)
	assert.Nil(t, kept.DeletionTimestamp)
	assert.Nil(t, kept.Status.EvictionStartTime)

	// Another agent's AppliedManifestWork is never touched.
	other, err := spoke.Get(ctx, otherAgent.Name, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Nil(t, other.DeletionTimestamp)
	assert.Nil(t, other.Status.EvictionStartTime)
	assert.Equal(t, otherAgent.ResourceVersion, other.ResourceVersion)
}

// stopSharedAgent stops the agent the other tests share, if it runs, so that
// the next of them starts a fresh one.
func stopSharedAgent(t *testing.T, cluster string) {
	t.Helper()
	agentsMu.Lock()
	defer agentsMu.Unlock()
	if p := agents[cluster]; p != nil && p.Running() {
		_, err := p.Stop(30 * time.Second)
		require.NoError(t, err)
	}
	delete(agents, cluster)
}

// createApplied creates an AppliedManifestWork by hand, without finalizer,
// and deletes it when the test ends.
func createApplied(t *testing.T, hubHash, agentID, workName string) *workv1.AppliedManifestWork {
	t.Helper()
	client := env.Cluster("cluster1").Work.WorkV1().AppliedManifestWorks()
	created, err := client.Create(t.Context(), &workv1.AppliedManifestWork{
		ObjectMeta: metav1.ObjectMeta{Name: appliedwork.Name(hubHash, workName)},
		Spec:       workv1.AppliedManifestWorkSpec{HubHash: hubHash, AgentID: agentID, ManifestWorkName: workName},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = client.Delete(context.Background(), created.Name, metav1.DeleteOptions{}) })
	return created
}

// forceDeleteWork deletes a work and removes its finalizer, as a hub admin
// would while the agent is away, and waits until it is gone.
func forceDeleteWork(t *testing.T, namespace, name string) {
	t.Helper()
	works := env.Hub.Work.WorkV1().ManifestWorks(namespace)
	require.NoError(t, works.Delete(t.Context(), name, metav1.DeleteOptions{}))
	_, err := works.Patch(t.Context(), name, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
	if !apierrors.IsNotFound(err) {
		require.NoError(t, err)
	}
	waitGone(t, "ManifestWork "+name, func(ctx context.Context) error {
		_, err := works.Get(ctx, name, metav1.GetOptions{})
		return err
	})
}

// waitEvictionStart waits until the AppliedManifestWork is marked for
// eviction and returns it.
func waitEvictionStart(t *testing.T, name string) *workv1.AppliedManifestWork {
	t.Helper()
	var got *workv1.AppliedManifestWork
	framework.Eventually(t, convergeTimeout, func() error {
		a, err := env.Cluster("cluster1").Work.WorkV1().AppliedManifestWorks().Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if a.Status.EvictionStartTime == nil {
			return fmt.Errorf("no evictionStartTime")
		}
		got = a
		return nil
	}, "AppliedManifestWork %s marked for eviction", name)
	return got
}
