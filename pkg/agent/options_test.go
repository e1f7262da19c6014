package agent

import (
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/startup/startuptest"
)

// The flags the agent shares with the hub are tested in package startup.

func parse(t *testing.T, args ...string) *Options {
	return startuptest.Parse(t, NewOptions(), args...)
}

func TestFlagDefaults(t *testing.T) {
	o := parse(t)
	assert.Equal(t, "", o.ClusterName)
	assert.Equal(t, "", o.HubKubeconfig)
	assert.Equal(t, "", o.SpokeKubeconfig)
	assert.Equal(t, "", o.AgentID)
	assert.Equal(t, 10*time.Second, o.StatusSyncInterval)
	assert.Equal(t, 60*time.Minute, o.AppliedManifestWorkEvictionGracePeriod)
	assert.Equal(t, 50, o.MaxFeedbackWatch)
	assert.Equal(t, 1024, o.MaxJSONRawLength)
	assert.Equal(t, 1024*1024-500*1024, o.MaxStatusSize, "1 MiB less the hub's default --manifest-limit")
	assert.Equal(t, float32(50), o.HubKubeAPIQPS)
	assert.Equal(t, 100, o.HubKubeAPIBurst)
	assert.Equal(t, 10, o.WorkloadAgentWorkers)
	assert.Equal(t, "", o.LeaderElectionNamespace, "the pod's namespace, else open-cluster-management-agent")
	assert.Equal(t, "kube", o.WorkloadSourceDriver)
	assert.False(t, o.FeatureGate.Enabled(features.RawFeedbackJsonString))
	assert.False(t, o.FeatureGate.Enabled(features.ExecutorValidatingCaches))
}

func TestFlagNames(t *testing.T) {
	fs := startuptest.AssertDefaults(t, NewOptions().AddFlags, map[string]string{
		"spoke-cluster-name": "", "cluster-name": "", "hub-kubeconfig": "", "kubeconfig": "",
		"spoke-kubeconfig": "", "agent-id": "", "status-sync-interval": "10s",
		"appliedmanifestwork-eviction-grace-period": "1h0m0s", "max-feedback-watch": "50",
		"max-json-raw-length": "1024", "max-status-size": "536576", "kube-api-qps": "50", "kube-api-burst": "100",
		"hub-kube-api-qps": "50", "hub-kube-api-burst": "100", "workload-agent-workers": "10",
		"feature-gates": "", "disable-leader-election": "false",
		"leader-election-namespace": "", "health-probe-bind-address": ":8081",
		"v": "0", "logging-format": "text",
		// OCM's Klusterlet's arguments.
		"workload-source-driver": "kube", "workload-source-config": "", "cloudevents-client-id": "",
		"terminate-on-files": "[]", "tls-min-version": "", "tls-cipher-suites": "[]", "listen": ":8443",
		"leader-election-lease-duration": "2m17s", "leader-election-renew-deadline": "1m47s", "leader-election-retry-period": "26s",
	})
	assert.Contains(t, fs.Lookup("agent-id").Usage, "Defaults to the cluster name")
	for name, usage := range map[string]string{
		"kubeconfig": "Kubeconfig of the cluster the agent runs on, where its leader election Lease lives. " +
			"Empty means the in-cluster service account.",
		"kube-api-qps":   "Queries per second to the managed cluster.",
		"kube-api-burst": "Burst of queries to the managed cluster.",
		"leader-election-namespace": "Namespace, on the cluster of --kubeconfig, of the Lease work-agent that elects the active replica. " +
			"Defaults to the pod's namespace ($POD_NAMESPACE, else the service account's namespace), outside a pod to open-cluster-management-agent.",
	} {
		assert.Equal(t, usage, fs.Lookup(name).Usage, "help of --%s", name)
	}
}

func TestClusterNameFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--spoke-cluster-name=c1"}, "c1"},
		{[]string{"--cluster-name=c2"}, "c2"},
	}
	for _, tt := range tests {
		t.Run(tt.args[0], func(t *testing.T) {
			o := parse(t, tt.args...)
			assert.Equal(t, tt.want, o.ClusterName)
			assert.Equal(t, tt.want, o.agentID(), "the agent ID defaults to the cluster name")
		})
	}
	assert.Equal(t, "a1", parse(t, "--cluster-name=c1", "--agent-id=a1").agentID())
}

