package e2e

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/clientcmd"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// outage is how long a stopped cluster stays down: long enough for
// client-go's backoff to grow past ten seconds.
const outage = 20 * time.Second

// The hub's kube-apiserver and etcd stop for a while: the agent keeps
// running, keeps repairing the managed cluster meanwhile, and applies what
// changed on the hub as soon as the hub answers again.
func TestHubOutage(t *testing.T) {
	e := setup(t)
	agent := startAgent(t, "cluster2", "-v=6")
	ctx := t.Context()
	ns := "e2e-hub-outage"
	cms := e.Cluster("cluster2").Kube.CoreV1().ConfigMaps(ns)
	build := func(v string) *workv1.ManifestWork {
		return fixture.NewWork("cluster2", "hub-outage").WithManifest(fixture.Namespace(ns),
			fixture.ConfigMap(ns, "changed", map[string]string{"v": v}),
			fixture.ConfigMap(ns, "drifted", map[string]string{"v": "1"})).Build()
	}
	createWork(t, build("1"))
	waitWorkCondition(t, "cluster2", "hub-outage", workv1.WorkApplied, metav1.ConditionTrue)

	rec := newRecovery(t, agent, "hub down "+outage.String())
	start := stopCluster(t, "hub")
	deletedAt := deleteConfigMap(t, cms, "drifted")
	rec.mark("drift repaired while the hub is down", waitRecreated(t, cms, "drifted", deletedAt.uid).Sub(deletedAt.at))
	keepsRunning(t, agent, rec.began.Add(outage))
	require.NoError(t, start())

	// The change is made as soon as the hub answers the agent: from then on,
	// the time to converge is the agent's.
	rec.answered = waitAnswers(t, func(ctx context.Context) error {
		_, err := agentHubClient(t).WorkV1().ManifestWorks("cluster2").List(ctx, metav1.ListOptions{})
		return err
	})
	updateWork(t, "cluster2", "hub-outage", func(w *workv1.ManifestWork) { w.Spec.Workload = build("2").Spec.Workload })
	waitConfigMapData(t, "cluster2", ns, "changed", "v", "2")
	rec.since("hub change applied")
	waitWorkCondition(t, "cluster2", "hub-outage", workv1.WorkApplied, metav1.ConditionTrue)
	rec.since("status on the hub")
	rec.log()
	_, err := cms.Get(ctx, "drifted", metav1.GetOptions{})
	require.NoError(t, err)
}

// The managed cluster's kube-apiserver and etcd stop for a while and start
// again, while works are created and updated on the hub: the agent keeps
// running, and everything converges once the cluster
// answers again, and drift is repaired again at once, both of objects
// deleted the moment it answers and of objects changed later.
func TestManagedClusterRestart(t *testing.T) {
	e := setup(t)
	agent := startAgent(t, "cluster2", "-v=6")
	ns := "e2e-restart"
	cms := e.Cluster("cluster2").Kube.CoreV1().ConfigMaps(ns)
	work := func(name, v string) *workv1.ManifestWork {
		return fixture.NewWork("cluster2", name).WithManifest(fixture.Namespace(ns),
			fixture.ConfigMap(ns, name+"-1", map[string]string{"v": v}),
			fixture.ConfigMap(ns, name+"-2", map[string]string{"v": v})).Build()
	}
	for _, name := range []string{"updated", "steady"} {
		createWork(t, work(name, "1"))
		waitWorkCondition(t, "cluster2", name, workv1.WorkApplied, metav1.ConditionTrue)
	}

	rec := newRecovery(t, agent, "managed cluster down "+outage.String())
	start := stopCluster(t, "cluster2")
	updateWork(t, "cluster2", "updated", func(w *workv1.ManifestWork) { w.Spec.Workload = work("updated", "2").Spec.Workload })
	createWork(t, work("created", "1"))
	keepsRunning(t, agent, rec.began.Add(outage))
	require.NoError(t, start())

	// Drift the moment the cluster answers the agent, on a work nothing else
	// changed: only the watch of ConfigMaps tells the agent.
	agentKube := agentManagedClient(t)
	rec.answered = waitAnswers(t, func(ctx context.Context) error {
		_, err := agentKube.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
		return err
	})
	early := deleteConfigMap(t, cms, "steady-1")

	waitConfigMapData(t, "cluster2", ns, "updated-1", "v", "2")
	waitConfigMapData(t, "cluster2", ns, "created-1", "v", "1")
	rec.since("hub changes applied")
	waitRecreated(t, cms, "steady-1", early.uid)
	rec.since("drift at once repaired")
	for _, name := range []string{"updated", "created", "steady"} {
		waitWorkCondition(t, "cluster2", name, workv1.WorkApplied, metav1.ConditionTrue)
	}
	rec.since("status on the hub")

	// Drift right after convergence is repaired as well.
	late := deleteConfigMap(t, cms, "steady-2")
	editConfigMap(t, cms, "updated-2")
	waitRecreated(t, cms, "steady-2", late.uid)
	waitConfigMapData(t, "cluster2", ns, "updated-2", "v", "2")
	rec.mark("later drift repaired", time.Since(late.at))
	rec.log()
}

