package integration

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/manifestwork/work/pkg/agent"
	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

const appliedManifestWorkCRD = "appliedmanifestworks.work.open-cluster-management.io"

// A Klusterlet uninstall strips the finalizers of the AppliedManifestWorks
// and deletes their CRD, and with it every AppliedManifestWork; the garbage
// collector then deletes every object whose owners are all gone. What a
// work's deleteOption orphans must survive that, so the agent never puts its
// owner reference on it, whatever the update strategy, and takes it off an
// object it applied before the work came to orphan it (as after an upgrade
// from a version that put it on everything).
//
// A bare kube-apiserver runs no garbage collector: the test checks what the
// collector acts on, the owner references, and that every orphaned object
// is still there once the CRD is gone. An object the work owns keeps its
// reference to the AppliedManifestWork, which would have the collector
// delete it: that is the contrast the assertions rely on.
//
// It has an API server of its own, since it deletes a CRD the other tests use.
func TestKlusterletUninstallLeavesOrphanedObjects(t *testing.T) {
	framework.SkipWithoutTestbed(t)
	s, err := framework.StartAPIServer(framework.HubCRDDir(), framework.ManagedCRDDir())
	require.NoError(t, err)
	t.Cleanup(s.Stop)
	ctx := t.Context()
	ns := "integration-orphan"
	require.NoError(t, s.EnsureNamespaces(ctx, fixture.Cluster, ns))
	hubHash := hubHashOf(t, s)
	stopAgent := runAgent(t, s)

	type object struct {
		work, name string
		strategy   workv1.UpdateStrategyType
		orphaned   bool
	}
	objects := []object{
		{"orphan-all", "all-update", workv1.UpdateStrategyTypeUpdate, true},
		{"orphan-all", "all-ssa", workv1.UpdateStrategyTypeServerSideApply, true},
		{"orphan-all", "all-create", workv1.UpdateStrategyTypeCreateOnly, true},
		{"orphan-some", "some-kept", workv1.UpdateStrategyTypeUpdate, true},
		{"orphan-some", "some-owned", workv1.UpdateStrategyTypeUpdate, false},
		{"orphan-later", "later-update", workv1.UpdateStrategyTypeUpdate, true},
		{"orphan-later", "later-ssa", workv1.UpdateStrategyTypeServerSideApply, true},
	}
	builders := map[string]*fixture.WorkBuilder{
		"orphan-all": fixture.NewWork(fixture.Cluster, "orphan-all").WithDeleteOption(fixture.OrphanAll()),
		"orphan-some": fixture.NewWork(fixture.Cluster, "orphan-some").WithDeleteOption(fixture.OrphanOnly(
			workv1.OrphaningRule{Resource: "configmaps", Namespace: ns, Name: "some-kept"})),
		"orphan-later": fixture.NewWork(fixture.Cluster, "orphan-later"), // owned at first
	}
	for _, o := range objects {
		b := builders[o.work].WithManifest(fixture.ConfigMap(ns, o.name, map[string]string{"k": o.name}))
		if o.strategy != workv1.UpdateStrategyTypeUpdate {
			b.WithConfig(fixture.WithStrategy(fixture.Config("", "configmaps", ns, o.name), o.strategy))
		}
	}
	works := s.Work.WorkV1().ManifestWorks(fixture.Cluster)
	names := slices.Sorted(maps.Keys(builders))
	for _, name := range names {
		_, err := works.Create(ctx, builders[name].Build(), metav1.CreateOptions{})
		require.NoError(t, err)
	}

	// settled waits until every work is applied and recorded, and every
	// object carries our owner reference exactly when its work owns it
	// (orphanLater tells whether orphan-later orphans its objects yet).
	settled := func(orphanLater bool) map[string]types.UID {
		t.Helper()
		uids := map[string]types.UID{}
		framework.Eventually(t, convergeTimeout, func() error {
			for _, name := range names {
				w, err := works.Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					return err
				}
				if c := apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkApplied); c == nil ||
					c.Status != metav1.ConditionTrue || c.ObservedGeneration != w.Generation {
					return fmt.Errorf("work %s is not Applied at generation %d: %v", name, w.Generation, w.Status.Conditions)
				}
				applied, err := s.Work.WorkV1().AppliedManifestWorks().Get(ctx, appliedwork.Name(hubHash, name), metav1.GetOptions{})
				if err != nil {
					return err
				}
				uids[name] = applied.UID
				var recorded []string
				for _, r := range applied.Status.AppliedResources {
					recorded = append(recorded, r.Name)
				}
				var want []string
				for _, o := range objects {
					if o.work == name {
						want = append(want, o.name)
					}
				}
				if !assert.ObjectsAreEqual(slices.Sorted(slices.Values(want)), slices.Sorted(slices.Values(recorded))) {
					return fmt.Errorf("AppliedManifestWork of %s records %v, want %v (orphaned objects too, as OCM's agent does)", name, recorded, want)
				}
			}
			for _, o := range objects {
				refs, err := appliedRefs(ctx, s, ns, o.name)
				if err != nil {
					return err
				}
				orphaned := o.orphaned && (o.work != "orphan-later" || orphanLater)
				switch {
				case orphaned && len(refs) > 0:
					return fmt.Errorf("orphaned ConfigMap %s still carries %v", o.name, refs)
				case !orphaned && (len(refs) != 1 || refs[0].UID != uids[o.work]):
					return fmt.Errorf("ConfigMap %s of %s carries %v, want our owner reference", o.name, o.work, refs)
				}
			}
			return nil
		}, "works applied, recorded, and owner references as their deleteOptions say")
		return uids
	}
	settled(false)

	// The work comes to orphan what it owned: the objects lose our owner
	// reference at the next apply.
	_, err = works.Patch(ctx, "orphan-later", types.MergePatchType,
		[]byte(`{"spec":{"deleteOption":{"propagationPolicy":"Orphan"}}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	uids := settled(true)

	// The Klusterlet uninstall: the agent goes, the AppliedManifestWorks lose
	// their finalizers, and their CRD is deleted, and every one of them with it.
	stopAgent()
	for _, name := range names {
		_, err := s.Work.WorkV1().AppliedManifestWorks().Patch(ctx, appliedwork.Name(hubHash, name), types.MergePatchType,
			[]byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		require.NoError(t, err)
	}
	require.NoError(t, s.APIExtensions.ApiextensionsV1().CustomResourceDefinitions().Delete(ctx, appliedManifestWorkCRD, metav1.DeleteOptions{}))
	framework.Eventually(t, convergeTimeout, func() error {
		_, err := s.APIExtensions.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, appliedManifestWorkCRD, metav1.GetOptions{})
		if !apierrors.IsNotFound(err) {
			return fmt.Errorf("the AppliedManifestWork CRD is still there: %v", err)
		}
		return nil
	}, "AppliedManifestWork CRD and records gone")

	for _, o := range objects {
		refs, err := appliedRefs(ctx, s, ns, o.name)
		require.NoError(t, err, "ConfigMap %s of %s is still there", o.name, o.work)
		if o.orphaned {
			assert.Empty(t, refs, "orphaned ConfigMap %s: nothing for the garbage collector to act on", o.name)
			continue
		}
		require.Len(t, refs, 1, "owned ConfigMap %s", o.name)
		assert.Equal(t, uids[o.work], refs[0].UID,
			"owned ConfigMap %s points at its gone AppliedManifestWork: the garbage collector would delete it", o.name)
	}
}

// hubHashOf is the hub hash of the agent that runAgent runs against s.
func hubHashOf(t *testing.T, s *framework.APIServer) string {
	t.Helper()
	hub, err := clientcmd.BuildConfigFromFlags("", s.KubeconfigPath) // as the agent reads it
	require.NoError(t, err)
	return appliedwork.HubHash(hub.Host)
}

// appliedRefs are the references of a ConfigMap to AppliedManifestWorks; an
// error when it is gone or being deleted.
func appliedRefs(ctx context.Context, s *framework.APIServer, ns, name string) ([]metav1.OwnerReference, error) {
	cm, err := s.Kube.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	if cm.DeletionTimestamp != nil {
		return nil, fmt.Errorf("ConfigMap %s is being deleted", name)
	}
	return slices.DeleteFunc(cm.OwnerReferences, func(ref metav1.OwnerReference) bool {
		return ref.Kind != "AppliedManifestWork"
	}), nil
}

// A work that vanishes from the hub without the agent (its finalizer
// stripped while the agent was away) has its AppliedManifestWork evicted
// after the grace period, and what it owned deleted in the foreground, since
// its deleteOption is gone with it. What it orphaned carries no owner
// reference of ours, and stays.
func TestEvictionLeavesOrphanedObjects(t *testing.T) {
	s, ctx := setup(t)
	ns := "integration-evict"
	require.NoError(t, s.EnsureNamespaces(ctx, ns))
	works := s.Work.WorkV1().ManifestWorks(fixture.Cluster)
	applied := appliedwork.Name(hubHashOf(t, s), "evicted")
	stopAgent := runAgent(t, s)
	_, err := works.Create(ctx, fixture.NewWork(fixture.Cluster, "evicted").
		WithDeleteOption(fixture.OrphanOnly(workv1.OrphaningRule{Resource: "configmaps", Namespace: ns, Name: "evict-kept"})).
		WithManifest(fixture.ConfigMap(ns, "evict-kept", nil), fixture.ConfigMap(ns, "evict-owned", nil)).Build(), metav1.CreateOptions{})
	require.NoError(t, err)
	framework.Eventually(t, convergeTimeout, func() error {
		kept, err := appliedRefs(ctx, s, ns, "evict-kept")
		if err != nil {
			return err
		}
		owned, err := appliedRefs(ctx, s, ns, "evict-owned")
		if err != nil {
			return err
		}
		if len(kept) != 0 || len(owned) != 1 || owned[0].Name != applied {
			return fmt.Errorf("owner references: evict-kept %v, evict-owned %v", kept, owned)
		}
		// The record the agent cleans up from, written a moment after the
		// apply: an agent stopped before it lists nothing to delete.
		amw, err := s.Work.WorkV1().AppliedManifestWorks().Get(ctx, applied, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if len(amw.Status.AppliedResources) != 2 {
			return fmt.Errorf("AppliedManifestWork %s records %v", applied, amw.Status.AppliedResources)
		}
		return nil
	}, "both applied and recorded, only evict-owned with our owner reference")

	// The work goes while the agent is away, without its finalizer.
	stopAgent()
	_, err = works.Patch(ctx, "evicted", types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	require.NoError(t, works.Delete(ctx, "evicted", metav1.DeleteOptions{}))
	runAgent(t, s, func(o *agent.Options) { o.AppliedManifestWorkEvictionGracePeriod = time.Second })

	framework.Eventually(t, convergeTimeout, func() error {
		if _, err := s.Work.WorkV1().AppliedManifestWorks().Get(ctx, applied, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("AppliedManifestWork %s not evicted yet: %v", applied, err)
		}
		// No garbage collector here: what is gone, the agent deleted.
		if _, err := s.Kube.CoreV1().ConfigMaps(ns).Get(ctx, "evict-owned", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("evict-owned still there: %v", err)
		}
		return nil
	}, "evicted, and the owned object deleted")
	refs, err := appliedRefs(ctx, s, ns, "evict-kept")
	require.NoError(t, err, "the orphaned object stays")
	assert.Empty(t, refs)
}
