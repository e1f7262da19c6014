package startup

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/tools/cache"

	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/diagnostics"
)

type stepInformers struct{ s *ct.Calls }

func (f stepInformers) Start(<-chan struct{}) { f.s.Add("informers start") }
func (f stepInformers) Shutdown()             { f.s.Add("informers shut down") }

type stepController struct{ s *ct.Calls }

func (c stepController) Run(ctx context.Context, workers int) {
	c.s.Add("controller runs")
	<-ctx.Done()
}

// A leader's monitors run before its caches sync; it prepares once they
// have, then starts the controllers and is ready; Stop comes last, once all
// has stopped.
func TestLeadOrder(t *testing.T) {
	s := &ct.Calls{}
	ready := &diagnostics.Readiness{}
	var monitoring sync.WaitGroup
	monitoring.Add(1)
	lead := Lead(ready, func() (*Controllers, error) {
		return &Controllers{
			Monitors:  []func(context.Context){func(ctx context.Context) { monitoring.Done(); <-ctx.Done() }},
			Informers: []InformerFactory{stepInformers{s}},
			Synced: []cache.InformerSynced{func() bool {
				monitoring.Wait() // the informers' requests wait on the monitors
				return true
			}},
			Background: []func(context.Context){func(ctx context.Context) { <-ctx.Done(); s.Add("background stops") }},
			Prepare: []func(context.Context){func(context.Context) {
				assert.False(t, ready.Ready(), "not ready before the controllers start")
				s.Add("prepare")
			}},
			Controllers: []Controller{{Controller: stepController{s}, Workers: 1}},
			Stop:        func() { s.Add("stop") },
		}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- lead(ctx) }()
	require.Eventually(t, ready.Ready, 10*time.Second, 10*time.Millisecond, "ready")
	cancel()
	require.NoError(t, <-errc)

	assert.False(t, ready.Ready(), "not ready once stopped")
	got := s.List()
	require.Len(t, got, 6, "%v", got)
	assert.Equal(t, []string{"informers start", "prepare"}, got[:2])
	assert.ElementsMatch(t, []string{"controller runs", "background stops"}, got[2:4])
	assert.Equal(t, []string{"informers shut down", "stop"}, got[4:], "the informers stop after the rest, Stop last")
}

// A wiring that fails is the leader's error, and it is not ready.
func TestLeadWireError(t *testing.T) {
	ready := &diagnostics.Readiness{}
	ready.Set(true)
	err := Lead(ready, func() (*Controllers, error) { return nil, errors.New("no client") })(context.Background())
	require.EqualError(t, err, "no client")
	assert.False(t, ready.Ready())
}
