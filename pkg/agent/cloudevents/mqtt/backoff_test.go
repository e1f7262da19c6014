package mqtt

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOCMBackoff(t *testing.T) {
	// OCM's agent: 5 s, five times more each time up to a minute, each
	// with up to as much again of jitter.
	want := []struct{ min, max time.Duration }{
		{5 * time.Second, 10 * time.Second},
		{25 * time.Second, 50 * time.Second},
		{time.Minute, 2 * time.Minute},
		{time.Minute, 2 * time.Minute},
		{time.Minute, 2 * time.Minute},
	}
	delay := NewOCMBackoff()
	for i, w := range want {
		d := delay()
		assert.GreaterOrEqual(t, d, w.min, "delay %d", i+1)
		assert.LessOrEqual(t, d, w.max, "delay %d", i+1)
	}
}

func TestReconnectDelay(t *testing.T) {
	const backoff = 7 * time.Second
	cases := []struct {
		name    string
		everUp  bool
		attempt int
		want    time.Duration
	}{
		{name: "the first attempt at start", attempt: 0, want: 0},
		{name: "a retry at start", attempt: 1, want: backoff},
		{name: "the first attempt after a connection dropped", everUp: true, attempt: 0, want: backoff},
		{name: "a retry after a connection dropped", everUp: true, attempt: 3, want: backoff},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := New(testConfig("127.0.0.1:1"), testCluster, testClientID, WithBackoff(func() time.Duration { return backoff }))
			require.NoError(t, err)
			tr.everUp.Store(tc.everUp)
			assert.Equal(t, tc.want, tr.reconnectDelay(tc.attempt))
		})
	}
}

func TestNew(t *testing.T) {
	cases := []struct {
		name     string
		cfg      *Config
		cluster  string
		clientID string
		wantErr  string
	}{
		{name: "no config", cluster: testCluster, clientID: testClientID, wantErr: "no config"},
		{name: "no client id", cfg: testConfig("b:1"), cluster: testCluster, wantErr: "client id"},
		{name: "no cluster", cfg: testConfig("b:1"), clientID: testClientID, wantErr: "test-config.yaml: cluster name: required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.cfg, tc.cluster, tc.clientID)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.wantErr)
		})
	}
	tr, err := New(testConfig("broker.example.com:1883"), testCluster, testClientID)
	require.NoError(t, err)
	assert.Equal(t, "broker.example.com:1883", tr.Address())
	assert.Equal(t, "agent1-client", tr.ClientID())
	assert.Equal(t, specTopic, tr.Topics().Spec)
}
