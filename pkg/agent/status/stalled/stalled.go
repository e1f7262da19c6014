// Package stalled decides when a failure that keeps a ManifestWork from
// progressing is reported on the work, and names the work condition that
// reports it.
//
// Only what persists is reported: a failure is reported once it has lasted
// Threshold without a success in between, and forgotten at the first
// success. A managed cluster that restarts, or an informer that lists a
// type a moment before its CRD is served, fails for a few seconds; such a
// failure never reaches the works, so it costs no status write and does not
// flash on every work.
//
// The work condition Stalled (the kstatus convention, also read by Flux and
// Argo CD) is True while such a failure lasts, with a reason saying which,
// and absent otherwise: a healthy work does not carry it, which costs
// nothing in its status and no write.
package stalled

import (
	"sync"
	"time"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// The work condition, and its reasons.
const (
	ConditionType = workv1.WorkStalled

	// ReasonAppliedManifestWorkUnavailable: the work's AppliedManifestWork
	// on the managed cluster cannot be created or read, or is being deleted
	// and does not go; nothing of the work is applied until it is there.
	ReasonAppliedManifestWorkUnavailable = "AppliedManifestWorkUnavailable"
	// ReasonManagedClusterUnreachable: the managed cluster's API server
	// does not answer the agent.
	ReasonManagedClusterUnreachable = "ManagedClusterUnreachable"
	// ReasonResourceTypeNotWatched: the agent cannot list or watch a
	// resource type the work's manifests use, so that changes made to their
	// objects on the managed cluster are not seen (and not repaired).
	ReasonResourceTypeNotWatched = "ResourceTypeNotWatched"
)

// Threshold is how long a failure lasts before it is reported.
const Threshold = 10 * time.Second

// Persists tells whether a failure that began at since has lasted
// Threshold at now and, when not, how long until it will.
func Persists(since, now time.Time) (persisting bool, wait time.Duration) {
	left := since.Add(Threshold).Sub(now)
	if left <= 0 {
		return true, 0
	}
	return false, left
}

// Failures remembers, per key, since when it has been failing. Its methods
// take the time of the failure or success they record, so that the caller's
// clock decides. It is safe for concurrent use; the zero value is ready.
type Failures struct {
	mu    sync.Mutex
	since map[string]*failure
}

type failure struct {
	since    time.Time
	reported bool // a Verdict with First was returned
}

// Verdict is what Failed says about a failure.
type Verdict struct {
	// Persisting: the failure has lasted Threshold.
	Persisting bool
	// First is true for the first call that finds the failure persisting:
	// report it (an Event, a metric) once, not on every retry.
	First bool
	// Wait is how long until the failure persists, when it does not yet.
	Wait time.Duration
}

// Failed records that key failed at now.
func (f *Failures) Failed(key string, now time.Time) Verdict {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.since == nil {
		f.since = map[string]*failure{}
	}
	e, ok := f.since[key]
	if !ok {
		e = &failure{since: now}
		f.since[key] = e
	}
	persisting, wait := Persists(e.since, now)
	v := Verdict{Persisting: persisting, Wait: wait}
	if persisting && !e.reported {
		e.reported, v.First = true, true
	}
	return v
}

// Succeeded forgets the failure of key, if any; reported tells whether it
// had been found persisting (a Verdict with First was returned).
func (f *Failures) Succeeded(key string) (reported bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e, ok := f.since[key]
	if !ok {
		return false
	}
	delete(f.since, key)
	return e.reported
}
