//go:build linux

package bench

import (
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// latencies times works from a write on the hub (a create or an update) until
// the hub shows them Applied for the generation that write made. It follows
// the hub's work informer through an event handler, so each time is taken
// when the bench sees the status, not when a poll finds it.
type latencies struct {
	mu      sync.Mutex
	pending map[string]written // by work key
	seconds []float64
	poke    chan struct{} // a sample was taken
}

// written is when a work was written, and the generation the write gave it.
type written struct {
	at         time.Time
	generation int64
}

func newLatencies() *latencies {
	return &latencies{pending: map[string]written{}, poke: make(chan struct{}, 1)}
}

// appliedFor tells whether the hub shows the work Applied for generation
// (or a later one).
func appliedFor(w *workv1.ManifestWork, generation int64) bool {
	return w != nil && w.Generation >= generation && conditionTrue(w, workv1.WorkApplied)
}

// handler observes the informer's works.
func (l *latencies) handler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { l.observe(obj, time.Now()) },
		UpdateFunc: func(_, obj any) { l.observe(obj, time.Now()) },
	}
}

// wrote records a write that gave the work generation at the time at;
// current is the informer's copy, which may already show it applied.
func (l *latencies) wrote(key string, at time.Time, generation int64, current *workv1.ManifestWork) {
	l.mu.Lock()
	l.pending[key] = written{at: at, generation: generation}
	l.mu.Unlock()
	if current != nil {
		l.observe(current, time.Now())
	}
}

// observe takes a sample when a pending work is applied.
func (l *latencies) observe(obj any, now time.Time) {
	w, ok := obj.(*workv1.ManifestWork)
	if !ok {
		return
	}
	key := w.Namespace + "/" + w.Name
	l.mu.Lock()
	p, pending := l.pending[key]
	done := pending && appliedFor(w, p.generation)
	if done {
		delete(l.pending, key)
		l.seconds = append(l.seconds, now.Sub(p.at).Seconds())
	}
	l.mu.Unlock()
	if done {
		select {
		case l.poke <- struct{}{}:
		default:
		}
	}
}

// count is how many samples were taken.
func (l *latencies) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.seconds)
}

// samples returns the samples taken so far.
func (l *latencies) samples() []float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.seconds)
}

// spread is how a set of latencies is distributed.
type spread struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50Seconds"`
	P99 float64 `json:"p99Seconds"`
	Max float64 `json:"maxSeconds"`
}

// spreadOf is the nearest-rank p50 and p99, and the max, of v.
func spreadOf(v []float64) spread {
	if len(v) == 0 {
		return spread{}
	}
	s := slices.Clone(v)
	slices.Sort(s)
	rank := func(p float64) float64 {
		return s[max(0, int(math.Ceil(p*float64(len(s))))-1)]
	}
	return spread{N: len(s), P50: rank(0.50), P99: rank(0.99), Max: s[len(s)-1]}
}

func TestSpreadOf(t *testing.T) {
	var v []float64
	for i := 100; i >= 1; i-- {
		v = append(v, float64(i))
	}
	if got := spreadOf(v); got != (spread{N: 100, P50: 50, P99: 99, Max: 100}) {
		t.Errorf("1..100: %+v", got)
	}
	if got := spreadOf([]float64{3}); got != (spread{N: 1, P50: 3, P99: 3, Max: 3}) {
		t.Errorf("one: %+v", got)
	}
	if got := spreadOf(nil); got != (spread{}) {
		t.Errorf("none: %+v", got)
	}
}

func TestLatencies(t *testing.T) {
	applied := func(generation, observed int64) *workv1.ManifestWork {
		c := fixture.AppliedCondition("True")
		c.ObservedGeneration = observed
		return fixture.NewWork("fleet-0001", "fleet-0001-w00").WithGeneration(generation).WithCondition(c).Build()
	}
	began := time.Now()
	l := newLatencies()
	// Applied for the old generation when the update is recorded: no sample.
	l.wrote("fleet-0001/fleet-0001-w00", began, 2, applied(1, 1))
	l.observe(applied(2, 1), began.Add(time.Second)) // the agent has not caught up
	if l.count() != 0 {
		t.Fatalf("a sample before the new generation was applied: %v", l.samples())
	}
	l.observe(applied(2, 2), began.Add(2*time.Second))
	l.observe(applied(2, 2), began.Add(3*time.Second)) // a later event of the same work
	if got := l.samples(); len(got) != 1 || got[0] != 2 {
		t.Errorf("samples %v, want [2]", got)
	}
	// A work already applied when its write is recorded counts at once.
	l.wrote("fleet-0001/fleet-0001-w00", began, 2, applied(2, 2))
	if l.count() != 2 {
		t.Errorf("samples %v, want two", l.samples())
	}
}
