package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// holdFinalizer keeps an object terminating until the test lets it go.
const holdFinalizer = "e2e.example.com/hold"

// orphanWatch is how long orphaned objects are watched after their
// AppliedManifestWork is gone: the garbage collector would have deleted them
// well within it if they still pointed at it.
const orphanWatch = 5 * time.Second

// A manifest removed from a work is deleted from the managed cluster; the
// AppliedManifestWork records what is applied, with the live UIDs.
func TestDroppedManifestIsDeleted(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	ctx := t.Context()
	ns := "e2e-prune"
	require.NoError(t, e.Cluster("cluster1").EnsureNamespaces(ctx, ns))
	cms := e.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns)
	createWork(t, fixture.NewWork("cluster1", "prune").WithManifest(
		fixture.ConfigMap(ns, "kept", map[string]string{"k": "v"}),
		fixture.ConfigMap(ns, "dropped", map[string]string{"k": "v"}),
	).Build())
	waitWorkCondition(t, "cluster1", "prune", workv1.WorkApplied, metav1.ConditionTrue)
	waitAppliedConfigMaps(t, "prune", ns, "kept", "dropped")

	updateWork(t, "cluster1", "prune", func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests = w.Spec.Workload.Manifests[:1]
	})
	waitGone(t, "ConfigMap dropped", func(ctx context.Context) error {
		_, err := cms.Get(ctx, "dropped", metav1.GetOptions{})
		return err
	})
	waitAppliedConfigMaps(t, "prune", ns, "kept")
	_, err := cms.Get(ctx, "kept", metav1.GetOptions{})
	require.NoError(t, err)
}

// Deleting a work deletes everything it applied, and the work and its
// AppliedManifestWork stay, with a Deleting condition (OCM's reason
// WorkDeleting) naming what holds them, until the last object is really gone.
func TestDeletedWorkWaitsForItsObjects(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	ctx := t.Context()
	kube := e.Cluster("cluster1").Kube
	ns := "e2e-foreground"
	createWork(t, fixture.NewWork("cluster1", "foreground").WithManifest(
		fixture.Namespace(ns),
		fixture.ServiceAccount(ns, "my-sa"),
		fixture.Deployment(ns, "web", 1),
		fixture.ConfigMap(ns, "held", nil),
	).Build())
	waitWorkCondition(t, "cluster1", "foreground", workv1.WorkApplied, metav1.ConditionTrue)
	applied := waitAppliedCount(t, "foreground", 4)

	// Someone else holds the config map with a finalizer of theirs.
	cm, err := kube.CoreV1().ConfigMaps(ns).Get(ctx, "held", metav1.GetOptions{})
	require.NoError(t, err)
	cm.Finalizers = append(cm.Finalizers, holdFinalizer)
	_, err = kube.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	require.NoError(t, err)

	works := e.Hub.Work.WorkV1().ManifestWorks("cluster1")
	require.NoError(t, works.Delete(ctx, "foreground", metav1.DeleteOptions{}))
	waitWork(t, convergeTimeout, "cluster1", "foreground", func(w *workv1.ManifestWork) error {
		c := apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkDeleting)
		if c == nil || c.Status != metav1.ConditionTrue {
			return fmt.Errorf("no Deleting=True condition: %v", w.Status.Conditions)
		}
		// Reason and first words as OCM's agent from v1.1 on writes them.
		if c.Reason != "WorkDeleting" || !strings.HasPrefix(c.Message, "ManifestWork is being deleted; ") {
			return fmt.Errorf("Deleting condition %s %q is not OCM's", c.Reason, c.Message)
		}
		if want := "configmaps v1 " + ns + "/held"; !strings.Contains(c.Message, want) {
			return fmt.Errorf("Deleting message %q does not name %s", c.Message, want)
		}
		return nil
	}, "the work says it waits for the held config map")
	_, err = kube.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "the deployment is deleted meanwhile: %v", err)

	// Both finalizers stay while the config map is held.
	w, err := getWork(ctx, "cluster1", "foreground")
	require.NoError(t, err)
	assert.Contains(t, w.Finalizers, workv1.ManifestWorkFinalizer)
	a, err := e.Cluster("cluster1").Work.WorkV1().AppliedManifestWorks().Get(ctx, applied.Name, metav1.GetOptions{})
	require.NoError(t, err)
	assert.NotNil(t, a.DeletionTimestamp)
	assert.Contains(t, a.Finalizers, workv1.AppliedManifestWorkFinalizer)
	t.Logf("Deleting: %s", apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkDeleting).Message)

	// Released, everything goes.
	framework.Eventually(t, convergeTimeout, func() error {
		cm, err := kube.CoreV1().ConfigMaps(ns).Get(ctx, "held", metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Finalizers = slices.DeleteFunc(cm.Finalizers, func(f string) bool { return f == holdFinalizer })
		_, err = kube.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	}, "release the config map")
	waitGone(t, "ManifestWork foreground", func(ctx context.Context) error {
		_, err := getWork(ctx, "cluster1", "foreground")
		return err
	})
	waitGone(t, "AppliedManifestWork "+applied.Name, func(ctx context.Context) error {
		_, err := e.Cluster("cluster1").Work.WorkV1().AppliedManifestWorks().Get(ctx, applied.Name, metav1.GetOptions{})
		return err
	})
	waitGone(t, "Namespace "+ns, func(ctx context.Context) error {
		_, err := kube.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		return err
	})
}

