package e2e

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// convergeTimeout bounds how long the agent may take to act on a change.
const convergeTimeout = 60 * time.Second

var (
	agentsMu sync.Mutex
	agents   = map[string]*framework.Process{}
)

// runningAgent returns the agent of a managed cluster shared by the tests,
// starting it when it is not running. It runs without leader election, so a
// test may kill it and start another at once instead of waiting for the
// killed leader's lease to expire; the smoke test covers leader election.
func runningAgent(t *testing.T, cluster string) *framework.Process {
	t.Helper()
	agentsMu.Lock()
	defer agentsMu.Unlock()
	if p := agents[cluster]; p != nil && p.Running() {
		return p
	}
	p, err := env.StartAgent(cluster, "--disable-leader-election")
	require.NoError(t, err, "starting the agent of %s", cluster)
	agents[cluster] = p
	return p
}

// createWork creates a work on the hub and deletes it when the test ends.
func createWork(t *testing.T, work *workv1.ManifestWork) {
	t.Helper()
	works := env.Hub.Work.WorkV1().ManifestWorks(work.Namespace)
	_, err := works.Create(t.Context(), work, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = works.Delete(context.Background(), work.Name, metav1.DeleteOptions{})
	})
}

// getWork reads a work from the hub.
func getWork(ctx context.Context, namespace, name string) (*workv1.ManifestWork, error) {
	return env.Hub.Work.WorkV1().ManifestWorks(namespace).Get(ctx, name, metav1.GetOptions{})
}

// updateWork changes a work on the hub, retrying on conflicts with the agent's
// own writes.
func updateWork(t *testing.T, namespace, name string, mutate func(*workv1.ManifestWork)) {
	t.Helper()
	framework.Eventually(t, convergeTimeout, func() error {
		w, err := getWork(t.Context(), namespace, name)
		if err != nil {
			return err
		}
		mutate(w)
		_, err = env.Hub.Work.WorkV1().ManifestWorks(namespace).Update(t.Context(), w, metav1.UpdateOptions{})
		return err
	}, "update work %s/%s", namespace, name)
}

// waitWork polls the work until check accepts it, within timeout, and
// returns it; msgAndArgs say what is awaited when it fails.
func waitWork(t *testing.T, timeout time.Duration, namespace, name string, check func(*workv1.ManifestWork) error, msgAndArgs ...any) *workv1.ManifestWork {
	t.Helper()
	var got *workv1.ManifestWork
	framework.Eventually(t, timeout, func() error {
		w, err := getWork(t.Context(), namespace, name)
		if err != nil {
			return err
		}
		if err := check(w); err != nil {
			return err
		}
		got = w
		return nil
	}, msgAndArgs...)
	return got
}

// waitWorkCondition waits until the work has a condition of the type with the
// status, for its current generation.
func waitWorkCondition(t *testing.T, namespace, name, condType string, status metav1.ConditionStatus) *workv1.ManifestWork {
	t.Helper()
	return waitWorkConditionWithin(t, convergeTimeout, namespace, name, condType, status, "", "")
}

// waitWorkConditionWithin waits, within timeout, until the work has a
// condition of the type with the status for its current generation, and
// with the reason (any when empty) and a message that contains text.
func waitWorkConditionWithin(t *testing.T, timeout time.Duration, namespace, name, condType string,
	status metav1.ConditionStatus, reason, text string) *workv1.ManifestWork {
	t.Helper()
	return waitWork(t, timeout, namespace, name, func(w *workv1.ManifestWork) error {
		c := apimeta.FindStatusCondition(w.Status.Conditions, condType)
		switch {
		case c == nil:
			return fmt.Errorf("no %s condition yet", condType)
		case c.ObservedGeneration != w.Generation:
			return fmt.Errorf("%s is for generation %d, work is at %d", condType, c.ObservedGeneration, w.Generation)
		case c.Status != status || (reason != "" && c.Reason != reason) || !strings.Contains(c.Message, text):
			return fmt.Errorf("%s is %s (%s: %s)", condType, c.Status, c.Reason, c.Message)
		}
		return nil
	}, "work %s/%s %s=%s %s %q", namespace, name, condType, status, reason, text)
}

// manifestCondition is the condition of a type of the manifest at ordinal.
func manifestCondition(w *workv1.ManifestWork, ordinal int, condType string) *metav1.Condition {
	for _, m := range w.Status.ResourceStatus.Manifests {
		if int(m.ResourceMeta.Ordinal) == ordinal {
			return apimeta.FindStatusCondition(m.Conditions, condType)
		}
	}
	return nil
}

