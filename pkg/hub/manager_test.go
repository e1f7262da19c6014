package hub

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/component-base/metrics/testutil"

	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/kubeconn/kubeconntest"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/pkg/startup/startuptest"
)

func managerOptions(t *testing.T, args ...string) *ManagerOptions {
	o := startuptest.Parse(t, NewManagerOptions(), args...)
	o.HealthProbeBindAddress, o.SecureBindAddress = startuptest.FreeAddr(t), "0"
	return o
}

func TestManagerFlags(t *testing.T) {
	o := startuptest.Parse(t, NewManagerOptions())
	assert.Equal(t, "kube", o.WorkDriver)
	assert.False(t, o.FeatureGate.Enabled(features.CleanUpCompletedManifestWork), "OCM's default: off")
	startuptest.AssertDefaults(t, NewManagerOptions().AddFlags, map[string]string{
		"work-driver": "kube", "work-driver-config": "", "cloudevents-client-id": "", "kubeconfig": "",
		"listen": ":8443", "tls-min-version": "", "tls-cipher-suites": "[]", "leader-election-namespace": "",
		"leader-election-lease-duration": "2m17s", "disable-leader-election": "false",
	})
	startuptest.RequireError(t, startuptest.Parse(t, NewManagerOptions(), "--work-driver=mqtt").Validate(),
		`--work-driver "mqtt" is not supported: the only supported driver is kube (ManifestWorks on the hub's API server)`)
}

// The replica set controller runs without --feature-gates, as OCM v1.0's
// manager (its operator passes no gate), and as the gates say once they are
// given, as later operators pass them.
func TestManagerReplicaSetsFollowTheOperatorsWays(t *testing.T) {
	tests := map[string]struct {
		args []string
		want bool
	}{
		"no --feature-gates (OCM v1.0's operator)": {want: true},
		"the gate on":       {args: []string{"--feature-gates=ManifestWorkReplicaSet=true"}, want: true},
		"another gate only": {args: []string{"--feature-gates=CleanUpCompletedManifestWork=true"}, want: false},
		"the gate off":      {args: []string{"--feature-gates=ManifestWorkReplicaSet=false"}, want: false},
		"the gate on beside another, in two arguments": {args: []string{"--feature-gates=CleanUpCompletedManifestWork=true", "--feature-gates=ManifestWorkReplicaSet=true"}, want: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tt.want, startuptest.Parse(t, NewManagerOptions(), tt.args...).ReplicaSetsOn())
		})
	}
}

// work manager runs the TTL clean-up only with OCM's gate
// CleanUpCompletedManifestWork; without it, it lists no works.
func TestRunManagerControllersFollowTheGates(t *testing.T) {
	t.Run("no gate: no work listed (replica sets wait for their APIs)", func(t *testing.T) {
		srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI)
		o := managerOptions(t, "--kubeconfig="+srv.Kubeconfig(t), "--disable-leader-election")
		stop := startuptest.Start(t, o.HealthProbeBindAddress, func(ctx context.Context) error { return RunManager(ctx, o) })
		require.NoError(t, stop())
		assert.Zero(t, srv.Reads("manifestworks"), "ready (leading) without listing works")
	})
	t.Run("ManifestWorkReplicaSet without its APIs: ready all the same", func(t *testing.T) {
		srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI)
		o := managerOptions(t, "--kubeconfig="+srv.Kubeconfig(t), "--disable-leader-election",
			"--feature-gates=ManifestWorkReplicaSet=true")
		stop := startuptest.Start(t, o.HealthProbeBindAddress, func(ctx context.Context) error { return RunManager(ctx, o) })
		require.NoError(t, stop())
	})
	t.Run("CleanUpCompletedManifestWork", func(t *testing.T) {
		srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI)
		o := managerOptions(t, "--kubeconfig="+srv.Kubeconfig(t), "--disable-leader-election",
			"--feature-gates=CleanUpCompletedManifestWork=true")
		stop := startuptest.Start(t, o.HealthProbeBindAddress, func(ctx context.Context) error { return RunManager(ctx, o) })
		assert.Positive(t, srv.Reads("manifestworks"), "ready once the works are cached")
		require.NoError(t, stop())
	})
}

// A gate of OCM's that is not implemented is a warning and a metric, not a
// crash; the manager runs under its own lease.
func TestRunManagerWithAnUnimplementedGate(t *testing.T) {
	srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI)
	o := managerOptions(t, "--kubeconfig="+srv.Kubeconfig(t), "--feature-gates=CloudEventsDrivers=true",
		"--leader-election-namespace=open-cluster-management-hub")
	stop := startuptest.Start(t, o.HealthProbeBindAddress, func(ctx context.Context) error { return RunManager(ctx, o) })
	require.Eventually(t, func() bool { return srv.Holder("open-cluster-management-hub", ManagerLeaseName) != "" },
		20*time.Second, 10*time.Millisecond, "it takes its lease")
	v, err := testutil.GetGaugeMetricValue(metrics.UnimplementedFeatureGates.WithLabelValues("CloudEventsDrivers"))
	require.NoError(t, err)
	assert.Equal(t, 1.0, v)
	require.NoError(t, stop())
}
