package hub

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admission/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/hub/webhook"
	"github.com/manifestwork/work/pkg/hub/webhook/webhooktest"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/kubeconn/kubeconntest"
)

func TestRunWithoutServingCertificate(t *testing.T) {
	srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI)
	o := options(srv.Kubeconfig(t))
	dir := t.TempDir()
	o.TLSCertFile, o.TLSPrivateKeyFile = filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	o.WebhookBindAddress = localAddr(t)
	require.EqualError(t, Run(context.Background(), o), "serving certificate: stat "+o.TLSCertFile+": no such file or directory")
}

// Every replica serves the webhook, the standby too, and it is up by the
// time the hub reports ready.
func TestRunServesTheWebhookOnAStandby(t *testing.T) {
	srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI)
	o := options(srv.Kubeconfig(t))
	dir := t.TempDir()
	o.TLSCertFile, o.TLSPrivateKeyFile = filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	ca := webhooktest.WriteKeyPair(t, o.TLSCertFile, o.TLSPrivateKeyFile)
	o.WebhookBindAddress, o.HealthProbeBindAddress = localAddr(t), localAddr(t)
	held := "another-replica"
	srv.SetLease(heldLease(held))

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- Run(ctx, o) }()
	require.Eventually(t, func() bool { return status("http://"+o.HealthProbeBindAddress+"/readyz") == http.StatusOK },
		20*time.Second, 10*time.Millisecond, "the standby becomes ready")
	lease, _ := srv.Lease("open-cluster-management-hub", LeaseName)
	require.Equal(t, held, *lease.Spec.HolderIdentity, "this replica does not lead")

	pool := x509.NewCertPool()
	pool.AddCert(ca)
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	body := `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u1","operation":"CREATE",` +
		`"kind":{"group":"work.open-cluster-management.io","version":"v1","kind":"ManifestWork"},"namespace":"cluster1","name":"w",` +
		`"userInfo":{"username":"alice"},"object":{"metadata":{"name":"w","namespace":"cluster1"},"spec":{"workload":{}}}}}`
	resp, err := client.Post("https://"+o.WebhookBindAddress+webhook.Path, "application/json", bytes.NewReader([]byte(body)))
	require.NoError(t, err)
	defer resp.Body.Close()
	var review admissionv1.AdmissionReview
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&review))
	require.NotNil(t, review.Response)
	assert.False(t, review.Response.Allowed)
	assert.Contains(t, review.Response.Result.Message, "a ManifestWork needs at least one manifest")

	cancel()
	require.NoError(t, <-errc)
	_, err = client.Get("https://" + o.WebhookBindAddress + webhook.Path)
	assert.Error(t, err, "the webhook stops with the hub")
}

// heldLease is the hub's lease, freshly renewed by another replica.
func heldLease(holder string) coordinationv1.Lease {
	now := metav1.NewMicroTime(time.Now())
	seconds := int32(3600)
	return coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Namespace: "open-cluster-management-hub", Name: LeaseName},
		Spec: coordinationv1.LeaseSpec{
			HolderIdentity: &holder, LeaseDurationSeconds: &seconds, AcquireTime: &now, RenewTime: &now,
		},
	}
}
