package e2e

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/manifestwork/work/pkg/admission"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/filewatch/filewatchtest"
	"github.com/manifestwork/work/pkg/startup/startuptest"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// What OCM's operators render, with the Secrets they mount laid out under a
// folder of the test (/spoke/hub-kubeconfig/kubeconfig is
// <root>/spoke/hub-kubeconfig/kubeconfig) and the kubelet's way of updating
// them. A pod has what a test machine has not: an in-cluster config (here
// --kubeconfig) and its namespace in the service account's files (here
// $POD_NAMESPACE). The framework puts the probes on free ports (--listen,
// --health-probe-bind-address or --health-probe-port): 8443 and 8081 may be
// taken on the machine.

// klusterletArgs are the arguments OCM's Klusterlet renders for its work
// agent (Deployment <klusterlet>-work-agent), in Default or Hosted mode.
func klusterletArgs(root, cluster string, hosted bool) []string {
	args := []string{"agent",
		"--spoke-cluster-name=" + cluster,
		"--workload-source-driver=kube",
		"--workload-source-config=" + filepath.Join(root, "spoke/hub-kubeconfig/kubeconfig"),
		"--agent-id=" + cluster,
	}
	if hosted {
		args = append(args, "--spoke-kubeconfig="+filepath.Join(root, "spoke/config/kubeconfig"),
			"--terminate-on-files="+filepath.Join(root, "spoke/config/kubeconfig"))
	}
	return append(args, "--terminate-on-files="+filepath.Join(root, "spoke/hub-kubeconfig/kubeconfig"), "--status-sync-interval=60s")
}

// secretVolume lays a kubeconfig out under root as the kubelet mounts a
// Secret at dir (e.g. spoke/hub-kubeconfig).
func secretVolume(t *testing.T, root, dir string, kubeconfig []byte) *filewatchtest.SecretVolume {
	t.Helper()
	vol, err := filewatchtest.NewSecretVolume(filepath.Join(root, dir), map[string][]byte{"kubeconfig": kubeconfig})
	require.NoError(t, err)
	return vol
}

// agentHubKubeconfig is a kubeconfig of the hub with a new token of cluster's
// agent identity (work-agent in the cluster's namespace); with bound set, the
// token stops working when that object is deleted.
func agentHubKubeconfig(t *testing.T, cluster string, bound *authenticationv1.BoundObjectReference) []byte {
	t.Helper()
	data, err := env.TokenKubeconfig(env.Hub, cluster, framework.AgentHubServiceAccount, bound)
	require.NoError(t, err)
	return data
}

// managedKubeconfig is a kubeconfig of a managed cluster with a new token of
// its agent's identity there (klusterlet-work-sa).
func managedKubeconfig(t *testing.T, cluster string) []byte {
	t.Helper()
	data, err := env.TokenKubeconfig(env.Cluster(cluster), framework.AgentLeaseNamespace, framework.AgentServiceAccount, nil)
	require.NoError(t, err)
	return data
}

