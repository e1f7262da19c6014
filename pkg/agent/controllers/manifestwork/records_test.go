package manifestwork

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	fakedynamic "k8s.io/client-go/dynamic/fake"

	"github.com/manifestwork/work/pkg/agent/appliedname"
	"github.com/manifestwork/work/pkg/agent/applyrecords"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// trackerCache is a synced watch cache that sees what the fake dynamic
// client stores, as a metadata informer would.
type trackerCache struct {
	dynamic *fakedynamic.FakeDynamicClient
}

func (trackerCache) SetUses(string, []objectwatch.Use)        {}
func (trackerCache) SetReads(string, []objectwatch.ObjectKey) {}
func (trackerCache) WatchFailure(objectwatch.Use) (objectwatch.WatchFailure, bool) {
	return objectwatch.WatchFailure{}, false
}
func (c trackerCache) Get(gvr schema.GroupVersionResource, namespace, name string) (*metav1.PartialObjectMetadata, bool, error) {
	obj, err := c.dynamic.Tracker().Get(gvr, namespace, name)
	if err != nil {
		return nil, true, nil
	}
	u := obj.(*unstructured.Unstructured)
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
		Namespace: u.GetNamespace(), Name: u.GetName(), UID: u.GetUID(), ResourceVersion: u.GetResourceVersion(),
		Generation: u.GetGeneration(), ManagedFields: u.GetManagedFields(), OwnerReferences: u.GetOwnerReferences(),
	}}, true, nil
}

var configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// dynamicRequests lists the requests the dynamic client received since the
// last call, and forgets them.
func (e *env) dynamicRequests() []string {
	var out []string
	for _, a := range e.dynamic.Actions() {
		out = append(out, a.GetVerb()+" "+a.GetResource().Resource)
	}
	e.dynamic.ClearActions()
	return out
}

// persistRecords puts the controller's records of the work into its
// AppliedManifestWork, as the appliedresources controller does.
func (e *env) persistRecords(t *testing.T, work *workv1.ManifestWork) {
	t.Helper()
	name := appliedname.Name(fixture.HubHash, work.Name)
	applied, err := e.spoke.WorkV1().AppliedManifestWorks().Get(context.Background(), name, metav1.GetOptions{})
	require.NoError(t, err)
	applied.Annotations = map[string]string{applyrecords.Annotation: e.c.Records.Encode(fixture.Cluster + "/" + work.Name)}
	require.NoError(t, e.applied.Update(applied))
}

func TestUnchangedObjectsCostNoRequestAlsoAfterARestart(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().
		WithManifest(fixture.ConfigMap("team", "a", map[string]string{"k": "1"}), fixture.ConfigMap("team", "b", map[string]string{"k": "2"})).
		Build()
	e := newEnv(t, work)
	e.c.Objects = trackerCache{dynamic: e.dynamic}
	var recorded []string
	e.c.OnRecorded = func(key string) { recorded = append(recorded, key) }

	require.NoError(t, e.c.reconcile(context.Background(), work))
	assert.Equal(t, []string{"create configmaps", "create configmaps"}, e.dynamicRequests(), "known absent: created without reads")
	assert.Equal(t, []string{fixture.Cluster + "/w"}, recorded, "the records changed once")

	require.NoError(t, e.c.reconcile(context.Background(), e.work(t)))
	assert.Empty(t, e.dynamicRequests(), "nothing changed: no request")

	// A restarted agent: nothing in memory, the records in the AppliedManifestWork.
	e.persistRecords(t, work)
	e.c.Records = applyrecords.NewStore()
	recorded = nil
	require.NoError(t, e.c.reconcile(context.Background(), e.work(t)))
	assert.Empty(t, e.dynamicRequests(), "after a restart, unchanged objects cost no request")
	assert.Empty(t, recorded)

	// Drift made while the agent was down.
	drifted, err := e.dynamic.Tracker().Get(configMaps, "team", "b")
	require.NoError(t, err)
	edited := drifted.(*unstructured.Unstructured).DeepCopy()
	require.NoError(t, unstructured.SetNestedField(edited.Object, "changed", "data", "k"))
	edited.SetResourceVersion("999")
	require.NoError(t, e.dynamic.Tracker().Update(configMaps, edited, "team"))
	e.c.Records = applyrecords.NewStore()
	require.NoError(t, e.c.reconcile(context.Background(), e.work(t)))
	assert.Equal(t, []string{"get configmaps", "update configmaps"}, e.dynamicRequests(), "only the drifted object is read and repaired")
	repaired, err := e.dynamic.Tracker().Get(configMaps, "team", "b")
	require.NoError(t, err)
	value, _, _ := unstructured.NestedString(repaired.(*unstructured.Unstructured).Object, "data", "k")
	assert.Equal(t, "2", value)
	assert.Equal(t, []string{fixture.Cluster + "/w"}, recorded, "the repair changed the records")
}

func TestAChangedWorkIsAppliedAndADroppedManifestForgotten(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().
		WithManifest(fixture.ConfigMap("team", "a", map[string]string{"k": "1"}), fixture.ConfigMap("team", "b", map[string]string{"k": "2"})).
		Build()
	e := newEnv(t, work)
	e.c.Objects = trackerCache{dynamic: e.dynamic}
	require.NoError(t, e.c.reconcile(context.Background(), work))
	e.dynamicRequests()

	changed := e.update(t, func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests = fixture.NewWork(fixture.Cluster, "w").
			WithManifest(fixture.ConfigMap("team", "a", map[string]string{"k": "new"})).Build().Spec.Workload.Manifests
	})
	require.NoError(t, e.c.reconcile(context.Background(), changed))
	assert.Equal(t, []string{"get configmaps", "update configmaps"}, e.dynamicRequests())

	decoded, err := applyrecords.Decode(e.c.Records.Encode(fixture.Cluster + "/w"))
	require.NoError(t, err)
	assert.Len(t, decoded, 1, "the record of the dropped manifest is gone")
}
