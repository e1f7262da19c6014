package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/manifestwork/work/pkg/agent/controllers/manifestwork"
	"github.com/manifestwork/work/pkg/agent/status/stalled"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// stalledTimeout bounds how long a failure takes to show on a work and to
// clear: it shows after 10 s, and an informer retries a forbidden list with
// a backoff of up to a minute.
const stalledTimeout = 2 * time.Minute

// The agent may apply Gizmos but not list or watch them: the work is
// applied, but its Gizmo is not watched, which the work says with
// Stalled=True ResourceTypeNotWatched and the manifest with InSync=Unknown
// NotWatched, in the API server's words. Once the agent may list and watch
// Gizmos, both clear.
//
// It runs on cluster2, whose agent runs under the RBAC of deploy/agent. The
// type is this test's own: a watch of it that an earlier test started,
// while it was allowed, would go on after RBAC changed.
func TestForbiddenResourceTypeShowsOnTheWork(t *testing.T) {
	e := setup(t)
	ensureCRD(t, "cluster2", gizmoCRD())
	startAgent(t, "cluster2")
	role := grantAgent(t, "cluster2", "gizmos", "get", "create", "update", "patch", "delete")
	waitAgentMay(t, "cluster2", "list", "gizmos", false)

	ns := "e2e-not-watched"
	gizmo := fixture.Widget(ns, "g", map[string]any{"size": int64(1)})
	gizmo.SetKind("Gizmo")
	createWork(t, fixture.NewWork("cluster2", "not-watched").WithManifest(fixture.Namespace(ns), gizmo).Build())
	w := waitStalled(t, "cluster2", "not-watched", stalled.ReasonResourceTypeNotWatched)
	// The Gizmo's InSync may be written a moment after Stalled.
	w = waitWork(t, stalledTimeout, "cluster2", "not-watched", func(w *workv1.ManifestWork) error {
		if c := manifestCondition(w, 1, manifestwork.ConditionInSync); c == nil || c.Reason != manifestwork.InSyncReasonNotWatched {
			return fmt.Errorf("the Gizmo's InSync: %v", c)
		}
		return nil
	}, "the Gizmo of cluster2/not-watched is not watched")
	cond := apimeta.FindStatusCondition(w.Status.Conditions, stalled.ConditionType)
	assert.Contains(t, cond.Message, "The agent cannot list or watch gizmos.example.com: gizmos.example.com is forbidden")
	assert.True(t, apimeta.IsStatusConditionTrue(w.Status.Conditions, workv1.WorkApplied), "applied all the same")
	inSync := manifestCondition(w, 1, manifestwork.ConditionInSync)
	require.NotNil(t, inSync)
	assert.Equal(t, metav1.ConditionUnknown, inSync.Status)
	assert.Equal(t, manifestwork.InSyncReasonNotWatched, inSync.Reason)
	assert.Contains(t, inSync.Message, `cannot list resource "gizmos"`)
	assert.NotEqual(t, manifestwork.InSyncReasonNotWatched, manifestCondition(w, 0, manifestwork.ConditionInSync).Reason,
		"the Namespace is watched")

	role.Rules[0].Verbs = append(role.Rules[0].Verbs, "list", "watch")
	_, err := e.Cluster("cluster2").Kube.RbacV1().ClusterRoles().Update(t.Context(), role, metav1.UpdateOptions{})
	require.NoError(t, err)
	waitNotStalled(t, "cluster2", "not-watched")
	// Likewise, the Gizmo's InSync may follow Stalled's removal.
	waitWork(t, stalledTimeout, "cluster2", "not-watched", func(w *workv1.ManifestWork) error {
		if c := manifestCondition(w, 1, manifestwork.ConditionInSync); c == nil || c.Reason == manifestwork.InSyncReasonNotWatched {
			return fmt.Errorf("the Gizmo's InSync: %v", c)
		}
		return nil
	}, "the Gizmo of cluster2/not-watched is watched")
}

// gizmoCRD is the CRD of Gizmos, Widgets by another name.
func gizmoCRD() *apiextensionsv1.CustomResourceDefinition {
	crd := fixture.WidgetCRD()
	crd.Name = "gizmos.example.com"
	crd.Spec.Names = apiextensionsv1.CustomResourceDefinitionNames{Plural: "gizmos", Singular: "gizmo", Kind: "Gizmo", ListKind: "GizmoList"}
	return crd
}

