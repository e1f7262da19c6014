package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

const (
	manifestWorkCRD        = "manifestworks.work.open-cluster-management.io"
	appliedManifestWorkCRD = "appliedmanifestworks.work.open-cluster-management.io"
	workloadTimeout        = 2 * time.Minute
	badKubeconfigTimeout   = 90 * time.Second
)

func TestCRDsAreEstablishedOnTheRightClusters(t *testing.T) {
	e := setup(t)
	ctx := t.Context()
	want := map[string]map[string]bool{
		framework.HubName: {manifestWorkCRD: true, appliedManifestWorkCRD: false},
		"cluster1":        {manifestWorkCRD: false, appliedManifestWorkCRD: true},
		"cluster2":        {manifestWorkCRD: false, appliedManifestWorkCRD: true},
	}
	for cluster, crds := range want {
		for crd, established := range crds {
			got, err := e.Cluster(cluster).CRDEstablished(ctx, crd)
			require.NoError(t, err)
			assert.Equal(t, established, got, "CRD %s established on %s", crd, cluster)
		}
	}
}

// The fake nodes run workloads: a Deployment becomes Available and a Job
// completes on cluster1.
func TestTestbedRunsWorkloads(t *testing.T) {
	e := setup(t)
	ctx := t.Context()
	kube := e.Cluster("cluster1").Kube
	require.NoError(t, e.Cluster("cluster1").EnsureNamespaces(ctx, "testbed"))

	_, err := kube.AppsV1().Deployments("testbed").Create(ctx, fixture.Deployment("testbed", "web", 2), metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = kube.BatchV1().Jobs("testbed").Create(ctx, fixture.Job("testbed", "once"), metav1.CreateOptions{})
	require.NoError(t, err)

	framework.Eventually(t, workloadTimeout, func() error {
		d, err := kube.AppsV1().Deployments("testbed").Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return err
		}
		return deploymentAvailable(d)
	}, "deployment web available")
	framework.Eventually(t, workloadTimeout, func() error {
		j, err := kube.BatchV1().Jobs("testbed").Get(ctx, "once", metav1.GetOptions{})
		if err != nil {
			return err
		}
		return jobComplete(j)
	}, "job once complete")
}

func TestWorkAgentRejectsBadHubKubeconfig(t *testing.T) {
	e := setup(t)
	closedPort, err := framework.FreePort()
	require.NoError(t, err)
	cases := map[string]string{
		"missing file": filepath.Join(t.TempDir(), "does-not-exist.kubeconfig"),
		"closed port":  kubeconfigWithServer(t, e.Hub.Kubeconfig, fmt.Sprintf("https://127.0.0.1:%d", closedPort)),
	}
	for name, hubKubeconfig := range cases {
		t.Run(name, func(t *testing.T) {
			port, err := framework.FreePort()
			require.NoError(t, err)
			spoke := e.Cluster("cluster1").Kubeconfig
			began := time.Now()
			res, err := e.RunWork(badKubeconfigTimeout, "agent",
				"--spoke-cluster-name", "cluster1",
				"--hub-kubeconfig", hubKubeconfig,
				"--spoke-kubeconfig", spoke, "--kubeconfig", spoke,
				"--health-probe-bind-address", fmt.Sprintf("127.0.0.1:%d", port))
			require.NoError(t, err, "work agent must exit by itself within %s", badKubeconfigTimeout)
			t.Logf("exited %d after %s", res.ExitCode, time.Since(began).Round(time.Millisecond))
			assert.NotZero(t, res.ExitCode)
			lines := nonEmptyLines(res.Stderr)
			require.Len(t, lines, 1, "stderr must be one line:\n%s", res.Stderr)
			assert.True(t, strings.HasPrefix(lines[0], "error: "), "stderr: %q", lines[0])
		})
	}
}

