package e2e

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/manifestwork/work/pkg/agent/controllers/availability"
	"github.com/manifestwork/work/pkg/agent/controllers/finalize"
	"github.com/manifestwork/work/pkg/agent/controllers/manifestwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/hub/controllers/ttl"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// scrape reads the Prometheus text served at /metrics on a process's secure
// address (--listen), with the token of a ServiceAccount bound to the
// metrics-reader ClusterRole of deploy/ on the cluster whose API server
// reviews the process's tokens (its --kubeconfig's), as a Prometheus scrapes
// it: each sample line's value by its name and labels, as printed. A
// process without a secure address (webhook-server) is scraped on its
// health address.
func scrape(t *testing.T, p *framework.Process) map[string]float64 {
	t.Helper()
	if p.SecureAddr == "" {
		return scrapeURL(t, "http://"+p.HealthAddr+"/metrics", "")
	}
	return scrapeURL(t, "https://"+p.SecureAddr+"/metrics", metricsReader(t, reviewingCluster(t, p)))
}

// scrapeURL reads the Prometheus text at url, with token unless empty.
func scrapeURL(t *testing.T, url, token string) map[string]float64 {
	t.Helper()
	code, body := getMetrics(t, url, token)
	require.Equal(t, http.StatusOK, code, body)
	samples := map[string]float64{}
	scanner := bufio.NewScanner(strings.NewReader(body))
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		line := scanner.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		value, err := strconv.ParseFloat(line[i+1:], 64)
		require.NoError(t, err, line)
		samples[line[:i]] = value
	}
	require.NoError(t, scanner.Err())
	return samples
}

// getMetrics GETs url, with token unless empty, over HTTPS without checking
// the server's self-signed certificate (as Prometheus's insecure_skip_verify
// for an in-memory certificate), and returns the status and the body.
func getMetrics(t *testing.T, url, token string) (int, string) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // the process's certificate is made in memory
	}}
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

// reviewingCluster is the cluster of a work process's --kubeconfig (the last
// one given), whose API server reviews the tokens of its metrics requests.
func reviewingCluster(t *testing.T, p *framework.Process) *framework.Cluster {
	t.Helper()
	var kubeconfig string
	args := p.Args()
	for i, arg := range args {
		if v, ok := strings.CutPrefix(arg, "--kubeconfig="); ok {
			kubeconfig = v
		} else if arg == "--kubeconfig" && i+1 < len(args) {
			kubeconfig = args[i+1]
		}
	}
	for _, c := range env.Clusters() {
		if c.WorkKubeconfig == kubeconfig {
			return c
		}
	}
	// A kubeconfig of the test's own (an identity with fewer rights): the
	// cluster whose API server it names.
	if cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig); err == nil {
		for _, c := range env.Clusters() {
			if framework.HostOf(c.Config.Host) == framework.HostOf(cfg.Host) {
				return c
			}
		}
	}
	t.Fatalf("no cluster has the --kubeconfig %q of %s", kubeconfig, p.Name)
	return nil
}

// metricsReaderSA is the ServiceAccount, in namespace default of each
// cluster, that the tests scrape metrics as.
const metricsReaderSA = "e2e-metrics-reader"

// metricsReader is a token of ServiceAccount e2e-metrics-reader on c, bound
// to the metrics-reader ClusterRole that deploy/ ships for the processes
// running against c: deploy/hub's on the hub, deploy/agent's elsewhere.
func metricsReader(t *testing.T, c *framework.Cluster) string {
	t.Helper()
	role := "open-cluster-management:work-agent:metrics-reader"
	if c == env.Hub {
		role = "open-cluster-management:work-hub:metrics-reader"
	}
	return serviceAccountToken(t, c, metricsReaderSA, role)
}

// serviceAccountToken creates, unless it exists, ServiceAccount name in
// namespace default of c, bound to ClusterRole role unless role is empty,
// and returns a new token of it.
func serviceAccountToken(t *testing.T, c *framework.Cluster, name, role string) string {
	t.Helper()
	ctx := t.Context()
	_, err := c.Kube.CoreV1().ServiceAccounts("default").Create(ctx,
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		require.NoError(t, err)
	}
	if role != "" {
		_, err = c.Kube.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: "default", Name: name}},
		}, metav1.CreateOptions{})
		if !apierrors.IsAlreadyExists(err) {
			require.NoError(t, err)
		}
	}
	tr, err := c.Kube.CoreV1().ServiceAccounts("default").CreateToken(ctx, name, &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	require.NoError(t, err)
	return tr.Status.Token
}