// keepsRunning checks until the end of an outage that the agent runs.
func keepsRunning(t *testing.T, agent *framework.Process, until time.Time) {
	t.Helper()
	framework.Consistently(t, time.Until(until), func() error {
		if !agent.Running() {
			return fmt.Errorf("the agent exited")
		}
		return nil
	}, "the agent keeps running through the outage")
}

// stopCluster stops a cluster's kube-apiserver and etcd, and returns the
// function that starts them again; the cluster is started again when the
// test ends in any case.
func stopCluster(t *testing.T, name string) func() error {
	t.Helper()
	start, err := env.StopCluster(name)
	require.NoError(t, err)
	t.Cleanup(func() {
		if err := start(); err != nil {
			t.Errorf("starting %s again: %v", name, err)
		}
	})
	return start
}

// waitAnswers polls until list succeeds and returns when it did.
func waitAnswers(t *testing.T, list func(context.Context) error) time.Time {
	t.Helper()
	framework.Eventually(t, 2*time.Minute, func() error { return list(t.Context()) }, "the cluster answers the agent")
	return time.Now()
}

// agentHubClient is a client of the hub with the agent's identity.
func agentHubClient(t *testing.T) workclient.Interface {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", env.Cluster("cluster2").AgentHubKubeconfig)
	require.NoError(t, err)
	return workclient.NewForConfigOrDie(cfg)
}

// agentManagedClient is a client of cluster2 with the agent's identity.
func agentManagedClient(t *testing.T) kubernetes.Interface {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", env.Cluster("cluster2").WorkKubeconfig)
	require.NoError(t, err)
	return kubernetes.NewForConfigOrDie(cfg)
}

// deletion is an object deleted by the test, and when.
type deletion struct {
	uid types.UID
	at  time.Time
}

func deleteConfigMap(t *testing.T, cms corev1client.ConfigMapInterface, name string) deletion {
	t.Helper()
	cm, err := cms.Get(t.Context(), name, metav1.GetOptions{})
	require.NoError(t, err)
	require.NoError(t, cms.Delete(t.Context(), name, metav1.DeleteOptions{}))
	return deletion{uid: cm.UID, at: time.Now()}
}

// editConfigMap sets data v=drifted, which the agent must put back.
func editConfigMap(t *testing.T, cms corev1client.ConfigMapInterface, name string) {
	t.Helper()
	cm, err := cms.Get(t.Context(), name, metav1.GetOptions{})
	require.NoError(t, err)
	cm.Data["v"] = "drifted"
	_, err = cms.Update(t.Context(), cm, metav1.UpdateOptions{})
	require.NoError(t, err)
}

// waitRecreated waits until a deleted ConfigMap is back, with another UID,
// and returns when it saw it.
func waitRecreated(t *testing.T, cms corev1client.ConfigMapInterface, name string, old types.UID) time.Time {
	t.Helper()
	framework.Eventually(t, convergeTimeout, func() error {
		cm, err := cms.Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cm.UID == old {
			return fmt.Errorf("%s still has its old UID", name)
		}
		return nil
	}, "ConfigMap %s recreated", name)
	return time.Now()
}

// recovery measures how an agent recovers from a fault: how long after the
// cluster answered again each step was done, and the requests it sent,
// counted from its -v=6 log. It logs one line per fault, for the
// reliability table in docs/.
type recovery struct {
	t        *testing.T
	agent    *framework.Process
	fault    string
	began    time.Time // the fault
	answered time.Time // the cluster answers the agent again
	steps    []string
}

func newRecovery(t *testing.T, agent *framework.Process, fault string) *recovery {
	return &recovery{t: t, agent: agent, fault: fault, began: time.Now()}
}

// since records that a step was done now.
func (r *recovery) since(step string) {
	r.mark(step, time.Since(r.answered))
}

func (r *recovery) mark(step string, d time.Duration) {
	r.steps = append(r.steps, fmt.Sprintf("%s %.1fs", step, d.Seconds()))
}

func (r *recovery) log() {
	r.t.Helper()
	hosts := map[string]string{
		framework.HostOf(env.Hub.Config.Host):                 "hub",
		framework.HostOf(env.Cluster("cluster2").Config.Host): "managed",
	}
	now := time.Now()
	during, err := framework.ScanRequestLog(r.agent.LogPath, hosts, r.began, r.answered)
	require.NoError(r.t, err)
	after, err := framework.ScanRequestLog(r.agent.LogPath, hosts, r.answered, now)
	require.NoError(r.t, err)
	r.t.Logf("recovery: %s: after the cluster answered again (%.1fs after the fault): %s; requests in %.1fs since: %s; during the fault: %s",
		r.fault, r.answered.Sub(r.began).Seconds(), strings.Join(r.steps, ", "),
		now.Sub(r.answered).Seconds(), formatRequests(after), formatRequests(during))
}

// formatRequests is "hub: 3 (LIST manifestworks=1 ...) managed: ...".
func formatRequests(byCluster map[string]map[string]int) string {
	var parts []string
	for _, cluster := range slices.Sorted(maps.Keys(byCluster)) {
		counts := byCluster[cluster]
		total := 0
		var keys []string
		for _, k := range slices.Sorted(maps.Keys(counts)) {
			total += counts[k]
			keys = append(keys, fmt.Sprintf("%s=%d", k, counts[k]))
		}
		parts = append(parts, fmt.Sprintf("%s %d (%s)", cluster, total, strings.Join(keys, " ")))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}
