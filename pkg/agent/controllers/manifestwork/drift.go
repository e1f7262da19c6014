package manifestwork

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/apply"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// EventDriftRepaired (Warning): the agent wrote back an object whose fields
// set by the work someone on the managed cluster had changed.
const EventDriftRepaired = "DriftRepaired"

// driftWindow is how long repeated drift of one object makes one Event.
const driftWindow = time.Minute

// driftRepaired counts a repair, logs it, and records it as an Event on the
// work. The first repair of an object opens a window of driftWindow in
// which every repair of it records the same message again, which the
// recorder's correlator turns into a count on one Event: an object that two
// writers fight over yields one Event with a growing count, not a storm.
func (c *Controller) driftRepaired(ctx context.Context, work *workv1.ManifestWork, mem *workMemory, p *prepared, drift *apply.Drift) {
	kind := p.obj.GroupVersionKind().GroupKind()
	metrics.DriftRepairs.WithLabelValues(kind.String()).Inc()
	by := "an unknown field manager"
	if len(drift.ChangedBy) > 0 {
		by = strings.Join(drift.ChangedBy, ", ")
	}
	object := p.describe()
	klog.FromContext(ctx).V(2).Info("Repaired drift", "object", object, "changedBy", drift.ChangedBy, "fields", drift.Paths())
	message := workv1.Shorten(fmt.Sprintf("Repaired %s, changed by %s: %s", object, by,
		drift.Describe("%[1]s: found %[3]s, restored %[2]s")), workv1.MaxEventMessageLength, "...")
	c.Events.Event(work, corev1.EventTypeWarning, EventDriftRepaired, mem.drift.message(p.id, message, c.now()))
}

// driftEvents remembers, per object of a work, the message of the window
// opened by its last Event.
type driftEvents struct {
	mu      sync.Mutex
	windows map[uint64]driftEntry // by object ID
}

type driftEntry struct {
	opened  time.Time
	message string
}

// maxDriftWindows bounds the memory of a work's driftEvents; closed windows
// are dropped when it is reached.
const maxDriftWindows = 4096

// message returns the message to record for a repair: the one of the open
// window of the object, or fresh, which opens a new window.
func (d *driftEvents) message(object uint64, fresh string, now time.Time) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e, ok := d.windows[object]; ok && now.Sub(e.opened) < driftWindow {
		return e.message
	}
	if d.windows == nil {
		d.windows = map[uint64]driftEntry{}
	}
	if len(d.windows) >= maxDriftWindows {
		for k, e := range d.windows {
			if now.Sub(e.opened) >= driftWindow {
				delete(d.windows, k)
			}
		}
	}
	d.windows[object] = driftEntry{opened: now, message: fresh}
	return fresh
}
