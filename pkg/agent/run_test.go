package agent

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/component-base/metrics/testutil"

	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/kubeconn/kubeconntest"
	"github.com/manifestwork/work/pkg/kubeconn/writelimit"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/pkg/startup/startuptest"
)

// How every process starts, serves its probes, leads and stops is tested in
// package startup; these tests cover what the agent adds: its clusters.

func TestMain(m *testing.M) { startuptest.Main(m) }

func options(hub, own, spoke string) *Options {
	o := NewOptions()
	o.ClusterName = "cluster1"
	o.HubKubeconfig, o.Kubeconfig, o.SpokeKubeconfig = hub, own, spoke
	o.HealthProbeBindAddress, o.SecureBindAddress = "0", "0"
	return o
}

func TestRunStartupErrors(t *testing.T) {
	both := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI, kubeconn.AppliedManifestWorkAPI)
	hubOnly := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI)
	nothing := kubeconntest.NewServer(t)
	good := both.Kubeconfig(t)
	missing := filepath.Join(t.TempDir(), "missing")
	closed, closedURL := kubeconntest.Unreachable(t)

	tests := []struct {
		name            string
		hub, own, spoke string
		wantErr         string
	}{
		{"missing hub kubeconfig", missing, good, "",
			fmt.Sprintf(`hub kubeconfig %q: cannot read file: no such file or directory`, missing)},
		{"hub not listening", closed, good, "",
			fmt.Sprintf(`hub kubeconfig %q: cannot reach %s: connection refused`, closed, closedURL)},
		{"no CRD on the hub", nothing.Kubeconfig(t), good, "",
			`: the ManifestWork CRD is not installed on the hub`},
		{"missing managed cluster kubeconfig", good, missing, "",
			fmt.Sprintf(`managed cluster kubeconfig %q: cannot read file: no such file or directory`, missing)},
		{"no CRD on the managed cluster", good, hubOnly.Kubeconfig(t), "",
			`: the AppliedManifestWork CRD is not installed on the managed cluster`},
		{"spoke kubeconfig not listening", good, good, closed,
			fmt.Sprintf(`managed cluster kubeconfig %q: cannot reach %s: connection refused`, closed, closedURL)},
		{"agent cluster not listening", good, closed, good,
			fmt.Sprintf(`agent cluster kubeconfig %q: cannot reach %s: connection refused`, closed, closedURL)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Run(context.Background(), options(tt.hub, tt.own, tt.spoke))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}

func TestRunRejectsInvalidOptions(t *testing.T) {
	o := options("/hub", "", "")
	o.ClusterName = ""
	require.EqualError(t, Run(context.Background(), o), "--spoke-cluster-name is required")
}

func TestRunInterruptedDuringStartupIsClean(t *testing.T) {
	srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI, kubeconn.AppliedManifestWorkAPI)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.NoError(t, Run(ctx, options(srv.Kubeconfig(t), srv.Kubeconfig(t), "")))
}

// start runs the agent until the test stops it; it returns once ready.
func start(t *testing.T, o *Options) (stop func() error) {
	o.HealthProbeBindAddress = startuptest.FreeAddr(t)
	return startuptest.Start(t, o.HealthProbeBindAddress, func(ctx context.Context) error { return Run(ctx, o) })
}

// Without leader election the agent needs no agent cluster: --kubeconfig
// may be empty when --spoke-kubeconfig is set.
func TestRunWithoutLeaderElection(t *testing.T) {
	srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI, kubeconn.AppliedManifestWorkAPI)
	o := options(srv.Kubeconfig(t), "", srv.Kubeconfig(t))
	o.DisableLeaderElection = true

	require.NoError(t, start(t, o)())
	_, leased := srv.Lease("open-cluster-management-agent", LeaseName)
	assert.False(t, leased, "no lease without leader election")
}

func TestRunWithLeaderElection(t *testing.T) {
	srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI, kubeconn.AppliedManifestWorkAPI)
	o := options(srv.Kubeconfig(t), srv.Kubeconfig(t), "")

	stop := start(t, o)
	require.Eventually(t, func() bool { return srv.Holder("open-cluster-management-agent", LeaseName) != "" },
		20*time.Second, 10*time.Millisecond, "the agent takes the lease")
	// It leads once its informers list the works: only then does it know it
	// holds the lease (a cancel racing the acquiring request would leave the
	// lease to expire instead, as with any client-go elector).
	require.Eventually(t, func() bool { return srv.Reads("manifestworks") > 0 }, 20*time.Second, 10*time.Millisecond,
		"the agent leads")

	require.NoError(t, stop())
	assert.Empty(t, srv.Holder("open-cluster-management-agent", LeaseName), "the lease is released on shutdown")
}

// The hub's overload shows in the metrics: each halving of the writes in
// flight, and the limit.
func TestHubWriteLimitReportsOverload(t *testing.T) {
	metrics.Register()
	rt := hubWriteLimit(t.Context()).Wrap(roundTripFunc(func(req *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusTooManyRequests, Body: http.NoBody, Request: req}, nil
	}))
	limit := func() float64 {
		v, err := testutil.GetGaugeMetricValue(metrics.WritesLimit.WithLabelValues("hub"))
		require.NoError(t, err)
		return v
	}
	assert.EqualValues(t, writelimit.DefaultMax, limit())
	before, err := testutil.GetCounterMetricValue(metrics.WritesOverloaded.WithLabelValues("hub", writelimit.Throttled))
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPatch, "https://hub/apis", nil)
	require.NoError(t, err)
	_, err = rt.RoundTrip(req)
	require.NoError(t, err)
	assert.EqualValues(t, 1, limit(), "half of the one write in flight, at least 1")
	after, err := testutil.GetCounterMetricValue(metrics.WritesOverloaded.WithLabelValues("hub", writelimit.Throttled))
	require.NoError(t, err)
	assert.Equal(t, 1.0, after-before)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