// A ValidatingAdmissionPolicy of the managed cluster refuses the
// AppliedManifestWork of one work: nothing of that work is applied, and it
// says why with Stalled=True AppliedManifestWorkUnavailable, in the policy's
// words. Once the policy is gone, the work is applied and Stalled is gone.
func TestAppliedManifestWorkRefusedShowsOnTheWork(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	const name = "amw-refused"
	kube := e.Cluster("cluster1").Kube
	refuse(t, kube, "e2e-refuse-applied", admissionregistrationv1.RuleWithOperations{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
		Rule: admissionregistrationv1.Rule{APIGroups: []string{workv1.GroupName}, APIVersions: []string{"v1"},
			Resources: []string{"appliedmanifestworks"}},
	}, fmt.Sprintf("object.spec.manifestWorkName != '%s'", name), "e2e: no AppliedManifestWork for "+name, func(ctx context.Context) error {
		_, err := e.Cluster("cluster1").Work.WorkV1().AppliedManifestWorks().Create(ctx, &workv1.AppliedManifestWork{
			ObjectMeta: metav1.ObjectMeta{Name: "e2e-refused-probe"},
			Spec:       workv1.AppliedManifestWorkSpec{HubHash: "x", ManifestWorkName: name},
		}, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return err
	})

	ns := "e2e-amw-refused"
	createWork(t, fixture.NewWork("cluster1", name).WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, "c", nil)).Build())
	w := waitStalled(t, "cluster1", name, stalled.ReasonAppliedManifestWorkUnavailable)
	cond := apimeta.FindStatusCondition(w.Status.Conditions, stalled.ConditionType)
	assert.Contains(t, cond.Message, "Nothing of the work is applied: cannot create AppliedManifestWork")
	assert.Contains(t, cond.Message, "e2e: no AppliedManifestWork for "+name)
	assert.Empty(t, w.Status.ResourceStatus.Manifests, "nothing applied")
	_, err := kube.CoreV1().Namespaces().Get(t.Context(), ns, metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "nothing applied: %v", err)

	unrefuse(t, kube, "e2e-refuse-applied")
	waitNotStalled(t, "cluster1", name)
	waitWorkCondition(t, "cluster1", name, workv1.WorkApplied, metav1.ConditionTrue)
}

// A ValidatingAdmissionPolicy of the hub refuses the status patches of one
// work: that cannot be said in its status, so the agent records one Warning
// Event StatusPatchFailing on it, after ten seconds, with the hub's words.
func TestStatusPatchRefusedShowsAsAnEvent(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	const name = "status-refused"
	// The policy is in force once it refuses the status of a work of that
	// name in a namespace that no agent serves.
	probe := fixture.NewWork("e2e-status-probe", name).WithManifest(fixture.Namespace("x")).Build()
	namespaces := e.Hub.Kube.CoreV1().Namespaces()
	_, err := namespaces.Create(t.Context(), fixture.Namespace(probe.Namespace), metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = namespaces.Delete(context.Background(), probe.Namespace, metav1.DeleteOptions{}) })
	createWork(t, probe)
	refuse(t, e.Hub.Kube, "e2e-refuse-status", admissionregistrationv1.RuleWithOperations{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Update},
		Rule: admissionregistrationv1.Rule{APIGroups: []string{workv1.GroupName}, APIVersions: []string{"v1"},
			Resources: []string{"manifestworks/status"}},
	}, fmt.Sprintf("object.metadata.name != '%s'", name), "e2e: no status for "+name, func(ctx context.Context) error {
		w, err := getWork(ctx, probe.Namespace, name)
		if err != nil {
			return err
		}
		_, err = e.Hub.Work.WorkV1().ManifestWorks(probe.Namespace).UpdateStatus(ctx, w, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
		return err
	})

	ns := "e2e-status-refused"
	createWork(t, fixture.NewWork("cluster1", name).WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, "c", nil)).Build())
	var event corev1.Event
	framework.Eventually(t, stalledTimeout, func() error {
		events, err := workEvents(t.Context(), "cluster1", name, workwriter.EventStatusPatchFailing)
		if err != nil {
			return err
		}
		if len(events) == 0 {
			return fmt.Errorf("no %s Event yet", workwriter.EventStatusPatchFailing)
		}
		event = events[0]
		return nil
	}, "a %s Event on the work", workwriter.EventStatusPatchFailing)
	assert.Equal(t, corev1.EventTypeWarning, event.Type)
	assert.Contains(t, event.Message, "e2e: no status for "+name)
	assert.Equal(t, int32(1), event.Count, "one Event, not one per retry")
	w, err := getWork(t.Context(), "cluster1", name)
	require.NoError(t, err)
	assert.Empty(t, w.Status.Conditions, "the status could not be written")

	// Without the policy the deletion, which writes the status, goes through.
	unrefuse(t, e.Hub.Kube, "e2e-refuse-status")
	require.NoError(t, e.Hub.Work.WorkV1().ManifestWorks("cluster1").Delete(t.Context(), name, metav1.DeleteOptions{}))
	waitGone(t, "work "+name, func(ctx context.Context) error {
		_, err := getWork(ctx, "cluster1", name)
		return err
	})
}

