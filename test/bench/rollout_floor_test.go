//go:build linux

package bench

import (
	"container/heap"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// rolloutTiming is one cluster's part in a rollout phase, in seconds from
// the phase's start: when the controller's update of its work appeared in
// the bench's informer, when the bench's write of the work's status for it
// returned, and the time the cluster held its slot in between (Delay, what
// the floors add up). Drawn is the delay the simulated agent waited before
// its write; Delay is more by the write itself.
type rolloutTiming struct {
	Cluster  string  `json:"cluster"`
	Appeared float64 `json:"appearedSeconds"`
	Reported float64 `json:"reportedSeconds"`
	Delay    float64 `json:"delaySeconds"`
	Drawn    float64 `json:"drawnDelaySeconds"`
}

// byAppearance sorts timings in the order the controller updated the works.
func byAppearance(timings []rolloutTiming) []rolloutTiming {
	s := slices.Clone(timings)
	slices.SortStableFunc(s, func(a, b rolloutTiming) int {
		switch {
		case a.Appeared < b.Appeared:
			return -1
		case a.Appeared > b.Appeared:
			return 1
		}
		return 0
	})
	return s
}

// batchFloor is the sum over batches of each batch's slowest cluster, the
// batches being the clusters taken slots at a time in the order the
// controller updated them. It is the least time a controller that waits for
// a whole batch before it starts the next can take.
func batchFloor(timings []rolloutTiming, slots int) float64 {
	if slots < 1 {
		slots = 1
	}
	total := 0.0
	for batch := range slices.Chunk(byAppearance(timings), slots) {
		slowest := 0.0
		for _, t := range batch {
			slowest = max(slowest, t.Delay)
		}
		total += slowest
	}
	return total
}

// slotFloor is the least time a controller can take that refills a slot the
// moment its cluster reports, never holding more than slots clusters at once,
// in the order the controller updated them: each cluster starts in the first
// slot free. With slots of at least the number of clusters (strategy All) it
// is the slowest cluster; it is never more than batchFloor.
func slotFloor(timings []rolloutTiming, slots int) float64 {
	if slots < 1 {
		slots = 1
	}
	free := &freeTimes{}
	end := 0.0
	for _, t := range byAppearance(timings) {
		start := 0.0
		if free.Len() == slots {
			start = heap.Pop(free).(float64)
		}
		heap.Push(free, start+t.Delay)
		end = max(end, start+t.Delay)
	}
	return end
}

// freeTimes is a min-heap of the times slots become free.
type freeTimes []float64

func (f freeTimes) Len() int           { return len(f) }
func (f freeTimes) Less(i, j int) bool { return f[i] < f[j] }
func (f freeTimes) Swap(i, j int)      { f[i], f[j] = f[j], f[i] }
func (f *freeTimes) Push(x any)        { *f = append(*f, x.(float64)) }
func (f *freeTimes) Pop() any {
	old := *f
	x := old[len(old)-1]
	*f = old[:len(old)-1]
	return x
}

// maxInFlight is the most clusters the controller had rolling out at once:
// their work updated and not yet reported. A report and an update at the
// same instant count the report first.
func maxInFlight(timings []rolloutTiming) int {
	type event struct {
		at   float64
		step int
	}
	events := make([]event, 0, 2*len(timings))
	for _, t := range timings {
		events = append(events, event{t.Appeared, 1}, event{t.Reported, -1})
	}
	slices.SortFunc(events, func(a, b event) int {
		if a.at != b.at {
			if a.at < b.at {
				return -1
			}
			return 1
		}
		return a.step - b.step
	})
	most, now := 0, 0
	for _, e := range events {
		now += e.step
		most = max(most, now)
	}
	return most
}

// floorSlots are the slots the floor allows: as many as the strategy lets
// roll out at once, or as the controller had at once if it took more.
func floorSlots(timings []rolloutTiming, strategySlots int) int {
	return max(strategySlots, maxInFlight(timings))
}

// simulatedDelays draws each cluster's reporting delay once, from a fixed
// seed, uniformly between least and most: the same for every controller and
// strategy of a run, and from run to run.
func simulatedDelays(clusters []string, seed uint64, least, most time.Duration) map[string]time.Duration {
	// A linear congruential generator (Knuth's MMIX constants): fixed
	// forever, unlike math/rand's sources across Go releases.
	state := seed
	out := make(map[string]time.Duration, len(clusters))
	for _, c := range clusters {
		state = state*6364136223846793005 + 1442695040888963407
		frac := float64(state>>11) / float64(1<<53)
		out[c] = least + time.Duration(frac*float64(most-least))
	}
	return out
}

func TestRolloutFloors(t *testing.T) {
	timing := func(cluster string, appeared, delay float64) rolloutTiming {
		return rolloutTiming{Cluster: cluster, Appeared: appeared, Delay: delay}
	}
	cases := []struct {
		name        string
		timings     []rolloutTiming
		slots       int
		batch, slot float64
	}{
		{name: "no cluster", slots: 3},
		{name: "All: one batch, the slowest cluster",
			timings: []rolloutTiming{timing("a", 0.1, 0.5), timing("b", 0.2, 0.9), timing("c", 0.3, 0.2)},
			slots:   3, batch: 0.9, slot: 0.9},
		{name: "two batches of two: the slowest of each, summed",
			timings: []rolloutTiming{timing("a", 0, 0.5), timing("b", 0, 1.0), timing("c", 2, 0.2), timing("d", 2, 0.4)},
			slots:   2, batch: 1.4, slot: 1.1},
		{name: "batches follow the order of appearance, not the order given",
			timings: []rolloutTiming{timing("d", 3, 0.4), timing("c", 2, 0.2), timing("b", 1, 1.0), timing("a", 0, 0.5)},
			slots:   2, batch: 1.4, slot: 1.1},
		{name: "a slot refilled as its cluster reports: the fast slot takes both later clusters",
			timings: []rolloutTiming{timing("a", 0, 0.2), timing("b", 0, 1.0), timing("c", 1, 0.3), timing("d", 2, 0.3)},
			slots:   2, batch: 1.3, slot: 1.0},
		{name: "one slot: every delay in turn",
			timings: []rolloutTiming{timing("a", 0, 0.2), timing("b", 1, 0.3), timing("c", 2, 0.5)},
			slots:   1, batch: 1.0, slot: 1.0},
		{name: "slots below one count as one",
			timings: []rolloutTiming{timing("a", 0, 0.2), timing("b", 1, 0.3)},
			slots:   0, batch: 0.5, slot: 0.5},
		{name: "a last batch smaller than the others",
			timings: []rolloutTiming{timing("a", 0, 0.6), timing("b", 0, 0.6), timing("c", 0, 0.6), timing("d", 1, 0.7)},
			slots:   3, batch: 1.3, slot: 1.3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.InDelta(t, tc.batch, batchFloor(tc.timings, tc.slots), 1e-9, "batch floor")
			assert.InDelta(t, tc.slot, slotFloor(tc.timings, tc.slots), 1e-9, "slot floor")
			assert.LessOrEqual(t, slotFloor(tc.timings, tc.slots), batchFloor(tc.timings, tc.slots)+1e-9)
		})
	}
}

