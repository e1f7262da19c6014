package agent

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/utils/ptr"

	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/kubeconn/kubeconntest"
)

func TestMain(m *testing.M) {
	// Run applies the logging options; the tests call it many times with the same ones.
	logsapi.ReapplyHandling = logsapi.ReapplyHandlingIgnoreUnchanged
	os.Exit(m.Run())
}

// closedPort returns a local https URL where nothing listens.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, ln.Close())
	return "https://" + ln.Addr().String()
}

// freeAddr returns a local address that was free a moment ago.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, ln.Close())
	return ln.Addr().String()
}

func options(hub, own, spoke string) *Options {
	o := NewOptions()
	o.ClusterName = "cluster1"
	o.HubKubeconfig, o.Kubeconfig, o.SpokeKubeconfig = hub, own, spoke
	o.HealthProbeBindAddress = "0"
	return o
}

func TestRunStartupErrors(t *testing.T) {
	both := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI, kubeconn.AppliedManifestWorkAPI)
	hubOnly := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI)
	nothing := kubeconntest.NewServer(t)
	good := both.Kubeconfig(t)
	missing := filepath.Join(t.TempDir(), "missing")
	closedURL := closedPort(t)
	closed := kubeconntest.WriteKubeconfig(t, closedURL)

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

// startAgent runs the agent against a fake API server until the test cancels it.
func startAgent(t *testing.T, o *Options) (cancel func() error, readyz string) {
	addr := freeAddr(t)
	o.HealthProbeBindAddress = addr
	ctx, stop := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- Run(ctx, o) }()
	readyz = "http://" + addr + "/readyz"
	require.Eventually(t, func() bool { return status(readyz) == http.StatusOK }, 20*time.Second, 10*time.Millisecond)
	return func() error { stop(); return <-errc }, readyz
}

func TestRunReadyAndShutdown(t *testing.T) {
	srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI, kubeconn.AppliedManifestWorkAPI)
	o := options(srv.Kubeconfig(t), "", srv.Kubeconfig(t))
	o.DisableLeaderElection = true

	cancel, readyz := startAgent(t, o)
	assert.Equal(t, http.StatusOK, status(readyz[:len(readyz)-len("/readyz")]+"/healthz"))
	require.NoError(t, cancel())
	assert.Equal(t, 0, status(readyz), "the probe server is gone after Run returns")
	_, leased := srv.Lease("open-cluster-management-agent", LeaseName)
	assert.False(t, leased, "no lease without leader election")
}

func TestRunWithLeaderElection(t *testing.T) {
	srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI, kubeconn.AppliedManifestWorkAPI)
	o := options(srv.Kubeconfig(t), srv.Kubeconfig(t), "")

	cancel, _ := startAgent(t, o)
	require.Eventually(t, func() bool {
		lease, ok := srv.Lease("open-cluster-management-agent", LeaseName)
		return ok && lease.Spec.HolderIdentity != nil && *lease.Spec.HolderIdentity != ""
	}, 20*time.Second, 10*time.Millisecond, "the agent takes the lease")
	// It leads once its informers list the works: only then does it know it
	// holds the lease (a cancel racing the acquiring request would leave the
	// lease to expire instead, as with any client-go elector).
	require.Eventually(t, func() bool { return srv.Reads("manifestworks") > 0 }, 20*time.Second, 10*time.Millisecond,
		"the agent leads")

	require.NoError(t, cancel())
	lease, _ := srv.Lease("open-cluster-management-agent", LeaseName)
	require.NotNil(t, lease.Spec.HolderIdentity)
	assert.Empty(t, *lease.Spec.HolderIdentity, "the lease is released on shutdown")
}

// status GETs url and returns the HTTP status, or 0 when nothing answers.
func status(url string) int {
	resp, err := http.Get(url)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestRunStandbyIsReadyWithoutLeading(t *testing.T) {
	srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI, kubeconn.AppliedManifestWorkAPI)
	now := metav1.NewMicroTime(time.Now())
	srv.SetLease(coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Namespace: "open-cluster-management-agent", Name: LeaseName},
		Spec: coordinationv1.LeaseSpec{
			HolderIdentity: ptr.To("other-replica"), LeaseDurationSeconds: ptr.To[int32](3600),
			AcquireTime: &now, RenewTime: &now,
		},
	})
	o := options(srv.Kubeconfig(t), srv.Kubeconfig(t), "")

	cancel, _ := startAgent(t, o) // returns once /readyz is ok
	require.NoError(t, cancel())
	lease, _ := srv.Lease("open-cluster-management-agent", LeaseName)
	assert.Equal(t, "other-replica", *lease.Spec.HolderIdentity, "a standby leaves the leader's lease alone")
}
