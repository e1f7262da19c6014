package startup

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/component-base/metrics/testutil"

	"github.com/manifestwork/work/pkg/features"
	"github.com/manifestwork/work/pkg/metrics"
)

const day = 24 * time.Hour

// certPEM is a self-signed certificate valid from notBefore to notAfter.
func certPEM(t *testing.T, notBefore, notAfter time.Time) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test"},
		NotBefore: notBefore.Truncate(time.Second), NotAfter: notAfter.Truncate(time.Second)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// jwt is an unsigned token with the iat and exp claims, as the API server's
// ServiceAccount tokens carry them.
func jwt(iat, exp time.Time) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"RS256"}`)) + "." +
		enc(fmt.Appendf(nil, `{"iss":"kubernetes/serviceaccount","iat":%d,"exp":%d}`, iat.Unix(), exp.Unix())) + ".c2ln"
}

func expiryOf(t *testing.T, credential string) float64 {
	t.Helper()
	v, err := testutil.GetGaugeMetricValue(metrics.CredentialExpiry.WithLabelValues(credential))
	require.NoError(t, err)
	return v
}

// expiringEvents are the CredentialExpiring Events the process has told so
// far (they wait until it knows its pod).
func expiringEvents(o *Options) []string {
	o.events.mu.Lock()
	defer o.events.mu.Unlock()
	var msgs []string
	for _, ev := range o.events.pending {
		if ev.reason == EventCredentialExpiring {
			msgs = append(msgs, ev.message)
		}
	}
	return msgs
}

func TestWarnAt(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		validity Validity
		want     time.Duration // before NotAfter
	}{
		{"a year: 30 days ahead", Validity{now, now.Add(365 * day)}, 30 * day},
		{"ten years: 30 days ahead", Validity{now, now.Add(3650 * day)}, 30 * day},
		{"a month: a tenth of its life", Validity{now, now.Add(30 * day)}, 3 * day},
		{"an hour: a tenth of its life", Validity{now, now.Add(time.Hour)}, 6 * time.Minute},
		{"issue time unknown: 30 days ahead", Validity{NotAfter: now.Add(time.Hour)}, 30 * day},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.validity.NotAfter.Add(-tt.want), tt.validity.warnAt())
		})
	}
}

// The webhook's certificate: its expiry is exported, a warning (log and
// Event) comes once while it is close, again for a renewal that is close
// too, and not for one far from its end.
func TestWatchCredentialsWarnsOncePerRenewal(t *testing.T) {
	metrics.Register()
	o := NewOptions(testProcess, features.NewHubFeatureGate())
	now := time.Now()
	file := filepath.Join(t.TempDir(), "tls.crt")
	soon := now.Add(10 * day)
	require.NoError(t, os.WriteFile(file, certPEM(t, now.Add(-355*day), soon), 0o600))

	o.WatchCredentials(t.Context(), CertificateCredential("webhook-serving-cert", file, nil)...)
	assert.Equal(t, float64(soon.Truncate(time.Second).Unix()), expiryOf(t, "webhook-serving-cert"))
	require.Len(t, expiringEvents(o), 1)
	assert.Contains(t, expiringEvents(o)[0], "the credential webhook-serving-cert expires at "+soon.UTC().Truncate(time.Second).Format(time.RFC3339))

	// Renewed, but close to its end again: a new warning.
	sooner := now.Add(5 * day)
	require.NoError(t, os.WriteFile(file, certPEM(t, now.Add(-360*day), sooner), 0o600))
	require.Eventually(t, func() bool { return len(expiringEvents(o)) == 2 }, 20*time.Second, 10*time.Millisecond)
	assert.Equal(t, float64(sooner.Truncate(time.Second).Unix()), expiryOf(t, "webhook-serving-cert"))

	// Renewed for a year: the metric follows, no warning.
	later := now.Add(365 * day)
	require.NoError(t, os.WriteFile(file, certPEM(t, now, later), 0o600))
	require.Eventually(t, func() bool { return expiryOf(t, "webhook-serving-cert") == float64(later.Truncate(time.Second).Unix()) },
		20*time.Second, 10*time.Millisecond)
	assert.Len(t, expiringEvents(o), 2)
}

// A certificate that comes to its warning time while the process runs, its
// file unchanged, is warned about then: one of twenty seconds, with five
// left, at its last two.
func TestWatchCredentialsWarnsWhenTheTimeComes(t *testing.T) {
	metrics.Register()
	o := NewOptions(testProcess, features.NewHubFeatureGate())
	now := time.Now().Truncate(time.Second)
	file := filepath.Join(t.TempDir(), "tls.crt")
	require.NoError(t, os.WriteFile(file, certPEM(t, now.Add(-15*time.Second), now.Add(5*time.Second)), 0o600))

	o.WatchCredentials(t.Context(), CertificateCredential("short-lived-cert", file, nil)...)
	require.Empty(t, expiringEvents(o), "not yet")
	require.Eventually(t, func() bool { return len(expiringEvents(o)) == 1 }, 20*time.Second, 10*time.Millisecond)
	assert.Contains(t, expiringEvents(o)[0], "the credential short-lived-cert expires at ")
}

// A kubeconfig's token (a JWT, in a file it names) and client certificate
// (inline): each exported under the cluster's role; a token of an hour
// that has most of its life left does not warn, nor does a certificate far
// from its end.
func TestKubeconfigCredentials(t *testing.T) {
	metrics.Register()
	o := NewOptions(testProcess, features.NewHubFeatureGate())
	dir := t.TempDir()
	now := time.Now()
	exp := now.Add(time.Hour)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "token"), []byte(jwt(now, exp)+"\n"), 0o600))
	certExpiry := now.Add(200 * day)
	kubeconfig := filepath.Join(dir, "kubeconfig")
	// A key goes with the certificate for client-go to load the kubeconfig;
	// it is not read.
	writeKubeconfig := func(certExpiry time.Time) {
		require.NoError(t, os.WriteFile(kubeconfig, fmt.Appendf(nil, `apiVersion: v1