func TestMaxInFlight(t *testing.T) {
	span := func(appeared, reported float64) rolloutTiming {
		return rolloutTiming{Appeared: appeared, Reported: reported, Delay: reported - appeared}
	}
	cases := []struct {
		name    string
		timings []rolloutTiming
		want    int
		slots   int // floorSlots with a strategy of 2 slots
	}{
		{name: "none", want: 0, slots: 2},
		{name: "all at once", timings: []rolloutTiming{span(0, 1), span(0.1, 0.5), span(0.2, 0.9)}, want: 3, slots: 3},
		{name: "one after the other", timings: []rolloutTiming{span(0, 1), span(1, 2), span(2, 3)}, want: 1, slots: 2},
		{name: "a sliding window of two",
			timings: []rolloutTiming{span(0, 0.5), span(0, 1), span(0.5, 0.8), span(0.8, 1.5), span(1, 1.2)}, want: 2, slots: 2},
		{name: "a controller that took more than its strategy allows",
			timings: []rolloutTiming{span(0, 0.5), span(0.1, 0.6), span(0.2, 0.7), span(0.3, 0.8)}, want: 4, slots: 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, maxInFlight(tc.timings))
			assert.Equal(t, tc.slots, floorSlots(tc.timings, 2))
		})
	}
}

func TestSimulatedDelays(t *testing.T) {
	clusters := []string{"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"}
	least, most := 200*time.Millisecond, time.Second
	a := simulatedDelays(clusters, 27, least, most)
	assert.Equal(t, a, simulatedDelays(clusters, 27, least, most), "the same seed draws the same delays")
	assert.NotEqual(t, a, simulatedDelays(clusters, 28, least, most), "another seed draws others")
	distinct := map[time.Duration]bool{}
	for _, c := range clusters {
		assert.GreaterOrEqual(t, a[c], least, c)
		assert.Less(t, a[c], most, c)
		distinct[a[c]] = true
	}
	assert.Greater(t, len(distinct), len(clusters)/2, "spread, not one value")
}