// httpsProbe is the status of GET https://<addr>/healthz as the kubelet
// probes it (the certificate is not verified), or 0 without an answer.
func httpsProbe(addr string) int {
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // as the kubelet's HTTPS probes
	}}
	resp, err := client.Get("https://" + addr + "/healthz")
	if err != nil {
		return 0
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// startOCMProcess starts a work process with an operator's arguments; it is
// stopped when t ends.
func startOCMProcess(t *testing.T, name string, env []string, args []string) *framework.Process {
	t.Helper()
	p, err := setup(t).StartWork(name, env, args...)
	require.NoError(t, err, "%s with OCM's arguments", name)
	t.Cleanup(func() { _, _ = p.Stop(convergeTimeout) })
	return p
}

// leaseHolderOn is the holder of the work-agent Lease in namespace of a
// cluster, "" when there is none.
func leaseHolderOn(t *testing.T, cluster, namespace string) string {
	t.Helper()
	lease, err := env.Cluster(cluster).Kube.CoordinationV1().Leases(namespace).Get(t.Context(), agentLease, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return ""
	}
	require.NoError(t, err)
	if lease.Spec.HolderIdentity == nil {
		return ""
	}
	return *lease.Spec.HolderIdentity
}

// rotatedAndRestarted swaps a mounted kubeconfig the kubelet's way, waits
// for the agent to exit 0 on its own (--terminate-on-files), checks that it
// released its lease, and starts it again with the same arguments, as the
// kubelet restarts the container.
func rotatedAndRestarted(t *testing.T, agent *framework.Process, vol *filewatchtest.SecretVolume, kubeconfig []byte, leaseCluster, leaseNamespace string) {
	t.Helper()
	began := time.Now()
	require.NoError(t, vol.Update(map[string][]byte{"kubeconfig": kubeconfig}))
	code, err := agent.Wait(convergeTimeout)
	require.NoError(t, err, "the agent exits by itself when the file changes")
	assert.Zero(t, code, "a clean exit:\n%s", agent.Tail(20))
	t.Logf("the agent exited %s after the rotation", time.Since(began).Round(time.Millisecond))
	assert.Contains(t, agent.Tail(500), "A file of --terminate-on-files changed")
	assert.Empty(t, leaseHolderOn(t, leaseCluster, leaseNamespace), "the lease was released")

	began = time.Now()
	require.NoError(t, agent.Start())
	require.NoError(t, agent.WaitReady(convergeTimeout))
	t.Logf("restarted and ready in %s", time.Since(began).Round(time.Millisecond))
}

// The work agent started with exactly what OCM's Klusterlet renders, in
// Default mode, applies the tutorial's work, answers the Klusterlet's HTTPS
// probe, takes its lease in its pod's namespace, exits when the registration
// agent rotates its hub credential, and, started again as the kubelet would,
// carries on with nothing lost.
func TestKlusterletAgentDefaultMode(t *testing.T) {
	e := setup(t)
	stopSharedAgent(t, "cluster1")
	root := t.TempDir()
	hubVol := secretVolume(t, root, "spoke/hub-kubeconfig", agentHubKubeconfig(t, "cluster1", nil))
	pod := "klusterlet-work-agent-7c9f8d6b5-default"
	agent := startOCMProcess(t, "klusterlet-agent-cluster1",
		[]string{"POD_NAME=" + pod, "POD_NAMESPACE=" + framework.AgentLeaseNamespace},
		append(klusterletArgs(root, "cluster1", false), "--kubeconfig="+e.Cluster("cluster1").WorkKubeconfig))

	assert.Equal(t, http.StatusOK, httpsProbe(agent.SecureAddr), "the Klusterlet's liveness and readiness probe")
	_, err := e.Kubectl(framework.HubName, "apply", "-f", framework.RepoPath("deploy", "examples", "example-manifestwork.yaml"))
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = e.Hub.Work.WorkV1().ManifestWorks("cluster1").Delete(context.Background(), "example-manifestwork", metav1.DeleteOptions{})
	})
	waitWorkCondition(t, "cluster1", "example-manifestwork", workv1.WorkApplied, metav1.ConditionTrue)
	deployments := e.Cluster("cluster1").Kube.AppsV1().Deployments("default")
	before, err := deployments.Get(t.Context(), "nginx-deployment", metav1.GetOptions{})
	require.NoError(t, err)
	framework.Eventually(t, convergeTimeout, func() error {
		if holder := leaseHolderOn(t, "cluster1", framework.AgentLeaseNamespace); holder != pod {
			return fmt.Errorf("held by %q", holder)
		}
		return nil
	}, "the lease in the pod's namespace, held under the pod's name")

	rotatedAndRestarted(t, agent, hubVol, agentHubKubeconfig(t, "cluster1", nil), "cluster1", framework.AgentLeaseNamespace)

	assert.Equal(t, http.StatusOK, httpsProbe(agent.SecureAddr))
	ns := "e2e-klusterlet-default"
	createWork(t, fixture.NewWork("cluster1", "after-rotation").
		WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, "cm", map[string]string{"k": "v"})).Build())
	waitWorkCondition(t, "cluster1", "after-rotation", workv1.WorkApplied, metav1.ConditionTrue)
	waitWorkCondition(t, "cluster1", "example-manifestwork", workv1.WorkApplied, metav1.ConditionTrue)
	after, err := deployments.Get(t.Context(), "nginx-deployment", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, before.UID, after.UID, "the tutorial's Deployment is the same object")
	assert.Equal(t, before.Generation, after.Generation, "and was not rewritten")
}

