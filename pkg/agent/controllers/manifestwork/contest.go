package manifestwork

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/apply"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// The agent repairs drift on the object's own event, not at a resync. A
// writer that keeps setting a field the manifest sets otherwise, or leaves
// out (an autoscaler on replicas, a mutating webhook, another controller),
// would meet a repair after each of its writes, and the two would write
// forever. When the same field of an object has been reverted contestReverts
// times within contestWindow, the object is contested: the agent stops
// reverting it for a backoff, says so on the manifest (InSync False, reason
// Contested, naming the field and the writer) and in one Event, and points
// to the ServerSideApply strategy with ignoreFields, which lets the writer
// have the field.
//
// Four reverts within a minute: a person who edits the same field by hand
// three times in a minute is still reverted each time, while a webhook or a
// controller that writes back within seconds is caught after four writes of
// each side, and an autoscaler (the HorizontalPodAutoscaler syncs every
// 15 s) within a minute. The backoff starts at five minutes and doubles with
// each contest of the object in a row, up to an hour: a fight that goes on
// costs four writes an hour, not one per write of the other side.
const (
	contestReverts      = 4
	contestWindow       = time.Minute
	contestBackoffFirst = 5 * time.Minute
	contestBackoffMax   = time.Hour
)

// EventDriftContested (Warning): the agent stopped reverting an object that
// another writer keeps changing.
const EventDriftContested = "DriftContested"

// InSyncReasonContested: the agent stopped reverting the object for a
// while, since another writer keeps changing it back.
const InSyncReasonContested = "Contested"

// contests remembers, per object of a work, its recent reverts and whether
// it is contested.
type contests struct {
	mu      sync.Mutex
	objects map[uint64]*contest // by object ID
}

// contest is what is known of the fight over one object.
type contest struct {
	reverts []revert // within contestWindow of the last
	// until is when the agent reverts the object again after its last
	// contest; zero before the first.
	until time.Time
	// rounds counts the contests in a row: the exponent of the backoff.
	rounds int
	// last is the time of the last revert.
	last time.Time
	// spec is the desired state that was contested: a change of the work
	// ends the contest (the user may have changed the strategy).
	spec uint64
	// field and writers are what the contest is over, and with whom.
	field   string
	writers []string
}

type revert struct {
	at    time.Time
	paths []string
}

// contested is the contest over the object while the agent does not revert
// it for the desired state spec; nil when it does.
func (c *contests) contested(object, spec uint64, now time.Time) *contest {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.objects[object]
	switch {
	case !ok:
		return nil
	case e.spec != spec:
		delete(c.objects, object) // the work changed: start afresh
		return nil
	case e.until.IsZero() || !now.Before(e.until):
		return nil
	}
	out := *e
	return &out
}

// reverted notes a revert of the object's paths for the desired state spec,
// made at now after writers changed them, and returns the contest it
// starts, nil when it starts none.
func (c *contests) reverted(object, spec uint64, paths, writers []string, now time.Time) *contest {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.objects == nil {
		c.objects = map[uint64]*contest{}
	}
	e, ok := c.objects[object]
	if !ok || e.spec != spec || now.Sub(laterOf(e.last, e.until)) > contestBackoffMax {
		// A first revert, or the first after a quiet hour: no fight yet.
		e = &contest{spec: spec}
		c.objects[object] = e
	}
	e.last = now
	e.reverts = slices.DeleteFunc(e.reverts, func(r revert) bool { return now.Sub(r.at) >= contestWindow })
	e.reverts = append(e.reverts, revert{at: now, paths: paths})
	field, count := "", 0
	for _, p := range paths {
		n := 0
		for _, r := range e.reverts {
			if slices.Contains(r.paths, p) {
				n++
			}
		}
		if n > count {
			field, count = p, n
		}
	}
	if count < contestReverts {
		return nil
	}
	backoff := min(contestBackoffFirst<<e.rounds, contestBackoffMax)
	if backoff < contestBackoffMax {
		e.rounds++
	}
	e.until, e.field, e.writers, e.reverts = now.Add(backoff), field, writers, nil
	out := *e
	return &out
}

func laterOf(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// writer names who the contest is with.
func (c *contest) writer() string {
	if len(c.writers) == 0 {
		return "another writer (the object's managedFields do not name it)"
	}
	return strings.Join(c.writers, ", ")
}

// message says what the agent stopped doing, until when, and what the user
// can do about it.
func (c *contest) message(object string) string {
	return fmt.Sprintf("Stopped reverting %s until %s: %s changed %s back after %d repairs within %s. "+
		"To leave the field to that writer, use the ServerSideApply update strategy for this manifest "+
		"(with ignoreFields for %s when the manifest sets it)",
		object, c.until.UTC().Format(time.RFC3339), c.writer(), c.field, contestReverts, contestWindow, c.field)
}

// inSync is the manifest's InSync condition while the object is contested.
func (c *contest) inSync(object string, generation int64) metav1.Condition {
	return metav1.Condition{
		Type: ConditionInSync, Status: metav1.ConditionFalse, ObservedGeneration: generation,
		Reason: InSyncReasonContested, Message: workv1.Shorten(c.message(object), maxInSyncMessage, "..."),
	}
}

// noteRevert counts a repair of an object towards a contest and, when it
// starts one, records it as an Event and has the work looked at again when
// the agent may revert the object again.
func (c *Controller) noteRevert(ctx context.Context, work *workv1.ManifestWork, key string, mem *workMemory, p *prepared,
	spec uint64, drift *apply.Drift) *contest {
	now := c.now()
	contest := mem.contests.reverted(p.id, spec, drift.Paths(), drift.ChangedBy, now)
	if contest == nil {
		return nil
	}
	object := p.describe()
	klog.FromContext(ctx).Info("Stopped reverting an object that another writer keeps changing",
		"object", object, "field", contest.field, "writers", contest.writers, "until", contest.until)
	c.Events.Event(work, corev1.EventTypeWarning, EventDriftContested, workv1.Shorten(contest.message(object), workv1.MaxEventMessageLength, "..."))
	if c.SyncContext != nil {
		c.SyncContext.Queue().AddAfter(key, contest.until.Sub(now))
	}
	return contest
}

// describe names the manifest's object as messages do.
func (p *prepared) describe() string {
	return describe(workv1.ManifestResourceMeta{Kind: p.obj.GetKind(), Namespace: p.ref.Namespace, Name: p.ref.Name})
}
