package replicaset

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
)

// State is where a cluster stands in a rollout of the current template.
type State int

const (
	// ToApply: the cluster has no work with the current template yet, or its
	// agent has not reported on the work's current generation.
	ToApply State = iota
	// Progressing: the agent reports Progressing=True (or Unknown) for the
	// current generation.
	Progressing
	// Succeeded: the agent reports Progressing=False for the current generation.
	Succeeded
	// Failed: the agent reports Progressing=True and Degraded=True.
	Failed
	// TimeOut: Progressing or Failed for longer than the progressDeadline.
	TimeOut
)

func (s State) String() string {
	switch s {
	case ToApply:
		return "ToApply"
	case Progressing:
		return "Progressing"
	case Succeeded:
		return "Succeeded"
	case Failed:
		return "Failed"
	case TimeOut:
		return "TimeOut"
	}
	return strconv.Itoa(int(s))
}

// GroupKey names a decision group, as the labels of its PlacementDecisions do.
type GroupKey struct {
	Name  string
	Index int32
}

// Ref is the group as WorkOverride rules name it, in placement.
func (k GroupKey) Ref(placement string) render.GroupRef {
	return render.GroupRef{Placement: placement, Name: k.Name, Index: k.Index}
}

// Group is one decision group and its clusters.
type Group struct {
	Key      GroupKey
	Clusters []string
}

// ClusterState is one cluster's state in the rollout. Since is when the
// state began (the transition time of the condition that says it); nil
// counts as now.
type ClusterState struct {
	Cluster string
	Group   GroupKey
	State   State
	Since   *time.Time
	// Recheck is when the state is worth looking at again: the end of a
	// success's soak time or of a progressDeadline. Set by Decide.
	Recheck *time.Time
}

// Decision is what Decide returns for one placement.
type Decision struct {
	// Rollout are the clusters that get the current template now, and those
	// still holding a slot (applying, progressing, failing within the
	// deadline, or soaking after a success).
	Rollout []ClusterState
	// TimedOut are the clusters past their progressDeadline.
	TimedOut []ClusterState
	// MaxFailuresReached tells that failures stopped the rollout.
	MaxFailuresReached bool
	// RecheckAfter is how long until a soak time or a deadline ends, the
	// earliest of them; zero when nothing waits for the clock.
	RecheckAfter time.Duration
}

// ToApply are the clusters of the decision that get the current template.
func (d Decision) ToApply() []string {
	var names []string
	for _, c := range d.Rollout {
		if c.State == ToApply {
			names = append(names, c.Cluster)
		}
	}
	return names
}

// noDeadline is a progressDeadline of None.
const noDeadline = time.Duration(math.MaxInt64)

// Decide says which clusters of groups get the current template now, given
// the strategy and the states of the clusters whose works already have it.
// It follows the rollout helper of OCM v1.3 (sdk-go
// pkg/apis/cluster/v1alpha1, RolloutHandler.GetRolloutCluster):
//
//   - All: every cluster at once; failures never stop it.
//   - Progressive: the mandatory decision groups first, one group after the
//     other with no failure allowed, then the other clusters in alphabetical
//     order, maxConcurrency of them holding a slot at once, until more than
//     maxFailures have failed or timed out.
//   - ProgressivePerGroup: the mandatory groups, then the others, group by
//     group in index order; a group starts once every cluster of the groups
//     before it is done, and none starts after a group has more than
//     maxFailures failures.
//
// A success holds its slot for minSuccessTime (not with All). Progressing or
// failing longer than the progressDeadline is a time-out: it frees the slot
// and counts as a failure.
func Decide(strategy workv1alpha1.RolloutStrategy, groups []Group, states []ClusterState, now time.Time) (Decision, error) {
	sorted := slices.Clone(groups)
	slices.SortStableFunc(sorted, func(a, b Group) int { return int(a.Key.Index) - int(b.Key.Index) })
	// A cluster no group holds any longer has left: its state frees its slot.
	current := heldStates(sorted, states)

	var d Decision
	var err error
	switch strategy.Type {
	case workv1alpha1.All:
		d, err = decideAll(strategy.All, sorted, current, now)
	case workv1alpha1.Progressive:
		d, err = decideProgressive(strategy.Progressive, sorted, current, now)
	case workv1alpha1.ProgressivePerGroup:
		d, err = decidePerGroup(strategy.ProgressivePerGroup, sorted, current, now)
	default:
		return Decision{}, fmt.Errorf("unknown rollout strategy type %q", strategy.Type)
	}
	if err != nil {
		return Decision{}, err
	}
	d.RecheckAfter = recheckAfter(d.Rollout, now)
	return d, nil
}

func decideAll(all *workv1alpha1.RolloutAll, groups []Group, states []ClusterState, now time.Time) (Decision, error) {
	var cfg workv1alpha1.RolloutConfig
	if all != nil {
		cfg = all.RolloutConfig
	}
	deadline, err := parseDeadline(cfg.ProgressDeadline)
	if err != nil {
		return Decision{}, err
	}
	n := len(clustersOf(groups))
	// OCM's All ignores minSuccessTime and maxFailures.
	return perCluster(groups, n, n, 0, deadline, states, now), nil
}