// In Hosted mode the Klusterlet runs the agent on a management cluster
// (here cluster1), in namespace klusterlet-<cluster>, against the managed
// cluster's kubeconfig (here cluster2's), and passes --terminate-on-files for
// that kubeconfig too: the lease lives in the pod's namespace on the
// management cluster, and a rotated managed-cluster credential restarts it.
func TestKlusterletAgentHostedMode(t *testing.T) {
	e := setup(t)
	stopSharedAgent(t, "cluster2")
	root := t.TempDir()
	secretVolume(t, root, "spoke/hub-kubeconfig", agentHubKubeconfig(t, "cluster2", nil))
	spokeVol := secretVolume(t, root, "spoke/config", managedKubeconfig(t, "cluster2"))
	hostedNS := "klusterlet-cluster2"
	management := e.Cluster("cluster1")
	require.NoError(t, management.EnsureNamespaces(t.Context(), hostedNS))
	t.Cleanup(func() {
		_ = management.Kube.CoreV1().Namespaces().Delete(context.Background(), hostedNS, metav1.DeleteOptions{})
	})
	pod := "klusterlet-work-agent-7c9f8d6b5-hosted"
	agent := startOCMProcess(t, "klusterlet-agent-hosted-cluster2",
		[]string{"POD_NAME=" + pod, "POD_NAMESPACE=" + hostedNS},
		append(klusterletArgs(root, "cluster2", true), "--kubeconfig="+management.Kubeconfig))

	assert.Equal(t, http.StatusOK, httpsProbe(agent.SecureAddr))
	framework.Eventually(t, convergeTimeout, func() error {
		if holder := leaseHolderOn(t, "cluster1", hostedNS); holder != pod {
			return fmt.Errorf("held by %q", holder)
		}
		return nil
	}, "the lease in klusterlet-cluster2 on the management cluster")
	ns := "e2e-klusterlet-hosted"
	createWork(t, fixture.NewWork("cluster2", "hosted").
		WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, "cm", map[string]string{"k": "v"})).Build())
	waitWorkCondition(t, "cluster2", "hosted", workv1.WorkApplied, metav1.ConditionTrue)
	cms := e.Cluster("cluster2").Kube.CoreV1().ConfigMaps(ns)
	before, err := cms.Get(t.Context(), "cm", metav1.GetOptions{})
	require.NoError(t, err, "applied to the managed cluster")

	rotatedAndRestarted(t, agent, spokeVol, managedKubeconfig(t, "cluster2"), "cluster1", hostedNS)

	updateWork(t, "cluster2", "hosted", func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests[1] = manifestOf(t, fixture.ConfigMap(ns, "cm", map[string]string{"k": "v2"}))
	})
	waitConfigMapData(t, "cluster2", ns, "cm", "k", "v2")
	after, err := cms.Get(t.Context(), "cm", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, before.UID, after.UID)
}

