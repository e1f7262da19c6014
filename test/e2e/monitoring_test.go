package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/VictoriaMetrics/metricsql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/component-base/metrics/legacyregistry"

	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/test/framework"
)

// monitoringValues turn on every monitoring object of both charts.
var monitoringValues = []string{
	"monitoring.serviceMonitor.enabled=true", "monitoring.prometheusRule.enabled=true",
	"monitoring.dashboard.enabled=true", "monitoring.prometheus.serviceAccount.name=prometheus-k8s",
}

// prometheusSeries are the series Prometheus itself records for each
// target it scrapes, which alerts may use beside the binaries' metrics.
var prometheusSeries = []string{"up"}

// Rendered with every monitoring value on, each chart has a Service of the
// metrics port and a ServiceMonitor that scrapes it over HTTPS with
// Prometheus's token, a binding that lets that ServiceAccount get /metrics,
// a PrometheusRule of its alerts and a Grafana dashboard. Every expression
// of the alerts and panels parses as PromQL and names only metrics the
// binaries register, and docs/monitoring.md lists exactly the metrics
// package metrics registers and the alerts the charts make. With the
// default values none of these objects is rendered.
func TestHelmChartsMonitoring(t *testing.T) {
	framework.SkipWithoutTestbed(t)
	served := servedMetrics(t)
	charts := []struct {
		chart, namespace string
		set              []string
		alerts, panels   []string
	}{{
		chart: "work-hub", namespace: hubNamespace,
		alerts: []string{"WorkReplicaSetRolloutStopped", "WorkWebhookDown", "WorkCredentialExpiringSoon"},
		panels: []string{"Rollouts by state", "Replica set clusters by state", "Reconcile latency", "Requests to the API server", "Hub replicas scraped", "Credential expiry"},
	}, {
		chart: "work-agent", namespace: agentNamespace, set: []string{"clusterName=cluster1"},
		alerts: []string{"WorkAgentClusterUnreachable", "WorkAgentCredentialRejected", "WorkAgentWorksNotApplied", "WorkAgentWorksDegraded", "WorkCredentialExpiringSoon"},
		panels: []string{"Works by condition", "Manifests by health", "Apply latency", "Status latency", "Requests to each API server", "Request latency by API server", "Clusters unreachable", "Credential expiry"},
	}}
	for _, tc := range charts {
		t.Run(tc.chart, func(t *testing.T) {
			objs := renderChart(t, tc.chart, tc.namespace, slices.Concat(tc.set, monitoringValues)...)
			checkScraping(t, objs, tc.chart, tc.namespace)

			rule := findObject(t, objs, "PrometheusRule", tc.chart)
			var alerts []string
			for _, r := range rules(t, rule) {
				alerts = append(alerts, r.Alert)
				assert.NotEmpty(t, r.For, r.Alert)
				assert.Contains(t, []string{"warning", "critical"}, r.Labels["severity"], r.Alert)
				assert.NotEmpty(t, r.Annotations["summary"], r.Alert)
				assert.NotEmpty(t, r.Annotations["description"], r.Alert)
				checkExpr(t, served, r.Expr)
			}
			assert.Equal(t, tc.alerts, alerts)

			cm := findObject(t, objs, "ConfigMap", tc.chart+"-dashboard")
			assert.Equal(t, "1", cm.GetLabels()["grafana_dashboard"])
			var titles []string
			for _, p := range dashboardPanels(t, cm, tc.chart+".json") {
				titles = append(titles, p.Title)
				require.NotEmpty(t, p.Targets, p.Title)
				for _, target := range p.Targets {
					checkExpr(t, served, target.Expr)
				}
			}
			assert.Equal(t, tc.panels, titles)
		})
	}

	t.Run("docs/monitoring.md lists every metric and alert", func(t *testing.T) {
		page, err := os.ReadFile(framework.RepoPath("docs", "monitoring.md"))
		require.NoError(t, err)
		column := func(re string) []string {
			var names []string
			for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(string(page), -1) {
				names = append(names, m[1])
			}
			return names
		}
		assert.ElementsMatch(t, metrics.Names(), column("(?m)^\\| `(work_[a-z_]+)` \\|"), "the table of metrics")
		var alerts []string
		for _, tc := range charts {
			alerts = append(alerts, tc.alerts...)
		}
		assert.ElementsMatch(t, slices.Compact(slices.Sorted(slices.Values(alerts))), column("(?m)^\\| `(Work[A-Za-z]+)` \\|"), "the table of alerts")
	})

	t.Run("the webhook alert only while it fails closed", func(t *testing.T) {
		for _, set := range [][]string{{"webhook.failurePolicy=Ignore"}, {"webhook.enabled=false"}} {
			rule := findObject(t, renderChart(t, "work-hub", hubNamespace, slices.Concat(set, monitoringValues)...), "PrometheusRule", "work-hub")
			for _, r := range rules(t, rule) {
				assert.NotEqual(t, "WorkWebhookDown", r.Alert, "with %v", set)
			}
		}
	})

	t.Run("off by default", func(t *testing.T) {
		objs := slices.Concat(renderChart(t, "work-hub", hubNamespace), renderChart(t, "work-agent", agentNamespace, "clusterName=cluster1"))
		for _, o := range objs {
			assert.NotContains(t, []string{"ServiceMonitor", "PrometheusRule"}, o.GetKind(), objectKey(o))
			assert.NotContains(t, o.GetLabels(), "grafana_dashboard", objectKey(o))
			assert.False(t, strings.HasSuffix(o.GetName(), "-metrics") || strings.HasSuffix(o.GetName(), ":prometheus"), objectKey(o))
		}
	})
}

