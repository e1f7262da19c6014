package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/startup/startuptest"
)

// The agent serves /metrics on its secure port only to a token its cluster's
// API server authenticates and whose user may get /metrics (the
// metrics-reader ClusterRole of deploy/agent), the probes to anyone, and
// only the probes over plain HTTP.
func TestMetricsNeedAToken(t *testing.T) {
	setup(t)
	agent := runningAgent(t, "cluster1")
	c := reviewingCluster(t, agent)
	url := "https://" + agent.SecureAddr + "/metrics"

	code, _ := getMetrics(t, url, "")
	assert.Equal(t, http.StatusUnauthorized, code, "no token")
	code, _ = getMetrics(t, url, "not-a-token")
	assert.Equal(t, http.StatusUnauthorized, code, "a token the API server does not know")
	code, _ = getMetrics(t, url, serviceAccountToken(t, c, "e2e-metrics-nobody", ""))
	assert.Equal(t, http.StatusForbidden, code, "a ServiceAccount without the right")
	samples := scrapeURL(t, url, metricsReader(t, c))
	assert.Contains(t, samples, `work_writes_in_flight_limit{cluster="hub"}`, "a ServiceAccount bound to the metrics-reader ClusterRole")

	for _, path := range []string{"/healthz", "/livez", "/readyz"} {
		code, _ := getMetrics(t, "https://"+agent.SecureAddr+path, "")
		assert.Equal(t, http.StatusOK, code, "secure "+path)
		assert.Equal(t, http.StatusOK, startuptest.Status("http://"+agent.HealthAddr+path), "plain "+path)
	}
	assert.Equal(t, http.StatusNotFound, startuptest.Status("http://"+agent.HealthAddr+"/metrics"), "no metrics over plain HTTP")
}

// Under OCM's operators the work ServiceAccount may not create TokenReviews:
// a scrape gets 401, as from OCM's own processes, the probes answer, and
// the log says why, once. Here work hub runs as a ServiceAccount holding
// deploy/hub's rights less tokenreviews.
func TestMetricsWithoutTheRightToReviewTokens(t *testing.T) {
	e := setup(t)
	ctx := t.Context()
	const name = "e2e-ocm-like-hub"
	base, err := e.Hub.Kube.RbacV1().ClusterRoles().Get(ctx, "open-cluster-management:work-hub", metav1.GetOptions{})
	require.NoError(t, err)
	rules := slices.DeleteFunc(slices.Clone(base.Rules), func(r rbacv1.PolicyRule) bool {
		return slices.Contains(r.Resources, "tokenreviews")
	})
	require.Len(t, rules, len(base.Rules)-1, "deploy/hub grants tokenreviews")
	_, err = e.Hub.Kube.RbacV1().ClusterRoles().Create(ctx, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = e.Hub.Kube.RbacV1().ClusterRoles().Delete(ctx, name, metav1.DeleteOptions{}) })
	serviceAccountToken(t, e.Hub, name, name)
	t.Cleanup(func() { _ = e.Hub.Kube.RbacV1().ClusterRoleBindings().Delete(ctx, name, metav1.DeleteOptions{}) })
	data, err := e.TokenKubeconfig(e.Hub, "default", name, nil)
	require.NoError(t, err)
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, os.WriteFile(kubeconfig, data, 0o600))

	hub := startOCMProcess(t, "hub-ocm-like", nil, []string{"hub", "--kubeconfig", kubeconfig, "--disable-leader-election"})

	token := metricsReader(t, e.Hub)
	for range 3 {
		code, _ := getMetrics(t, "https://"+hub.SecureAddr+"/metrics", token)
		assert.Equal(t, http.StatusUnauthorized, code, "the token cannot be reviewed")
	}
	assert.Equal(t, http.StatusOK, httpsProbe(hub.SecureAddr))
	assert.Equal(t, http.StatusOK, startuptest.Status("http://"+hub.HealthAddr+"/readyz"))
	assert.Equal(t, 1, strings.Count(hub.Tail(1000), "may not create tokenreviews"), "said once")
}
