package integration

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// A replica set's templates are kept as ControllerRevisions: a new template
// is revision 2, going back to the first reuses its ControllerRevision as
// revision 3; every work carries the hash of the revision it runs, so one
// label query says which cluster runs which; a history limit of 1 makes the
// controller delete the revision no work runs any longer.
func TestReplicaSetRevisions(t *testing.T) {
	s, ctx := replicaSetHub(t)
	const name = "revs"

	spec := func(color string) workv1alpha1.ManifestWorkReplicaSetSpec {
		return workv1alpha1.ManifestWorkReplicaSetSpec{
			ManifestWorkTemplate: fixture.NewWork("x", "x").WithManifest(
				fixture.ConfigMap("default", name, map[string]string{"color": color})).Build().Spec,
			PlacementRefs: []workv1alpha1.LocalPlacementReference{{Name: rsPlacement,
				RolloutStrategy: workv1alpha1.RolloutStrategy{Type: workv1alpha1.All}}},
		}
	}
	sets := s.Work.WorkV1alpha1().ManifestWorkReplicaSets(rsNamespace)
	_, err := sets.Create(ctx, &workv1alpha1.ManifestWorkReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: rsNamespace, Name: name}, Spec: spec("blue")}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sets.Delete(context.Background(), name, metav1.DeleteOptions{}) })
	hash := func(color string) string {
		h, err := revision.Hash(revision.Input{ManifestWorkTemplate: spec(color).ManifestWorkTemplate})
		require.NoError(t, err)
		return h
	}

	// waitFor waits until the revisions are want (hash by number) and every
	// cluster's work carries the hash of color.
	waitFor := func(want map[int64]string, color, what string) {
		t.Helper()
		framework.Eventually(t, convergeTimeout, func() error {
			rs, err := sets.Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			revs, err := revision.List(ctx, s.Kube.AppsV1(), rs)
			if err != nil {
				return err
			}
			got := map[int64]string{}
			for _, cr := range revs {
				got[cr.Revision] = cr.Labels[revision.HashLabel]
			}
			if !maps.Equal(got, want) {
				return fmt.Errorf("revisions %v, want %v", got, want)
			}
			works, err := s.Work.WorkV1().ManifestWorks("").List(ctx, metav1.ListOptions{
				LabelSelector: revision.HashLabel + "=" + hash(color)})
			if err != nil {
				return err
			}
			var clusters []string
			for _, w := range works.Items {
				if w.Name == name {
					clusters = append(clusters, w.Namespace)
				}
			}
			slices.Sort(clusters)
			if !slices.Equal(clusters, rsClusters) {
				return fmt.Errorf("clusters on %s: %v", hash(color), clusters)
			}
			return nil
		}, what)
	}
	waitFor(map[int64]string{1: hash("blue")}, "blue", "the first template is revision 1, on every cluster")

	update := func(edit func(*workv1alpha1.ManifestWorkReplicaSet)) {
		t.Helper()
		require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error { // the controller writes it too
			rs, err := sets.Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			edit(rs)
			_, err = sets.Update(ctx, rs, metav1.UpdateOptions{})
			return err
		}))
	}
	update(func(rs *workv1alpha1.ManifestWorkReplicaSet) { rs.Spec = spec("green") })
	waitFor(map[int64]string{1: hash("blue"), 2: hash("green")}, "green", "a new template is revision 2")

	update(func(rs *workv1alpha1.ManifestWorkReplicaSet) { rs.Spec = spec("blue") })
	waitFor(map[int64]string{2: hash("green"), 3: hash("blue")}, "blue", "going back reuses revision 1's content as revision 3")
	cr, err := s.Kube.AppsV1().ControllerRevisions(rsNamespace).Get(ctx, revision.Name(name, hash("blue")), metav1.GetOptions{})
	require.NoError(t, err)
	require.Equal(t, int64(3), cr.Revision)
	rs, err := sets.Get(ctx, name, metav1.GetOptions{})
	require.NoError(t, err)
	require.Equal(t, rs.UID, metav1.GetControllerOf(cr).UID, "owned by the replica set")

	update(func(rs *workv1alpha1.ManifestWorkReplicaSet) {
		rs.Annotations = map[string]string{revision.HistoryLimitAnnotation: "1"}
	})
	waitFor(map[int64]string{3: hash("blue")}, "blue", "beyond the limit, the revision no work runs goes")
	framework.Eventually(t, convergeTimeout, func() error {
		rs, err := sets.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		c := apimeta.FindStatusCondition(rs.Status.Conditions, replicaset.ConditionRevisionsRecorded)
		if c == nil || c.Reason != replicaset.ReasonRecorded || !strings.Contains(c.Message, "Revision 3 (hash "+hash("blue")+")") {
			return fmt.Errorf("RevisionsRecorded %+v", c)
		}
		return nil
	}, "RevisionsRecorded names the current revision")
}