// With deleteOption Orphan nothing is deleted and the objects lose our owner
// reference; with SelectivelyOrphan only the objects the rules name stay.
func TestDeleteOptions(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	ns := "e2e-orphan"
	require.NoError(t, e.Cluster("cluster1").EnsureNamespaces(t.Context(), ns))
	cms := e.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns)

	cases := []struct {
		work       string
		option     workv1.DeleteOption
		kept, gone []string
	}{{
		work:   "orphan",
		option: workv1.DeleteOption{PropagationPolicy: workv1.DeletePropagationPolicyTypeOrphan},
		kept:   []string{"orphan-a", "orphan-b"},
	}, {
		work: "selective",
		option: workv1.DeleteOption{
			PropagationPolicy: workv1.DeletePropagationPolicyTypeSelectivelyOrphan,
			SelectivelyOrphan: &workv1.SelectivelyOrphan{OrphaningRules: []workv1.OrphaningRule{
				{Resource: "configmaps", Namespace: ns, Name: "selective-a"},
			}},
		},
		kept: []string{"selective-a"},
		gone: []string{"selective-b"},
	}}
	for _, tc := range cases {
		t.Run(tc.work, func(t *testing.T) {
			ctx := t.Context()
			names := append(slices.Clone(tc.kept), tc.gone...)
			b := fixture.NewWork("cluster1", tc.work).WithDeleteOption(tc.option)
			for _, name := range names {
				b.WithManifest(fixture.ConfigMap(ns, name, nil))
			}
			createWork(t, b.Build())
			waitWorkCondition(t, "cluster1", tc.work, workv1.WorkApplied, metav1.ConditionTrue)
			applied := waitAppliedConfigMaps(t, tc.work, ns, names...)

			require.NoError(t, e.Hub.Work.WorkV1().ManifestWorks("cluster1").Delete(ctx, tc.work, metav1.DeleteOptions{}))
			waitGone(t, "ManifestWork "+tc.work, func(ctx context.Context) error {
				_, err := getWork(ctx, "cluster1", tc.work)
				return err
			})
			waitGone(t, "AppliedManifestWork "+applied.Name, func(ctx context.Context) error {
				_, err := e.Cluster("cluster1").Work.WorkV1().AppliedManifestWorks().Get(ctx, applied.Name, metav1.GetOptions{})
				return err
			})
			for _, name := range tc.gone {
				waitGone(t, "ConfigMap "+name, func(ctx context.Context) error {
					_, err := cms.Get(ctx, name, metav1.GetOptions{})
					return err
				})
			}
			// The orphans stay, also once the garbage collector has seen the
			// AppliedManifestWork go.
			framework.Consistently(t, orphanWatch, func() error {
				for _, name := range tc.kept {
					cm, err := cms.Get(ctx, name, metav1.GetOptions{})
					if err != nil {
						return fmt.Errorf("orphaned ConfigMap %s: %w", name, err)
					}
					if cm.DeletionTimestamp != nil {
						return fmt.Errorf("orphaned ConfigMap %s is being deleted", name)
					}
					for _, ref := range cm.OwnerReferences {
						if ref.UID == applied.UID {
							return fmt.Errorf("orphaned ConfigMap %s still points at the AppliedManifestWork", name)
						}
					}
				}
				return nil
			}, "orphans stay")
			for _, name := range tc.kept {
				_ = cms.Delete(context.Background(), name, metav1.DeleteOptions{})
			}
		})
	}
}

