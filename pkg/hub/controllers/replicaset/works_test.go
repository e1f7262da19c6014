package replicaset

import (
	"maps"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/fixture"
)

// A work written from a template ends as an update of the whole work would
// leave it: the template's spec exactly (a manifest, a field or a manifest
// config the template no longer has is gone), our labels set and the others
// kept; a spec that is already the template's is not sent again (a work with
// it and an older revision's hash is up to date: nothing is written), and a
// work that replaced the cached one under its name is not written.
func TestApplyWorkWritesWhatAnUpdateWould(t *testing.T) {
	withExtras := func(w *workv1.ManifestWork) *workv1.ManifestWork {
		w.Spec = fixture.NewWork("x", "x").
			WithManifest(fixture.ConfigMap("default", "web", map[string]string{"version": "1", "extra": "x"})).
			WithManifest(fixture.ConfigMap("default", "old", nil)).
			WithDeleteOption(fixture.OrphanAll()).
			WithConfig(workv1.ManifestConfigOption{ResourceIdentifier: workv1.ResourceIdentifier{
				Resource: "configmaps", Namespace: "default", Name: "old"}}).Build().Spec
		w.Labels["keep"] = "me"
		return w
	}
	cases := []struct {
		name       string
		cached     *workv1.ManifestWork
		storedUID  types.UID // "": the cached work's
		template   string
		wantSpec   bool // the patch carries the spec
		wantGen    int64
		wantLabels map[string]string
		wantErr    string
		wantNone   bool // nothing is written
	}{
		{name: "a removed manifest, field and manifest config go away",
			cached: withExtras(work("c1", rsName, "1")), template: "2", wantSpec: true, wantGen: 2,
			wantLabels: map[string]string{"keep": "me"}},
		{name: "the same spec with a new hash: up to date",
			cached:   func() *workv1.ManifestWork { w := work("c1", rsName, "1"); w.Labels["team"] = "web"; return w }(),
			template: "1", wantNone: true},
		{name: "the same spec without our labels: the labels alone",
			cached:   func() *workv1.ManifestWork { w := work("c1", rsName, "1"); w.Labels = map[string]string{}; return w }(),
			template: "1", wantGen: 1},
		{name: "a work without labels gets them",
			cached:   func() *workv1.ManifestWork { w := work("c1", rsName, "1"); w.Labels = nil; return w }(),
			template: "2", wantSpec: true, wantGen: 2},
		{name: "a work that replaced the cached one is left alone",
			cached: work("c1", rsName, "1"), storedUID: "another", template: "2", wantErr: "update work c1/" + rsName},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.cached.Generation = 1
			if tc.cached.Labels != nil {
				tc.cached.Labels[revision.HashLabel] = "old-hash"
			}
			stored := tc.cached.DeepCopy()
			if tc.storedUID != "" {
				stored.UID = tc.storedUID
			}
			rs := withFinalizer(replicaSet(all(none)))
			rs.Spec.ManifestWorkTemplate = template(tc.template)
			h := newHarness(t, rs, stored)
			h.client.ClearActions()

			to := target{placement: plName, hash: "new-hash", render: newRenderer(rs.Spec.ManifestWorkTemplate, nil, nil)}
			_, err := h.c.applyWork(t.Context(), rs, to, "c1", tc.cached)
			got, gerr := h.client.WorkV1().ManifestWorks("c1").Get(t.Context(), rsName, metav1.GetOptions{})
			require.NoError(t, gerr)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				assert.Equal(t, stored.Spec, got.Spec, "unchanged")
				assert.Equal(t, stored.Labels, got.Labels, "unchanged")
				return
			}
			require.NoError(t, err)
			if tc.wantNone {
				assert.Empty(t, ct.Writes(h.client.Actions()))
				assert.Equal(t, stored.Labels, got.Labels)
				return
			}

			// What an update of the whole work would have stored.
			put := tc.cached.DeepCopy()
			put.Spec = template(tc.template)
			if put.Labels == nil {
				put.Labels = map[string]string{}
			}
			maps.Copy(put.Labels, map[string]string{"team": "web", revision.HashLabel: "new-hash",
				workv1alpha1.ReplicaSetLabel: ns + "." + rsName, workv1alpha1.PlacementNameLabel: plName})
			assert.True(t, sameSpec(put.Spec, got.Spec), "spec %+v, want the template's %+v", got.Spec, put.Spec)
			assert.Nil(t, got.Spec.DeleteOption)
			assert.Empty(t, got.Spec.ManifestConfigs)
			require.Len(t, got.Spec.Workload.Manifests, 1)
			assert.JSONEq(t, string(put.Spec.Workload.Manifests[0].Raw), string(got.Spec.Workload.Manifests[0].Raw))
			assert.Equal(t, put.Labels, got.Labels)
			for k, v := range tc.wantLabels {
				assert.Equal(t, v, got.Labels[k], k)
			}
			assert.Equal(t, tc.wantGen, got.Generation)

			var patches []string
			for _, a := range h.client.Actions() {
				if p, ok := a.(clienttesting.PatchAction); ok {
					assert.Equal(t, types.JSONPatchType, p.GetPatchType())
					patches = append(patches, string(p.GetPatch()))
				}
			}
			require.Len(t, patches, 1, "one write: %v", h.client.Actions())
			if tc.wantSpec {
				assert.Contains(t, patches[0], `"path":"/spec"`)
			} else {
				assert.NotContains(t, patches[0], `"path":"/spec"`)
			}
		})
	}
}

