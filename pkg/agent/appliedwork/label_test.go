package appliedwork

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workfake "github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

const ourAgent = "agent-a"

var otherHub = HubHash("https://old-hub.example:6443")

func applied(hubHash, work, agentID string) *fixture.AppliedBuilder {
	return fixture.NewApplied(hubHash, work).AsStored(types.UID("uid-"+work), "7").WithAgent(agentID)
}

// starting is the agent of cluster1 starting with the work "web" on the hub
// and records on the managed cluster. A label patch the client accepts puts
// the result into the labelled cache a moment later, as the informer would.
func starting(t *testing.T, records ...*workv1.AppliedManifestWork) (Starting, *workfake.Clientset) {
	t.Helper()
	works := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	require.NoError(t, works.Add(fixture.NewWork(fixture.Cluster, "web").Build()))
	var objs []runtime.Object
	for _, r := range records {
		objs = append(objs, r)
	}
	client := workfake.NewSimpleClientset(objs...)
	labelled := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	client.PrependReactor("patch", "appliedmanifestworks", func(a clienttesting.Action) (bool, runtime.Object, error) {
		name := a.(clienttesting.PatchAction).GetName()
		go func() {
			if obj, err := client.Tracker().Get(workv1.SchemeGroupVersion.WithResource("appliedmanifestworks"), "", name); err == nil {
				_ = labelled.Add(obj)
			}
		}()
		return false, nil, nil
	})
	return Starting{
		Agent: Agent{ClusterName: fixture.Cluster, HubHash: fixture.HubHash, AgentID: ourAgent}, Client: client,
		Works:    worklisters.NewManifestWorkLister(works).ManifestWorks(fixture.Cluster),
		Labelled: worklisters.NewAppliedManifestWorkLister(labelled),
	}, client
}

// labelPatches are the patches sent, by AppliedManifestWork.
func labelPatches(t *testing.T, client *workfake.Clientset) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, a := range client.Actions() {
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

// At start, every unlabelled record the agent answers for is labelled,
// with nothing else changed, and LabelAll returns once the agent's cache
// has them; the others are left alone.
func TestLabelAll(t *testing.T) {
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
			applied(fixture.HubHash, "web", ourAgent).WithLabels(map[string]string{ClusterLabel: "cluster2"}).Build(), false,
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			s, client := starting(t, tt.applied)

			require.NoError(t, LabelAll(t.Context(), s, 10*time.Second))

			patches := labelPatches(t, client)
			if !tt.label {
				assert.Empty(t, patches)
				return
			}
			assert.Equal(t, map[string]any{
				"resourceVersion": "7", // two agents that both think it theirs label it once
				"labels":          map[string]any{ClusterLabel: fixture.Cluster},
			}, patches[tt.applied.Name]["metadata"])
			stored, err := client.WorkV1().AppliedManifestWorks().Get(t.Context(), tt.applied.Name, metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, fixture.Cluster, stored.Labels[ClusterLabel])
			assert.Equal(t, tt.applied.Spec, stored.Spec, "nothing else changes")
			_, err = s.Labelled.Get(tt.applied.Name)
			assert.NoError(t, err, "in the agent's cache when LabelAll returns")
		})
	}
}

// Records already labelled are not listed again: one list, nothing else.
func TestLabelAllWithNothingToLabel(t *testing.T) {
	s, client := starting(t, applied(fixture.HubHash, "web", ourAgent).
		WithLabels(map[string]string{ClusterLabel: fixture.Cluster}).Build())

	require.NoError(t, LabelAll(t.Context(), s, 10*time.Second))

	require.Len(t, client.Actions(), 1)
	list, ok := client.Actions()[0].(clienttesting.ListAction)
	require.True(t, ok)
	assert.Equal(t, Unlabelled, list.GetListRestrictions().Labels.String())
}

// An AppliedManifestWork takes the labels of its work that it lacks, in one
// patch that names only those; the cluster label stays the agent's, and a
// record that has them all costs no request.
func TestFollowWork(t *testing.T) {
	ours := map[string]string{ClusterLabel: fixture.Cluster}
	for _, tc := range []struct {
		name       string
		has        map[string]string
		workLabels map[string]string
		patch      map[string]any // the labels patched; nil: no request
		want       map[string]string
	}{{
		name: "a work without labels", has: ours, want: ours,
	}, {
		name: "labels it has already", has: map[string]string{ClusterLabel: fixture.Cluster, "app": "web", "by-hand": "x"},
		workLabels: map[string]string{"app": "web"},
		want:       map[string]string{ClusterLabel: fixture.Cluster, "app": "web", "by-hand": "x"},
	}, {
		name: "a new label and a changed one", has: map[string]string{ClusterLabel: fixture.Cluster, "app": "old", "by-hand": "x"},
		workLabels: map[string]string{"app": "web", "tier": "front"},
		patch:      map[string]any{"app": "web", "tier": "front"},
		want:       map[string]string{ClusterLabel: fixture.Cluster, "app": "web", "tier": "front", "by-hand": "x"},
	}, {
		name: "the work's own cluster label is not copied", has: ours,
		workLabels: map[string]string{ClusterLabel: "elsewhere", "app": "web"},
		patch:      map[string]any{"app": "web"},
		want:       map[string]string{ClusterLabel: fixture.Cluster, "app": "web"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			record := applied(fixture.HubHash, "web", ourAgent).WithLabels(tc.has).Build()
			client := workfake.NewSimpleClientset(record)
			got, err := FollowWork(t.Context(), client, record, tc.workLabels)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.Labels)
			patches := labelPatches(t, client)
			if tc.patch == nil {
				assert.Empty(t, patches, "no request")
				return
			}
			assert.Equal(t, map[string]any{"metadata": map[string]any{"labels": tc.patch}}, patches[record.Name])
		})
	}
}