// The hub and both agents run against the kwok clusters while kubectl reads
// our resources; then they stop cleanly on SIGTERM.
func TestWorkProcesses(t *testing.T) {
	e := setup(t)
	hub, err := e.StartHub()
	require.NoError(t, err)
	agents := map[string]*framework.Process{}
	for _, cluster := range []string{"cluster1", "cluster2"} {
		agents[cluster], err = e.StartAgent(cluster)
		require.NoError(t, err)
		// An agent left running would act beside the later tests' own.
		t.Cleanup(func() { _, _ = agents[cluster].Stop(30 * time.Second) })
	}

	t.Run("kubectl get manifestwork shows the printer columns", func(t *testing.T) {
		ctx := t.Context()
		_, err := e.Hub.Work.WorkV1().ManifestWorks("cluster1").Create(ctx, fixture.NewWork("cluster1", "smoke").WithManifest(fixture.ConfigMap("default", "smoke", map[string]string{"from": "e2e"})).Build(), metav1.CreateOptions{})
		require.NoError(t, err)
		out, err := e.Kubectl(framework.HubName, "get", "manifestwork", "-A")
		require.NoError(t, err)
		t.Log("\n" + out)
		assertTable(t, out, []string{"NAMESPACE", "NAME", "APPLIED", "AVAILABLE", "AGE"}, "cluster1", "smoke")
	})

	t.Run("kubectl get appliedmanifestwork shows the printer columns", func(t *testing.T) {
		ctx := t.Context()
		applied := &workv1.AppliedManifestWork{
			ObjectMeta: metav1.ObjectMeta{Name: "by-hand-smoke"},
			Spec:       workv1.AppliedManifestWorkSpec{HubHash: "by-hand", AgentID: "by-hand", ManifestWorkName: "smoke-by-hand"},
		}
		_, err := e.Cluster("cluster1").Work.WorkV1().AppliedManifestWorks().Create(ctx, applied, metav1.CreateOptions{})
		require.NoError(t, err)
		out, err := e.Kubectl("cluster1", "get", "appliedmanifestwork")
		require.NoError(t, err)
		t.Log("\n" + out)
		assertTable(t, out, []string{"NAME", "WORK", "AGE"}, "by-hand-smoke", "smoke-by-hand")
	})

	t.Run("processes are still running", func(t *testing.T) {
		assert.True(t, hub.Running(), "hub exited:\n%s", hub.Tail(30))
		for cluster, agent := range agents {
			assert.True(t, agent.Running(), "agent %s exited:\n%s", cluster, agent.Tail(30))
		}
	})

	t.Run("agent exits 0 on SIGTERM", func(t *testing.T) {
		code, err := agents["cluster1"].Stop(30 * time.Second)
		require.NoError(t, err)
		assert.Zero(t, code, agents["cluster1"].Tail(30))
	})

	t.Run("hub exits 0 on SIGTERM", func(t *testing.T) {
		code, err := hub.Stop(30 * time.Second)
		require.NoError(t, err)
		assert.Zero(t, code, hub.Tail(30))
	})
}

func deploymentAvailable(d *appsv1.Deployment) error {
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentAvailable && c.Status == corev1.ConditionTrue &&
			d.Status.AvailableReplicas == *d.Spec.Replicas {
			return nil
		}
	}
	return fmt.Errorf("not available: %d/%d replicas available, conditions %v",
		d.Status.AvailableReplicas, *d.Spec.Replicas, d.Status.Conditions)
}

func jobComplete(j *batchv1.Job) error {
	for _, c := range j.Status.Conditions {
		if c.Type == batchv1.JobComplete && c.Status == corev1.ConditionTrue {
			return nil
		}
	}
	return fmt.Errorf("not complete: succeeded %d, conditions %v", j.Status.Succeeded, j.Status.Conditions)
}

// assertTable checks that kubectl's table header has the columns, in this
// order (others may come between), and that a row holds every one of cells.
func assertTable(t *testing.T, out string, columns []string, cells ...string) {
	t.Helper()
	lines := nonEmptyLines(out)
	require.NotEmpty(t, lines, "kubectl printed nothing")
	assert.True(t, inOrder(strings.Fields(lines[0]), columns), "header lacks %v in:\n%s", columns, out)
	for _, line := range lines[1:] {
		if containsAll(strings.Fields(line), cells) {
			return
		}
	}
	t.Errorf("no row with %v in:\n%s", cells, out)
}

func inOrder(fields, want []string) bool {
	i := 0
	for _, f := range fields {
		if i < len(want) && f == want[i] {
			i++
		}
	}
	return i == len(want)
}

func containsAll(fields, cells []string) bool {
	for _, cell := range cells {
		found := false
		for _, f := range fields {
			found = found || f == cell
		}
		if !found {
			return false
		}
	}
	return true
}

func nonEmptyLines(s string) []string {
	var lines []string
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// kubeconfigWithServer copies a kubeconfig with every cluster pointed at server.
func kubeconfigWithServer(t *testing.T, path, server string) string {
	t.Helper()
	config, err := clientcmd.LoadFromFile(path)
	require.NoError(t, err)
	for _, cluster := range config.Clusters {
		cluster.Server = server
	}
	out := filepath.Join(t.TempDir(), "closed-port.kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(*config, out))
	return out
}