// credentialSecret creates a Secret in the hub namespace of cluster1 for a
// token to be bound to: deleting it revokes the token.
func credentialSecret(t *testing.T, name string) (*authenticationv1.BoundObjectReference, func()) {
	t.Helper()
	secrets := env.Hub.Kube.CoreV1().Secrets("cluster1")
	s, err := secrets.Create(t.Context(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	require.NoError(t, err)
	revoke := func() { _ = secrets.Delete(context.Background(), name, metav1.DeleteOptions{}) }
	t.Cleanup(revoke)
	return &authenticationv1.BoundObjectReference{Kind: "Secret", APIVersion: "v1", Name: s.Name, UID: s.UID}, revoke
}

// waitRejected waits until the hub rejects the token of a kubeconfig.
func waitRejected(t *testing.T, kubeconfig []byte) {
	t.Helper()
	cfg, err := clientcmd.RESTConfigFromKubeConfig(kubeconfig)
	require.NoError(t, err)
	client, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	framework.Eventually(t, convergeTimeout, func() error {
		_, err := client.Discovery().ServerVersion()
		if apierrors.IsUnauthorized(err) {
			return nil
		}
		return fmt.Errorf("not rejected yet: %v", err)
	}, "the hub rejects the revoked token")
}

// waitPodEvent waits for an Event of the reason on the agent's pod, on the
// cluster the agent runs on.
func waitPodEvent(t *testing.T, cluster, namespace, pod, reason string) corev1.Event {
	t.Helper()
	var found corev1.Event
	framework.Eventually(t, convergeTimeout, func() error {
		list, err := env.Cluster(cluster).Kube.CoreV1().Events(namespace).List(t.Context(), metav1.ListOptions{
			FieldSelector: "involvedObject.kind=Pod,involvedObject.name=" + pod + ",reason=" + reason,
		})
		if err != nil {
			return err
		}
		if len(list.Items) == 0 {
			return fmt.Errorf("no %s Event on pod %s", reason, pod)
		}
		found = list.Items[0]
		return nil
	}, "Event %s on the pod", reason)
	return found
}

// Without --terminate-on-files the agent keeps running across a rotation
// done the kubelet's way, while works are being created: its clients switch
// to the new token, nothing is lost and nothing applied before is written
// again. A revoked token gives a log line, a metric and an Event on the pod,
// /healthz stays ok (a restart could not help), and the next token written to
// the file brings everything back.
func TestHubCredentialRotationWithoutRestart(t *testing.T) {
	e := setup(t)
	stopSharedAgent(t, "cluster1")
	root := t.TempDir()
	first, _ := credentialSecret(t, "e2e-credential-first")
	second, revokeSecond := credentialSecret(t, "e2e-credential-second")
	third, _ := credentialSecret(t, "e2e-credential-third")
	hubVol := secretVolume(t, root, "spoke/hub-kubeconfig", agentHubKubeconfig(t, "cluster1", first))
	pod := "work-agent-rotation"
	agent := startOCMProcess(t, "agent-rotation-cluster1",
		[]string{"POD_NAME=" + pod, "POD_NAMESPACE=" + framework.AgentLeaseNamespace},
		[]string{"agent", "--spoke-cluster-name=cluster1", "--hub-kubeconfig=" + hubVol.Path("kubeconfig"),
			"--kubeconfig=" + e.Cluster("cluster1").WorkKubeconfig, "--disable-leader-election"})
	pid := agent.Pid()

	ns := "e2e-rotation"
	const works, rotateAfter = 20, 8
	name := func(i int) string { return fmt.Sprintf("rotation-%02d", i) }
	work := func(i int) *workv1.ManifestWork {
		b := fixture.NewWork("cluster1", name(i))
		if i == 0 {
			b = b.WithManifest(fixture.Namespace(ns))
		}
		return b.WithManifest(fixture.ConfigMap(ns, name(i), map[string]string{"i": fmt.Sprint(i)})).Build()
	}
	createWork(t, work(0))
	waitWorkCondition(t, "cluster1", name(0), workv1.WorkApplied, metav1.ConditionTrue)
	cms := e.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns)
	applied0, err := cms.Get(t.Context(), name(0), metav1.GetOptions{})
	require.NoError(t, err)

	secondKubeconfig := agentHubKubeconfig(t, "cluster1", second)
	var rotatedAt time.Time
	for i := 1; i < works; i++ {
		if i == rotateAfter {
			rotatedAt = time.Now()
			require.NoError(t, hubVol.Update(map[string][]byte{"kubeconfig": secondKubeconfig}))
		}
		createWork(t, work(i))
	}
	for i := range works {
		waitWorkCondition(t, "cluster1", name(i), workv1.WorkApplied, metav1.ConditionTrue)
		_, err := cms.Get(t.Context(), name(i), metav1.GetOptions{})
		require.NoError(t, err, "ConfigMap of work %d", i)
	}
	samples := scrape(t, agent)
	assert.Equal(t, 1.0, samples[`work_credential_reloads_total{cluster="hub",result="loaded"}`])
	firstUsed := samples[`work_credential_first_used_timestamp_seconds{cluster="hub"}`]
	require.Positive(t, firstUsed, "the hub answered a request with the new token")
	t.Logf("rotation to first answered request with the new token: %s",
		time.Unix(0, int64(firstUsed*1e9)).Sub(rotatedAt).Round(time.Millisecond))
	assert.Equal(t, pid, agent.Pid(), "the same process")
	assert.Equal(t, 1, strings.Count(agent.Tail(1000), `"Ready"`), "the informers were not started again")
	still0, err := cms.Get(t.Context(), name(0), metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, applied0.ResourceVersion, still0.ResourceVersion, "nothing applied before was written again")

	// The token in use is revoked: said once, /healthz stays ok.
	revokeSecond()
	waitRejected(t, secondKubeconfig)
	createWork(t, fixture.NewWork("cluster1", "rotation-revoked").WithManifest(fixture.ConfigMap(ns, "revoked", nil)).Build())
	waitMetric(t, agent, `work_credential_rejected{cluster="hub"}`)
	ev := waitPodEvent(t, "cluster1", framework.AgentLeaseNamespace, pod, "CredentialRejected")
	assert.Equal(t, corev1.EventTypeWarning, ev.Type)
	assert.Contains(t, ev.Message, "the hub rejects the credential (401 Unauthorized)")
	assert.Contains(t, agent.Tail(200), "the hub rejects the credential (401 Unauthorized)")
	assert.Equal(t, http.StatusOK, startuptest.Status("http://"+agent.HealthAddr+"/healthz"), "alive: restarting would not help")
	assert.Equal(t, http.StatusOK, httpsProbe(agent.SecureAddr))

	// A new token in the file: back at once, without a restart.
	require.NoError(t, hubVol.Update(map[string][]byte{"kubeconfig": agentHubKubeconfig(t, "cluster1", third)}))
	waitWorkCondition(t, "cluster1", "rotation-revoked", workv1.WorkApplied, metav1.ConditionTrue)
	waitPodEvent(t, "cluster1", framework.AgentLeaseNamespace, pod, "CredentialAccepted")
	assert.Zero(t, scrape(t, agent)[`work_credential_rejected{cluster="hub"}`])
	assert.Equal(t, pid, agent.Pid())
}

// work webhook-server, started with exactly what OCM's ClusterManager renders
// (Deployment cluster-manager-work-webhook; free ports here), behind OCM's
// webhook configuration (its path, AdmissionReview v1beta1 first, no match
// conditions), admits and refuses as work hub's webhook does, and lets an
// agent's finalizer write through without execute-as.
func TestOCMWebhookServer(t *testing.T) {
	e := setup(t)
	wh := e.InstallOCMWebhook(t)
	_, port, err := net.SplitHostPort(wh.Addr)
	require.NoError(t, err)
	metricsPort, err := framework.FreePort()
	require.NoError(t, err)
	server := startOCMProcess(t, "webhook-server", []string{"TMPDIR=" + wh.TempDir(t)}, []string{
		"webhook-server", "--port=" + port, "--metrics-port=" + fmt.Sprint(metricsPort),
		"--feature-gates=ManifestWorkReplicaSet=true", "--feature-gates=CleanUpCompletedManifestWork=true",
		"--kubeconfig=" + e.Hub.WorkKubeconfig,
	})
	wh.WaitServed(t, admissionTimeout)
	ns := wh.Namespace
	admitsAndRefuses(t, e, ns, admission.DefaultManifestLimit)

	t.Run("an agent's finalizer write needs no execute-as", func(t *testing.T) {
		agent := "system:serviceaccount:" + ns + ":work-agent"
		grant(t, ns, "agent-writes-works", agent, writeWorks)
		for _, patch := range []string{
			`{"metadata":{"finalizers":["cluster.open-cluster-management.io/manifest-work-cleanup"]}}`,
			`{"metadata":{"finalizers":null}}`,
		} {
			_, err := e.Kubectl(framework.HubName, "patch", "manifestwork", "-n", ns, "as-executor1", "--type", "merge", "-p", patch, "--as", agent)
			require.NoError(t, err, "the agent may not execute as executor1, yet its finalizer write passes")
		}
		err := kubectlWork(t, executorWork(ns, "by-agent"), "create", "--as", agent)
		require.Error(t, err, "a spec write still needs execute-as")
		assert.Contains(t, err.Error(), framework.WebhookDenied+deniedExecutor(agent, ns))
	})

	t.Run("metrics on --metrics-port, the gates as the manager's", func(t *testing.T) {
		assert.Equal(t, http.StatusOK, startuptest.Status(fmt.Sprintf("http://127.0.0.1:%d/metrics", metricsPort)))
		assert.NotContains(t, scrapeURL(t, fmt.Sprintf("http://127.0.0.1:%d/metrics", metricsPort), ""),
			`work_feature_gate_unimplemented{gate="ManifestWorkReplicaSet"}`, "the gate is implemented")
		assert.Equal(t, http.StatusNotFound, startuptest.Status("http://"+server.HealthAddr+"/metrics"),
			"the health port serves the probes only, as OCM's webhook's")
	})
}

// work manager, started with what OCM's ClusterManager renders (Deployment
// cluster-manager-work-controller) and its gates, deletes a completed work
// after its TTL, answers the HTTPS probe, and, on a hub without the
// Placement APIs, says once why ManifestWorkReplicaSets wait.
func TestManagerWithOCMGates(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	manager := startOCMProcess(t, "manager", nil, []string{"manager",
		"--feature-gates=CleanUpCompletedManifestWork=true", "--feature-gates=ManifestWorkReplicaSet=true",
		"--work-driver=kube", "--kubeconfig=" + e.Hub.WorkKubeconfig,
	})
	assert.Equal(t, http.StatusOK, httpsProbe(manager.SecureAddr))
	assert.NotContains(t, scrape(t, manager), `work_feature_gate_unimplemented{gate="ManifestWorkReplicaSet"}`, "the gate is implemented")
	// Ready comes first; the discovery that finds the APIs missing a moment later.
	framework.Eventually(t, convergeTimeout, func() error {
		if !strings.Contains(manager.Tail(1000), "ManifestWorkReplicaSets wait: the hub does not serve their APIs yet") {
			return errors.New("not said yet")
		}
		return nil
	}, "the manager says once why replica sets wait")
	completedWorkIsDeletedAfterTTL(t, "e2e-manager-ttl", "job-manager")
}
