package appliedresources

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

	"github.com/manifestwork/work/pkg/agent/apply"
	"github.com/manifestwork/work/pkg/agent/apply/records"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

func TestPersistRecords(t *testing.T) {
	cm := ct.Resource(ct.ConfigMaps, "default", "cm", "uid-cm")
	cmObj := ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OurRef)
	work := webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true))
	key := work.Namespace + "/" + work.Name
	id := records.ObjectID(ct.ConfigMaps, "default", "cm")
	stored := func(spec uint64) string {
		s := records.NewStore()
		s.Put(key, id, records.Record{LastApplied: apply.LastApplied{Spec: spec}, Content: 7})
		return s.Encode(key)
	}
	annotationPatch := "patch appliedmanifestworks " + fixture.AppliedName

	cases := []struct {
		name      string
		work      *workv1.ManifestWork
		rebuilt   bool   // the work's records are not persisted (no OnSpokeChange rule)
		persisted string // the annotation the AppliedManifestWork holds
		known     bool   // the store has the work's records
		wantWrite bool
		want      string // the annotation then
	}{
		{name: "records that changed are written", known: true, persisted: stored(1), wantWrite: true, want: stored(2)},
		{name: "first records are written", known: true, wantWrite: true, want: stored(2)},
		{name: "records as persisted are not written again", known: true, persisted: stored(2)},
		{name: "records this agent has not loaded are kept", persisted: stored(1)},
		{name: "not while the status is behind the spec", known: true, persisted: stored(1), work: func() *workv1.ManifestWork {
			w := withOnSpokeChange(webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)))
			w.Generation = 3
			return w
		}()},
		{name: "records that are rebuilt are not written", rebuilt: true, known: true},
		{name: "records an earlier version persisted for a work whose records are rebuilt are removed", rebuilt: true,
			known: true, persisted: stored(1), wantWrite: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			applied := fixture.WebApplied(cm)
			if tc.persisted != "" {
				applied.Annotations = map[string]string{records.Annotation: tc.persisted}
			}
			e := newEnv(t, applied, ct.Cache{}.Put(ct.ConfigMaps, cmObj), cmObj)
			e.c.Records = records.NewStore()
			if tc.known {
				e.c.Records.Put(key, id, records.Record{LastApplied: apply.LastApplied{Spec: 2}, Content: 7})
			}
			w := tc.work
			switch {
			case w != nil:
			case tc.rebuilt:
				w = work
			default:
				w = withOnSpokeChange(work)
			}

			_, err := e.c.reconcile(context.Background(), w)
			require.NoError(t, err)

			if !tc.wantWrite {
				assert.NotContains(t, e.spokeWrites(), annotationPatch)
				return
			}
			assert.Equal(t, []string{annotationPatch}, e.spokeWrites())
			got, err := e.spoke.WorkV1().AppliedManifestWorks().Get(context.Background(), fixture.AppliedName, metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.Annotations[records.Annotation])
		})
	}
}

// withOnSpokeChange is the work with a server-side apply config that keeps
// the managed cluster's value of a field: its records are persisted.
func withOnSpokeChange(work *workv1.ManifestWork) *workv1.ManifestWork {
	w := work.DeepCopy()
	config := fixture.WithStrategy(fixture.Config("", "configmaps", "default", "cm"), workv1.UpdateStrategyTypeServerSideApply)
	config.UpdateStrategy.ServerSideApply = &workv1.ServerSideApplyConfig{IgnoreFields: []workv1.IgnoreField{{
		Condition: workv1.IgnoreFieldsConditionOnSpokeChange, JSONPaths: []string{".data.key"},
	}}}
	w.Spec.ManifestConfigs = append(w.Spec.ManifestConfigs, config)
	return w
}

// A lister copy that our own write replaced is not acted on again: the
// records (and the applied resources) are written once, not once more for
// every event that comes before the informer has caught up.
func TestOwnWritesAreNotRepeatedFromAnOutdatedCopy(t *testing.T) {
	cmObj := ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OurRef)
	work := withOnSpokeChange(webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true)))
	key := work.Namespace + "/" + work.Name
	applied := fixture.WebApplied() // lists nothing yet, holds no records
	applied.ResourceVersion = "10"
	e := newEnv(t, applied, ct.Cache{}.Put(ct.ConfigMaps, cmObj), cmObj)
	version := 10
	e.spoke.PrependReactor("patch", "appliedmanifestworks", func(action clienttesting.Action) (bool, runtime.Object, error) {
		version++ // a real server moves the version with every write
		got, err := e.spoke.Tracker().Get(action.GetResource(), "", fixture.AppliedName)
		require.NoError(t, err)
		out := got.(*workv1.AppliedManifestWork).DeepCopy()
		out.ResourceVersion = strconv.Itoa(version)
		return true, out, nil
	})
	e.c.Records = records.NewStore()
	e.c.Records.Put(key, records.ObjectID(ct.ConfigMaps, "default", "cm"), records.Record{LastApplied: apply.LastApplied{Spec: 2}, Content: 7})

	_, err := e.c.reconcile(context.Background(), work)
	require.NoError(t, err)
	require.Len(t, e.spokeWrites(), 2, "the applied resources and the records")

	// Events arrive while the lister still holds the copy the writes replaced.
	for range 3 {
		_, err = e.c.reconcile(context.Background(), work)
		require.NoError(t, err)
	}
	assert.Len(t, e.spokeWrites(), 2, "nothing written again from an outdated copy")

	// A copy newer than every write is acted on again.
	newer := applied.DeepCopy()
	newer.ResourceVersion = "13"
	require.NoError(t, e.appliedIndexer.Update(newer))
	_, err = e.c.reconcile(context.Background(), work)
	require.NoError(t, err)
	assert.Greater(t, len(e.spokeWrites()), 2, "a newer copy without the records is written to")
}

// A pass whose status write failed leaves its objects only in the records:
// they are recorded, or pruned once the work no longer names them.
func TestUnrecordedObjectsAreRecordedOrPruned(t *testing.T) {
	cm := ct.Resource(ct.ConfigMaps, "default", "cm", "uid-cm")
	stale := ct.Resource(ct.Deployments, "default", "web", "uid-web")
	cmObj := ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OurRef)
	staleObj := ct.Object(ct.Deployments, "default", "web", "uid-web", fixture.OurRef)
	work := webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true))
	key := work.Namespace + "/" + work.Name

	e := newEnv(t, fixture.WebApplied(cm), nil, cmObj, staleObj)
	e.c.Records = records.NewStore()
	e.c.Records.NoteApplied(key, stale) // applied for a generation whose status was never written
	e.c.Records.NoteApplied(key, cm)

	// While a pass is going on (the status is behind the spec), objects it
	// applied are not written one by one.
	passing := work.DeepCopy()
	passing.Generation++
	_, err := e.c.reconcile(context.Background(), passing)
	require.NoError(t, err)
	assert.Empty(t, e.spokeWrites(), "nothing written during the pass")
	assert.Empty(t, ct.Writes(e.metadata.Actions()), "nothing pruned during the pass")

	_, err = e.c.reconcile(context.Background(), work)
	require.NoError(t, err)

	assert.Equal(t, []workv1.AppliedManifestResourceMeta{cm}, e.appliedResources(t))
	assert.Equal(t, []string{"delete deployments default/web"}, ct.Writes(e.metadata.Actions()), "the object the work no longer names is pruned")
	assert.Empty(t, e.c.Records.Unrecorded(key))
}
