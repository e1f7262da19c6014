package framework

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvOCMAgent names OCM's work agent binary (the `work` command of
// open-cluster-management.io/ocm, which hack/ocm-agent.sh builds) for the
// tests that hand a managed cluster from OCM's agent to ours and back.
// `make test-e2e` sets it.
const EnvOCMAgent = "WORK_OCM_AGENT"

// OCMAgentBinary returns the absolute path of OCM's work agent from
// WORK_OCM_AGENT, or skips t when the variable is unset (a test run by hand
// without it; `make test-e2e` always sets it). A path that is set but not an
// executable fails t.
func OCMAgentBinary(t testing.TB) string {
	t.Helper()
	return binaryFromEnv(t, EnvOCMAgent, "OCM's work agent", "hack/ocm-agent.sh", "make test-e2e")
}

// binaryFromEnv returns the absolute path of the binary that the variable
// env names, or skips t when it is unset (a test run by hand without it),
// saying which script builds it and which target sets it. A path that is set
// but not an executable fails t.
func binaryFromEnv(t testing.TB, env, what, script, target string) string {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		t.Skipf("%s is not set: it names %s, which `%s` builds and prints (`%s` sets it): %s=$(%s)",
			env, what, script, target, env, script)
	}
	path, err := filepath.Abs(path)
	if err != nil {
		t.Fatalf("framework: %s: %v", env, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatalf("framework: %s: %v", env, err)
	}
	if info.Mode()&0o111 == 0 {
		t.Fatalf("framework: %s=%s is not executable", env, path)
	}
	return path
}

// StartOCMAgent starts OCM's work agent (binary, see OCMAgentBinary) for a
// managed cluster, as its Klusterlet would (--spoke-cluster-name and
// --agent-id the cluster's name), with the hub identity our agent has
// (AgentHubKubeconfig) and the managed cluster's admin kubeconfig, and waits
// for its HTTPS /healthz (--listen, on a free port) to answer. extraArgs come
// last. The process is returned also on error, so its log can be read.
func (e *E2E) StartOCMAgent(binary, cluster string, extraArgs ...string) (*Process, error) {
	c := e.Cluster(cluster)
	if c == nil || c == e.Hub {
		return nil, fmt.Errorf("framework: no managed cluster %q", cluster)
	}
	args := append([]string{
		"agent",
		"--spoke-cluster-name=" + cluster,
		"--agent-id=" + cluster,
		"--workload-source-driver=kube",
		"--workload-source-config=" + c.AgentHubKubeconfig,
		"--kubeconfig=" + c.Kubeconfig,
		"--namespace=" + AgentLeaseNamespace,
	}, extraArgs...)
	return e.StartOCMWork("ocm-agent-"+cluster, binary, nil, args...)
}

// StartOCMWork starts a command of OCM's `work` binary with env and args as
// given, its HTTPS /healthz on a free port (--listen), and waits until it
// answers. The process is returned also on error, so its log can be read.
func (e *E2E) StartOCMWork(name, binary string, env []string, args ...string) (*Process, error) {
	p := e.newProcess(name, env, args)
	p.binary, p.httpsOnly = binary, true
	if err := p.Start(); err != nil {
		return p, err
	}
	return p, p.WaitReady(e.Options.ReadyTimeout)
}

// StartOCMManager starts OCM's hub work controller, the `manager` command
// of OCM's work binary (see OCMAgentBinary), which runs OCM's
// ManifestWorkReplicaSet controller. It talks to the hub as `work hub`
// does (WorkKubeconfig: ServiceAccount work-hub under deploy/hub's RBAC,
// which grants what the ClusterManager's work-controller ClusterRole
// grants for replica sets). OCM's operator renders only `manager` for it
// (the gate ManifestWorkReplicaSet decides whether the Deployment exists at
// all); extraArgs come last, e.g. --disable-leader-election.
func (e *E2E) StartOCMManager(binary string, extraArgs ...string) (*Process, error) {
	args := append([]string{"manager", "--kubeconfig=" + e.Hub.WorkKubeconfig}, extraArgs...)
	return e.StartOCMWork("ocm-manager", binary, nil, args...)
}
