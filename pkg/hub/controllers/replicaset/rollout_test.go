package replicaset

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
)

var now = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func group(index int32, name string, clusters ...string) Group {
	return Group{Key: GroupKey{Name: name, Index: index}, Clusters: clusters}
}

// st is a cluster in state s that began ago before now.
func st(cluster string, s State, ago time.Duration) ClusterState {
	t := now.Add(-ago)
	return ClusterState{Cluster: cluster, State: s, Since: &t}
}

func all(cfg workv1alpha1.RolloutConfig) workv1alpha1.RolloutStrategy {
	return workv1alpha1.RolloutStrategy{Type: workv1alpha1.All, All: &workv1alpha1.RolloutAll{RolloutConfig: cfg}}
}

func progressive(maxConcurrency intstr.IntOrString, cfg workv1alpha1.RolloutConfig, mandatory ...workv1alpha1.MandatoryDecisionGroup) workv1alpha1.RolloutStrategy {
	return workv1alpha1.RolloutStrategy{Type: workv1alpha1.Progressive, Progressive: &workv1alpha1.RolloutProgressive{
		RolloutConfig: cfg, MaxConcurrency: maxConcurrency,
		MandatoryDecisionGroups: workv1alpha1.MandatoryDecisionGroups{MandatoryDecisionGroups: mandatory},
	}}
}

func perGroupStrategy(cfg workv1alpha1.RolloutConfig, mandatory ...workv1alpha1.MandatoryDecisionGroup) workv1alpha1.RolloutStrategy {
	return workv1alpha1.RolloutStrategy{Type: workv1alpha1.ProgressivePerGroup, ProgressivePerGroup: &workv1alpha1.RolloutProgressivePerGroup{
		RolloutConfig:           cfg,
		MandatoryDecisionGroups: workv1alpha1.MandatoryDecisionGroups{MandatoryDecisionGroups: mandatory},
	}}
}

func deadline(d string) workv1alpha1.RolloutConfig {
	return workv1alpha1.RolloutConfig{ProgressDeadline: d}
}

func soak(d time.Duration) workv1alpha1.RolloutConfig {
	return workv1alpha1.RolloutConfig{MinSuccessTime: metav1.Duration{Duration: d}}
}

func failures(v intstr.IntOrString) workv1alpha1.RolloutConfig {
	return workv1alpha1.RolloutConfig{MaxFailures: v}
}

var (
	one  = intstr.FromInt32(1)
	none = workv1alpha1.RolloutConfig{}
	abc  = []Group{group(0, "", "a", "b", "c")}
)

// decided is a Decision reduced to names: apply are the clusters that get
// the template now, holding those keeping a slot in another state.
type decided struct {
	apply, holding, timedOut []string
	stopped                  bool
	recheck                  time.Duration
}

func decidedOf(d Decision) decided {
	o := decided{stopped: d.MaxFailuresReached, recheck: d.RecheckAfter, apply: d.ToApply()}
	for _, c := range d.Rollout {
		if c.State != ToApply {
			o.holding = append(o.holding, c.Cluster+"="+c.State.String())
		}
	}
	for _, c := range d.TimedOut {
		o.timedOut = append(o.timedOut, c.Cluster)
	}
	return o
}