// The managed cluster's kube-apiserver stops: once it has not answered for
// ten seconds, every work of the cluster says so with Stalled=True
// ManagedClusterUnreachable; once it answers again, Stalled is gone.
func TestManagedClusterUnreachableShowsOnTheWork(t *testing.T) {
	setup(t)
	startAgent(t, "cluster2")
	ns := "e2e-unreachable"
	createWork(t, fixture.NewWork("cluster2", "unreachable").WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, "c", nil)).Build())
	waitWorkCondition(t, "cluster2", "unreachable", workv1.WorkApplied, metav1.ConditionTrue)

	start := stopCluster(t, "cluster2")
	w := waitStalled(t, "cluster2", "unreachable", stalled.ReasonManagedClusterUnreachable)
	cond := apimeta.FindStatusCondition(w.Status.Conditions, stalled.ConditionType)
	assert.Contains(t, cond.Message, "The managed cluster's API server has not answered the agent since")
	require.NoError(t, start())
	waitNotStalled(t, "cluster2", "unreachable")
	waitWorkCondition(t, "cluster2", "unreachable", workv1.WorkApplied, metav1.ConditionTrue)
}

// waitStalled waits until the work is Stalled=True for the reason or, with
// reason "", has no Stalled condition, and returns it.
func waitStalled(t *testing.T, cluster, name, reason string) *workv1.ManifestWork {
	t.Helper()
	return waitWork(t, stalledTimeout, cluster, name, func(w *workv1.ManifestWork) error {
		c := apimeta.FindStatusCondition(w.Status.Conditions, stalled.ConditionType)
		switch {
		case reason == "" && c != nil:
			return fmt.Errorf("still stalled: %s: %s", c.Reason, c.Message)
		case reason != "" && (c == nil || c.Status != metav1.ConditionTrue || c.Reason != reason):
			return fmt.Errorf("stalled: %v", c)
		}
		return nil
	}, "work %s/%s Stalled %q", cluster, name, reason)
}

// waitNotStalled waits until the work has no Stalled condition, and
// returns it.
func waitNotStalled(t *testing.T, cluster, name string) *workv1.ManifestWork {
	t.Helper()
	return waitStalled(t, cluster, name, "")
}

// refuse installs a ValidatingAdmissionPolicy, and its binding, that denies
// the requests of rule for which expression is false, with message; it is
// removed when the test ends. inForce, when set, returns an error once the
// policy refuses: refuse waits for that.
func refuse(t *testing.T, kube kubernetes.Interface, name string, rule admissionregistrationv1.RuleWithOperations,
	expression, message string, inForce func(context.Context) error) {
	t.Helper()
	policies := kube.AdmissionregistrationV1().ValidatingAdmissionPolicies()
	fail := admissionregistrationv1.Fail
	_, err := policies.Create(t.Context(), &admissionregistrationv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			FailurePolicy:    &fail,
			MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{RuleWithOperations: rule}}},
			Validations:      []admissionregistrationv1.Validation{{Expression: expression, Message: message}},
		},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = kube.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Create(t.Context(), &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName: name, ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
		},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { unrefuse(t, kube, name) })
	if inForce == nil {
		return
	}
	framework.Eventually(t, convergeTimeout, func() error {
		err := inForce(t.Context())
		if err == nil || !strings.Contains(err.Error(), message) {
			return fmt.Errorf("not refused yet: %v", err)
		}
		return nil
	}, "policy %s in force", name)
}

// unrefuse removes what refuse installed.
func unrefuse(t *testing.T, kube kubernetes.Interface, name string) {
	t.Helper()
	for _, err := range []error{
		kube.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Delete(context.Background(), name, metav1.DeleteOptions{}),
		kube.AdmissionregistrationV1().ValidatingAdmissionPolicies().Delete(context.Background(), name, metav1.DeleteOptions{}),
	} {
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("removing policy %s: %v", name, err)
		}
	}
}
