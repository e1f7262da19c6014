package appliedresources

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/apply"
	"github.com/manifestwork/work/pkg/agent/applyrecords"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

func TestPersistRecords(t *testing.T) {
	cm := ct.Resource(ct.ConfigMaps, "default", "cm", "uid-cm")
	cmObj := ct.Object(ct.ConfigMaps, "default", "cm", "uid-cm", fixture.OurRef)
	work := webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true))
	key := work.Namespace + "/" + work.Name
	id := applyrecords.ObjectID(ct.ConfigMaps, "default", "cm")
	stored := func(spec uint64) string {
		s := applyrecords.NewStore()
		s.Put(key, id, applyrecords.Record{LastApplied: apply.LastApplied{Spec: spec}, Content: 7})
		return s.Encode(key)
	}
	annotationPatch := "patch appliedmanifestworks " + fixture.AppliedName

	cases := []struct {
		name      string
		work      *workv1.ManifestWork
		persisted string // the annotation the AppliedManifestWork holds
		known     bool   // the store has the work's records
		wantWrite bool
	}{
		{name: "records that changed are written", known: true, persisted: stored(1), wantWrite: true},
		{name: "first records are written", known: true, wantWrite: true},
		{name: "records as persisted are not written again", known: true, persisted: stored(2)},
		{name: "records this agent has not loaded are kept", persisted: stored(1)},
		{name: "not while the status is behind the spec", known: true, persisted: stored(1), work: func() *workv1.ManifestWork {
			w := webWork(manifestStatus(ct.ConfigMaps, "default", "cm", true))
			w.Generation = 3
			return w
		}()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			applied := fixture.WebApplied(cm)
			if tc.persisted != "" {
				applied.Annotations = map[string]string{applyrecords.Annotation: tc.persisted}
			}
			e := newEnv(t, applied, ct.Cache{}.Put(ct.ConfigMaps, cmObj), cmObj)
			e.c.Records = applyrecords.NewStore()
			if tc.known {
				e.c.Records.Put(key, id, applyrecords.Record{LastApplied: apply.LastApplied{Spec: 2}, Content: 7})
			}
			w := tc.work
			if w == nil {
				w = work
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
			assert.Equal(t, stored(2), got.Annotations[applyrecords.Annotation])
		})
	}
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

	e := newEnv(t, fixture.WebApplied(), nil, cmObj, staleObj)
	e.c.Records = applyrecords.NewStore()
	e.c.Records.NoteApplied(key, stale) // applied for a generation whose status was never written
	e.c.Records.NoteApplied(key, cm)

	_, err := e.c.reconcile(context.Background(), work)
	require.NoError(t, err)

	assert.Equal(t, []workv1.AppliedManifestResourceMeta{cm}, e.appliedResources(t))
	assert.Equal(t, []string{"delete deployments default/web"}, ct.Writes(e.metadata.Actions()), "the object the work no longer names is pruned")
	assert.Empty(t, e.c.Records.Unrecorded(key))
}