func TestDecide(t *testing.T) {
	canaryThenRest := []Group{group(0, "canary", "z"), group(1, "rest", "a", "b")}
	twoGroups := []Group{group(0, "first", "a", "b"), group(1, "second", "c")}
	cases := []struct {
		name     string
		strategy workv1alpha1.RolloutStrategy
		groups   []Group
		states   []ClusterState
		want     decided
	}{
		// All
		{name: "all: every new cluster at once", strategy: all(none), groups: abc,
			want: decided{apply: []string{"a", "b", "c"}}},
		{name: "all: a failure never stops it", strategy: all(failures(intstr.FromInt32(0))), groups: abc,
			states: []ClusterState{st("a", Failed, time.Minute)},
			want:   decided{apply: []string{"b", "c"}, holding: []string{"a=Failed"}}},
		{name: "all: progressing past the deadline times out", strategy: all(deadline("10m")), groups: abc,
			states: []ClusterState{st("a", Progressing, 11*time.Minute), st("b", Progressing, 4*time.Minute)},
			want:   decided{apply: []string{"c"}, holding: []string{"b=Progressing"}, timedOut: []string{"a"}, recheck: 6 * time.Minute}},
		{name: "all: minSuccessTime is not used", strategy: all(soak(time.Hour)), groups: abc,
			states: []ClusterState{st("a", Succeeded, time.Second)},
			want:   decided{apply: []string{"b", "c"}}},
		{name: "all: without settings", strategy: workv1alpha1.RolloutStrategy{Type: workv1alpha1.All}, groups: abc,
			want: decided{apply: []string{"a", "b", "c"}}},

		// Progressive
		{name: "progressive 1: the first cluster in alphabetical order", strategy: progressive(one, none),
			groups: []Group{group(0, "", "c", "a", "b")},
			want:   decided{apply: []string{"a"}}},
		{name: "progressive 1: a progressing cluster holds the slot", strategy: progressive(one, none), groups: abc,
			states: []ClusterState{st("a", Progressing, time.Minute)},
			want:   decided{holding: []string{"a=Progressing"}}},
		{name: "progressive 1: a work not reported on yet holds the slot", strategy: progressive(one, none), groups: abc,
			states: []ClusterState{{Cluster: "a", State: ToApply}},
			want:   decided{apply: []string{"a"}}},
		{name: "progressive 1: a success frees the slot", strategy: progressive(one, none), groups: abc,
			states: []ClusterState{st("a", Succeeded, time.Minute)},
			want:   decided{apply: []string{"b"}}},
		{name: "progressive 1: a success soaks for minSuccessTime", strategy: progressive(one, soak(5*time.Minute)), groups: abc,
			states: []ClusterState{st("a", Succeeded, time.Minute)},
			want:   decided{holding: []string{"a=Succeeded"}, recheck: 4 * time.Minute}},
		{name: "progressive 1: after the soak the next cluster", strategy: progressive(one, soak(5*time.Minute)), groups: abc,
			states: []ClusterState{st("a", Succeeded, 5*time.Minute)},
			want:   decided{apply: []string{"b"}}},
		{name: "progressive: a failure beyond maxFailures 0 stops", strategy: progressive(intstr.FromInt32(3), none), groups: abc,
			states: []ClusterState{st("a", Failed, time.Minute)},
			want:   decided{holding: []string{"a=Failed"}, stopped: true}},
		{name: "progressive: once stopped, works not reported on are left as they are", strategy: progressive(intstr.FromInt32(3), none), groups: abc,
			states: []ClusterState{st("a", Failed, time.Minute), {Cluster: "b", State: ToApply}},
			want:   decided{holding: []string{"a=Failed"}, stopped: true}},
		{name: "progressive: a failing cluster holds its slot until its deadline", strategy: progressive(one, failures(one)), groups: abc,
			states: []ClusterState{st("a", Failed, time.Minute)},
			want:   decided{holding: []string{"a=Failed"}}},
		{name: "progressive: a time-out within maxFailures frees the slot", strategy: progressive(one, workv1alpha1.RolloutConfig{MaxFailures: one, ProgressDeadline: "5m"}), groups: abc,
			states: []ClusterState{st("a", Failed, 6*time.Minute)},
			want:   decided{apply: []string{"b"}, timedOut: []string{"a"}}},
		{name: "progressive: a time-out beyond maxFailures stops", strategy: progressive(one, deadline("5m")), groups: abc,
			states: []ClusterState{st("a", Progressing, 5*time.Minute)},
			want:   decided{timedOut: []string{"a"}, stopped: true}},
		{name: "progressive: the deadline of a progressing cluster is rechecked", strategy: progressive(one, deadline("5m")), groups: abc,
			states: []ClusterState{st("a", Progressing, 2*time.Minute)},
			want:   decided{holding: []string{"a=Progressing"}, recheck: 3 * time.Minute}},
		{name: "progressive: the earliest recheck wins", strategy: progressive(intstr.FromInt32(2), workv1alpha1.RolloutConfig{ProgressDeadline: "5m", MinSuccessTime: metav1.Duration{Duration: 2 * time.Minute}}), groups: abc,
			states: []ClusterState{st("a", Progressing, 2*time.Minute), st("b", Succeeded, time.Minute)},
			want:   decided{holding: []string{"a=Progressing", "b=Succeeded"}, recheck: time.Minute}},
		{name: "progressive: maxFailures as a percentage, rounded up", strategy: progressive(intstr.FromInt32(3), failures(intstr.FromString("34%"))), groups: abc,
			states: []ClusterState{st("a", Failed, time.Minute), st("b", Failed, time.Minute)},
			want:   decided{apply: []string{"c"}, holding: []string{"a=Failed", "b=Failed"}}},
		{name: "progressive: maxFailures above the number of clusters counts as 0, as in OCM", strategy: progressive(intstr.FromInt32(3), failures(intstr.FromInt32(5))), groups: abc,
			states: []ClusterState{st("a", Failed, time.Minute)},
			want:   decided{holding: []string{"a=Failed"}, stopped: true}},
		{name: "progressive: maxConcurrency as a percentage, rounded up", strategy: progressive(intstr.FromString("50%"), none), groups: abc,
			want: decided{apply: []string{"a", "b"}}},
		{name: "progressive: maxConcurrency above the number of clusters is all of them", strategy: progressive(intstr.FromInt32(5), none), groups: abc,
			want: decided{apply: []string{"a", "b", "c"}}},
		{name: "progressive: without maxConcurrency, all of them", strategy: progressive(intstr.IntOrString{}, none), groups: abc,
			want: decided{apply: []string{"a", "b", "c"}}},
		{name: "progressive: without settings, all of them", strategy: workv1alpha1.RolloutStrategy{Type: workv1alpha1.Progressive}, groups: abc,
			want: decided{apply: []string{"a", "b", "c"}}},
		{name: "progressive: clusters across groups in alphabetical order", strategy: progressive(intstr.FromInt32(2), none),
			groups: []Group{group(0, "", "d", "b"), group(1, "", "c", "a")},
			want:   decided{apply: []string{"a", "b"}}},
		{name: "progressive: the mandatory group first, whatever the order of names", strategy: progressive(one, none, workv1alpha1.MandatoryDecisionGroup{GroupName: "canary"}),
			groups: canaryThenRest,
			want:   decided{apply: []string{"z"}}},
		{name: "progressive: the mandatory group, chosen by index", strategy: progressive(one, none, workv1alpha1.MandatoryDecisionGroup{GroupIndex: 1}),
			groups: canaryThenRest,
			want:   decided{apply: []string{"a", "b"}}},
		{name: "progressive: the mandatory group rolls out whole, beyond maxConcurrency", strategy: progressive(one, none, workv1alpha1.MandatoryDecisionGroup{GroupName: "rest"}),
			groups: canaryThenRest,
			states: []ClusterState{st("a", Succeeded, time.Minute)},
			want:   decided{apply: []string{"b"}}},
		{name: "progressive: the others wait while the mandatory group progresses", strategy: progressive(one, none, workv1alpha1.MandatoryDecisionGroup{GroupName: "canary"}),
			groups: canaryThenRest,
			states: []ClusterState{st("z", Progressing, time.Minute)},
			want:   decided{holding: []string{"z=Progressing"}}},
		{name: "progressive: the others follow the mandatory group's success", strategy: progressive(one, none, workv1alpha1.MandatoryDecisionGroup{GroupName: "canary"}),
			groups: canaryThenRest,
			states: []ClusterState{st("z", Succeeded, time.Minute)},
			want:   decided{apply: []string{"a"}}},
		{name: "progressive: a mandatory group tolerates no failure, whatever maxFailures", strategy: progressive(one, failures(intstr.FromInt32(2)), workv1alpha1.MandatoryDecisionGroup{GroupName: "canary"}),
			groups: canaryThenRest,
			states: []ClusterState{st("z", Failed, time.Minute)},
			want:   decided{holding: []string{"z=Failed"}, stopped: true}},
		{name: "progressive: a mandatory group that timed out holds the others", strategy: progressive(one, workv1alpha1.RolloutConfig{ProgressDeadline: "1m", MaxFailures: intstr.FromInt32(2)}, workv1alpha1.MandatoryDecisionGroup{GroupName: "canary"}),
			groups: canaryThenRest,
			states: []ClusterState{st("z", Progressing, 2*time.Minute)},
			want:   decided{timedOut: []string{"z"}, stopped: true}},
		{name: "progressive: a mandatory group that is not there is skipped", strategy: progressive(one, none, workv1alpha1.MandatoryDecisionGroup{GroupName: "gone"}),
			groups: canaryThenRest,
			want:   decided{apply: []string{"a"}}},
		{name: "template change: clusters with the old template are new again, one at a time", strategy: progressive(one, none), groups: abc,
			states: []ClusterState{st("b", Succeeded, time.Minute)},
			want:   decided{apply: []string{"a"}}},
		{name: "a cluster joining gets the template", strategy: progressive(one, none), groups: []Group{group(0, "", "a", "b", "d")},
			states: []ClusterState{st("a", Succeeded, time.Minute), st("b", Succeeded, time.Minute)},
			want:   decided{apply: []string{"d"}}},
		{name: "a cluster leaving is removed and frees its slot", strategy: progressive(one, none), groups: []Group{group(0, "", "a", "b")},
			states: []ClusterState{st("x", Progressing, time.Minute)},
			want:   decided{apply: []string{"a"}}},
		{name: "a cluster leaving with every group gone", strategy: progressive(one, none),
			states: []ClusterState{st("a", Succeeded, time.Minute)},
			want:   decided{}},

		// ProgressivePerGroup
		{name: "per group: the whole first group", strategy: perGroupStrategy(none), groups: twoGroups,
			want: decided{apply: []string{"a", "b"}}},
		{name: "per group: groups go in index order", strategy: perGroupStrategy(none),
			groups: []Group{group(1, "", "a"), group(0, "", "c")},
			want:   decided{apply: []string{"c"}}},
		{name: "per group: the next group waits for every cluster of the first", strategy: perGroupStrategy(none), groups: twoGroups,
			states: []ClusterState{st("a", Succeeded, time.Minute), st("b", Progressing, time.Minute)},
			want:   decided{holding: []string{"b=Progressing"}}},
		{name: "per group: the next group once the first is done", strategy: perGroupStrategy(none), groups: twoGroups,
			states: []ClusterState{st("a", Succeeded, time.Minute), st("b", Succeeded, time.Minute)},
			want:   decided{apply: []string{"c"}}},
		{name: "per group: the next group waits for the soak", strategy: perGroupStrategy(soak(time.Hour)), groups: twoGroups,
			states: []ClusterState{st("a", Succeeded, time.Minute), st("b", Succeeded, 2*time.Minute)},
			want:   decided{holding: []string{"a=Succeeded", "b=Succeeded"}, recheck: 58 * time.Minute}},
		{name: "per group: a failure beyond maxFailures stops", strategy: perGroupStrategy(none), groups: twoGroups,
			states: []ClusterState{st("a", Failed, time.Minute), st("b", Succeeded, time.Minute)},
			want:   decided{holding: []string{"a=Failed"}, stopped: true}},
		{name: "per group: failures within maxFailures let the next group start", strategy: perGroupStrategy(failures(one)), groups: twoGroups,
			states: []ClusterState{st("a", Failed, time.Minute), st("b", Succeeded, time.Minute)},
			want:   decided{apply: []string{"c"}, holding: []string{"a=Failed"}}},
		{name: "per group: maxFailures as a percentage of the group", strategy: perGroupStrategy(failures(intstr.FromString("50%"))), groups: twoGroups,
			states: []ClusterState{st("a", Failed, time.Minute), st("b", Failed, time.Minute)},
			want:   decided{holding: []string{"a=Failed", "b=Failed"}, stopped: true}},
		{name: "per group: a time-out counts as a failure", strategy: perGroupStrategy(deadline("1m")), groups: twoGroups,
			states: []ClusterState{st("a", Progressing, 2*time.Minute), st("b", Succeeded, time.Minute)},
			want:   decided{timedOut: []string{"a"}, stopped: true}},
		{name: "per group: a work not reported on yet is applied again with its group", strategy: perGroupStrategy(none), groups: twoGroups,
			states: []ClusterState{{Cluster: "a", State: ToApply}, st("b", Succeeded, time.Minute)},
			want:   decided{apply: []string{"a"}}},
		{name: "per group: mandatory groups first", strategy: perGroupStrategy(none, workv1alpha1.MandatoryDecisionGroup{GroupName: "second"}), groups: twoGroups,
			want: decided{apply: []string{"c"}}},
		{name: "per group: a failing mandatory group stops the rest, whatever maxFailures", strategy: perGroupStrategy(failures(intstr.FromString("100%")), workv1alpha1.MandatoryDecisionGroup{GroupName: "second"}), groups: twoGroups,
			states: []ClusterState{st("c", Failed, time.Minute)},
			want:   decided{holding: []string{"c=Failed"}, stopped: true}},
		{name: "per group: a cluster joining an earlier group goes first", strategy: perGroupStrategy(none),
			groups: []Group{group(0, "", "a", "d"), group(1, "", "c")},
			states: []ClusterState{st("a", Succeeded, time.Minute)},
			want:   decided{apply: []string{"d"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Decide(tc.strategy, tc.groups, tc.states, now)
			require.NoError(t, err)
			assert.Equal(t, tc.want, decidedOf(d))
		})
	}
}

func TestDecideRefusesInvalidSettings(t *testing.T) {
	cases := map[string]workv1alpha1.RolloutStrategy{
		"unknown type":                      {Type: "Sometimes"},
		"deadline not a duration":           all(deadline("soon")),
		"deadline with a bad unit":          progressive(one, deadline("5x")),
		"maxConcurrency not a percentage":   progressive(intstr.FromString("half"), none),
		"maxFailures not a percentage":      progressive(one, failures(intstr.FromString("1"))),
		"per group: maxFailures not parsed": perGroupStrategy(failures(intstr.FromString("x%"))),
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Decide(s, abc, nil, now)
			assert.Error(t, err)
		})
	}
}

func TestDecideAcceptsDeadlines(t *testing.T) {
	for _, d := range []string{"", "None", "90s", "10m", "2h", "1h30m"} {
		_, err := Decide(all(deadline(d)), abc, nil, now)
		assert.NoError(t, err, d)
	}
}
