package hub

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/hub/webhook"
	"github.com/manifestwork/work/pkg/hub/webhook/webhooktest"
	"github.com/manifestwork/work/pkg/kubeconn/kubeconntest"
	"github.com/manifestwork/work/pkg/startup/startuptest"
)

func TestWebhookServerFlags(t *testing.T) {
	o := startuptest.Parse(t, NewWebhookServerOptions())
	assert.Equal(t, filepath.Join(os.TempDir(), "k8s-webhook-server", "serving-certs"), o.CertDir)
	assert.Equal(t, ":8000", o.healthAddress(), "OCM's --health-probe-port")
	fs := startuptest.AssertDefaults(t, NewWebhookServerOptions().AddFlags, map[string]string{
		"port": "9443", "health-probe-port": "8000", "metrics-port": "8080", "manifest-limit": "512000", "manifestLimit": "512000",
		"kubeconfig": "", "feature-gates": "", "tls-min-version": "", "tls-cipher-suites": "[]",
	})
	for _, name := range []string{"listen", "disable-leader-election", "leader-election-namespace"} {
		assert.Nil(t, fs.Lookup(name), "no --%s: every replica serves, probed over plain HTTP", name)
	}
	assert.Equal(t, 2048, startuptest.Parse(t, NewWebhookServerOptions(), "--manifestLimit=2048").ManifestLimit)
	assert.Equal(t, "127.0.0.1:1", startuptest.Parse(t, NewWebhookServerOptions(), "--health-probe-bind-address=127.0.0.1:1").healthAddress())
	assert.Equal(t, "0", startuptest.Parse(t, NewWebhookServerOptions(), "--health-probe-port=0").healthAddress())

	for args, want := range map[string]string{
		"--port=70000":        "--port 70000 is not a valid port",
		"--metrics-port=-1":   "--metrics-port -1 is not a valid port",
		"--certdir=":          "--certdir is required",
		"--manifestLimit=0":   "--manifest-limit must be positive, got 0",
		"--tls-min-version=x": `--tls-min-version "x" is not one of VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13`,
	} {
		startuptest.RequireError(t, startuptest.Parse(t, NewWebhookServerOptions(), args).Validate(), want)
	}
}

// With the ClusterManager's arguments (free ports here) the webhook server
// reads its certificate from --certdir, serves OCM's path, its probes and
// its metrics, and takes no lease.
func TestRunWebhookServer(t *testing.T) {
	srv := kubeconntest.NewServer(t, SubjectAccessReviewAPI)
	certDir := filepath.Join(t.TempDir(), "k8s-webhook-server", "serving-certs")
	require.NoError(t, os.MkdirAll(certDir, 0o755))
	ca := webhooktest.WriteKeyPair(t, filepath.Join(certDir, "tls.crt"), filepath.Join(certDir, "tls.key"))
	port, health, metricsPort := freePort(t), freePort(t), freePort(t)
	o := startuptest.Parse(t, NewWebhookServerOptions(), "--port="+port, "--health-probe-port="+health, "--metrics-port="+metricsPort,
		"--certdir="+certDir, "--kubeconfig="+srv.Kubeconfig(t), "--feature-gates=NilExecutorValidating=true,ManifestWorkReplicaSet=true")
	stop := startuptest.Start(t, "127.0.0.1:"+health, func(ctx context.Context) error { return RunWebhookServer(ctx, o) })

	review := postEmptyWork(t, trusting(ca), "https://127.0.0.1:"+port+webhook.OCMPath)
	assert.False(t, review.Response.Allowed)
	assert.Equal(t, "manifests should not be empty", review.Response.Result.Message)
	assert.Equal(t, http.StatusOK, startuptest.Status("http://127.0.0.1:"+health+"/healthz"))
	assert.Equal(t, http.StatusOK, startuptest.Status("http://127.0.0.1:"+metricsPort+"/metrics"))
	require.NoError(t, stop())
	assert.Equal(t, 0, startuptest.Status("http://127.0.0.1:"+metricsPort+"/metrics"), "stopped with the process")
}

func TestRunWebhookServerWithoutCertificate(t *testing.T) {
	srv := kubeconntest.NewServer(t, SubjectAccessReviewAPI)
	certDir := t.TempDir()
	o := startuptest.Parse(t, NewWebhookServerOptions(), "--port="+freePort(t), "--health-probe-port=0", "--metrics-port=0",
		"--certdir="+certDir, "--kubeconfig="+srv.Kubeconfig(t))
	require.EqualError(t, RunWebhookServer(context.Background(), o),
		"serving certificate: stat "+filepath.Join(certDir, "tls.crt")+": no such file or directory")
}

func freePort(t *testing.T) string {
	_, port, err := net.SplitHostPort(startuptest.FreeAddr(t))
	require.NoError(t, err)
	return port
}
