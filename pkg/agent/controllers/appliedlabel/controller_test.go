package appliedlabel

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"github.com/manifestwork/work/pkg/agent/appliedname"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workfake "github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

const ourAgent = "agent-a"

var otherHub = appliedname.HubHash("https://old-hub.example:6443")

type harness struct {
	c        *Controller
	spoke    *workfake.Clientset
	labelled cache.Indexer
}

// newHarness serves the works from the hub cache, the unlabelled
// AppliedManifestWorks from theirs and the managed cluster. A label patch
// the client accepts puts the result into the labelled cache, as the
// labelled informer would.
func newHarness(t *testing.T, unlabelled []*workv1.AppliedManifestWork, works ...*workv1.ManifestWork) *harness {
	t.Helper()
	workIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, w := range works {
		require.NoError(t, workIndexer.Add(w))
	}
	unlabelledIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	var objs []runtime.Object
	for _, a := range unlabelled {
		require.NoError(t, unlabelledIndexer.Add(a))
		objs = append(objs, a)
	}
	spoke := workfake.NewSimpleClientset(objs...)
	labelled := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	spoke.PrependReactor("patch", "appliedmanifestworks", func(a clienttesting.Action) (bool, runtime.Object, error) {
		name := a.(clienttesting.PatchAction).GetName()
		go func() { // the informer hears of it a moment later
			if obj, err := spoke.Tracker().Get(workv1.SchemeGroupVersion.WithResource("appliedmanifestworks"), "", name); err == nil {
				_ = labelled.Add(obj)
			}
		}()
		return false, nil, nil
	})
	return &harness{
		spoke: spoke, labelled: labelled,
		c: &Controller{
			Deps:       Deps{ClusterName: fixture.Cluster, HubHash: fixture.HubHash, AgentID: ourAgent, SpokeClient: spoke},
			works:      worklisters.NewManifestWorkLister(workIndexer).ManifestWorks(fixture.Cluster),
			unlabelled: worklisters.NewAppliedManifestWorkLister(unlabelledIndexer),
			labelled:   worklisters.NewAppliedManifestWorkLister(labelled),
		},
	}
}

// labelPatches are the label patches sent, by AppliedManifestWork.
func (h *harness) labelPatches(t *testing.T) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, a := range h.spoke.Actions() {
		if a.GetVerb() == "get" || a.GetVerb() == "list" || a.GetVerb() == "watch" {
			continue
		}
		p, ok := a.(clienttesting.PatchAction)
		require.True(t, ok, "want only patches, got %s", a.GetVerb())
		assert.Empty(t, p.GetSubresource())
		var doc map[string]any
		require.NoError(t, json.Unmarshal(p.GetPatch(), &doc))
		out[p.GetName()] = doc
	}
	return out
}

func applied(hubHash, work, agentID string) *fixture.AppliedBuilder {
	return fixture.NewApplied(hubHash, work).AsStored(types.UID("uid-"+work), "7").WithAgent(agentID)
}

func TestReconcile(t *testing.T) {
	tests := map[string]struct {
		applied *workv1.AppliedManifestWork
		label   bool
	}{
		"our agent ID":                                 {applied(fixture.HubHash, "web", ourAgent).Build(), true},
		"our agent ID, applied from another hub":       {applied(otherHub, "web", ourAgent).Build(), true},
		"our hub, no agent ID":                         {applied(fixture.HubHash, "gone", "").Build(), true},
		"our hub, another agent, its work is ours":     {applied(fixture.HubHash, "web", "ocm-agent").Build(), true},
		"our hub, another agent, its work is not ours": {applied(fixture.HubHash, "gone", "agent-b").Build(), false},
		"another hub and agent":                        {applied(otherHub, "web", "agent-b").Build(), false},
		"labelled for another cluster": {
			applied(fixture.HubHash, "web", ourAgent).WithLabels(map[string]string{appliedname.ClusterLabel: "cluster2"}).Build(), false,
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, []*workv1.AppliedManifestWork{tt.applied}, fixture.NewWork(fixture.Cluster, "web").Build())

			labelled, err := h.c.reconcile(t.Context(), tt.applied)
			require.NoError(t, err)

			assert.Equal(t, tt.label, labelled)
			patches := h.labelPatches(t)
			if !tt.label {
				assert.Empty(t, patches)
				return
			}
			assert.Equal(t, map[string]any{
				"resourceVersion": "7", // two agents that both think it theirs label it once
				"labels":          map[string]any{appliedname.ClusterLabel: fixture.Cluster},
			}, patches[tt.applied.Name]["metadata"])
			stored, err := h.spoke.WorkV1().AppliedManifestWorks().Get(t.Context(), tt.applied.Name, metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, fixture.Cluster, stored.Labels[appliedname.ClusterLabel])
			assert.Equal(t, tt.applied.Spec, stored.Spec, "nothing else changes")
		})
	}
}

// At start, every record the agent answers for is labelled, and LabelAll
// returns once the labelled cache has them.
func TestLabelAll(t *testing.T) {
	ours := applied(fixture.HubHash, "web", "ocm-agent").Build()
	alsoOurs := applied(otherHub, "old", ourAgent).Build()
	theirs := applied(fixture.HubHash, "gone", "agent-b").Build()
	h := newHarness(t, []*workv1.AppliedManifestWork{ours, alsoOurs, theirs}, fixture.NewWork(fixture.Cluster, "web").Build())

	require.NoError(t, h.c.LabelAll(t.Context(), 10*time.Second))

	assert.ElementsMatch(t, []string{ours.Name, alsoOurs.Name}, slices.Collect(maps.Keys(h.labelPatches(t))))
	for _, name := range []string{ours.Name, alsoOurs.Name} {
		_, err := h.c.labelled.Get(name)
		assert.NoError(t, err, "%s in the labelled cache when LabelAll returns", name)
	}
}

// A record that is gone, or already labelled, by the time its key is synced
// costs nothing.
func TestSyncOfALabelledRecord(t *testing.T) {
	h := newHarness(t, nil)
	require.NoError(t, h.c.sync(t.Context(), controllertest.NewSyncContext(fixture.AppliedName)))
	assert.Empty(t, h.spoke.Actions())
}