// checkScraping checks the Service of the metrics port, the ServiceMonitor
// that selects it and the binding of Prometheus's ServiceAccount to the
// chart's ClusterRole that allows get /metrics.
func checkScraping(t *testing.T, objs []*unstructured.Unstructured, name, namespace string) {
	t.Helper()
	deployment := findObject(t, objs, "Deployment", name)
	containers, _, _ := unstructured.NestedSlice(deployment.Object, "spec", "template", "spec", "containers")
	require.Len(t, containers, 1)
	ports, _, _ := unstructured.NestedSlice(containers[0].(map[string]any), "ports")
	assert.Contains(t, ports, map[string]any{"name": "metrics", "containerPort": float64(8443)}, "the port the Service targets")

	svc := findObject(t, objs, "Service", name+"-metrics")
	selector, _, _ := unstructured.NestedStringMap(svc.Object, "spec", "selector")
	podLabels, _, _ := unstructured.NestedStringMap(deployment.Object, "spec", "template", "metadata", "labels")
	for k, v := range selector {
		assert.Equal(t, v, podLabels[k], "the Service selects the pods by %s", k)
	}
	svcPorts, _, _ := unstructured.NestedSlice(svc.Object, "spec", "ports")
	assert.Equal(t, []any{map[string]any{"name": "metrics", "port": float64(8443), "targetPort": "metrics"}}, svcPorts)

	sm := findObject(t, objs, "ServiceMonitor", name)
	assert.Equal(t, "monitoring.coreos.com/v1", sm.GetAPIVersion())
	matchLabels, _, _ := unstructured.NestedStringMap(sm.Object, "spec", "selector", "matchLabels")
	require.NotEmpty(t, matchLabels)
	for k, v := range matchLabels {
		assert.Equal(t, v, svc.GetLabels()[k], "the ServiceMonitor selects the Service by %s", k)
	}
	namespaces, _, _ := unstructured.NestedStringSlice(sm.Object, "spec", "namespaceSelector", "matchNames")
	assert.Equal(t, []string{namespace}, namespaces)
	endpoints, _, _ := unstructured.NestedSlice(sm.Object, "spec", "endpoints")
	require.Len(t, endpoints, 1)
	assert.Equal(t, map[string]any{
		"port": "metrics", "scheme": "https", "path": "/metrics", "interval": "30s",
		"bearerTokenFile": "/var/run/secrets/kubernetes.io/serviceaccount/token",
		"tlsConfig":       map[string]any{"insecureSkipVerify": true},
	}, endpoints[0])

	binding := findObject(t, objs, "ClusterRoleBinding", "open-cluster-management:"+name+":metrics-reader:prometheus")
	subjects, _, _ := unstructured.NestedSlice(binding.Object, "subjects")
	assert.Equal(t, []any{map[string]any{"kind": "ServiceAccount", "name": "prometheus-k8s", "namespace": "monitoring"}}, subjects)
	roleName, _, _ := unstructured.NestedString(binding.Object, "roleRef", "name")
	role := findObject(t, objs, "ClusterRole", roleName)
	roleRules, _, _ := unstructured.NestedSlice(role.Object, "rules")
	assert.Contains(t, roleRules, map[string]any{"nonResourceURLs": []any{"/metrics"}, "verbs": []any{"get"}})
}

