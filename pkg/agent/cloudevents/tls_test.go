package cloudevents_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
	"github.com/manifestwork/work/pkg/filewatch/filewatchtest"
	"github.com/manifestwork/work/test/cloudevents/cetest"
)

const (
	waitFor = 10 * time.Second
	tick    = 10 * time.Millisecond
)

// commonName is the common name of the client certificate cfg presents.
func commonName(t *testing.T, cfg *tls.Config) string {
	t.Helper()
	name, err := presented(cfg)
	require.NoError(t, err)
	return name
}

func presented(cfg *tls.Config) (string, error) {
	cert, err := cfg.GetClientCertificate(nil)
	if err != nil {
		return "", err
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		return "", err
	}
	return leaf.Subject.CommonName, nil
}

// renewals follows r until the test ends and records, at each renewal,
// the common name cfg presents from then on.
type renewals struct {
	mu    sync.Mutex
	names []string
}

func follow(t *testing.T, r *cloudevents.CertReloader, cfg *tls.Config) *renewals {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	got := &renewals{}
	go func() {
		defer close(done)
		r.Follow(ctx, func() {
			name, err := presented(cfg)
			if err != nil {
				name = err.Error()
			}
			got.mu.Lock()
			defer got.mu.Unlock()
			got.names = append(got.names, name)
		})
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return got
}

// waitNames waits for n renewals and returns the names they presented.
func (g *renewals) waitNames(t *testing.T, n int) []string {
	t.Helper()
	var names []string
	require.Eventually(t, func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		names = append([]string(nil), g.names...)
		return len(names) >= n
	}, waitFor, tick, "%d renewals", n)
	return names
}

func TestCertReloaderOncePerRenewal(t *testing.T) {
	ca := cetest.NewCA(t)
	pair := func(cn string) map[string][]byte {
		certPEM, keyPEM := ca.Issue(t, cn, x509.ExtKeyUsageClientAuth)
		return map[string][]byte{"tls.crt": certPEM, "tls.key": keyPEM}
	}

	t.Run("a Secret volume swapped by the kubelet", func(t *testing.T) {
		first := pair("agent-1")
		vol, err := filewatchtest.NewSecretVolume(filepath.Join(t.TempDir(), "broker"), first)
		require.NoError(t, err)
		cfg, r, err := cloudevents.TLSConfig(ca.PEM, "caFile",
			cloudevents.KeyPair{CertFile: vol.Path("tls.crt"), KeyFile: vol.Path("tls.key")})
		require.NoError(t, err)
		require.NotNil(t, r, "a certificate in files comes with its reloader")
		assert.Equal(t, []string{vol.Path("tls.crt"), vol.Path("tls.key")}, r.Files())
		assert.Equal(t, "agent-1", commonName(t, cfg))
		got := follow(t, r, cfg)

		// The same certificate swapped in again is no renewal: the next
		// renewal is the first one reported.
		require.NoError(t, vol.Update(first))
		require.NoError(t, vol.Update(pair("agent-2")))
		assert.Equal(t, []string{"agent-2"}, got.waitNames(t, 1))
		require.NoError(t, vol.Update(pair("agent-3")))
		assert.Equal(t, []string{"agent-2", "agent-3"}, got.waitNames(t, 2))
	})

	t.Run("files written one after the other", func(t *testing.T) {
		dir := t.TempDir()
		first := pair("agent-1")
		certFile := cetest.WriteFile(t, dir, "tls.crt", first["tls.crt"])
		keyFile := cetest.WriteFile(t, dir, "tls.key", first["tls.key"])
		cfg, r, err := cloudevents.TLSConfig(ca.PEM, "caFile", cloudevents.KeyPair{CertFile: certFile, KeyFile: keyFile})
		require.NoError(t, err)
		got := follow(t, r, cfg)

		// Half written, the pair does not read: the certificate in use
		// stays, and the renewal counts once the key is there too.
		second := pair("agent-2")
		cetest.WriteFile(t, dir, "tls.crt", second["tls.crt"])
		assert.Equal(t, "agent-1", commonName(t, cfg), "a half-written renewal keeps the certificate in use")
		cetest.WriteFile(t, dir, "tls.key", second["tls.key"])
		assert.Equal(t, []string{"agent-2"}, got.waitNames(t, 1))
		third := pair("agent-3")
		cetest.WriteFile(t, dir, "tls.crt", third["tls.crt"])
		cetest.WriteFile(t, dir, "tls.key", third["tls.key"])
		assert.Equal(t, []string{"agent-2", "agent-3"}, got.waitNames(t, 2))
	})
}

func TestTLSConfig(t *testing.T) {
	ca := cetest.NewCA(t)
	certPEM, keyPEM := ca.Issue(t, "agent-1", x509.ExtKeyUsageClientAuth)
	_, otherKey := ca.Issue(t, "other", x509.ExtKeyUsageClientAuth)
	missing := filepath.Join(t.TempDir(), "missing")

	cfg, r, err := cloudevents.TLSConfig(ca.PEM, "caData", cloudevents.KeyPair{CertPEM: certPEM, KeyPEM: keyPEM})
	require.NoError(t, err)
	assert.Nil(t, r, "a certificate given as data is not reloaded")
	assert.Len(t, cfg.Certificates, 1)
	assert.Equal(t, uint16(tls.VersionTLS13), cfg.MinVersion)
	assert.Equal(t, uint16(tls.VersionTLS13), cfg.MaxVersion)

	cfg, r, err = cloudevents.TLSConfig(ca.PEM, "caData", cloudevents.KeyPair{})
	require.NoError(t, err)
	assert.Nil(t, r)
	assert.Empty(t, cfg.Certificates, "no client certificate (a token alone)")

	_, _, err = cloudevents.TLSConfig([]byte("not PEM"), "caFile", cloudevents.KeyPair{})
	assert.EqualError(t, err, "caFile: no PEM certificate in it")
	_, _, err = cloudevents.TLSConfig(nil, "caData", cloudevents.KeyPair{CertPEM: certPEM, KeyPEM: otherKey})
	assert.ErrorContains(t, err, "clientCertData and clientKeyData: ")
	_, _, err = cloudevents.TLSConfig(nil, "caData", cloudevents.KeyPair{CertFile: missing, KeyPEM: keyPEM})
	assert.ErrorContains(t, err, "clientCertFile: open "+missing)
}
