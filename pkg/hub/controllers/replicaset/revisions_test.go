package replicaset

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

const rsUID = types.UID("uid-web")

// hashOf is the revision hash of the template of version v.
func hashOf(t *testing.T, v string) string {
	t.Helper()
	h, err := revision.Hash(revision.Input{ManifestWorkTemplate: template(v)})
	require.NoError(t, err)
	return h
}

// revisionSet is a replica set with a UID (its revisions' owner), rolled
// out with All, its template at version v.
func revisionSet(v string, annotations map[string]string) *workv1alpha1.ManifestWorkReplicaSet {
	rs := withFinalizer(replicaSet(workv1alpha1.RolloutStrategy{Type: workv1alpha1.All}))
	rs.UID = rsUID
	rs.Annotations = annotations
	rs.Spec.ManifestWorkTemplate = template(v)
	return rs
}

// storedRevision is a ControllerRevision of the replica set for version v.
func storedRevision(t *testing.T, v string, number int64) *appsv1.ControllerRevision {
	t.Helper()
	rs := revisionSet(v, nil)
	data, err := revision.Canonical(revision.InputOf(rs))
	require.NoError(t, err)
	h := hashOf(t, v)
	return &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: revision.Name(rsName, h), UID: types.UID("uid-rev-" + v),
			Labels:          map[string]string{revision.ReplicaSetLabel: rsName, revision.HashLabel: h},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(rs, workv1alpha1.SchemeGroupVersion.WithKind("ManifestWorkReplicaSet"))}},
		Data:     runtime.RawExtension{Raw: data},
		Revision: number,
	}
}

// revisionNumbers are the replica set's revisions on the hub: version
// (the template's "version" value) by number.
func (h *harness) revisionNumbers() map[int64]string {
	h.t.Helper()
	revs, err := revision.List(h.t.Context(), h.kube.AppsV1(), h.replicaSet())
	require.NoError(h.t, err)
	out := map[int64]string{}
	for _, cr := range revs {
		in, err := revision.Decode(cr)
		require.NoError(h.t, err)
		for v := range 10 {
			if sameSpec(in.ManifestWorkTemplate, template(fmt.Sprint(v))) {
				out[cr.Revision] = fmt.Sprint(v)
			}
		}
		assert.Equal(h.t, revision.Name(rsName, cr.Labels[revision.HashLabel]), cr.Name)
		assert.True(h.t, *metav1.GetControllerOf(cr).Controller)
	}
	return out
}

func (h *harness) setTemplate(v string) {
	h.t.Helper()
	rs := h.replicaSet()
	rs.Spec.ManifestWorkTemplate = template(v)
	h.put(rs)
}

// A template is recorded once as revision 1, a new one as revision 2;
// going back reuses revision 1's ControllerRevision, numbered 3. Each work
// written carries the hash of its revision; nothing changed, no request.
func TestRevisionsRecordedAndReused(t *testing.T) {
	kube := kubefake.NewClientset()
	h := newHarnessWith(t, kube, revisionSet("1", nil), placement(plName, 2, 1), decision(plName, 0, "c1", "c2"))

	h.sync()
	assert.Equal(t, map[int64]string{1: "1"}, h.revisionNumbers())
	assert.Equal(t, hashOf(t, "1"), h.work("c1", rsName).Labels[revision.HashLabel])
	assert.Equal(t, "True/Recorded", conditionReason(h.replicaSet(), ConditionRevisionsRecorded))

	writes, _ := h.sync()
	assert.Empty(t, writes, "nothing changed, nothing written")
	assert.Empty(t, ct.Writes(kube.Actions()), "nor any revision")

	h.setTemplate("2")
	h.sync()
	assert.Equal(t, map[int64]string{1: "1", 2: "2"}, h.revisionNumbers())
	assert.Equal(t, hashOf(t, "2"), h.work("c2", rsName).Labels[revision.HashLabel])

	h.setTemplate("1")
	h.sync()
	assert.Equal(t, map[int64]string{2: "2", 3: "1"}, h.revisionNumbers(), "revision 1's content is reused as revision 3")
	assert.Equal(t, []string{"patch controllerrevisions " + ns + "/" + revision.Name(rsName, hashOf(t, "1"))}, ct.Writes(kube.Actions()))
	assert.Equal(t, hashOf(t, "1"), h.work("c1", rsName).Labels[revision.HashLabel])
	assert.Contains(t, conditionMessage(h.replicaSet(), ConditionRevisionsRecorded), "Revision 3 (hash "+hashOf(t, "1")+")")
}

