package manifestwork

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	fakedynamic "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/manifestwork/work/pkg/agent/apply/records"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// trackerCache is a synced watch cache that sees what the fake dynamic
// client stores, as a metadata informer would.
type trackerCache struct {
	dynamic *fakedynamic.FakeDynamicClient
}

func (trackerCache) SetUses(string, []objectwatch.Use)                {}
func (trackerCache) SetReads(string, []objectwatch.ObjectKey)         {}
func (trackerCache) Wrote(schema.GroupVersionResource, metav1.Object) {}
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

// recordWriters has the fake dynamic client keep, as an API server does,
// the field manager of each create and update in the object's managedFields,
// a second later each time.
func recordWriters(e *env) {
	clock := time.Unix(1700000000, 0)
	note := func(obj runtime.Object, manager string) {
		clock = clock.Add(time.Second)
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return
		}
		at := metav1.NewTime(clock)
		u.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: manager, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: &at}})
	}
	e.dynamic.PrependReactor("create", "*", func(action clienttesting.Action) (bool, runtime.Object, error) {
		a := action.(clienttesting.CreateActionImpl)
		note(a.Object, a.CreateOptions.FieldManager)
		return false, nil, nil
	})
	e.dynamic.PrependReactor("update", "*", func(action clienttesting.Action) (bool, runtime.Object, error) {
		a := action.(clienttesting.UpdateActionImpl)
		note(a.Object, a.UpdateOptions.FieldManager)
		return false, nil, nil
	})
}

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

func TestUnchangedObjectsCostNoRequestAlsoAfterARestart(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().
		WithManifest(fixture.ConfigMap("team", "a", map[string]string{"k": "1"}), fixture.ConfigMap("team", "b", map[string]string{"k": "2"})).
		Build()
	e := newEnv(t, work)
	e.c.Objects = trackerCache{dynamic: e.dynamic}
	recordWriters(e)
	var recorded []string
	e.c.OnRecorded = func(key string) { recorded = append(recorded, key) }

	require.NoError(t, e.c.reconcile(context.Background(), work))
	assert.Equal(t, []string{"create configmaps", "create configmaps"}, e.dynamicRequests(), "known absent: created without reads")
	assert.Equal(t, []string{fixture.Cluster + "/w"}, recorded, "the records changed once")

	require.NoError(t, e.c.reconcile(context.Background(), e.work(t)))
	assert.Empty(t, e.dynamicRequests(), "nothing changed: no request")

	// A restarted agent: nothing in memory, nothing persisted; the work's
	// status says what was applied, and the objects' last writer that
	// nobody changed them since.
	e.c.Records = records.NewStore()
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
	later := metav1.NewTime(time.Unix(1800000000, 0))
	edited.SetManagedFields(append(edited.GetManagedFields(), metav1.ManagedFieldsEntry{Manager: "kubectl-edit",
		Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: &later}))
	require.NoError(t, e.dynamic.Tracker().Update(configMaps, edited, "team"))
	e.c.Records = records.NewStore()
	require.NoError(t, e.c.reconcile(context.Background(), e.work(t)))
	assert.Equal(t, []string{"get configmaps", "update configmaps"}, e.dynamicRequests(), "only the drifted object is read and repaired")
	select {
	case event := <-e.events.Events:
		assert.Contains(t, event, EventDriftRepaired, "the repair is reported as drift")
	default:
		t.Error("no Event: the repair of drift made while the agent was down is not reported")
	}
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

	decoded, err := records.Decode(e.c.Records.Encode(fixture.Cluster + "/w"))
	require.NoError(t, err)
	assert.Len(t, decoded, 1, "the record of the dropped manifest is gone")
}

// A restarted agent rebuilds no record for a work whose status is behind its
// spec (it changed while the agent was down), nor for an object another
// writer changed last: those objects are read and compared.
func TestRestartReadsWhatItCannotRebuild(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().
		WithManifest(fixture.ConfigMap("team", "a", map[string]string{"k": "1"})).Build()
	for name, change := range map[string]func(e *env) *workv1.ManifestWork{
		"the work changed": func(e *env) *workv1.ManifestWork {
			return e.update(t, func(w *workv1.ManifestWork) {
				w.Spec.Workload.Manifests = fixture.NewWork(fixture.Cluster, "w").
					WithManifest(fixture.ConfigMap("team", "a", map[string]string{"k": "2"})).Build().Spec.Workload.Manifests
			})
		},
		"another writer changed the object last": func(e *env) *workv1.ManifestWork {
			obj, err := e.dynamic.Tracker().Get(configMaps, "team", "a")
			require.NoError(t, err)
			edited := obj.(*unstructured.Unstructured).DeepCopy()
			later := metav1.NewTime(time.Unix(1800000000, 0))
			edited.SetManagedFields(append(edited.GetManagedFields(), metav1.ManagedFieldsEntry{Manager: "kubectl-label",
				Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: &later}))
			require.NoError(t, e.dynamic.Tracker().Update(configMaps, edited, "team"))
			return e.work(t)
		},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, work.DeepCopy())
			e.c.Objects = trackerCache{dynamic: e.dynamic}
			recordWriters(e)
			require.NoError(t, e.c.reconcile(context.Background(), work.DeepCopy()))
			e.dynamicRequests()

			now := change(e)
			e.c.Records = records.NewStore()
			require.NoError(t, e.c.reconcile(context.Background(), now))
			assert.Contains(t, e.dynamicRequests(), "get configmaps", "read once")
		})
	}
}