// waitMetric waits until a process's sample is above zero.
func waitMetric(t *testing.T, p *framework.Process, sample string) {
	t.Helper()
	framework.Eventually(t, convergeTimeout, func() error {
		if v := scrape(t, p)[sample]; v <= 0 {
			return fmt.Errorf("%s is %v", sample, v)
		}
		return nil
	}, "%s of %s above zero", sample, p.Name)
}

// workEvents lists the hub's Events of a reason on a work of a cluster.
func workEvents(ctx context.Context, cluster, work, reason string) ([]corev1.Event, error) {
	list, err := env.Hub.Kube.CoreV1().Events(cluster).List(ctx, metav1.ListOptions{
		FieldSelector: "involvedObject.kind=ManifestWork,involvedObject.name=" + work + ",reason=" + reason,
	})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// waitEvent waits until the hub has an Event of the type and reason on a
// work of a cluster whose message contains text, and returns it.
func waitEvent(t *testing.T, cluster, work, eventType, reason, text string) corev1.Event {
	t.Helper()
	var found corev1.Event
	framework.Eventually(t, convergeTimeout, func() error {
		events, err := workEvents(t.Context(), cluster, work, reason)
		if err != nil {
			return err
		}
		for _, ev := range events {
			if ev.Type == eventType && strings.Contains(ev.Message, text) {
				found = ev
				return nil
			}
		}
		return fmt.Errorf("%d %s events, none of type %s with %q", len(events), reason, eventType, text)
	}, "%s event %s on work %s/%s", eventType, reason, cluster, work)
	return found
}

// The agent and the hub serve their metrics on the health address, and the
// agent records Events on the hub for a failing manifest and a deletion.
func TestMetricsAndEvents(t *testing.T) {
	e := setup(t)
	agent := startAgent(t, "cluster2")
	hub, err := e.StartHub("--disable-leader-election")
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = hub.Stop(convergeTimeout) })

	ns := "e2e-metrics"
	ttlSeconds := int64(3600) // for the hub's TTL controller to look at it; it never finishes
	createWork(t, fixture.NewWork("cluster2", "observed").
		WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, "cm", map[string]string{"a": "b"})).
		WithDeleteOption(workv1.DeleteOption{PropagationPolicy: workv1.DeletePropagationPolicyTypeForeground, TTLSecondsAfterFinished: &ttlSeconds}).
		Build())
	waitWorkCondition(t, "cluster2", "observed", workv1.WorkApplied, metav1.ConditionTrue)

	waitMetric(t, agent, `work_controller_reconciles_total{controller="`+manifestwork.ControllerName+`",result="success"}`)
	waitMetric(t, agent, `work_manifest_applies_total{result="written",strategy="Update"}`)
	waitMetric(t, agent, `work_status_patches_total{controller="`+manifestwork.ControllerName+`",result="sent"}`)
	waitMetric(t, agent, `work_finalizer_patches_total{action="add",controller="`+manifestwork.ControllerName+`",result="sent"}`)
	waitMetric(t, agent, `work_status_patches_total{controller="`+availability.ControllerName+`",result="skipped"}`)
	waitMetric(t, agent, `workqueue_adds_total{name="`+manifestwork.ControllerName+`"}`)
	waitMetric(t, hub, `work_controller_reconciles_total{controller="`+ttl.ControllerName+`",result="success"}`)
	waitMetric(t, hub, `workqueue_adds_total{name="`+ttl.ControllerName+`"}`)

	createWork(t, fixture.NewWork("cluster2", "unnamed").
		WithRawManifest(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"namespace": "`+ns+`"}}`).Build())
	ev := waitEvent(t, "cluster2", "unnamed", corev1.EventTypeWarning, manifestwork.EventManifestApplyFailed, "resource name may not be empty")
	require.Equal(t, "work-agent", ev.Source.Component)

	require.NoError(t, e.Hub.Work.WorkV1().ManifestWorks("cluster2").Delete(t.Context(), "observed", metav1.DeleteOptions{}))
	waitEvent(t, "cluster2", "observed", corev1.EventTypeNormal, finalize.EventDeletionStarted, "")
	waitEvent(t, "cluster2", "observed", corev1.EventTypeNormal, finalize.EventResourcesCleanedUp, "")
	waitGone(t, "work observed", func(ctx context.Context) error {
		_, err := getWork(ctx, "cluster2", "observed")
		return err
	})
	// The Deleting condition and the released finalizer are counted apart.
	waitMetric(t, agent, `work_status_patches_total{controller="`+finalize.ControllerName+`",result="sent"}`)
	waitMetric(t, agent, `work_finalizer_patches_total{action="remove",controller="`+finalize.ControllerName+`",result="sent"}`)
}