// A revision records the replica set's change cause when it becomes
// current: created with it, or given the new one when it is reused.
func TestRevisionsRecordChangeCause(t *testing.T) {
	kube := kubefake.NewClientset()
	h := newHarnessWith(t, kube, revisionSet("1", map[string]string{revision.ChangeCauseAnnotation: "kubectl apply -f v1.yaml"}),
		placement(plName, 2, 1), decision(plName, 0, "c1", "c2"))
	cause := func(v string) string {
		cr, err := kube.AppsV1().ControllerRevisions(ns).Get(t.Context(), revision.Name(rsName, hashOf(t, v)), metav1.GetOptions{})
		require.NoError(t, err)
		return cr.Annotations[revision.ChangeCauseAnnotation]
	}
	h.sync()
	assert.Equal(t, "kubectl apply -f v1.yaml", cause("1"))

	rs := h.replicaSet()
	rs.Spec.ManifestWorkTemplate = template("2")
	delete(rs.Annotations, revision.ChangeCauseAnnotation)
	h.put(rs)
	h.sync()
	assert.Empty(t, cause("2"), "no cause recorded, none copied")

	rs = h.replicaSet()
	rs.Spec.ManifestWorkTemplate = template("1")
	metav1.SetMetaDataAnnotation(&rs.ObjectMeta, revision.ChangeCauseAnnotation, "work fleet undo web --to-revision 1")
	h.put(rs)
	h.sync()
	assert.Equal(t, "work fleet undo web --to-revision 1", cause("1"), "the reused revision says why it came back")
}

func conditionMessage(rs *workv1alpha1.ManifestWorkReplicaSet, t string) string {
	for _, c := range rs.Status.Conditions {
		if c.Type == t {
			return c.Message
		}
	}
	return ""
}

// Revisions beyond the limit go, oldest first, but never the current one
// nor one that a work still runs; a bad limit says so and keeps the default.
func TestRevisionsPruned(t *testing.T) {
	for _, tc := range []struct {
		name      string
		limit     string
		running   string // the version c1's work runs (c2's has the current template, 6)
		wantKept  []int64
		wantLimit string // the condition's status/reason
		// seen: the cache holds the revision the pass creates before it
		// prunes, as an informer quicker than the pass's work writes does.
		seen bool
	}{
		{name: "limit 3", limit: "3", running: "6", wantKept: []int64{4, 5, 6}, wantLimit: "True/Recorded"},
		{name: "a running one stays", limit: "3", running: "1", wantKept: []int64{1, 5, 6}, wantLimit: "True/Recorded"},
		{name: "limit 1 keeps the current one", limit: "1", running: "6", wantKept: []int64{6}, wantLimit: "True/Recorded"},
		{name: "the new revision already cached counts once", limit: "3", running: "6", seen: true,
			wantKept: []int64{4, 5, 6}, wantLimit: "True/Recorded"},
		{name: "bad limit: default 10", limit: "three", running: "6", wantKept: []int64{1, 2, 3, 4, 5, 6},
			wantLimit: "True/" + ReasonInvalidHistoryLimit},
		{name: "zero is bad", limit: "0", running: "6", wantKept: []int64{1, 2, 3, 4, 5, 6}, wantLimit: "True/" + ReasonInvalidHistoryLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var revs []runtime.Object
			for v := 1; v <= 5; v++ {
				revs = append(revs, storedRevision(t, fmt.Sprint(v), int64(v)))
			}
			kube := kubefake.NewClientset(revs...)
			rs := revisionSet("6", map[string]string{revision.HistoryLimitAnnotation: tc.limit})
			running := labelled(work("c1", rsName, tc.running)) // written before revisions: no hash label
			h := newHarnessWith(t, kube, rs, placement(plName, 2, 1), decision(plName, 0, "c2"), running)
			if tc.seen {
				kube.PrependReactor("create", "controllerrevisions", func(a clienttesting.Action) (bool, runtime.Object, error) {
					require.NoError(t, h.revisionStore.Add(a.(clienttesting.CreateAction).GetObject()))
					return false, nil, nil
				})
			}
			h.sync()
			var kept []int64
			for n := range h.revisionNumbers() {
				kept = append(kept, n)
			}
			assert.ElementsMatch(t, tc.wantKept, kept)
			assert.Equal(t, tc.wantLimit, conditionReason(h.replicaSet(), ConditionRevisionsRecorded))
			if tc.wantLimit != "True/Recorded" {
				assert.Contains(t, conditionMessage(h.replicaSet(), ConditionRevisionsRecorded),
					revision.HistoryLimitAnnotation+` is "`+tc.limit+`"`)
			}
		})
	}
}

