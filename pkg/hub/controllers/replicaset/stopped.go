package replicaset

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// ConditionRolloutStopped is True while failures beyond maxFailures (a
// work's Degraded, or a progressDeadline passed) keep a rollout from
// reaching the clusters still waiting, and absent otherwise. Its message
// names the failed clusters, then says for each what its agent reports.
//
// It is a condition of its own, not a reason of PlacementRolledOut: OCM's
// clients know that one's reasons as Progressing and Complete only.
const ConditionRolloutStopped = "RolloutStopped"

// Reasons of RolloutStopped, and of its Event.
const (
	// ReasonMaxFailuresReached: more clusters failed than maxFailures allows.
	ReasonMaxFailuresReached = "MaxFailuresReached"
	// ReasonProgressDeadlineExceeded: as MaxFailuresReached, and some of the
	// failed clusters did not finish within the progressDeadline.
	ReasonProgressDeadlineExceeded = "ProgressDeadlineExceeded"
	// EventRolloutStopped is the reason of the Warning Event sent when the
	// set of failed clusters of a stopped rollout changes.
	EventRolloutStopped = "RolloutStopped"
)

// Bounds of what a stopped rollout says: the condition's message, and the
// Event's (an Event is read in a list, and the API bounds it too).
const (
	maxStoppedMessage = 4096
	maxEventMessage   = 1024
	maxDetail         = 512 // one failed cluster's part
)

// failure is a failed cluster of a stopped placement.
type failure struct {
	cluster  string
	timedOut bool   // past the progressDeadline
	detail   string // what its work's status says
}

// stopped is a placement whose rollout failures stopped.
type stopped struct {
	placement string
	failures  []failure
}

// stops are the placements of d whose rollout failures stopped.
func (d deployment) stops() []stopped {
	var out []stopped
	for _, p := range d.placements {
		if len(p.failures) > 0 {
			out = append(out, stopped{placement: p.name, failures: p.failures})
		}
	}
	return out
}

// failuresOf are the clusters of the decision that failed or timed out,
// sorted, each with what its work reports.
func failuresOf(states []ClusterState, decision Decision, works map[string]*workv1.ManifestWork) []failure {
	timedOut := map[string]bool{}
	for _, s := range decision.TimedOut {
		timedOut[s.Cluster] = true
	}
	var names []string
	for _, s := range states {
		if s.State == Failed || timedOut[s.Cluster] {
			names = append(names, s.Cluster)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	out := make([]failure, 0, len(names))
	for _, name := range names {
		out = append(out, failure{cluster: name, timedOut: timedOut[name], detail: failureDetail(works[name], timedOut[name])})
	}
	return out
}

// failureDetail is what a failed work's status says: the work's Degraded
// (or, past the deadline without it, Progressing) and Stalled conditions,
// and the manifests whose health is Degraded or that fail to apply.
func failureDetail(w *workv1.ManifestWork, timedOut bool) string {
	if w == nil {
		return "no work"
	}
	var parts []string
	conds := w.Status.Conditions
	if c := apimeta.FindStatusCondition(conds, workv1.WorkDegraded); c != nil && c.Status == metav1.ConditionTrue {
		parts = append(parts, conditionText(c))
	} else if c := apimeta.FindStatusCondition(conds, workv1.WorkProgressing); timedOut && c != nil {
		parts = append(parts, "past the progressDeadline, "+conditionText(c))
	}
	if c := apimeta.FindStatusCondition(conds, workv1.WorkStalled); c != nil && c.Status == metav1.ConditionTrue {
		parts = append(parts, conditionText(c))
	}
	var manifests []string
	for _, mc := range w.Status.ResourceStatus.Manifests {
		ref := manifestRef(mc.ResourceMeta)
		if c := apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestHealthy); c != nil &&
			c.Status == metav1.ConditionFalse && c.Reason == workv1.HealthyReasonDegraded {
			manifests = append(manifests, ref+" is Degraded ("+c.Message+")")
		}
		if c := apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestApplied); c != nil && c.Status == metav1.ConditionFalse {
			manifests = append(manifests, ref+" fails to apply ("+c.Message+")")
		}
	}
	if len(manifests) > 0 {
		parts = append(parts, "manifests: "+strings.Join(manifests, "; "))
	}
	if len(parts) == 0 {
		return "its work reports nothing more"
	}
	return shorten(strings.Join(parts, "; "), maxDetail)
}

func conditionText(c *metav1.Condition) string {
	s := c.Type + "=" + string(c.Status) + " " + c.Reason
	if c.Message != "" {
		s += ": " + c.Message
	}
	return s
}

// manifestRef is "Kind.group namespace/name" (no group for the core API,
// no namespace for a cluster-scoped object).
func manifestRef(m workv1.ManifestResourceMeta) string {
	kind := m.Kind
	if kind == "" {
		kind = m.Resource
	}
	if m.Group != "" {
		kind += "." + m.Group
	}
	return kind + " " + cache.NewObjectName(m.Namespace, m.Name).String()
}

// rolloutStopped is RolloutStopped from the stopped placements, or absent.
// head is the head of its message, which names the failed clusters ("" when
// not stopped); event is the Event to send: a message when the set of failed
// clusters differs from the one the condition named in old, else "".
func rolloutStopped(old []metav1.Condition, stops []stopped) (cond condition, head, event string) {
	if len(stops) == 0 {
		return absent(ConditionRolloutStopped), "", ""
	}
	reason := ReasonMaxFailuresReached
	var heads, details []string
	for _, s := range stops {
		var names []string
		for _, f := range s.failures {
			names = append(names, f.cluster)
			if f.timedOut {
				reason = ReasonProgressDeadlineExceeded
			}
			details = append(details, f.cluster+": "+f.detail)
		}
		heads = append(heads, fmt.Sprintf("placement %s: more clusters failed than maxFailures allows: %s",
			s.placement, named(names)))
	}
	head = "Rollout stopped on " + strings.Join(heads, "; ")
	cond = trueIf(ConditionRolloutStopped, true, reason, shorten(head+"\n"+strings.Join(details, "\n"), maxStoppedMessage))
	if c := apimeta.FindStatusCondition(old, ConditionRolloutStopped); c != nil && c.Status == metav1.ConditionTrue && firstLine(c.Message) == head {
		return cond, head, ""
	}
	return cond, head, shorten(head+". "+strings.Join(details, ". "), maxEventMessage)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// shorten cuts s to at most n bytes, marking the cut.
func shorten(s string, n int) string { return workv1.Shorten(s, n, " …") }

// announcements remembers, per replica set, the failed set its last
// RolloutStopped Event named. The status says it too, but the cache may be
// a write behind it: a sync that reads the status before the write lands
// would send the Event again.
type announcements struct {
	mu   sync.Mutex
	sent map[cache.ObjectName]string
}

// first records head for key and tells whether it is new.
func (a *announcements) first(key cache.ObjectName, head string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.sent == nil {
		a.sent = map[cache.ObjectName]string{}
	}
	if a.sent[key] == head {
		return false
	}
	a.sent[key] = head
	return true
}

func (a *announcements) forget(key cache.ObjectName) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.sent, key)
}