// An object two works apply stays when one of them is deleted, owned by the
// other only, and goes with the last.
func TestSharedObjectOutlivesOneWork(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	ctx := t.Context()
	ns := "e2e-shared"
	require.NoError(t, e.Cluster("cluster1").EnsureNamespaces(ctx, ns))
	cms := e.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns)
	shared := fixture.ConfigMap(ns, "shared", map[string]string{"same": "content"})
	for _, name := range []string{"share-a", "share-b"} {
		createWork(t, fixture.NewWork("cluster1", name).
			WithManifest(shared, fixture.ConfigMap(ns, name, nil)).Build())
	}
	var appliedB *workv1.AppliedManifestWork
	for _, name := range []string{"share-a", "share-b"} {
		waitWorkCondition(t, "cluster1", name, workv1.WorkApplied, metav1.ConditionTrue)
		appliedB = waitAppliedConfigMaps(t, name, ns, "shared", name)
	}

	require.NoError(t, e.Hub.Work.WorkV1().ManifestWorks("cluster1").Delete(ctx, "share-a", metav1.DeleteOptions{}))
	waitGone(t, "ManifestWork share-a", func(ctx context.Context) error {
		_, err := getWork(ctx, "cluster1", "share-a")
		return err
	})
	waitGone(t, "ConfigMap share-a", func(ctx context.Context) error {
		_, err := cms.Get(ctx, "share-a", metav1.GetOptions{})
		return err
	})
	cm, err := cms.Get(ctx, "shared", metav1.GetOptions{})
	require.NoError(t, err, "the shared config map stays")
	require.Len(t, cm.OwnerReferences, 1)
	assert.Equal(t, appliedB.UID, cm.OwnerReferences[0].UID)

	require.NoError(t, e.Hub.Work.WorkV1().ManifestWorks("cluster1").Delete(ctx, "share-b", metav1.DeleteOptions{}))
	waitGone(t, "ConfigMap shared", func(ctx context.Context) error {
		_, err := cms.Get(ctx, "shared", metav1.GetOptions{})
		return err
	})
}

// waitAppliedConfigMaps waits until the AppliedManifestWork of a work
// records exactly the named config maps of namespace, each with the UID of
// the live object, and returns it.
func waitAppliedConfigMaps(t *testing.T, work, namespace string, names ...string) *workv1.AppliedManifestWork {
	t.Helper()
	cms := env.Cluster("cluster1").Kube.CoreV1().ConfigMaps(namespace)
	var got *workv1.AppliedManifestWork
	framework.Eventually(t, convergeTimeout, func() error {
		a, err := appliedWorkOf(t.Context(), work)
		if err != nil {
			return err
		}
		recorded := map[string]types.UID{}
		for _, r := range a.Status.AppliedResources {
			if r.Resource != "configmaps" || r.Namespace != namespace {
				return fmt.Errorf("unexpected resource %+v", r)
			}
			recorded[r.Name] = types.UID(r.UID)
		}
		if len(recorded) != len(names) {
			return fmt.Errorf("records %v, want %v", recorded, names)
		}
		for _, name := range names {
			cm, err := cms.Get(t.Context(), name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			if recorded[name] != cm.UID {
				return fmt.Errorf("%s recorded with UID %q, live %q", name, recorded[name], cm.UID)
			}
		}
		got = a
		return nil
	}, "AppliedManifestWork of %s records %v", work, names)
	return got
}

// waitAppliedCount waits until the AppliedManifestWork of a work records n
// resources, each with a UID, and returns it.
func waitAppliedCount(t *testing.T, work string, n int) *workv1.AppliedManifestWork {
	t.Helper()
	var got *workv1.AppliedManifestWork
	framework.Eventually(t, convergeTimeout, func() error {
		a, err := appliedWorkOf(t.Context(), work)
		if err != nil {
			return err
		}
		if len(a.Status.AppliedResources) != n {
			return fmt.Errorf("records %d resources, want %d: %+v", len(a.Status.AppliedResources), n, a.Status.AppliedResources)
		}
		for _, r := range a.Status.AppliedResources {
			if r.UID == "" {
				return fmt.Errorf("no UID for %+v", r)
			}
		}
		got = a
		return nil
	}, "AppliedManifestWork of %s records %d resources", work, n)
	return got
}

func appliedWorkOf(ctx context.Context, work string) (*workv1.AppliedManifestWork, error) {
	name := appliedwork.Name(appliedwork.HubHash(env.Hub.Config.Host), work)
	return env.Cluster("cluster1").Work.WorkV1().AppliedManifestWorks().Get(ctx, name, metav1.GetOptions{})
}