// A pass that runs before the cache shows the works the pass before it
// updated (the next report of a rollout often comes first) reads them as
// updated: it writes none of them again, and their clusters keep their
// slots; once the cache shows them, it reads the cache again.
func TestPassBeforeTheCacheCatchesUpWritesNoWorkAgain(t *testing.T) {
	rs := withFinalizer(replicaSet(progressiveOne))
	rs.Spec.ManifestWorkTemplate = template("2")
	h := newHarness(t, rs, placement(plName, 3, 1), decision(plName, 0, "c1", "c2", "c3"),
		succeeded(work("c1", rsName, "1")), succeeded(work("c2", rsName, "1")), succeeded(work("c3", rsName, "1")))
	workWrites := func() []string {
		t.Helper()
		h.client.ClearActions()
		require.NoError(t, h.c.sync(t.Context(), ct.NewSyncContext(rsKey)))
		var out []string
		for _, w := range ct.Writes(h.client.Actions()) {
			if strings.Contains(w, " manifestworks ") {
				out = append(out, w)
			}
		}
		return out
	}

	assert.Equal(t, []string{"patch manifestworks c1/" + rsName}, workWrites())
	assert.Empty(t, workWrites(), "the cache still shows c1 on template 1, but c1 holds the slot")

	h.refresh()
	h.put(succeeded(h.work("c1", rsName)))
	assert.Equal(t, []string{"patch manifestworks c2/" + rsName}, workWrites(), "c1 reported from the cache: c2 is next")
}

// A work deleted by someone else, seen as a delete event or a tombstone,
// leaves nothing remembered of the controller's last update to it.
func TestWrittenWorkForgottenWhenDeleted(t *testing.T) {
	for name, event := range map[string]func(*workv1.ManifestWork) any{
		"delete event": func(w *workv1.ManifestWork) any { return w },
		"tombstone":    func(w *workv1.ManifestWork) any { return cache.DeletedFinalStateUnknown{Key: "c1/" + w.Name, Obj: w} },
	} {
		t.Run(name, func(t *testing.T) {
			from := work("c1", rsName, "1")
			from.ResourceVersion = "1"
			to := from.DeepCopy()
			to.ResourceVersion = "2"
			var w writtenWorks
			w.remember(from, to)
			require.Same(t, to, w.current(from), "remembered until the cache shows the update")
			w.forgetDeleted(event(to))
			assert.Same(t, from, w.current(from), "forgotten once the work is deleted")
			assert.Empty(t, w.by)
		})
	}
}
