package mqtt

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
	"github.com/manifestwork/work/test/cloudevents/cetest"
	"github.com/manifestwork/work/test/cloudevents/mqtttest"
)

// peers records the common name of each client certificate a TLS broker
// accepted.
type peers struct {
	mu    sync.Mutex
	names []string
}

func (p *peers) verify(cs tls.ConnectionState) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(cs.PeerCertificates) > 0 {
		p.names = append(p.names, cs.PeerCertificates[0].Subject.CommonName)
	}
	return nil
}

func (p *peers) last() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.names) == 0 {
		return ""
	}
	return p.names[len(p.names)-1]
}

// tlsBed is a TLS broker that requires client certificates of ca, and an
// agent's config file with a certificate "agent-1" of ca in files.
type tlsBed struct {
	ca       *cetest.CA
	broker   *mqtttest.Broker
	seen     *peers
	dir      string
	certFile string
	keyFile  string
}

// newTLSBed starts the broker; the agent trusts the CA trust.
func newTLSBed(t *testing.T, ca, trust *cetest.CA) (*tlsBed, *Config) {
	t.Helper()
	b := &tlsBed{ca: ca, seen: &peers{}, dir: t.TempDir()}
	serverTLS := ca.ServerTLS(t, true)
	serverTLS.VerifyConnection = b.seen.verify
	b.broker = mqtttest.Start(t, mqtttest.WithTLS(serverTLS))
	b.renew(t, "agent-1")
	path := cetest.WriteFile(t, b.dir, "config.yaml", []byte(`brokerHost: `+b.broker.Addr()+`
caFile: `+cetest.WriteFile(t, b.dir, "ca.crt", trust.PEM)+`
clientCertFile: `+b.certFile+`
clientKeyFile: `+b.keyFile+`
dialTimeout: 5s
topics:
  sourceEvents: sources/maestro/consumers/+/sourceevents
  agentEvents: sources/maestro/consumers/+/agentevents
`))
	cfg, err := Load(path)
	require.NoError(t, err)
	require.True(t, cfg.TLS())
	return b, cfg
}

// renew writes a new client certificate for cn to the agent's files.
func (b *tlsBed) renew(t *testing.T, cn string) {
	certPEM, keyPEM := b.ca.Issue(t, cn, x509.ExtKeyUsageClientAuth)
	b.certFile = cetest.WriteFile(t, b.dir, "tls.crt", certPEM)
	b.keyFile = cetest.WriteFile(t, b.dir, "tls.key", keyPEM)
}

func TestTLS(t *testing.T) {
	ca := cetest.NewCA(t)
	cases := []struct {
		name          string
		trust         *cetest.CA
		wantConnected bool
	}{
		{name: "the broker's CA", trust: ca, wantConnected: true},
		{name: "another CA", trust: cetest.NewCA(t)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bed, cfg := newTLSBed(t, ca, tc.trust)
			var attempts atomic.Int32
			h := &cetest.Handler{}
			tr, err := New(cfg, testCluster, testClientID, WithBackoff(func() time.Duration {
				attempts.Add(1)
				return fastBackoff()
			}))
			require.NoError(t, err)
			t.Cleanup(start(tr, h))

			if !tc.wantConnected {
				require.Eventually(t, func() bool { return attempts.Load() >= 3 }, waitFor, tick, "the transport retries")
				c := h.Counts().Connected
				assert.Zero(t, c, "no connection to a broker the agent does not trust")
				assert.ErrorIs(t, tr.Publish(context.Background(), statusEvent("w")), cloudevents.ErrDisconnected)
				return
			}
			h.WaitConnected(t, 1)
			require.NoError(t, tr.Publish(context.Background(), statusEvent("w")))
			assert.Equal(t, "agent-1", bed.seen.last())
		})
	}
}

func TestClientCertificateRenewal(t *testing.T) {
	cases := []struct {
		name string
		// follow lets the transport follow the certificate files.
		follow bool
		// restart restarts the broker after the renewal.
		restart bool
	}{
		{name: "the next connection reads the files", restart: true},
		{name: "a renewal found in the files drops the connection", follow: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ca := cetest.NewCA(t)
			bed, cfg := newTLSBed(t, ca, ca)
			h := &cetest.Handler{}
			tr, err := New(cfg, testCluster, testClientID, WithBackoff(fastBackoff))
			require.NoError(t, err)
			require.True(t, tr.followCerts, "a certificate in files is followed")
			tr.followCerts = tc.follow
			t.Cleanup(start(tr, h))
			h.WaitConnected(t, 1)
			require.Equal(t, "agent-1", bed.seen.last())

			bed.renew(t, "agent-2")
			if tc.restart {
				bed.broker.Restart()
			}
			h.WaitConnected(t, 2)
			require.NoError(t, tr.Publish(context.Background(), statusEvent("w")))
			assert.Equal(t, "agent-2", bed.seen.last())
			assert.Never(t, func() bool { c := h.Counts().Connected; return c > 2 }, 500*time.Millisecond, tick,
				"one reconnect per renewal")
		})
	}
}
