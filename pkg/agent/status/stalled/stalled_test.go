package stalled

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A failure is reported only once it has lasted Threshold without a
// success in between, First only once per failure, and a success forgets
// it.
func TestFailures(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	type step struct {
		failed bool // else succeeded
		at     time.Duration
		want   Verdict // of a failure
		// wantReported is what a success returns.
		wantReported bool
	}
	cases := []struct {
		name  string
		steps []step
	}{{
		name: "a transient failure is never reported",
		steps: []step{
			{failed: true, at: 0, want: Verdict{Wait: Threshold}},
			{failed: true, at: 3 * time.Second, want: Verdict{Wait: 7 * time.Second}},
			{at: 4 * time.Second, wantReported: false},
		},
	}, {
		name: "a failure that lasts the threshold is reported, First once",
		steps: []step{
			{failed: true, at: 0, want: Verdict{Wait: Threshold}},
			{failed: true, at: 9 * time.Second, want: Verdict{Wait: time.Second}},
			{failed: true, at: Threshold, want: Verdict{Persisting: true, First: true}},
			{failed: true, at: time.Minute, want: Verdict{Persisting: true}},
			{at: 2 * time.Minute, wantReported: true},
		},
	}, {
		name: "a success in between starts the count again",
		steps: []step{
			{failed: true, at: 0, want: Verdict{Wait: Threshold}},
			{at: 8 * time.Second},
			{failed: true, at: 9 * time.Second, want: Verdict{Wait: Threshold}},
			{failed: true, at: 12 * time.Second, want: Verdict{Wait: 7 * time.Second}},
			{failed: true, at: 19 * time.Second, want: Verdict{Persisting: true, First: true}},
		},
	}, {
		name: "a failure reported, cleared and back is reported again",
		steps: []step{
			{failed: true, at: 0, want: Verdict{Wait: Threshold}},
			{failed: true, at: 20 * time.Second, want: Verdict{Persisting: true, First: true}},
			{at: 21 * time.Second, wantReported: true},
			{at: 22 * time.Second, wantReported: false},
			{failed: true, at: 30 * time.Second, want: Verdict{Wait: Threshold}},
			{failed: true, at: 40 * time.Second, want: Verdict{Persisting: true, First: true}},
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var f Failures
			for i, s := range tc.steps {
				if s.failed {
					assert.Equal(t, s.want, f.Failed("k", at(s.at)), "step %d", i)
					continue
				}
				assert.Equal(t, s.wantReported, f.Succeeded("k"), "step %d", i)
			}
		})
	}
}

// Keys are independent.
func TestFailuresByKey(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var f Failures
	f.Failed("a", t0)
	assert.Equal(t, Verdict{Wait: Threshold}, f.Failed("b", t0.Add(Threshold)))
	assert.Equal(t, Verdict{Persisting: true, First: true}, f.Failed("a", t0.Add(Threshold)))
	assert.False(t, f.Succeeded("b"))
	assert.True(t, f.Succeeded("a"))
}

func TestPersists(t *testing.T) {
	t0 := time.Unix(1000, 0)
	cases := []struct {
		name           string
		now            time.Time
		wantPersisting bool
		wantWait       time.Duration
	}{
		{"just began", t0, false, Threshold},
		{"almost", t0.Add(Threshold - time.Millisecond), false, time.Millisecond},
		{"at the threshold", t0.Add(Threshold), true, 0},
		{"long after", t0.Add(time.Hour), true, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			persisting, wait := Persists(t0, tc.now)
			assert.Equal(t, tc.wantPersisting, persisting)
			assert.Equal(t, tc.wantWait, wait)
		})
	}
}
