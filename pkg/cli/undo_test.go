package cli

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// updates are the replica sets undo sent in updates.
func updates(client *fake.Clientset) []*workv1alpha1.ManifestWorkReplicaSet {
	var out []*workv1alpha1.ManifestWorkReplicaSet
	for _, a := range client.Actions() {
		if u, ok := a.(clienttesting.UpdateAction); ok && a.GetResource().Resource == "manifestworkreplicasets" {
			out = append(out, u.GetObject().(*workv1alpha1.ManifestWorkReplicaSet))
		}
	}
	return out
}

// assertTemplate asserts that spec is template(data), as JSON values: a
// revision keeps its manifests with their keys sorted.
func assertTemplate(t *testing.T, data string, spec workv1.ManifestWorkSpec, msgAndArgs ...any) {
	t.Helper()
	assert.Equal(t, jsonValue(template(data)), jsonValue(spec), msgAndArgs...)
}

// Undo copies the revision's template into the spec with the command as
// change cause, in one update of the replica set as read; a template that
// is the revision's already is left alone; without --to-revision it takes
// the newest revision that is not current.
func TestUndo(t *testing.T) {
	ctx := context.Background()
	o, client, out := options(revisedFleet(t, false)...)

	require.NoError(t, Undo(ctx, o, UndoOptions{ToRevision: 1}, "web"))
	sent := updates(client)
	require.Len(t, sent, 1)
	assert.Equal(t, "7", sent[0].ResourceVersion, "the update is of the replica set as read")
	assertTemplate(t, "v0", sent[0].Spec.ManifestWorkTemplate)
	assert.Equal(t, "work fleet undo web --to-revision 1", sent[0].Annotations[ChangeCauseAnnotation])
	assert.Equal(t, []workv1alpha1.LocalPlacementReference{{Name: "web"}}, sent[0].Spec.PlacementRefs, "the rest of the spec stays")
	assert.Empty(t, sent[0].Annotations["kubectl.kubernetes.io/last-applied-configuration"])

	require.NoError(t, Undo(ctx, o, UndoOptions{ToRevision: 1}, "web"))
	assert.Len(t, updates(client), 1, "the template is revision 1's already: no write")

	// The fake hub renumbers nothing: the newest revision that is not
	// current is 3.
	require.NoError(t, Undo(ctx, o, UndoOptions{}, "web"))
	sent = updates(client)
	require.Len(t, sent, 2)
	assertTemplate(t, "v2", sent[1].Spec.ManifestWorkTemplate)
	assert.Equal(t, "work fleet undo web --to-revision 3", sent[1].Annotations[ChangeCauseAnnotation])

	o, client, _ = options(revisedFleet(t, true)...)
	o.Out = out
	require.NoError(t, Undo(ctx, o, UndoOptions{}, "web"))
	sent = updates(client)
	require.Len(t, sent, 1)
	assertTemplate(t, "v1", sent[0].Spec.ManifestWorkTemplate, "the previous revision is 2")
	golden(t, "undo.txt", out.String())
}

// Undo fails without writing: 1 for a revision not in the history or no
// previous one, 2 for a replica set that does not exist.
func TestUndoFails(t *testing.T) {
	fleet := revisedFleet(t, false)
	fleet[0].(*workv1alpha1.ManifestWorkReplicaSet).Spec.ManifestWorkTemplate = template("v0")
	only := fleet[:2] // the replica set, on its only revision, 1
	for _, tt := range []struct {
		name string
		objs []runtime.Object
		uo   UndoOptions
		code int
		err  string
	}{
		{"no such revision", revisedFleet(t, false), UndoOptions{ToRevision: 99}, ExitFailed,
			"manifestworkreplicaset fleet/web has no revision 99 (its revisions: 3, 2, 1)"},
		{"no previous revision", only, UndoOptions{}, ExitFailed,
			"manifestworkreplicaset fleet/web has no previous revision to go back to: its only revision, 1, is current"},
		{"no such replica set", nil, UndoOptions{}, ExitUsage,
			`manifestworkreplicasets.work.open-cluster-management.io "web" not found`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, client, out := options(tt.objs...)
			err := Undo(context.Background(), o, tt.uo, "web")
			assert.Equal(t, tt.code, ExitCode(err, -1), "%v", err)
			assert.EqualError(t, err, tt.err)
			assert.Empty(t, updates(client))
			assert.Empty(t, out.String())
		})
	}
}

