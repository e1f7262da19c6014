package hub

import (
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/features"
)

func parse(t *testing.T, args ...string) *Options {
	t.Helper()
	o := NewOptions()
	fs := pflag.NewFlagSet("hub", pflag.ContinueOnError)
	o.AddFlags(fs)
	require.NoError(t, fs.Parse(args))
	return o
}

func TestFlagDefaults(t *testing.T) {
	o := parse(t)
	assert.Equal(t, "", o.Kubeconfig)
	assert.Equal(t, float32(50), o.KubeAPIQPS)
	assert.Equal(t, 100, o.KubeAPIBurst)
	assert.False(t, o.DisableLeaderElection)
	assert.Equal(t, "open-cluster-management-hub", o.LeaderElectionNamespace)
	assert.Equal(t, ":8081", o.HealthProbeBindAddress)
	assert.False(t, o.FeatureGate.Enabled(features.NilExecutorValidating))
	assert.Equal(t, ":9443", o.WebhookBindAddress)
	assert.Equal(t, 500*1024, o.ManifestLimit)
	assert.False(t, o.WebhookEnabled(), "no webhook without TLS files")
}

func TestFlagNames(t *testing.T) {
	fs := pflag.NewFlagSet("hub", pflag.ContinueOnError)
	NewOptions().AddFlags(fs)
	want := map[string]string{
		"kubeconfig": "", "kube-api-qps": "50", "kube-api-burst": "100", "feature-gates": "",
		"disable-leader-election": "false", "leader-election-namespace": "open-cluster-management-hub",
		"health-probe-bind-address": ":8081", "v": "0", "logging-format": "text",
		"webhook-bind-address": ":9443", "tls-cert-file": "", "tls-private-key-file": "", "manifest-limit": "512000",
	}
	for name, def := range want {
		f := fs.Lookup(name)
		if assert.NotNil(t, f, "flag --%s", name) {
			assert.Equal(t, def, f.DefValue, "default of --%s", name)
		}
	}
}

func TestFeatureGatesFlag(t *testing.T) {
	o := parse(t, "--feature-gates=NilExecutorValidating=true")
	assert.True(t, o.FeatureGate.Enabled(features.NilExecutorValidating))
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"defaults", nil, ""},
		{"everything set", []string{"--kubeconfig=/hub", "--kube-api-qps=5", "--kube-api-burst=10",
			"--disable-leader-election", "--leader-election-namespace=", "--health-probe-bind-address=0"}, ""},
		{"zero qps", []string{"--kube-api-qps=0"}, "--kube-api-qps must be positive, got 0"},
		{"negative burst", []string{"--kube-api-burst=-5"}, "--kube-api-burst must be positive, got -5"},
		{"empty lease namespace", []string{"--leader-election-namespace="}, `--leader-election-namespace "" is not a valid namespace name`},
		{"bad probe address", []string{"--health-probe-bind-address=:x"}, `--health-probe-bind-address ":x": invalid port "x"`},
		{"verbosity is fine", []string{"-v=4"}, ""},
		{"webhook", []string{"--tls-cert-file=/c", "--tls-private-key-file=/k", "--webhook-bind-address=127.0.0.1:0", "--manifest-limit=1"}, ""},
		{"cert without key", []string{"--tls-cert-file=/c"}, "--tls-cert-file and --tls-private-key-file go together: set both to run the webhook, or neither"},
		{"key without cert", []string{"--tls-private-key-file=/k"}, "--tls-cert-file and --tls-private-key-file go together: set both to run the webhook, or neither"},
		{"bad webhook address", []string{"--tls-cert-file=/c", "--tls-private-key-file=/k", "--webhook-bind-address=9443"}, `--webhook-bind-address "9443": want host:port or :port`},
		{"bad webhook port", []string{"--tls-cert-file=/c", "--tls-private-key-file=/k", "--webhook-bind-address=:99999"}, `--webhook-bind-address ":99999": invalid port "99999"`},
		{"webhook address unused without TLS files", []string{"--webhook-bind-address=nonsense"}, ""},
		{"zero manifest limit", []string{"--manifest-limit=0"}, "--manifest-limit must be positive, got 0"},
		{"several problems on one line", []string{"--manifest-limit=-1", "--tls-cert-file=/c"},
			"--tls-cert-file and --tls-private-key-file go together: set both to run the webhook, or neither; --manifest-limit must be positive, got -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := parse(t, tt.args...).Validate()
			if tt.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tt.wantErr)
		})
	}
}
