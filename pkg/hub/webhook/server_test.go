package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admission/v1"

	"github.com/manifestwork/work/pkg/hub/webhook/webhooktest"
)

// client trusts only ca and opens a new connection per request.
func client(ca *x509.Certificate, version uint16) *http.Client {
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: pool, MinVersion: version, MaxVersion: version},
		DisableKeepAlives: true,
	}}
}

func post(t *testing.T, c *http.Client, url string, review admissionv1.AdmissionReview) (*admissionv1.AdmissionReview, error) {
	t.Helper()
	body, err := json.Marshal(review)
	require.NoError(t, err)
	resp, err := c.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	out := &admissionv1.AdmissionReview{}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
	return out, nil
}

func TestServerServesReviewsOverTLSAndReloadsTheCertificate(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	first := webhooktest.WriteKeyPair(t, certFile, keyFile)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := Start(ctx, Deps{BindAddress: "127.0.0.1:0", Flag: "--webhook-bind-address", CertFile: certFile, KeyFile: keyFile, SubjectAccessReviews: &fakeSARs{allowed: true}})
	require.NoError(t, err)
	url := "https://" + s.Addr() + Path

	review := admissionv1.AdmissionReview{Request: request(t, admissionv1.Create, withExecutor(validWork(), "default", "executor1"), nil)}
	review.APIVersion, review.Kind = admissionAPIVersion, admissionKind
	out, err := post(t, client(first, tls.VersionTLS13), url, review)
	require.NoError(t, err)
	require.NotNil(t, out.Response)
	assert.True(t, out.Response.Allowed)
	assert.Equal(t, review.Request.UID, out.Response.UID)
	out, err = post(t, client(first, tls.VersionTLS13), "https://"+s.Addr()+OCMPath, review)
	require.NoError(t, err)
	assert.True(t, out.Response.Allowed, "OCM's path is served alike")

	_, err = post(t, client(first, tls.VersionTLS11), url, review)
	require.ErrorContains(t, err, "protocol version", "TLS below 1.2 is refused")

	second := rotate(t, certFile, keyFile)
	_, err = post(t, client(first, tls.VersionTLS12), url, review)
	require.ErrorContains(t, err, "certificate signed by unknown authority", "the old certificate is no longer served")
	_, err = post(t, client(second, tls.VersionTLS12), url, review)
	require.NoError(t, err, "the new certificate is served without a restart")

	cancel()
	select {
	case <-s.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop after cancellation")
	}
	require.NoError(t, s.Err())
	_, err = net.DialTimeout("tcp", s.Addr(), time.Second)
	require.Error(t, err, "nothing listens any more")
}

// --tls-min-version and --tls-cipher-suites reach the webhook.
func TestServerTLSSettings(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	ca := webhooktest.WriteKeyPair(t, certFile, keyFile)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := Start(ctx, Deps{BindAddress: "127.0.0.1:0", Flag: "--port", CertFile: certFile, KeyFile: keyFile,
		SubjectAccessReviews: &fakeSARs{allowed: true}, TLSConfig: &tls.Config{MinVersion: tls.VersionTLS13}})
	require.NoError(t, err)
	review := admissionv1.AdmissionReview{Request: request(t, admissionv1.Create, validWork(), nil)}
	review.APIVersion, review.Kind = admissionAPIVersion, admissionKind
	_, err = post(t, client(ca, tls.VersionTLS12), "https://"+s.Addr()+OCMPath, review)
	require.ErrorContains(t, err, "protocol version", "TLS 1.2 is refused with a minimum of 1.3")
	_, err = post(t, client(ca, tls.VersionTLS13), "https://"+s.Addr()+OCMPath, review)
	require.NoError(t, err)
}

func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	_, err := Start(context.Background(), Deps{BindAddress: "127.0.0.1:0", Flag: "--webhook-bind-address", CertFile: certFile, KeyFile: keyFile})
	require.EqualError(t, err, "serving certificate: stat "+certFile+": no such file or directory")

	webhooktest.WriteKeyPair(t, certFile, keyFile)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	_, err = Start(context.Background(), Deps{BindAddress: busy.Addr().String(), Flag: "--webhook-bind-address", CertFile: certFile, KeyFile: keyFile})
	require.ErrorContains(t, err, `webhook address --webhook-bind-address "`+busy.Addr().String()+`": listen tcp `)
	require.ErrorContains(t, err, "address already in use")
}
