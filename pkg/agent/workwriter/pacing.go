package workwriter

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Pacing holds back the status of a work in transition: while one of its
// manifests is still progressing (a rollout under way, a Job running), the
// status the availability and feedback controllers would write is written
// at most once per Interval, the last one held back at the end of it. A
// status in which nothing is progressing any more is written at once. A
// rollout that ends within the interval thus costs one write, of its end,
// where writing every step of it cost one per step; one that lasts shows
// its progress every interval, as OCM's agent shows it at each status sync.
// The writers of the controllers that share a Pacing share its clock per
// work.
type Pacing struct {
	Interval time.Duration

	mu sync.Mutex
	// since holds, per work key, when the work's transition was first held
	// back, or last written.
	since map[string]time.Time
}

// NewPacing returns the pacing of works in transition, one write per
// interval; an interval of zero or less holds nothing back.
func NewPacing(interval time.Duration) *Pacing {
	return &Pacing{Interval: interval, since: map[string]time.Time{}}
}

// Deferred is the error of a status write held back; the controller syncs
// the work again After it, and writes the status it then finds.
type Deferred struct {
	After time.Duration
}

func (d *Deferred) Error() string {
	return fmt.Sprintf("the work is in transition; its status is written in %s", d.After)
}

// IsDeferred tells whether err is a write held back, and for how long.
func IsDeferred(err error) (time.Duration, bool) {
	var d *Deferred
	if errors.As(err, &d) {
		return d.After, true
	}
	return 0, false
}

// InTransition tells whether a manifest of the status is still progressing.
func InTransition(status workv1.ManifestWorkStatus) bool {
	for _, m := range status.ResourceStatus.Manifests {
		if c := meta.FindStatusCondition(m.Conditions, workv1.ManifestHealthy); c != nil && c.Reason == workv1.HealthyReasonProgressing {
			return true
		}
	}
	return false
}

// hold returns how long a status of the work in transition still waits: 0
// when it may be written now.
func (p *Pacing) hold(key string, now time.Time) time.Duration {
	if p == nil || p.Interval <= 0 {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	since, ok := p.since[key]
	if !ok {
		p.since[key] = now
		return p.Interval
	}
	if elapsed := now.Sub(since); elapsed < p.Interval {
		return p.Interval - elapsed
	}
	return 0
}

// written notes a status write of the work: a status in transition starts
// the next interval, a settled one ends the transition.
func (p *Pacing) written(key string, inTransition bool, now time.Time) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if inTransition {
		p.since[key] = now
	} else {
		delete(p.since, key)
	}
}

// forget drops what the pacing holds of a work that is gone.
func (p *Pacing) forget(key string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.since, key)
}

// keyOf is the work's queue key, by which the writer keeps what it holds
// per work.
func keyOf(work *workv1.ManifestWork) string {
	return cache.MetaObjectToName(work).String()
}
