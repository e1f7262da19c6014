package agent

import (
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/features"
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
	assert.Equal(t, float32(50), o.HubKubeAPIQPS)
	assert.Equal(t, 100, o.HubKubeAPIBurst)
	assert.Equal(t, 10, o.WorkloadAgentWorkers)
	assert.Equal(t, "open-cluster-management-agent", o.LeaderElectionNamespace)
	assert.False(t, o.FeatureGate.Enabled(features.RawFeedbackJsonString))
	assert.False(t, o.FeatureGate.Enabled(features.ExecutorValidatingCaches))
}

func TestFlagNames(t *testing.T) {
	fs := startuptest.AssertDefaults(t, NewOptions().AddFlags, map[string]string{
		"spoke-cluster-name": "", "cluster-name": "", "hub-kubeconfig": "", "kubeconfig": "",
		"spoke-kubeconfig": "", "agent-id": "", "status-sync-interval": "10s",
		"appliedmanifestwork-eviction-grace-period": "1h0m0s", "max-feedback-watch": "50",
		"max-json-raw-length": "1024", "kube-api-qps": "50", "kube-api-burst": "100",
		"hub-kube-api-qps": "50", "hub-kube-api-burst": "100", "workload-agent-workers": "10",
		"feature-gates": "", "disable-leader-election": "false",
		"leader-election-namespace": "open-cluster-management-agent", "health-probe-bind-address": ":8081",
		"v": "0", "logging-format": "text",
	})
	assert.Contains(t, fs.Lookup("agent-id").Usage, "Defaults to the cluster name")
	for name, usage := range map[string]string{
		"kubeconfig": "Kubeconfig of the cluster the agent runs on, where its leader election Lease lives. " +
			"Empty means the in-cluster service account.",
		"kube-api-qps":              "Queries per second to the managed cluster.",
		"kube-api-burst":            "Burst of queries to the managed cluster.",
		"leader-election-namespace": "Namespace, on the cluster of --kubeconfig, of the Lease work-agent that elects the active replica.",
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

func TestValidateRequired(t *testing.T) {
	err := NewOptions().Validate()
	require.EqualError(t, err, "--spoke-cluster-name is required; --hub-kubeconfig is required")
}
