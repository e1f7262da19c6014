package hub

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/kubeconn/kubeconntest"
	"github.com/manifestwork/work/pkg/startup/startuptest"
)

// How every process starts, serves its probes, leads and stops is tested in
// package startup; these tests cover what the hub adds: its cluster, its
// lease and its webhook (webhook_test.go).

func TestMain(m *testing.M) { startuptest.Main(m) }

func options(kubeconfig string) *Options {
	o := NewOptions()
	o.Kubeconfig = kubeconfig
	o.HealthProbeBindAddress, o.SecureBindAddress = "0", "0"
	return o
}

// start runs the hub until the test stops it; it returns once ready.
func start(t *testing.T, o *Options) (stop func() error) {
	o.HealthProbeBindAddress = startuptest.FreeAddr(t)
	return startuptest.Start(t, o.HealthProbeBindAddress, func(ctx context.Context) error { return Run(ctx, o) })
}

func TestRunStartupErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	closed, closedURL := kubeconntest.Unreachable(t)
	noCRD := kubeconntest.NewServer(t).Kubeconfig(t)

	tests := []struct {
		name       string
		kubeconfig string
		wantErr    string
	}{
		{"missing kubeconfig", missing, fmt.Sprintf(`hub kubeconfig %q: cannot read file: no such file or directory`, missing)},
		{"hub not listening", closed, fmt.Sprintf(`hub kubeconfig %q: cannot reach %s: connection refused`, closed, closedURL)},
		{"no CRD", noCRD, fmt.Sprintf(`hub kubeconfig %q: the ManifestWork CRD is not installed on the hub`, noCRD)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.EqualError(t, Run(context.Background(), options(tt.kubeconfig)), tt.wantErr)
		})
	}
}

func TestRunReadyThenReleasesLeaseOnShutdown(t *testing.T) {
	srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI)
	o := options(srv.Kubeconfig(t))

	stop := start(t, o)
	require.Eventually(t, func() bool { return srv.Holder("open-cluster-management-hub", LeaseName) != "" },
		20*time.Second, 10*time.Millisecond, "the hub takes the lease on the hub")
	// It leads once its informer lists the works: only then does it know it
	// holds the lease, and releases it when stopped.
	require.Eventually(t, func() bool { return srv.Reads("manifestworks") > 0 }, 20*time.Second, 10*time.Millisecond,
		"the hub leads")

	require.NoError(t, stop())
	assert.Empty(t, srv.Holder("open-cluster-management-hub", LeaseName), "the lease is released on shutdown")
	assert.Equal(t, 0, startuptest.Status("http://"+o.HealthProbeBindAddress+"/healthz"), "the probe server is stopped")
}
