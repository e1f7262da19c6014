package mqtt

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