func decideProgressive(p *workv1alpha1.RolloutProgressive, groups []Group, states []ClusterState, now time.Time) (Decision, error) {
	if p == nil {
		p = &workv1alpha1.RolloutProgressive{}
	}
	deadline, err := parseDeadline(p.ProgressDeadline)
	if err != nil {
		return Decision{}, err
	}
	maxFailures, err := portion(p.MaxFailures, len(clustersOf(groups)), 0)
	if err != nil {
		return Decision{}, fmt.Errorf("maxFailures: %w", err)
	}
	rest, d, busy := mandatoryFirst(groups, p.MandatoryDecisionGroups, p.MinSuccessTime.Duration, deadline, states, now)
	if busy {
		return d, nil
	}
	n := len(clustersOf(rest))
	size, err := portion(p.MaxConcurrency, n, n)
	if err != nil {
		return Decision{}, fmt.Errorf("maxConcurrency: %w", err)
	}
	return perCluster(rest, size, maxFailures, p.MinSuccessTime.Duration, deadline, states, now), nil
}

func decidePerGroup(p *workv1alpha1.RolloutProgressivePerGroup, groups []Group, states []ClusterState, now time.Time) (Decision, error) {
	if p == nil {
		p = &workv1alpha1.RolloutProgressivePerGroup{}
	}
	deadline, err := parseDeadline(p.ProgressDeadline)
	if err != nil {
		return Decision{}, err
	}
	if _, err := portion(p.MaxFailures, 0, 0); err != nil {
		return Decision{}, fmt.Errorf("maxFailures: %w", err)
	}
	rest, d, busy := mandatoryFirst(groups, p.MandatoryDecisionGroups, p.MinSuccessTime.Duration, deadline, states, now)
	if busy {
		return d, nil
	}
	return perGroup(rest, p.MaxFailures, p.MinSuccessTime.Duration, deadline, states, now), nil
}

// mandatoryFirst rolls out the mandatory groups group by group, tolerating
// no failure. While one of their clusters is still to roll out, holds a slot
// or timed out, busy is true and d says what to do; otherwise rest are the
// other groups, for the strategy to roll out.
func mandatoryFirst(groups []Group, m workv1alpha1.MandatoryDecisionGroups, soak, deadline time.Duration, states []ClusterState, now time.Time) (rest []Group, d Decision, busy bool) {
	mandatory, rest := splitMandatory(groups, m.MandatoryDecisionGroups)
	if len(mandatory) == 0 {
		return rest, Decision{}, false
	}
	d = perGroup(mandatory, intstr.FromInt32(0), soak, deadline, states, now)
	return rest, d, len(d.Rollout) > 0 || len(d.TimedOut) > 0
}

// perCluster fills up to size slots: first the clusters with a state, in
// alphabetical order, then new clusters in alphabetical order. Once more than
// maxFailures clusters have failed or timed out, no new cluster is taken.
func perCluster(groups []Group, size, maxFailures int, soak, deadline time.Duration, states []ClusterState, now time.Time) Decision {
	states = slices.Clone(states)
	slices.SortFunc(states, func(a, b ClusterState) int { return strings.Compare(a.Cluster, b.Cluster) })

	var d Decision
	known := map[string]bool{}
	failures := 0
	for _, s := range states {
		known[s.Cluster] = true
		if !d.MaxFailuresReached || s.State != ToApply {
			s = judge(s, soak, deadline, now, &d)
		}
		if s.State == Failed || s.State == TimeOut {
			failures++
			d.MaxFailuresReached = failures > maxFailures
		}
		if len(d.Rollout) >= size {
			return d
		}
	}
	if d.MaxFailuresReached {
		return d
	}
	names := clustersOf(groups)
	groupOf := groupIndex(groups)
	for _, name := range names {
		if known[name] {
			continue
		}
		d.Rollout = append(d.Rollout, ClusterState{Cluster: name, Group: groupOf[name], State: ToApply})
		if len(d.Rollout) >= size {
			return d
		}
	}
	return d
}

// perGroup judges every cluster with a state, then walks the groups in index
// order, adding their new clusters; it stops after the first group that
// leaves clusters to roll out that have not failed, or whose failures exceed
// maxFailures (a count, or a percentage of the group).
func perGroup(groups []Group, maxFailures intstr.IntOrString, soak, deadline time.Duration, states []ClusterState, now time.Time) Decision {
	var d Decision
	judged := map[string]State{}
	for _, s := range states {
		if s.State == ToApply {
			continue // taken again with its group below
		}
		s = judge(s, soak, deadline, now, &d)
		judged[s.Cluster] = s.State
	}
	total := 0
	for _, g := range groups {
		allowed, _ := portion(maxFailures, len(g.Clusters), 0)
		failures := 0
		for _, name := range clustersOf([]Group{g}) {
			if state, ok := judged[name]; ok {
				if state == Failed || state == TimeOut {
					failures++
					d.MaxFailuresReached = failures > allowed
				}
				continue
			}
			d.Rollout = append(d.Rollout, ClusterState{Cluster: name, Group: g.Key, State: ToApply})
		}
		total += failures
		if len(d.Rollout)-total > 0 || d.MaxFailuresReached {
			return d
		}
	}
	return d
}