// alertRule is a rule of a PrometheusRule.
type alertRule struct {
	Alert, Expr, For string
	Labels           map[string]string
	Annotations      map[string]string
}

// rules returns the rules of the PrometheusRule's one group.
func rules(t *testing.T, rule *unstructured.Unstructured) []alertRule {
	t.Helper()
	var spec struct {
		Groups []struct {
			Name  string
			Rules []alertRule
		}
	}
	remarshal(t, rule.Object["spec"], &spec)
	require.Len(t, spec.Groups, 1)
	return spec.Groups[0].Rules
}

// panel is a panel of a Grafana dashboard.
type panel struct {
	Title   string
	Targets []struct{ Expr string }
}

// dashboardPanels decodes the dashboard under key of the ConfigMap.
func dashboardPanels(t *testing.T, cm *unstructured.Unstructured, key string) []panel {
	t.Helper()
	data, _, _ := unstructured.NestedString(cm.Object, "data", key)
	var dashboard struct {
		UID    string
		Panels []panel
	}
	require.NoError(t, json.Unmarshal([]byte(data), &dashboard), "the dashboard is JSON")
	assert.NotEmpty(t, dashboard.UID)
	return dashboard.Panels
}

func remarshal(t *testing.T, in, out any) {
	t.Helper()
	b, err := json.Marshal(in)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, out))
}

// checkExpr parses expr as PromQL and checks that every metric it names is
// served.
func checkExpr(t *testing.T, served map[string]bool, expr string) {
	t.Helper()
	e, err := metricsql.Parse(expr)
	if !assert.NoError(t, err, "%s does not parse", expr) {
		return
	}
	var names []string
	metricsql.VisitAll(e, func(e metricsql.Expr) {
		if m, ok := e.(*metricsql.MetricExpr); ok {
			for _, filters := range m.LabelFilterss {
				for _, f := range filters {
					if f.Label == "__name__" {
						names = append(names, f.Value)
					}
				}
			}
		}
	})
	assert.NotEmpty(t, names, "%s names no metric", expr)
	for _, name := range names {
		assert.True(t, isServed(served, name), "%s names %s, which no binary registers", expr, name)
	}
}

// isServed tells whether name is a served metric, or a series of a served
// histogram.
func isServed(served map[string]bool, name string) bool {
	if served[name] {
		return true
	}
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		if base, ok := strings.CutSuffix(name, suffix); ok && served[base] {
			return true
		}
	}
	return false
}

// servedMetrics returns the names of every metric the binaries serve at
// /metrics, from the registries themselves: the work metrics of package
// metrics, and those other packages register, which show once used (a
// named workqueue, a client-go request), and the series Prometheus adds.
func servedMetrics(t *testing.T) map[string]bool {
	t.Helper()
	metrics.Register()
	served := map[string]bool{}
	for _, name := range slices.Concat(metrics.Names(), prometheusSeries) {
		served[name] = true
	}

	queue := workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "MonitoringTest"})
	defer queue.ShutDown()
	queue.Add("a")
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"major":"1","minor":"35"}`))
	}))
	defer server.Close()
	client, err := kubernetes.NewForConfig(&rest.Config{Host: server.URL})
	require.NoError(t, err)
	_, err = client.Discovery().ServerVersion()
	require.NoError(t, err)

	families, err := legacyregistry.DefaultGatherer.Gather()
	require.NoError(t, err)
	for _, f := range families {
		served[f.GetName()] = true
	}
	for _, name := range []string{"workqueue_depth", "rest_client_requests_total", "rest_client_request_duration_seconds"} {
		require.True(t, served[name], "%s is registered once used", name)
	}
	return served
}