func TestFeatureGatesFlag(t *testing.T) {
	o := parse(t, "--feature-gates=RawFeedbackJsonString=true")
	assert.True(t, o.FeatureGate.Enabled(features.RawFeedbackJsonString))

	fs := pflag.NewFlagSet("agent", pflag.ContinueOnError)
	NewOptions().AddFlags(fs)
	assert.Error(t, fs.Parse([]string{"--feature-gates=NilExecutorValidating=true"}), "a hub gate is unknown to the agent")
}

func TestValidate(t *testing.T) {
	valid := []string{"--cluster-name=cluster1", "--hub-kubeconfig=/hub"}
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"minimal", nil, ""},
		{"everything set", []string{"--kubeconfig=/own", "--spoke-kubeconfig=/spoke", "--agent-id=a",
			"--health-probe-bind-address=0", "--disable-leader-election", "--leader-election-namespace="}, ""},
		{"zero interval", []string{"--status-sync-interval=0"}, "--status-sync-interval must be positive, got 0s"},
		{"negative grace period", []string{"--appliedmanifestwork-eviction-grace-period=-1m"},
			"--appliedmanifestwork-eviction-grace-period must be positive, got -1m0s"},
		{"zero workers", []string{"--workload-agent-workers=0"}, "--workload-agent-workers must be positive, got 0"},
		{"zero feedback watches", []string{"--max-feedback-watch=0"}, "--max-feedback-watch must be positive, got 0"},
		{"zero raw length", []string{"--max-json-raw-length=0"}, "--max-json-raw-length must be positive, got 0"},
		{"zero status size", []string{"--max-status-size=0"}, "--max-status-size must be positive, got 0"},
		{"zero hub qps", []string{"--hub-kube-api-qps=0"}, "--hub-kube-api-qps must be positive, got 0"},
		{"zero hub burst", []string{"--hub-kube-api-burst=0"}, "--hub-kube-api-burst must be positive, got 0"},
		{"bad cluster name", []string{"--cluster-name=Not_A_Name"},
			`--spoke-cluster-name "Not_A_Name" is not a valid namespace name: `},
		{"bad lease namespace", []string{"--leader-election-namespace=Bad!"},
			`--leader-election-namespace "Bad!" is not a valid namespace name`},
		{"agent and common problems on one line", []string{"--workload-agent-workers=0", "--kube-api-qps=0", "--kube-api-burst=0"},
			"--workload-agent-workers must be positive, got 0; --kube-api-qps must be positive, got 0; --kube-api-burst must be positive, got 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := parse(t, append(append([]string{}, valid...), tt.args...)...).Validate()
			if tt.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}

// OCM's Klusterlet names the hub kubeconfig --workload-source-config, with
// the kube driver, and the source's config file with mqtt and grpc; the
// agent refuses the drivers it does not have.
func TestWorkloadSource(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantFile string
		wantFlag string
		wantErr  string
	}{
		{"hub kubeconfig", []string{"--hub-kubeconfig=/hub"}, "/hub", "--hub-kubeconfig", ""},
		{"OCM's names", []string{"--workload-source-driver=kube", "--workload-source-config=/spoke/hub-kubeconfig/kubeconfig"},
			"/spoke/hub-kubeconfig/kubeconfig", "--workload-source-config", ""},
		{"both, the same", []string{"--hub-kubeconfig=/hub", "--workload-source-config=/hub"}, "/hub", "--hub-kubeconfig", ""},
		{"both, different", []string{"--hub-kubeconfig=/a", "--workload-source-config=/b"}, "/a", "--hub-kubeconfig",
			`--hub-kubeconfig "/a" and --workload-source-config "/b" name different hub kubeconfigs; give one`},
		{"grpc", []string{"--workload-source-driver=grpc", "--workload-source-config=/spoke/hub-kubeconfig/config.yaml",
			"--cloudevents-client-id=cluster1-work-agent"}, "/spoke/hub-kubeconfig/config.yaml", "--workload-source-config", ""},
		{"mqtt", []string{"--workload-source-driver=mqtt", "--workload-source-config=/spoke/mqtt/config.yaml"},
			"/spoke/mqtt/config.yaml", "--workload-source-config", ""},
		{"mqtt without its config", []string{"--workload-source-driver=mqtt"}, "", "--hub-kubeconfig",
			"--workload-source-config is required with --workload-source-driver=mqtt: it names the mqtt config file"},
		{"kafka", []string{"--workload-source-driver=kafka", "--workload-source-config=/spoke/kafka/config.yaml"},
			"/spoke/kafka/config.yaml", "--workload-source-config",
			`--workload-source-driver "kafka" is not supported: the supported drivers are kube (ManifestWorks from the hub's API server), mqtt and grpc (ManifestWorks as CloudEvents)`},
		{"neither", nil, "", "--hub-kubeconfig", "--hub-kubeconfig is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := parse(t, append([]string{"--spoke-cluster-name=cluster1"}, tt.args...)...)
			file, flag := o.hubKubeconfig()
			assert.Equal(t, tt.wantFile, file)
			assert.Equal(t, tt.wantFlag, flag)
			startuptest.RequireError(t, o.Validate(), tt.wantErr)
		})
	}
}