// A conflict (the replica set changed since it was read) is retried once
// on a fresh read while its template is the same; a second conflict, or a
// template changed by someone else, exits 2 and rolls nothing back.
func TestUndoConflict(t *testing.T) {
	for _, tt := range []struct {
		name          string
		conflicts     int
		otherTemplate bool
		code, sent    int
	}{
		{"one conflict: retried", 1, false, ExitOK, 2},
		{"two conflicts", 2, false, ExitUsage, 2},
		{"the template changed meanwhile", 1, true, ExitUsage, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, client, _ := options(revisedFleet(t, false)...)
			conflicts := 0
			client.PrependReactor("update", "manifestworkreplicasets", func(clienttesting.Action) (bool, runtime.Object, error) {
				if conflicts == tt.conflicts {
					return false, nil, nil
				}
				conflicts++
				rs, err := client.Tracker().Get(workv1alpha1.SchemeGroupVersion.WithResource("manifestworkreplicasets"), "fleet", "web")
				require.NoError(t, err)
				changed := rs.(*workv1alpha1.ManifestWorkReplicaSet).DeepCopy()
				changed.ResourceVersion = "8"
				if tt.otherTemplate {
					changed.Spec.ManifestWorkTemplate = template("v3")
				}
				require.NoError(t, client.Tracker().Update(workv1alpha1.SchemeGroupVersion.WithResource("manifestworkreplicasets"), changed, "fleet"))
				return true, nil, apierrors.NewConflict(workv1alpha1.Resource("manifestworkreplicasets"), "web", assert.AnError)
			})
			err := Undo(context.Background(), o, UndoOptions{ToRevision: 1}, "web")
			assert.Equal(t, tt.code, ExitCode(err, -1), "%v", err)
			sent := updates(client)
			assert.Len(t, sent, tt.sent)
			if tt.code != ExitOK {
				assert.Contains(t, err.Error(), "manifestworkreplicaset fleet/web changed while undo wrote it, and was not rolled back")
				return
			}
			assert.Equal(t, "8", sent[1].ResourceVersion, "the retry is of the fresh read")
			rs, err := client.WorkV1alpha1().ManifestWorkReplicaSets("fleet").Get(context.Background(), "web", metav1.GetOptions{})
			require.NoError(t, err)
			assertTemplate(t, "v0", rs.Spec.ManifestWorkTemplate)
		})
	}
}

// dataOverride is an override of fleet/web that sets the ConfigMap's key v
// to value for cluster1.
func dataOverride(name, value string) *fleetv1alpha1.WorkOverride {
	raw, _ := json.Marshal(value)
	return &fleetv1alpha1.WorkOverride{
		ObjectMeta: metav1.ObjectMeta{Namespace: "fleet", Name: name, UID: types.UID("uid-" + name), Generation: 4},
		Spec: fleetv1alpha1.WorkOverrideSpec{ReplicaSet: "web", Rules: []fleetv1alpha1.WorkOverrideRule{{
			Clusters:  fleetv1alpha1.ClusterSelector{ClusterNames: []string{"cluster1"}},
			Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap"}},
			Patches:   []fleetv1alpha1.Patch{{Op: fleetv1alpha1.PatchReplace, Path: "/data/v", Value: &apiextensionsv1.JSON{Raw: raw}}},
		}}},
	}
}

// withOverrides is a revision of template(data) with the overrides, as
// number n.
func withOverrides(t *testing.T, data string, n int64, overrides ...fleetv1alpha1.WorkOverride) *appsv1.ControllerRevision {
	t.Helper()
	cr := revisionOf(t, data, n, time.Hour, "")
	in := render.Input(template(data), overrides)
	raw, err := revision.Canonical(in)
	require.NoError(t, err)
	hash, err := revision.Hash(in)
	require.NoError(t, err)
	cr.Name, cr.Labels[revision.HashLabel], cr.Data.Raw = revision.Name("web", hash), hash, raw
	return cr
}

