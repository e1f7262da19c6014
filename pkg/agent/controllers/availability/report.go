package availability

import (
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	k8smetrics "k8s.io/component-base/metrics"

	"github.com/manifestwork/work/pkg/agent/status/health"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// Reasons of the Events recorded on a ManifestWork when the health of one of
// its manifests changes.
const (
	// EventManifestDegraded (Warning): a manifest's Healthy condition turned
	// False with reason Degraded.
	EventManifestDegraded = "ManifestDegraded"
	// EventManifestRecovered (Normal): a manifest that was Degraded is not
	// any more.
	EventManifestRecovered = "ManifestRecovered"
)

// eventInterval is the least time between two health Events of one
// manifest: a flapping object gives one Event per interval, which counts the
// changes made meanwhile, not an Event per change.
const eventInterval = time.Minute

// healthReport records the health Events and keeps the gauges of manifests
// by kind and health and of works by condition.
type healthReport struct {
	events record.EventRecorder // nil: no Events
	now    func() time.Time

	mu        sync.Mutex
	manifests gaugeShare                       // of metrics.ManifestHealth: kind, health
	works     gaugeShare                       // of metrics.ManifestWorks: condition, status
	flaps     map[string]map[string]*flapState // per work key, per manifest
}

// countedConditions are the conditions of a work that metrics.ManifestWorks
// counts.
var countedConditions = []string{workv1.WorkApplied, workv1.WorkAvailable, workv1.WorkProgressing, workv1.WorkDegraded}

type flapState struct {
	last       time.Time // of the last Event
	suppressed int       // changes since, not recorded
}

func newHealthReport(events record.EventRecorder, now func() time.Time) *healthReport {
	return &healthReport{
		events: events, now: now,
		manifests: newGaugeShare(metrics.ManifestHealth), works: newGaugeShare(metrics.ManifestWorks),
		flaps: map[string]map[string]*flapState{},
	}
}

// recordTransitions records an Event for each manifest that turned Degraded
// or recovered from the work's status to the new one.
func (r *healthReport) recordTransitions(work *workv1.ManifestWork, status workv1.ManifestWorkStatus) {
	if r.events == nil {
		return
	}
	for i, m := range status.ResourceStatus.Manifests {
		now := apimeta.FindStatusCondition(m.Conditions, workv1.ManifestHealthy)
		if now == nil || i >= len(work.Status.ResourceStatus.Manifests) || work.Status.ResourceStatus.Manifests[i].ResourceMeta != m.ResourceMeta {
			continue
		}
		was := apimeta.FindStatusCondition(work.Status.ResourceStatus.Manifests[i].Conditions, workv1.ManifestHealthy)
		wasDegraded := was != nil && health.State(*was) == workv1.HealthyReasonDegraded
		isDegraded := health.State(*now) == workv1.HealthyReasonDegraded
		if wasDegraded == isDegraded {
			continue
		}
		ref := health.RefOf(m.ResourceMeta)
		changes, ok := r.mayRecord(cache.MetaObjectToName(work).String(), ref)
		if !ok {
			continue
		}
		flapped := ""
		if changes > 0 {
			flapped = fmt.Sprintf(" (health changed %d more times since the last Event)", changes)
		}
		if isDegraded {
			r.events.Event(work, corev1.EventTypeWarning, EventManifestDegraded, workv1.Shorten(fmt.Sprintf("%s is Degraded: %s%s", ref, now.Message, flapped), workv1.MaxEventMessageLength, "..."))
		} else {
			r.events.Event(work, corev1.EventTypeNormal, EventManifestRecovered, workv1.Shorten(fmt.Sprintf("%s recovered: %s%s", ref, now.Message, flapped), workv1.MaxEventMessageLength, "..."))
		}
	}
}

// mayRecord tells whether a health Event of the work's manifest may be
// recorded now, and how many changes were not recorded since the last one.
func (r *healthReport) mayRecord(workKey, manifest string) (suppressed int, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	f := r.flaps[workKey][manifest]
	if f == nil {
		if r.flaps[workKey] == nil {
			r.flaps[workKey] = map[string]*flapState{}
		}
		r.flaps[workKey][manifest] = &flapState{last: now}
		return 0, true
	}
	if now.Sub(f.last) < eventInterval {
		f.suppressed++
		return 0, false
	}
	suppressed = f.suppressed
	f.last, f.suppressed = now, 0
	return suppressed, true
}

// count replaces what the work adds to the gauges of manifests by kind and
// health and of works by condition.
func (r *healthReport) count(key string, status workv1.ManifestWorkStatus) {
	works := map[labelPair]float64{}
	for _, t := range countedConditions {
		if c := apimeta.FindStatusCondition(status.Conditions, t); c != nil {
			works[labelPair{t, string(c.Status)}] = 1
		}
	}
	manifests := map[labelPair]float64{}
	for _, m := range status.ResourceStatus.Manifests {
		if c := apimeta.FindStatusCondition(m.Conditions, workv1.ManifestHealthy); c != nil {
			state := health.State(*c)
			if c.Reason == workv1.HealthyReasonNoHealthCheck {
				state = workv1.HealthyReasonNoHealthCheck
			}
			manifests[labelPair{health.KindOf(m.ResourceMeta), state}]++
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.manifests.set(key, manifests)
	r.works.set(key, works)
}

// forget takes a work that is gone out of the gauges and the flap states.
func (r *healthReport) forget(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.manifests.set(key, nil)
	r.works.set(key, nil)
	delete(r.flaps, key)
}

// labelPair are the values of a gauge's two labels.
type labelPair [2]string

// gaugeShare keeps what each work adds to a gauge of two labels, so that a
// change of the work, or its going, takes back what it added. It moves the
// gauge by the difference, so that several reports in one process (as in
// tests) add up and an unchanged work moves nothing. The caller locks.
type gaugeShare struct {
	gauge *k8smetrics.GaugeVec
	parts map[string]map[labelPair]float64 // per work key
}

func newGaugeShare(gauge *k8smetrics.GaugeVec) gaugeShare {
	return gaugeShare{gauge: gauge, parts: map[string]map[labelPair]float64{}}
}

// set replaces the work's part; an empty one takes the work out.
func (s gaugeShare) set(key string, next map[labelPair]float64) {
	last := s.parts[key]
	for l, n := range next {
		if d := n - last[l]; d != 0 {
			s.gauge.WithLabelValues(l[:]...).Add(d)
		}
	}
	for l, n := range last {
		if _, ok := next[l]; !ok {
			s.gauge.WithLabelValues(l[:]...).Add(-n)
		}
	}
	if len(next) == 0 {
		delete(s.parts, key)
		return
	}
	s.parts[key] = next
}
