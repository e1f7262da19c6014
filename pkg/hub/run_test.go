package hub

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
	logsapi "k8s.io/component-base/logs/api/v1"

	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/kubeconn/kubeconntest"
)

func TestMain(m *testing.M) {
	// Run applies the logging options; the tests call it many times with the same ones.
	logsapi.ReapplyHandling = logsapi.ReapplyHandlingIgnoreUnchanged
	os.Exit(m.Run())
}

func localAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, ln.Close())
	return ln.Addr().String()
}

func options(kubeconfig string) *Options {
	o := NewOptions()
	o.Kubeconfig = kubeconfig
	o.HealthProbeBindAddress = "0"
	return o
}

func TestRunStartupErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	closedURL := "https://" + localAddr(t)
	closed := kubeconntest.WriteKubeconfig(t, closedURL)
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
	addr := localAddr(t)
	o.HealthProbeBindAddress = addr

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- Run(ctx, o) }()
	require.Eventually(t, func() bool {
		lease, ok := srv.Lease("open-cluster-management-hub", LeaseName)
		return ok && *lease.Spec.HolderIdentity != "" && status("http://"+addr+"/readyz") == http.StatusOK
	}, 20*time.Second, 10*time.Millisecond)

	cancel()
	require.NoError(t, <-errc)
	lease, _ := srv.Lease("open-cluster-management-hub", LeaseName)
	assert.Empty(t, *lease.Spec.HolderIdentity, "the lease is released on shutdown")
	assert.Equal(t, 0, status("http://"+addr+"/healthz"), "the probe server is stopped")
}

func status(url string) int {
	resp, err := http.Get(url)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}