kind: Config
clusters: [{name: hub, cluster: {server: "https://hub.example.com"}}]
users: [{name: agent, user: {tokenFile: token, client-certificate-data: %s, client-key-data: a2V5}}]
contexts: [{name: hub, context: {cluster: hub, user: agent}}]
current-context: hub
`, base64.StdEncoding.EncodeToString(certPEM(t, now.Add(-165*day), certExpiry))), 0o600))
	}
	writeKubeconfig(certExpiry)

	o.WatchCredentials(t.Context(), KubeconfigCredentials("hub", kubeconfig)...)
	assert.Equal(t, float64(exp.Unix()), expiryOf(t, "hub-token"))
	assert.Equal(t, float64(certExpiry.Truncate(time.Second).Unix()), expiryOf(t, "hub-kubeconfig-client-cert"))
	assert.Empty(t, expiringEvents(o))

	// The token file, renewed with one that has expired: warned.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "token"), []byte(jwt(now.Add(-2*time.Hour), now.Add(-time.Hour))), 0o600))
	require.Eventually(t, func() bool { return len(expiringEvents(o)) == 1 }, 20*time.Second, 10*time.Millisecond)
	assert.Contains(t, expiringEvents(o)[0], "the credential hub-token expired at ")

	// The kubeconfig changes, the token does not: read again, not warned again.
	renewed := now.Add(300 * day)
	writeKubeconfig(renewed)
	require.Eventually(t, func() bool {
		return expiryOf(t, "hub-kubeconfig-client-cert") == float64(renewed.Truncate(time.Second).Unix())
	},
		20*time.Second, 10*time.Millisecond)
	assert.Len(t, expiringEvents(o), 1, "once per expiry")
}

func TestTokenValidity(t *testing.T) {
	for _, token := range []string{"", "opaque-token", "a.b.c", "a." + base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"x"}`)) + ".c"} {
		_, ok, err := tokenValidity(token)
		assert.NoError(t, err, token)
		assert.False(t, ok, "no known expiry: %q", token)
	}
	iat, exp := time.Unix(1_700_000_000, 0), time.Unix(1_731_536_000, 0)
	v, ok, err := tokenValidity(jwt(iat, exp))
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, Validity{iat, exp}, v)
}
