// A ManifestWork's status is kept small enough to be written: the API
// server refuses an object over about 1.5 MiB, spec and status together, and
// a work whose status cannot be written any more can report nothing at all.
//
// Fit cuts a status that is too large in a fixed order, largest first in
// each step, until it fits:
//  1. JsonRaw status feedback values,
//  2. the other status feedback values,
//  3. long condition messages, shortened.
//
// The resourceMeta of every manifest and the Applied, Available and Healthy
// conditions are never cut. A cut feedback value stays in place as a stub:
// its name and type, without a value. A shortened message ends with
// TrimmedMarker. Both are recognizable in the status itself, so that the
// StatusTrimmed condition Fit sets is a function of the status it returns:
// a controller writing back the trimmed status it read (to change another
// part) keeps the condition as it is, and every controller trims the same
// status the same way. Fit of a status that fits returns it unchanged, apart
// from the condition.

package workwriter

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// The work condition telling that the status was trimmed.
const (
	TrimmedConditionType = "StatusTrimmed"
	// ReasonTooLarge is the reason of StatusTrimmed=True.
	ReasonTooLarge = "StatusTooLarge"
	// ReasonFits is the reason of StatusTrimmed=False, once nothing needs
	// to be cut any more.
	ReasonFits = "StatusFits"
)

// DefaultMaxSize is the default of --max-status-size: 1 MiB less the
// largest manifests the hub's webhook admits by default (--manifest-limit,
// 500 KiB). Spec and status then take at most 1 MiB, leaving half a MiB of
// the API server's 1.5 MiB for metadata (labels, annotations, managed
// fields) and the rest of the spec (manifestConfigs, deleteOption).
const DefaultMaxSize = 1024*1024 - 500*1024

// ShortMessageLength is the length, in bytes, of a shortened condition
// message, marker included; shorter messages are never cut.
const ShortMessageLength = 256

// TrimmedMarker ends a shortened condition message.
const TrimmedMarker = " …[trimmed: status too large]"

// Fit returns the status, trimmed to at most limit bytes of JSON when it is
// larger, with the StatusTrimmed condition of the work (at generation)
// set, or cleared when it was there. previous is the StatusTrimmed
// condition of the stored status, used when status has none, so that its
// transition time is kept. limit <= 0 means DefaultMaxSize.
func Fit(status workv1.ManifestWorkStatus, previous *metav1.Condition, generation int64, limit int) workv1.ManifestWorkStatus {
	if limit <= 0 {
		limit = DefaultMaxSize
	}
	out := *status.DeepCopy()
	at := slices.IndexFunc(out.Conditions, func(c metav1.Condition) bool { return c.Type == TrimmedConditionType })
	if at >= 0 {
		previous = out.Conditions[at].DeepCopy()
		out.Conditions = slices.Delete(out.Conditions, at, at+1)
	}

	// The size of the status with the condition, over-estimated by the
	// conditions' key when it has none, so that a status that fits by the
	// estimate fits.
	size := jsonSize(out)
	estimate := func(c cuts) int {
		return size + jsonSize(c.condition(limit, false, generation)) + len(`,"conditions":[]`)
	}
	c := countCuts(out)
	if estimate(c) > limit { // only a status too large pays for the candidates
		for _, cut := range candidates(&out) {
			if estimate(c) <= limit {
				break
			}
			size -= cut.apply()
			c.add(cut.kind)
		}
	}
	over := estimate(c) > limit
	var cond metav1.Condition
	switch {
	case c.total() > 0 || over:
		cond = c.condition(limit, over, generation)
	case previous == nil:
		return out
	default:
		cond = metav1.Condition{Type: TrimmedConditionType, Status: metav1.ConditionFalse, Reason: ReasonFits,
			Message: "The status fits in the size limit (--max-status-size); nothing is trimmed.", ObservedGeneration: generation}
	}
	cond.LastTransitionTime = metav1.Now().Rfc3339Copy()
	if previous != nil && previous.Status == cond.Status {
		cond.LastTransitionTime = previous.LastTransitionTime
	}
	if at >= 0 {
		out.Conditions = slices.Insert(out.Conditions, at, cond)
	} else {
		out.Conditions = append(out.Conditions, cond)
	}
	return out
}

