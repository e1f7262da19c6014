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

	"github.com/manifestwork/work/pkg/hub/webhook"
	"github.com/manifestwork/work/pkg/hub/webhook/webhooktest"
	"github.com/manifestwork/work/pkg/kubeconn"
	"github.com/manifestwork/work/pkg/kubeconn/kubeconntest"
	"github.com/manifestwork/work/pkg/startup/startuptest"
)

func TestRunWithoutServingCertificate(t *testing.T) {
	srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI)
	o := options(srv.Kubeconfig(t))
	dir := t.TempDir()
	o.TLSCertFile, o.TLSPrivateKeyFile = filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	o.WebhookBindAddress = startuptest.FreeAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // bounds the wait should it start
	defer cancel()
	require.EqualError(t, Run(ctx, o), "serving certificate: stat "+o.TLSCertFile+": no such file or directory")
}

// Every replica serves the webhook, the standby too, and it is up by the
// time the hub reports ready.
func TestRunServesTheWebhookOnAStandby(t *testing.T) {
	srv := kubeconntest.NewServer(t, kubeconn.ManifestWorkAPI)
	o := options(srv.Kubeconfig(t))
	dir := t.TempDir()
	o.TLSCertFile, o.TLSPrivateKeyFile = filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	ca := webhooktest.WriteKeyPair(t, o.TLSCertFile, o.TLSPrivateKeyFile)
	o.WebhookBindAddress = startuptest.FreeAddr(t)
	held := "another-replica"
	srv.HoldLease("open-cluster-management-hub", LeaseName, held)

	stop := start(t, o) // returns once the standby is ready
	require.Equal(t, held, srv.Holder("open-cluster-management-hub", LeaseName), "this replica does not lead")

	client := trusting(ca)
	review := postEmptyWork(t, client, "https://"+o.WebhookBindAddress+webhook.Path)
	assert.False(t, review.Response.Allowed)
	assert.Equal(t, "manifests should not be empty", review.Response.Result.Message)

	require.NoError(t, stop())
	_, err := client.Get("https://" + o.WebhookBindAddress + webhook.Path)
	assert.Error(t, err, "the webhook stops with the hub")
}

// trusting is a client trusting only ca.
func trusting(ca *x509.Certificate) *http.Client {
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
}

// postEmptyWork posts the review of the creation of a work without manifests
// and returns the answer.
func postEmptyWork(t *testing.T, client *http.Client, url string) admissionv1.AdmissionReview {
	t.Helper()
	body := `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u1","operation":"CREATE",` +
		`"kind":{"group":"work.open-cluster-management.io","version":"v1","kind":"ManifestWork"},"namespace":"cluster1","name":"w",` +
		`"userInfo":{"username":"alice"},"object":{"metadata":{"name":"w","namespace":"cluster1"},"spec":{"workload":{}}}}}`
	resp, err := client.Post(url, "application/json", bytes.NewReader([]byte(body)))
	require.NoError(t, err)
	defer resp.Body.Close()
	var review admissionv1.AdmissionReview
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&review))
	require.NotNil(t, review.Response)
	return review
}
