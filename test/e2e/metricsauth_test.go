package e2e

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

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