// kind is what a cut takes away.
type kind int

const (
	jsonRawValue kind = iota
	otherValue
	message
)

// cuts counts, by kind, what the status has lost.
type cuts [3]int

func (c *cuts) add(k kind) { c[k]++ }

func (c cuts) total() int { return c[jsonRawValue] + c[otherValue] + c[message] }

// condition is StatusTrimmed=True naming what was cut; over tells that the
// status is still larger than the limit. Its transition time is a
// placeholder of the length of any.
func (c cuts) condition(limit int, over bool, generation int64) metav1.Condition {
	msg := fmt.Sprintf("The status was trimmed to fit in %d bytes (--max-status-size): %d JsonRaw feedback values and "+
		"%d other feedback values removed, %d condition messages shortened.",
		limit, c[jsonRawValue], c[otherValue], c[message])
	if over {
		msg += " It is still larger: resourceMeta and the Applied, Available and Healthy conditions are never cut."
	}
	return metav1.Condition{Type: TrimmedConditionType, Status: metav1.ConditionTrue, Reason: ReasonTooLarge, Message: msg,
		ObservedGeneration: generation, LastTransitionTime: metav1.Unix(0, 0).Rfc3339Copy()} // as long as any time
}

// countCuts counts the stubs and shortened messages the status has already.
func countCuts(s workv1.ManifestWorkStatus) cuts {
	var c cuts
	countMessages := func(conds []metav1.Condition) {
		for _, cond := range conds {
			if strings.HasSuffix(cond.Message, TrimmedMarker) {
				c.add(message)
			}
		}
	}
	countMessages(s.Conditions)
	for _, m := range s.ResourceStatus.Manifests {
		for _, v := range m.StatusFeedbacks.Values {
			if isStub(v.Value) {
				c.add(valueKind(v.Value))
			}
		}
		countMessages(m.Conditions)
	}
	return c
}

// cut is one thing that can be taken away; apply takes it away and returns
// the bytes saved.
type cut struct {
	kind  kind
	size  int
	apply func() int
}

// candidates are the cuts, in the order they are made: by kind, then
// largest first, then in the order of the status.
func candidates(s *workv1.ManifestWorkStatus) []cut {
	var all []cut
	messages := func(conds []metav1.Condition) {
		for i := range conds {
			cond := &conds[i]
			if protected[cond.Type] || len(cond.Message) <= ShortMessageLength {
				continue
			}
			all = append(all, cut{kind: message, size: len(cond.Message), apply: func() int {
				before := jsonSize(cond.Message)
				cond.Message = workv1.Shorten(cond.Message, ShortMessageLength, TrimmedMarker)
				return before - jsonSize(cond.Message)
			}})
		}
	}
	for i := range s.ResourceStatus.Manifests {
		m := &s.ResourceStatus.Manifests[i]
		for j := range m.StatusFeedbacks.Values {
			v := &m.StatusFeedbacks.Values[j].Value
			if isStub(*v) {
				continue
			}
			all = append(all, cut{kind: valueKind(*v), size: jsonSize(*v), apply: func() int {
				before := jsonSize(*v)
				*v = workv1.FieldValue{Type: v.Type}
				return before - jsonSize(*v)
			}})
		}
	}
	messages(s.Conditions)
	for i := range s.ResourceStatus.Manifests {
		messages(s.ResourceStatus.Manifests[i].Conditions)
	}
	slices.SortStableFunc(all, func(a, b cut) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(b.size, a.size))
	})
	return all
}

// protected are the condition types whose messages are never cut.
var protected = map[string]bool{
	workv1.WorkApplied: true, workv1.WorkAvailable: true, workv1.WorkHealthy: true, TrimmedConditionType: true,
}

func valueKind(v workv1.FieldValue) kind {
	if v.Type == workv1.JsonRaw {
		return jsonRawValue
	}
	return otherValue
}

// isStub tells a feedback value that was cut: it has a type and no value.
func isStub(v workv1.FieldValue) bool {
	return v.Integer == nil && v.String == nil && v.Boolean == nil && v.JsonRaw == nil
}

func jsonSize(v any) int {
	data, err := json.Marshal(v)
	if err != nil { // a status always marshals
		return 0
	}
	return len(data)
}