// A work that has the current template but no hash label (written before
// revisions were recorded) is not rewritten for the label: it gets it when
// it is next written.
func TestHashLabelWrittenWithTheNextWrite(t *testing.T) {
	kube := kubefake.NewClientset()
	h := newHarnessWith(t, kube, revisionSet("1", nil), placement(plName, 1, 1), decision(plName, 0, "c1"), labelled(work("c1", rsName, "1")))
	writes, _ := h.sync()
	assert.NotContains(t, writes, "patch manifestworks c1/"+rsName, "no write for the label alone")
	assert.NotContains(t, h.work("c1", rsName).Labels, revision.HashLabel)

	h.setTemplate("2")
	writes, _ = h.sync()
	assert.Contains(t, writes, "patch manifestworks c1/"+rsName)
	w := h.work("c1", rsName)
	assert.Equal(t, hashOf(t, "2"), w.Labels[revision.HashLabel])
	assert.Equal(t, "apps.web", w.Labels[workv1alpha1.ReplicaSetLabel], "OCM's labels stay")
	assert.Equal(t, plName, w.Labels[workv1alpha1.PlacementNameLabel])
}

// When the hub refuses the controller ControllerRevisions, the rollout goes
// on, RevisionsRecorded says what is refused, and the refusal is not asked
// again until the template changes.
func TestRevisionWriteForbidden(t *testing.T) {
	kube := kubefake.NewClientset()
	kube.PrependReactor("create", "controllerrevisions", func(a clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "controllerrevisions"}, "",
			fmt.Errorf(`User "work" cannot create resource "controllerrevisions" in API group "apps"`))
	})
	h := newHarnessWith(t, kube, revisionSet("1", nil), placement(plName, 1, 1), decision(plName, 0, "c1"))
	writes, _ := h.sync()
	assert.Contains(t, writes, "create manifestworks c1/"+rsName, "the rollout goes on")
	assert.Equal(t, hashOf(t, "1"), h.work("c1", rsName).Labels[revision.HashLabel], "the work carries its hash")
	assert.Equal(t, "False/Forbidden", conditionReason(h.replicaSet(), ConditionRevisionsRecorded))
	assert.Contains(t, conditionMessage(h.replicaSet(), ConditionRevisionsRecorded), `cannot create resource "controllerrevisions"`)

	writes, _ = h.sync()
	assert.Empty(t, writes)
	assert.Empty(t, ct.Writes(kube.Actions()), "the refusal is not asked again")

	h.setTemplate("2")
	h.sync()
	assert.Equal(t, []string{"create controllerrevisions " + ns + "/" + revision.Name(rsName, hashOf(t, "2"))}, ct.Writes(kube.Actions()),
		"a new template is tried once")
}

// A controller built without the right to list ControllerRevisions says
// why on each replica set, and rolls out as before.
func TestRevisionsOff(t *testing.T) {
	h := newHarness(t, revisionSet("1", nil), placement(plName, 1, 1), decision(plName, 0, "c1"))
	h.c.revisionsOff = "the hub may not list controllerrevisions"
	writes, _ := h.sync()
	assert.Contains(t, writes, "create manifestworks c1/"+rsName)
	assert.Equal(t, "False/Forbidden", conditionReason(h.replicaSet(), ConditionRevisionsRecorded))
}

// labelled gives w the replica set's own labels too, as the controller writes them.
func labelled(w *workv1.ManifestWork) *workv1.ManifestWork {
	w.Labels["team"] = "web"
	return w
}
