package grpc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestBackoff(t *testing.T) {
	start := time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		b      Backoff
		random float64
		// at is when each wait is asked for, as an offset from start.
		at   []time.Duration
		want []time.Duration
	}{
		{
			name: "OCM's steps without jitter: 5 s, times 5, up to a minute",
			b:    Backoff{Initial: 5 * time.Second, Max: time.Minute, Factor: 5, ResetAfter: 10 * time.Minute},
			at:   []time.Duration{0, time.Second, 2 * time.Second, 3 * time.Second},
			want: []time.Duration{5 * time.Second, 25 * time.Second, time.Minute, time.Minute},
		},
		{
			name:   "jitter stretches each wait by up to itself",
			b:      DefaultBackoff,
			random: 0.5,
			at:     []time.Duration{0, time.Second, 2 * time.Second, 3 * time.Second},
			want:   []time.Duration{7500 * time.Millisecond, 37500 * time.Millisecond, 90 * time.Second, 90 * time.Second},
		},
		{
			name: "ten quiet minutes start from the first step again",
			b:    Backoff{Initial: 5 * time.Second, Max: time.Minute, Factor: 5, ResetAfter: 10 * time.Minute},
			at:   []time.Duration{0, time.Second, time.Second + 10*time.Minute + 1, 11 * time.Minute},
			want: []time.Duration{5 * time.Second, 25 * time.Second, 5 * time.Second, 25 * time.Second},
		},
		{
			name: "a factor of one keeps the first wait",
			b:    Backoff{Initial: 20 * time.Millisecond, Max: time.Second, Factor: 1},
			at:   []time.Duration{0, time.Hour},
			want: []time.Duration{20 * time.Millisecond, 20 * time.Millisecond},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var now time.Time
			s := &backoffState{b: tt.b, now: func() time.Time { return now }, float: func() float64 { return tt.random }}
			var got []time.Duration
			for _, at := range tt.at {
				now = start.Add(at)
				got = append(got, s.delay())
			}
			require.Equal(t, tt.want, got)
		})
	}
}
