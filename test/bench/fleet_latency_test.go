//go:build linux

package bench

import (
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// latencies times objects from a write on the hub (a create or an update of
// a work) until an informer shows what that write asked for: the work
// Applied for the generation the write made (newLatencies), or the managed
// cluster's object changed by it (managedLatencies). It follows the informer
// through an event handler, so each time is taken when the bench sees the
// object, not when a poll finds it.
type latencies struct {
	mu      sync.Mutex
	pending map[string]written // by namespace/name
	seconds []float64
	poke    chan struct{} // a sample was taken
	// done tells whether obj shows what the write w asked for.
	done func(obj any, w written) bool
}

// written is when an object was written, and what the write gave it: the
// generation of a work.
type written struct {
	at         time.Time
	generation int64
}

// latenciesUntil times objects until done says an informer shows them as written.
func latenciesUntil(done func(obj any, w written) bool) *latencies {
	return &latencies{pending: map[string]written{}, poke: make(chan struct{}, 1), done: done}
}

// newLatencies times works until they are Applied.
func newLatencies() *latencies {
	return latenciesUntil(func(obj any, p written) bool { return appliedFor(obj.(*workv1.ManifestWork), p.generation) })
}

// seenLatencies times works until the hub's watch brings them, with the
// generation the write made, to the bench's informer: how far the watch
// every agent also waits on is behind the writes.
func seenLatencies() *latencies {
	return latenciesUntil(func(obj any, p written) bool { return obj.(*workv1.ManifestWork).Generation >= p.generation })
}

// managedLatencies times the ConfigMaps of the change phase until the
// managed cluster holds the changed data.
func managedLatencies(value string) *latencies {
	return latenciesUntil(func(obj any, _ written) bool { return obj.(*corev1.ConfigMap).Data["value"] == value })
}

// appliedFor tells whether the hub shows the work Applied for generation
// (or a later one).
func appliedFor(w *workv1.ManifestWork, generation int64) bool {
	return w != nil && w.Generation >= generation && conditionTrue(w, workv1.WorkApplied)
}

// handler observes the informer's objects.
func (l *latencies) handler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { l.observe(obj, time.Now()) },
		UpdateFunc: func(_, obj any) { l.observe(obj, time.Now()) },
	}
}

// wrote records a write that gave the object under key generation at the
// time at; current is the informer's copy, which may already show it done.
func (l *latencies) wrote(key string, at time.Time, generation int64, current any) {
	l.mu.Lock()
	l.pending[key] = written{at: at, generation: generation}
	l.mu.Unlock()
	if current != nil {
		l.observe(current, time.Now())
	}
}

// observe takes a sample when a pending object shows what it was written for.
func (l *latencies) observe(obj any, now time.Time) {
	if l.take(obj, now) {
		select {
		case l.poke <- struct{}{}:
		default:
		}
	}
}

func (l *latencies) take(obj any, now time.Time) bool {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	p, pending := l.pending[key]
	if !pending || !l.done(obj, p) {
		return false
	}
	delete(l.pending, key)
	l.seconds = append(l.seconds, now.Sub(p.at).Seconds())
	return true
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

// A changed ConfigMap counts once the managed cluster holds the new value.
func TestManagedLatencies(t *testing.T) {
	began := time.Now()
	l := managedLatencies("2")
	l.wrote("fleet-0001/w00-cm00", began, 0, fixture.ConfigMap("fleet-0001", "w00-cm00", fleetData("w00-cm00", "1")))
	l.observe(fixture.ConfigMap("fleet-0001", "w00-cm01", fleetData("w00-cm01", "2")), began.Add(time.Second)) // another
	if l.count() != 0 {
		t.Fatalf("a sample before the change: %v", l.samples())
	}
	l.observe(fixture.ConfigMap("fleet-0001", "w00-cm00", fleetData("w00-cm00", "2")), began.Add(2*time.Second))
	if got := l.samples(); len(got) != 1 || got[0] != 2 {
		t.Errorf("samples %v, want [2]", got)
	}
}