// waitGone waits until get reports NotFound.
func waitGone(t *testing.T, what string, get func(context.Context) error) {
	t.Helper()
	framework.Eventually(t, convergeTimeout, func() error {
		err := get(t.Context())
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("%s still exists", what)
	}, "%s gone", what)
}

// waitConfigMapData waits until a ConfigMap of a managed cluster holds
// data[key] == value.
func waitConfigMapData(t *testing.T, cluster, namespace, name, key, value string) {
	t.Helper()
	cms := env.Cluster(cluster).Kube.CoreV1().ConfigMaps(namespace)
	framework.Eventually(t, convergeTimeout, func() error {
		cm, err := cms.Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if got := cm.Data[key]; got != value {
			return fmt.Errorf("%s has %s=%q", name, key, got)
		}
		return nil
	}, "ConfigMap %s/%s on %s has %s=%q", namespace, name, cluster, key, value)
}

// ensureWidgetCRD installs the Widget CRD on a managed cluster unless another
// test already did, and waits until it is served.
func ensureWidgetCRD(t *testing.T, cluster string) {
	t.Helper()
	ensureCRD(t, cluster, fixture.WidgetCRD())
}

// ensureCRD installs a CRD on a managed cluster unless another test
// already did, and waits until it is served.
func ensureCRD(t *testing.T, cluster string, crd *apiextensionsv1.CustomResourceDefinition) {
	t.Helper()
	c := env.Cluster(cluster)
	crd, err := c.APIExtensions.ApiextensionsV1().CustomResourceDefinitions().Create(t.Context(), crd, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return
	}
	require.NoError(t, err)
	require.NoError(t, c.WaitCRDsEstablished(t.Context(), convergeTimeout, crd))
}

// grantAgentWidgets lets the agent of a managed cluster manage Widgets as a
// cluster admin would (deploy/agent runs it without that right): with a
// ClusterRole labelled aggregate-to-work. It waits until the grant is in
// force. When t ends, once the agent has finished deleting the test's works
// (call it before creating them), it removes the grant and waits until it no
// longer holds, so that the RBAC test still finds Widgets forbidden on
// cluster2.
func grantAgentWidgets(t *testing.T, cluster string) {
	t.Helper()
	grantAgent(t, cluster, "widgets", "get", "list", "watch", "create", "update", "patch", "delete")
}

// grantAgent is grantAgentWidgets for a resource of group example.com, with
// only the verbs given, create among them; it returns the ClusterRole,
// which the test may change.
func grantAgent(t *testing.T, cluster, resource string, verbs ...string) *rbacv1.ClusterRole {
	t.Helper()
	c := env.Cluster(cluster)
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "e2e:work-agent:" + resource, Labels: map[string]string{workv1.AggregateToWorkLabel: "true"}},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{"example.com"}, Resources: []string{resource, resource + "/status"}, Verbs: verbs,
		}},
	}
	roles := c.Kube.RbacV1().ClusterRoles()
	role, err := roles.Create(t.Context(), role, metav1.CreateOptions{})
	require.NoError(t, err)
	waitAgentMay(t, cluster, "create", resource, true)
	t.Cleanup(func() {
		// Tests run one at a time: a work being deleted now is one of this
		// test's, and the agent may need the grant to delete its objects.
		framework.Eventually(t, convergeTimeout, func() error {
			works, err := env.Hub.Work.WorkV1().ManifestWorks(cluster).List(context.Background(), metav1.ListOptions{})
			if err != nil {
				return err
			}
			for _, w := range works.Items {
				if w.DeletionTimestamp != nil {
					return fmt.Errorf("work %s is still being deleted", w.Name)
				}
			}
			return nil
		}, "the agent of %s finishes deleting the test's works before losing the grant", cluster)
		require.NoError(t, roles.Delete(context.Background(), role.Name, metav1.DeleteOptions{}))
		waitAgentMay(t, cluster, "create", resource, false)
	})
	return role
}

// waitAgentMay waits until RBAC allows, or denies, the agent of a managed
// cluster the verb on a resource of group example.com. It runs in cleanups
// too, where t.Context() is already canceled: it waits on its own context.
func waitAgentMay(t *testing.T, cluster, verb, resource string, allowed bool) {
	t.Helper()
	user := "system:serviceaccount:" + framework.AgentLeaseNamespace + ":" + framework.AgentServiceAccount
	require.NoError(t, env.Cluster(cluster).WaitAccess(context.Background(), convergeTimeout, user,
		authorizationv1.ResourceAttributes{Verb: verb, Group: "example.com", Resource: resource}, allowed), "the agent of %s", cluster)
}
