package startup

import (
	"crypto/tls"
	"os"
	"path/filepath"
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
	assert.Equal(t, "", o.LeaderElectionNamespace)
	assert.Equal(t, "test-namespace", o.leaseNamespace(), "outside a pod")
	assert.Equal(t, DefaultLeaseTimings(), o.LeaseTimings)
	assert.Equal(t, ":8081", o.HealthProbeBindAddress)
	assert.Equal(t, ":8443", o.SecureBindAddress)
	assert.False(t, o.Profiling)
	assert.True(t, o.MetricsAuth, "metrics only to whom the cluster allows")
	assert.Empty(t, o.TerminateOnFiles)
}

func TestFlags(t *testing.T) {
	fs := startuptest.AssertDefaults(t, NewOptions(testProcess, features.NewHubFeatureGate()).AddFlags, map[string]string{
		"kubeconfig": "", "kube-api-qps": "50", "kube-api-burst": "100", "feature-gates": "",
		"disable-leader-election": "false", "leader-election-namespace": "",
		"leader-election-lease-duration": "2m17s", "leader-election-renew-deadline": "1m47s", "leader-election-retry-period": "26s",
		"health-probe-bind-address": ":8081", "profiling": "false", "v": "0", "logging-format": "text",
		"listen": ":8443", "metrics-auth": "true", "tls-min-version": "", "tls-cipher-suites": "[]", "terminate-on-files": "[]",
	})
	usage := map[string]string{
		"kubeconfig":              "Kubeconfig of the test cluster. Empty means the in-cluster service account.",
		"kube-api-qps":            "Queries per second to the API cluster.",
		"kube-api-burst":          "Burst of queries to the API cluster.",
		"disable-leader-election": "Run without the leader election lease. Only safe with a single replica.",
		"leader-election-namespace": "Namespace, on the lease cluster, of the Lease work-test that elects the active replica. " +
			"Defaults to the pod's namespace ($POD_NAMESPACE, else the service account's namespace), outside a pod to test-namespace.",
		"health-probe-bind-address": "Address serving /healthz, /livez and /readyz over plain HTTP (and /metrics with --metrics-auth=false); 0 disables it.",
		"profiling":                 "Serve Go's profiles under /debug/pprof/ beside /metrics.",
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
		{"empty lease namespace is the default", []string{"--leader-election-namespace="}, ""},
		{"bad lease namespace", []string{"--leader-election-namespace=Bad!"}, `--leader-election-namespace "Bad!" is not a valid namespace name`},
		{"lease timings", []string{"--leader-election-lease-duration=15s", "--leader-election-renew-deadline=10s", "--leader-election-retry-period=2s"}, ""},
		{"zero lease duration", []string{"--leader-election-lease-duration=0"},
			"--leader-election-lease-duration must be positive, got 0s"},
		{"renew deadline not shorter than the lease", []string{"--leader-election-lease-duration=10s", "--leader-election-renew-deadline=10s", "--leader-election-retry-period=2s"},
			"--leader-election-lease-duration (10s) must be longer than --leader-election-renew-deadline (10s)"},
		{"retry period too close to the renew deadline", []string{"--leader-election-renew-deadline=10s", "--leader-election-retry-period=9s"},
			"--leader-election-renew-deadline (10s) must be longer than 1.2 times --leader-election-retry-period (9s)"},
		{"lease timings unused without leader election", []string{"--disable-leader-election", "--leader-election-retry-period=0"}, ""},
		{"secure address", []string{"--listen=127.0.0.1:0"}, ""},
		{"secure address off", []string{"--listen=0"}, ""},
		{"bad secure address", []string{"--listen=8443"}, `--listen "8443": want host:port, :port or 0 to disable`},
		{"TLS settings", []string{"--tls-min-version=VersionTLS13", "--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_AES_128_GCM_SHA256"}, ""},
		{"bad TLS version", []string{"--tls-min-version=TLS1.2"},
			`--tls-min-version "TLS1.2" is not one of VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13`},
		{"bad cipher suite", []string{"--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,NOPE"},
			`--tls-cipher-suites: unknown cipher suite "NOPE"`},
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

// The lease lives in the pod's own namespace: OCM's Klusterlet grants the
// lease Role there only (in Hosted mode klusterlet-<cluster>).
func TestLeaseNamespace(t *testing.T) {
	saFile := filepath.Join(t.TempDir(), "namespace")
	defer func(old string) { serviceAccountNamespaceFile = old }(serviceAccountNamespaceFile)
	serviceAccountNamespaceFile = saFile

	t.Setenv(PodNamespaceEnv, "")
	assert.Equal(t, "test-namespace", parse(t).leaseNamespace(), "outside a pod: the process's default")
	require.NoError(t, os.WriteFile(saFile, []byte("klusterlet-cluster1\n"), 0o600))
	assert.Equal(t, "klusterlet-cluster1", parse(t).leaseNamespace(), "the service account's namespace")
	t.Setenv(PodNamespaceEnv, "from-downward-api")
	assert.Equal(t, "from-downward-api", parse(t).leaseNamespace(), "$POD_NAMESPACE first")
	assert.Equal(t, "explicit", parse(t, "--leader-election-namespace=explicit").leaseNamespace(), "the flag wins")
	t.Setenv(PodNamespaceEnv, "Bad!")
	assert.EqualError(t, parse(t).Validate(), `--leader-election-namespace "Bad!" is not a valid namespace name`)
}

func TestTLSConfig(t *testing.T) {
	cfg, err := parse(t).TLS.Config()
	require.NoError(t, err)
	assert.Equal(t, uint16(tls.VersionTLS12), cfg.MinVersion, "TLS 1.2 at least by default")
	assert.Nil(t, cfg.CipherSuites, "Go's defaults")
	cfg, err = parse(t, "--tls-min-version=VersionTLS13", "--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256").TLS.Config()
	require.NoError(t, err)
	assert.Equal(t, uint16(tls.VersionTLS13), cfg.MinVersion)
	assert.Equal(t, []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}, cfg.CipherSuites)
}

// A process every replica of which serves (the webhook server) has no lease
// flags, and one without a secure port no --listen.
func TestProcessWithoutLeaseOrSecurePort(t *testing.T) {
	p := testProcess
	p.WithoutLease, p.WithoutSecurePort = true, true
	o := NewOptions(p, features.NewHubFeatureGate())
	fs := startuptest.AssertDefaults(t, o.AddFlags, map[string]string{"terminate-on-files": "[]", "tls-min-version": ""})
	for _, name := range []string{"disable-leader-election", "leader-election-namespace", "leader-election-lease-duration", "listen"} {
		assert.Nil(t, fs.Lookup(name), "--%s", name)
	}
	t.Setenv(PodNamespaceEnv, "Bad!")
	require.NoError(t, o.Validate(), "no lease to validate")
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
