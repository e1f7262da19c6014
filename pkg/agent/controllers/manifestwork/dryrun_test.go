package manifestwork

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/manifestwork/work/pkg/agent/apply/records"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// dryRunsSince counts the dry runs the dynamic client received since the
// last call, and forgets every request.
func (e *env) dryRunsSince() int {
	n := fixture.DryRuns(e.dynamic.Actions())
	e.dynamic.ClearActions()
	return n
}

// withoutInSync is the work with its status as OCM's agent writes it: the
// manifests' conditions without this agent's InSync.
func withoutInSync(work *workv1.ManifestWork) *workv1.ManifestWork {
	out := work.DeepCopy()
	for i := range out.Status.ResourceStatus.Manifests {
		apimeta.RemoveStatusCondition(&out.Status.ResourceStatus.Manifests[i].Conditions, ConditionInSync)
	}
	return out
}

// An agent that takes a Deployment over from OCM's agent knows nothing of
// its last apply, and the work's status holds no comparison of its own:
// the first reconcile compares it, with one server-side dry run of the
// update, and the object's content version then says that it still holds
// the manifest. The reconciles that follow while the work's status (as the
// informer shows it) still lacks this agent's InSync, and those after, cost
// no dry run, whether the object's watch has synced or not yet.
func TestATakenOverDeploymentCostsOneDryRunThenNone(t *testing.T) {
	for _, tc := range []struct {
		name    string
		watched bool // the object's watch has synced
	}{
		{name: "watched", watched: true},
		{name: "before its watch has synced", watched: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().
				WithManifest(fixture.Deployment("team", "web", 2)).Build()
			e := newEnv(t, work)
			fixture.AnswerDryRuns(e.dynamic, nil)
			if tc.watched {
				e.c.Objects = trackerCache{dynamic: e.dynamic}
			}
			ctx := t.Context()
			// The Deployment as another agent applied it for the work.
			require.NoError(t, e.c.reconcile(ctx, work))
			require.Zero(t, e.dryRunsSince(), "a create needs no dry run")

			// Our agent takes over: it remembers nothing, and the work's
			// status is OCM's until its own status write reaches the
			// informer.
			e.c.Records = records.NewStore()
			e.c.mem.forget(cache.MetaObjectToName(work))
			asOCM := withoutInSync(e.work(t))
			for i, want := range []int{1, 0, 0} {
				require.NoError(t, e.c.reconcile(ctx, asOCM))
				assert.Equal(t, want, e.dryRunsSince(), "reconcile %d of the work as OCM's agent left its status", i+1)
			}
			inSync := apimeta.FindStatusCondition(e.work(t).Status.ResourceStatus.Manifests[0].Conditions, ConditionInSync)
			require.NotNil(t, inSync)
			assert.Equal(t, metav1.ConditionTrue, inSync.Status, "the comparison the first reconcile made still holds")

			for i := range 2 {
				require.NoError(t, e.c.reconcile(ctx, e.work(t)))
				assert.Zero(t, e.dryRunsSince(), "steady state, reconcile %d", i+1)
			}
		})
	}
}
