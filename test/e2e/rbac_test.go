package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

const (
	agentNamespace      = "open-cluster-management-agent"
	agentServiceAccount = "klusterlet-work-sa"
)

// The agent of cluster2 runs under the RBAC of deploy/agent. A custom
// resource it may not touch fails with the server's own message, the rest of
// the work is applied, and once another work delivers a ClusterRole labelled
// aggregate-to-work the agent applies it by itself.
func TestForbiddenUntilAggregatedRoleArrives(t *testing.T) {
	e := setup(t)
	ctx := t.Context()
	c2 := e.Cluster("cluster2")
	// The framework applied deploy/agent (with its Deployment scaled to 0).
	ensureWidgetCRD(t, "cluster2")

	kubeconfig := serviceAccountKubeconfig(t, c2.Kubeconfig)
	agent, err := e.StartAgent("cluster2", "--spoke-kubeconfig", kubeconfig, "--kubeconfig", kubeconfig)
	require.NoError(t, err, "agent under deploy/agent RBAC:\n%s", agent.Tail(30))
	t.Cleanup(func() { _, _ = agent.Stop(convergeTimeout) })

	ns := "e2e-rbac"
	createWork(t, fixture.NewWork("cluster2", "rbac-widget").
		WithManifest(fixture.Namespace(ns), fixture.Widget(ns, "w", map[string]any{"size": int64(1)}), fixture.ConfigMap(ns, "c", nil)).
		Build())
	waitManifestsApplied(t, "cluster2", "rbac-widget", map[int]string{
		0: workv1.ManifestAppliedReasonComplete,
		1: `widgets.example.com "w" is forbidden: User "system:serviceaccount:open-cluster-management-agent:klusterlet-work-sa" cannot`,
		2: workv1.ManifestAppliedReasonComplete,
	}, "the forbidden manifest fails with the server's message, the others are applied")

	createWork(t, fixture.NewWork("cluster2", "rbac-grant").WithManifest(&rbacv1.ClusterRole{
		TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole"},
		ObjectMeta: metav1.ObjectMeta{
			Name:   "open-cluster-management:work-agent:widgets",
			Labels: map[string]string{workv1.AggregateToWorkLabel: "true"},
		},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{"example.com"}, Resources: []string{"widgets"},
			Verbs: []string{"get", "list", "watch", "create", "update", "patch", "delete"},
		}},
	}).Build())
	// Cleanups run last first: the Widget's work is gone before the work
	// that grants the agent Widgets is deleted, or nothing could delete the
	// Widget and the work would stay, being deleted, for the next tests.
	t.Cleanup(func() {
		works := e.Hub.Work.WorkV1().ManifestWorks("cluster2")
		_ = works.Delete(context.Background(), "rbac-widget", metav1.DeleteOptions{})
		framework.Eventually(t, convergeTimeout, func() error {
			_, err := works.Get(context.Background(), "rbac-widget", metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return nil
			}
			return fmt.Errorf("still there: %v", err)
		}, "the agent of cluster2 deletes work rbac-widget while it may delete Widgets")
	})
	w := waitWorkCondition(t, "cluster2", "rbac-widget", workv1.WorkApplied, metav1.ConditionTrue)
	assert.Equal(t, metav1.ConditionTrue, manifestCondition(w, 1, workv1.ManifestApplied).Status)
	live := c2.Dynamic.Resource(widgets).Namespace(ns)
	obj, err := live.Get(ctx, "w", metav1.GetOptions{})
	require.NoError(t, err)

	// The watch of Widgets, refused until the grant, was restarted by the
	// RBAC change rather than on its backoff; the Widget's health follows
	// its controller from then on.
	waitMetric(t, agent, "work_objectwatch_rbac_restarts_total")
	require.NoError(t, unstructured.SetNestedSlice(obj.Object, []any{map[string]any{
		"type": "Ready", "status": "False", "reason": "Broken", "message": "set by the test",
		"lastTransitionTime": time.Now().UTC().Format(time.RFC3339),
	}}, "status", "conditions"))
	_, err = live.UpdateStatus(ctx, obj, metav1.UpdateOptions{})
	require.NoError(t, err)
	waitManifestHealth(t, "cluster2", "rbac-widget", 1, metav1.ConditionFalse, workv1.HealthyReasonDegraded, "Ready is False: Broken")
	waitWorkReason(t, "cluster2", "rbac-widget", workv1.WorkDegraded, metav1.ConditionTrue,
		workv1.WorkDegradedReasonManifestsDegraded, "Widget e2e-rbac/w is Degraded")
}

// serviceAccountKubeconfig is the admin kubeconfig of a cluster with its user
// replaced by a token of the agent's ServiceAccount.
func serviceAccountKubeconfig(t *testing.T, adminKubeconfig string) string {
	t.Helper()
	c2 := env.Cluster("cluster2")
	expiry := int64(3600)
	token, err := c2.Kube.CoreV1().ServiceAccounts(agentNamespace).CreateToken(t.Context(), agentServiceAccount,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &expiry}}, metav1.CreateOptions{})
	require.NoError(t, err)

	cfg, err := clientcmd.LoadFromFile(adminKubeconfig)
	require.NoError(t, err)
	cfg.AuthInfos = map[string]*clientcmdapi.AuthInfo{"agent": {Token: token.Status.Token}}
	for _, c := range cfg.Contexts {
		c.AuthInfo = "agent"
	}
	path := filepath.Join(t.TempDir(), "agent.kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(*cfg, path))
	return path
}
