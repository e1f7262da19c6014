package appliedresources

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/apply/records"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

// An object of a cluster-scoped kind whose manifest carries a namespace is
// applied without it, and recorded so (package manifestwork): the
// AppliedManifestWork lists it without namespace, as OCM's agent does, and
// the pruning never takes it for a resource dropped from the work, also
// while the work's status still names it with the manifest's namespace (as
// an earlier version of the agent wrote it), which would delete and create
// it again and again.
func TestAClusterScopedObjectIsRecordedWithoutNamespaceAndNotPruned(t *testing.T) {
	team := ct.Resource(ct.Namespaces, "", "team", "uid-team")
	teamObj := ct.Object(ct.Namespaces, "", "team", "uid-team", fixture.OurRef)
	cases := []struct {
		name        string
		status      string // the namespace the work's status names the object with
		applied     []workv1.AppliedManifestResourceMeta
		want        []workv1.AppliedManifestResourceMeta
		wantRecheck bool
	}{{
		name:   "named without namespace: recorded so",
		status: "",
		want:   []workv1.AppliedManifestResourceMeta{team},
	}, {
		name:   "named without namespace and recorded: nothing to write",
		status: "", applied: []workv1.AppliedManifestResourceMeta{team},
		want: []workv1.AppliedManifestResourceMeta{team},
	}, {
		name:   "named with the manifest's namespace by an earlier status: kept until the status names it without",
		status: "stray", wantRecheck: true,
	}, {
		name:   "named with the manifest's namespace by an earlier status, and recorded: kept",
		status: "stray", applied: []workv1.AppliedManifestResourceMeta{team}, wantRecheck: true,
		want: []workv1.AppliedManifestResourceMeta{team},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			work := webWork(manifestStatus(ct.Namespaces, tc.status, "team", true))
			key := work.Namespace + "/" + work.Name
			e := newEnv(t, fixture.WebApplied(tc.applied...), nil, teamObj)
			e.c.Records = records.NewStore()
			e.c.Records.NoteApplied(key, team) // the pass applied it, as package manifestwork names it

			for range 3 { // and again: nothing changes
				after, err := e.c.reconcile(context.Background(), work)
				require.NoError(t, err)
				assert.Equal(t, tc.wantRecheck, after > 0)
				applied, err := e.spoke.WorkV1().AppliedManifestWorks().Get(context.Background(), fixture.AppliedName, metav1.GetOptions{})
				require.NoError(t, err)
				require.NoError(t, e.appliedIndexer.Update(applied))
			}

			assert.Empty(t, ct.Writes(e.metadata.Actions()), "the object is never deleted")
			assert.Equal(t, tc.want, e.appliedResources(t))
			stored := ct.Stored(t, e.metadata, ct.Namespaces, "", "team")
			require.NotNil(t, stored)
			assert.Equal(t, teamObj.UID, stored.UID)
		})
	}
}