// judge adds s to the decision where it belongs and returns it, TimeOut if
// its deadline has passed.
func judge(s ClusterState, soak, deadline time.Duration, now time.Time, d *Decision) ClusterState {
	switch s.State {
	case ToApply:
		d.Rollout = append(d.Rollout, s)
	case Succeeded:
		end := after(s.Since, soak, now)
		if now.Before(end) {
			s.Recheck = &end
			d.Rollout = append(d.Rollout, s)
		}
	case TimeOut:
	default: // Progressing, Failed
		if deadline == noDeadline {
			d.Rollout = append(d.Rollout, s)
			return s
		}
		end := after(s.Since, deadline, now)
		s.Recheck = &end
		if now.Before(end) {
			d.Rollout = append(d.Rollout, s)
		} else {
			s.State = TimeOut
			d.TimedOut = append(d.TimedOut, s)
		}
	}
	return s
}

func after(since *time.Time, d time.Duration, now time.Time) time.Time {
	if since == nil {
		return now.Add(d)
	}
	return since.Add(d)
}

func recheckAfter(rollout []ClusterState, now time.Time) time.Duration {
	var least time.Duration
	for _, s := range rollout {
		if s.Recheck == nil {
			continue
		}
		if wait := s.Recheck.Sub(now); wait > 0 && (least == 0 || wait < least) {
			least = wait
		}
	}
	return least
}

// heldStates are the states of the clusters that some group holds.
func heldStates(groups []Group, states []ClusterState) []ClusterState {
	held := map[string]bool{}
	for _, name := range clustersOf(groups) {
		held[name] = true
	}
	var current []ClusterState
	for _, s := range states {
		if held[s.Cluster] {
			current = append(current, s)
		}
	}
	return current
}

// splitMandatory separates the mandatory groups (by name, every group of that
// name; without a name, by index) from the others, both in index order.
func splitMandatory(groups []Group, mandatory []workv1alpha1.MandatoryDecisionGroup) (chosen, rest []Group) {
	isMandatory := func(k GroupKey) bool {
		for _, m := range mandatory {
			if m.GroupName != "" && m.GroupName == k.Name || m.GroupName == "" && m.GroupIndex == k.Index {
				return true
			}
		}
		return false
	}
	for _, g := range groups {
		if isMandatory(g.Key) {
			chosen = append(chosen, g)
		} else {
			rest = append(rest, g)
		}
	}
	return chosen, rest
}

// clustersOf is every cluster of the groups, once, in alphabetical order.
func clustersOf(groups []Group) []string {
	var names []string
	for _, g := range groups {
		names = append(names, g.Clusters...)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// groupIndex maps each cluster to its group; a cluster in two groups is
// taken as in the later one.
func groupIndex(groups []Group) map[string]GroupKey {
	m := map[string]GroupKey{}
	for _, g := range groups {
		for _, name := range g.Clusters {
			m[name] = g.Key
		}
	}
	return m
}

// portion reads a count or a percentage of total (rounded up). A value that
// is zero, negative or above total gives def, as in OCM.
func portion(v intstr.IntOrString, total, def int) (int, error) {
	n := def
	switch v.Type {
	case intstr.Int:
		n = v.IntValue()
	case intstr.String:
		pct, ok := strings.CutSuffix(v.StrVal, "%")
		if !ok {
			return def, fmt.Errorf("%q is neither a count nor a percentage", v.StrVal)
		}
		f, err := strconv.ParseFloat(pct, 64)
		if err != nil {
			return def, fmt.Errorf("%q is not a percentage: %w", v.StrVal, err)
		}
		n = int(math.Ceil(f / 100 * float64(total)))
	default:
		return def, fmt.Errorf("unknown type %v", v.Type)
	}
	if n <= 0 || n > total {
		n = def
	}
	return n, nil
}

// deadlinePattern is what OCM accepts before parsing a duration.
var deadlinePattern = regexp.MustCompile(`^[0-9]+[hms]`)

// parseDeadline reads a progressDeadline: empty or None is no deadline.
func parseDeadline(s string) (time.Duration, error) {
	if s == "" || s == "None" {
		return noDeadline, nil
	}
	if !deadlinePattern.MatchString(s) {
		return noDeadline, fmt.Errorf("progressDeadline %q is neither None nor a duration such as 90s, 10m or 2h", s)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return noDeadline, fmt.Errorf("progressDeadline %q: %w", s, err)
	}
	return d, nil
}
