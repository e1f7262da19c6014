package integration

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// The agent watches only the AppliedManifestWorks labelled with its cluster.
// Records written without the label, by OCM's agent (which a take-over
// inherits them from) or by an agent from before the label, are labelled
// when the agent starts, or when it applies their work later, and stay their
// works' records: the agent applies into them instead of making new ones. A
// record the agent does not answer for (another agent's on the same cluster)
// keeps no label and is left alone.
func TestAgentLabelsTheRecordsItAnswersFor(t *testing.T) {
	s, ctx := setup(t)
	ns := "integration-label"
	require.NoError(t, s.EnsureNamespaces(ctx, ns))
	hub, err := clientcmd.BuildConfigFromFlags("", s.KubeconfigPath) // as the agent reads it
	require.NoError(t, err)
	hubHash := appliedwork.HubHash(hub.Host)
	works := s.Work.WorkV1().ManifestWorks(fixture.Cluster)
	records := s.Work.WorkV1().AppliedManifestWorks()

	_, err = works.Create(ctx, fixture.NewWork(fixture.Cluster, "inherited").
		WithManifest(fixture.ConfigMap(ns, "inherited", map[string]string{"k": "v"})).Build(), metav1.CreateOptions{})
	require.NoError(t, err)
	inherited := createRecord(t, s, fixture.NewApplied(hubHash, "inherited").WithAgent("ocm-agent").Build())
	theirs := createRecord(t, s, fixture.NewApplied(hubHash, "elsewhere").WithAgent("agent-b").Build())

	runAgent(t, s)

	framework.Eventually(t, convergeTimeout, func() error {
		w, err := works.Get(ctx, "inherited", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if !apimeta.IsStatusConditionTrue(w.Status.Conditions, workv1.WorkApplied) {
			return fmt.Errorf("not Applied: %v", w.Status.Conditions)
		}
		record, err := records.Get(ctx, inherited.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if len(record.Status.AppliedResources) != 1 {
			return fmt.Errorf("applied resources %v", record.Status.AppliedResources)
		}
		return nil
	}, "the work Applied, and recorded in the inherited AppliedManifestWork")
	record, err := records.Get(ctx, inherited.Name, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, inherited.UID, record.UID, "the same record, not a new one")
	assert.Equal(t, fixture.Cluster, record.Labels[appliedwork.ClusterLabel])
	cm, err := s.Kube.CoreV1().ConfigMaps(ns).Get(ctx, "inherited", metav1.GetOptions{})
	require.NoError(t, err)
	require.Len(t, cm.OwnerReferences, 1)
	assert.Equal(t, inherited.UID, cm.OwnerReferences[0].UID)

	// The agent labelled what it answers for before its controllers
	// started: the other record was looked at then.
	other, err := records.Get(ctx, theirs.Name, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, theirs.ResourceVersion, other.ResourceVersion, "another agent's record is left as it was")
	assert.NotContains(t, other.Labels, appliedwork.ClusterLabel)

	// A record that appears while the agent runs (OCM's agent still
	// running during a hand-over) is labelled when its work is applied.
	late := createRecord(t, s, fixture.NewApplied(hubHash, "late").WithAgent("ocm-agent").Build())
	_, err = works.Create(ctx, fixture.NewWork(fixture.Cluster, "late").
		WithManifest(fixture.ConfigMap(ns, "late", map[string]string{"k": "v"})).Build(), metav1.CreateOptions{})
	require.NoError(t, err)
	framework.Eventually(t, convergeTimeout, func() error {
		cm, err := s.Kube.CoreV1().ConfigMaps(ns).Get(ctx, "late", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if len(cm.OwnerReferences) != 1 || cm.OwnerReferences[0].UID != late.UID {
			return fmt.Errorf("owners %v", cm.OwnerReferences)
		}
		record, err := records.Get(ctx, late.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if record.Labels[appliedwork.ClusterLabel] != fixture.Cluster || len(record.Status.AppliedResources) != 1 {
			return fmt.Errorf("labels %v, applied resources %v", record.Labels, record.Status.AppliedResources)
		}
		return nil
	}, "the later work applied into the record found, labelled and recorded")

	// Deleting the works cleans up through the inherited records.
	require.NoError(t, works.Delete(ctx, "late", metav1.DeleteOptions{}))
	require.NoError(t, works.Delete(ctx, "inherited", metav1.DeleteOptions{}))
	framework.Eventually(t, convergeTimeout, func() error {
		for _, r := range []*workv1.AppliedManifestWork{inherited, late} {
			if _, err := records.Get(ctx, r.Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				return fmt.Errorf("record %s still there: %v", r.Name, err)
			}
		}
		if _, err := s.Kube.CoreV1().ConfigMaps(ns).Get(ctx, "inherited", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("configmap still there: %v", err)
		}
		return nil
	}, "the works' records and the object deleted")
}

// createRecord creates an AppliedManifestWork as another agent would have,
// and removes it, finalizer and all, when the test ends.
func createRecord(t *testing.T, s *framework.APIServer, applied *workv1.AppliedManifestWork) *workv1.AppliedManifestWork {
	t.Helper()
	records := s.Work.WorkV1().AppliedManifestWorks()
	created, err := records.Create(t.Context(), applied, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx := context.Background()
		_, _ = records.Patch(ctx, created.Name, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		_ = records.Delete(ctx, created.Name, metav1.DeleteOptions{})
	})
	return created
}