// The arguments OCM's Klusterlet renders for the work agent, in Default and
// Hosted mode, are all accepted.
func TestKlusterletArguments(t *testing.T) {
	for name, args := range map[string][]string{
		"Default": {"--spoke-cluster-name=cluster1", "--workload-source-driver=kube",
			"--workload-source-config=/spoke/hub-kubeconfig/kubeconfig", "--agent-id=0b5b2c5e-7e58-4c8e-9a49-4c1e3e1b3b7a",
			"--feature-gates=RawFeedbackJsonString=true", "--feature-gates=ExecutorValidatingCaches=true",
			"--terminate-on-files=/spoke/hub-kubeconfig/kubeconfig", "--status-sync-interval=60s",
			"--kube-api-qps=50", "--kube-api-burst=100", "--hub-kube-api-qps=50", "--hub-kube-api-burst=100",
			"--appliedmanifestwork-eviction-grace-period=10m",
			"--tls-min-version=VersionTLS13", "--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"},
		"Hosted": {"--spoke-cluster-name=cluster1", "--workload-source-driver=kube",
			"--workload-source-config=/spoke/hub-kubeconfig/kubeconfig", "--agent-id=a",
			"--spoke-kubeconfig=/spoke/config/kubeconfig", "--terminate-on-files=/spoke/config/kubeconfig",
			"--terminate-on-files=/spoke/hub-kubeconfig/kubeconfig", "--status-sync-interval=60s"},
	} {
		t.Run(name, func(t *testing.T) {
			o := parse(t, args...)
			require.NoError(t, o.Validate())
			assert.Equal(t, "cluster1", o.ClusterName)
			assert.Equal(t, "/spoke/hub-kubeconfig/kubeconfig", o.hubCluster().Kubeconfig)
			assert.Contains(t, o.TerminateOnFiles, "/spoke/hub-kubeconfig/kubeconfig")
		})
	}
	o := parse(t, "--spoke-kubeconfig=/spoke/config/kubeconfig", "--terminate-on-files=/spoke/config/kubeconfig",
		"--terminate-on-files=/spoke/hub-kubeconfig/kubeconfig")
	assert.Equal(t, []string{"/spoke/config/kubeconfig", "/spoke/hub-kubeconfig/kubeconfig"}, o.TerminateOnFiles, "repeatable")
	assert.Equal(t, kubeconnCluster("managed cluster", "--spoke-kubeconfig", "/spoke/config/kubeconfig"), o.spokeCluster())
	assert.Equal(t, kubeconnCluster("agent cluster", "--kubeconfig", ""), o.agentCluster(), "Hosted: the lease on the cluster the pod runs on")
}

func TestValidateRequired(t *testing.T) {
	err := NewOptions().Validate()
	require.EqualError(t, err, "--spoke-cluster-name is required; --hub-kubeconfig is required")
}

func kubeconnCluster(role, flag, file string) kubeconn.Cluster {
	return kubeconn.Cluster{Role: role, Flag: flag, Kubeconfig: file}
}