// allowing makes the fake hub answer each SelfSubjectAccessReview of
// workoverrides with whether verb is allowed.
func allowing(o *Options, allowed func(verb string) bool) {
	o.Kube.(*kubefake.Clientset).PrependReactor("create", "selfsubjectaccessreviews", func(a clienttesting.Action) (bool, runtime.Object, error) {
		r := a.(clienttesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview).DeepCopy()
		r.Status.Allowed = allowed(r.Spec.ResourceAttributes.Verb)
		return true, r, nil
	})
}

// overrideWrites are the writes of workoverrides undo sent.
func overrideWrites(client *fake.Clientset) []string {
	var out []string
	for _, a := range client.Actions() {
		if a.GetResource().Resource == "workoverrides" && a.GetVerb() != "list" && a.GetVerb() != "get" {
			out = append(out, a.GetVerb())
		}
	}
	return out
}

// Undo restores the revision's overrides with its template: an override
// changed since is updated back, one deleted since is recreated, one
// created since is deleted, each said, before the replica set is written.
// A user who may not write one of them gets exit 2 and nothing is written.
func TestUndoRestoresOverrides(t *testing.T) {
	fleet := func() []runtime.Object {
		rs := replicaSet(false, completeSummary())
		rs.UID, rs.ResourceVersion = rsUID, "7"
		return []runtime.Object{rs,
			withOverrides(t, "v0", 1, *dataOverride("a", "one"), *dataOverride("b", "two")),
			withOverrides(t, "v2", 2, *dataOverride("a", "changed"), *dataOverride("c", "new")),
			dataOverride("a", "changed"), dataOverride("c", "new"),
		}
	}
	t.Run("restored", func(t *testing.T) {
		o, client, out := options(fleet()...)
		allowing(o, func(string) bool { return true })
		require.NoError(t, Undo(t.Context(), o, UndoOptions{}, "web"))
		assert.Equal(t, []string{"update", "create", "delete"}, overrideWrites(client))
		live, err := client.FleetV1alpha1().WorkOverrides("fleet").List(t.Context(), metav1.ListOptions{})
		require.NoError(t, err)
		specs := map[string]fleetv1alpha1.WorkOverrideSpec{}
		for _, o := range live.Items {
			specs[o.Name] = o.Spec
		}
		assert.Equal(t, map[string]fleetv1alpha1.WorkOverrideSpec{"a": dataOverride("a", "one").Spec, "b": dataOverride("b", "two").Spec}, specs)
		sent := updates(client)
		require.Len(t, sent, 1)
		assertTemplate(t, "v0", sent[0].Spec.ManifestWorkTemplate)
		assert.Equal(t, "workoverride/a restored as the revision recorded it\n"+
			"workoverride/b recreated as the revision recorded it\n"+
			"workoverride/c deleted: the revision has no such override\n"+
			"manifestworkreplicaset/web rolled back to revision 1\n", out.String())

		require.NoError(t, Undo(t.Context(), o, UndoOptions{ToRevision: 1}, "web"))
		assert.Contains(t, out.String(), "skipped rollback", "template and overrides are revision 1's: nothing to do")
	})
	t.Run("refused", func(t *testing.T) {
		o, client, out := options(fleet()...)
		allowing(o, func(verb string) bool { return verb != "delete" })
		err := Undo(t.Context(), o, UndoOptions{}, "web")
		assert.Equal(t, ExitUsage, ExitCode(err, -1), "%v", err)
		assert.ErrorContains(t, err, "you may not delete workoverrides (group fleet.manifestwork.io) in fleet: nothing was written")
		assert.Empty(t, overrideWrites(client))
		assert.Empty(t, updates(client))
		assert.Empty(t, out.String())
	})
}
