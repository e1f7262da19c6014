package cloudevents_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
)

func TestReconnectDelay(t *testing.T) {
	// OCM's agent: 5 s, five times more each time up to a minute, each
	// with up to as much again of jitter.
	within := func(t *testing.T, d, least time.Duration) {
		t.Helper()
		assert.GreaterOrEqual(t, d, least)
		assert.LessOrEqual(t, d, 2*least)
	}
	for range 10 { // the jitter differs each time
		clk := clocktesting.NewFakeClock(time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC))
		delay := cloudevents.NewReconnectDelay(clk)
		for _, least := range []time.Duration{5 * time.Second, 25 * time.Second, time.Minute, time.Minute} {
			within(t, delay(), least)
		}
		// A minute connected is not enough to start over.
		clk.Step(time.Minute)
		within(t, delay(), time.Minute)
		// Ten quiet minutes are.
		clk.Step(cloudevents.BackoffReset)
		within(t, delay(), 5*time.Second)
		within(t, delay(), 25*time.Second)
	}
}
