package startup

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/startup/startuptest"
)

// testProcess is a process as the agent and the hub describe theirs.
var testProcess = Process{
	Name: "work-test", LeaseName: "work-test", LeaseNamespace: "test-namespace",
	KubeconfigHelp: "the test cluster", KubeAPIHelp: "the API cluster", LeaseHelp: "the lease cluster",
}

func parse(t *testing.T, args ...string) *Options {
	return startuptest.Parse(t, NewOptions(testProcess, features.NewHubFeatureGate()), args...)
}

func TestFlagDefaults(t *testing.T) {
	o := parse(t)
	assert.Equal(t, "", o.Kubeconfig)
	assert.Equal(t, float32(50), o.KubeAPIQPS)
	assert.Equal(t, 100, o.KubeAPIBurst)
	assert.False(t, o.DisableLeaderElection)
	assert.Equal(t, "test-namespace", o.LeaderElectionNamespace)
	assert.Equal(t, ":8081", o.HealthProbeBindAddress)
	assert.False(t, o.Profiling)
}

func TestFlags(t *testing.T) {
	fs := startuptest.AssertDefaults(t, NewOptions(testProcess, features.NewHubFeatureGate()).AddFlags, map[string]string{
		"kubeconfig": "", "kube-api-qps": "50", "kube-api-burst": "100", "feature-gates": "",
		"disable-leader-election": "false", "leader-election-namespace": "test-namespace",
		"health-probe-bind-address": ":8081", "profiling": "false", "v": "0", "logging-format": "text",
	})
	usage := map[string]string{
		"kubeconfig":                "Kubeconfig of the test cluster. Empty means the in-cluster service account.",
		"kube-api-qps":              "Queries per second to the API cluster.",
		"kube-api-burst":            "Burst of queries to the API cluster.",
		"disable-leader-election":   "Run without the leader election lease. Only safe with a single replica.",
		"leader-election-namespace": "Namespace, on the lease cluster, of the Lease work-test that elects the active replica.",
		"health-probe-bind-address": "Address serving /healthz and /readyz; 0 disables them.",
		"profiling":                 "Serve Go's profiles under /debug/pprof/ on the health probe address.",
	}
	for name, want := range usage {
		assert.Equal(t, want, fs.Lookup(name).Usage, "help of --%s", name)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"defaults", nil, ""},
		{"everything set", []string{"--kubeconfig=/c", "--kube-api-qps=5", "--kube-api-burst=10", "--profiling",
			"--disable-leader-election", "--leader-election-namespace=", "--health-probe-bind-address=0"}, ""},
		{"zero qps", []string{"--kube-api-qps=0"}, "--kube-api-qps must be positive, got 0"},
		{"negative qps", []string{"--kube-api-qps=-0.5"}, "--kube-api-qps must be positive, got -0.5"},
		{"negative burst", []string{"--kube-api-burst=-5"}, "--kube-api-burst must be positive, got -5"},
		{"empty lease namespace", []string{"--leader-election-namespace="}, `--leader-election-namespace "" is not a valid namespace name`},
		{"bad lease namespace", []string{"--leader-election-namespace=Bad!"}, `--leader-election-namespace "Bad!" is not a valid namespace name`},
		{"probe address without colon", []string{"--health-probe-bind-address=8081"},
			`--health-probe-bind-address "8081": want host:port, :port or 0 to disable`},
		{"bad probe port", []string{"--health-probe-bind-address=:x"}, `--health-probe-bind-address ":x": invalid port "x"`},
		{"verbosity is fine", []string{"-v=4"}, ""},
		{"bad logging format", []string{"--logging-format=xml"},
			`logging: format: Invalid value: "xml": Unsupported log format`},
		{"several problems on one line", []string{"--kube-api-qps=0", "--kube-api-burst=0"},
			"--kube-api-qps must be positive, got 0; --kube-api-burst must be positive, got 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			startuptest.RequireError(t, parse(t, tt.args...).Validate(), tt.wantErr)
		})
	}
}

func TestProblems(t *testing.T) {
	var p Problems
	require.NoError(t, p.Err())
	p.Add(nil)
	require.NoError(t, p.Err(), "a nil error is no problem")
	p.Addf("first %d", 1)
	p.Add(assert.AnError)
	require.EqualError(t, p.Err(), "first 1; "+assert.AnError.Error())
}
