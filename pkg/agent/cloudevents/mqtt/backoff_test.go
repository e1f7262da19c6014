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
