package hub

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/startup/startuptest"
)

// The flags the hub shares with the agent are tested in package startup.

func parse(t *testing.T, args ...string) *Options {
	return startuptest.Parse(t, NewOptions(), args...)
}

func TestFlagDefaults(t *testing.T) {
	o := parse(t)
	assert.Equal(t, "", o.LeaderElectionNamespace, "the pod's namespace, else open-cluster-management-hub")
	assert.True(t, o.FeatureGate.Enabled(features.CleanUpCompletedManifestWork), "work hub cleans up by default")
	assert.False(t, o.FeatureGate.Enabled(features.NilExecutorValidating))
	assert.Equal(t, ":9443", o.WebhookBindAddress)
	assert.Equal(t, 500*1024, o.ManifestLimit)
	assert.False(t, o.WebhookEnabled(), "no webhook without TLS files")
}

func TestFlagNames(t *testing.T) {
	fs := startuptest.AssertDefaults(t, NewOptions().AddFlags, map[string]string{
		"kubeconfig": "", "kube-api-qps": "100", "kube-api-burst": "200", "feature-gates": "",
		"disable-leader-election": "false", "leader-election-namespace": "",
		"health-probe-bind-address": ":8081", "v": "0", "logging-format": "text",
		"webhook-bind-address": ":9443", "tls-cert-file": "", "tls-private-key-file": "", "manifest-limit": "512000",
	})
	for name, usage := range map[string]string{
		"kubeconfig":     "Kubeconfig of the hub cluster. Empty means the in-cluster service account.",
		"kube-api-qps":   "Queries per second to the hub.",
		"kube-api-burst": "Burst of queries to the hub.",
		"leader-election-namespace": "Namespace, on the hub, of the Lease work-hub that elects the active replica. " +
			"Defaults to the pod's namespace ($POD_NAMESPACE, else the service account's namespace), outside a pod to open-cluster-management-hub.",
	} {
		assert.Equal(t, usage, fs.Lookup(name).Usage, "help of --%s", name)
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
		{"common problem", []string{"--kube-api-qps=0"}, "--kube-api-qps must be positive, got 0"},
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
			startuptest.RequireError(t, parse(t, tt.args...).Validate(), tt.wantErr)
		})
	}
}
