package workwriter

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/component-base/metrics/testutil"
	"k8s.io/utils/ptr"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	fakework "github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/test/fixture"
)

func TestMain(m *testing.M) {
	metrics.Register()
	m.Run()
}

const (
	key = fixture.Cluster + "/w"
)

// stored is the work the fake hub holds when a test starts: version 5, with
// the agent's finalizer and an Applied condition.
func stored() *workv1.ManifestWork {
	w := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).Build()
	w.ResourceVersion = "5"
	w.Finalizers = []string{"example.com/first", workv1.ManifestWorkFinalizer}
	w.Status.Conditions = []metav1.Condition{condition(workv1.WorkApplied, "Applied")}
	return w
}

func condition(typ, reason string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: reason, Message: reason,
		LastTransitionTime: metav1.Unix(1000, 0).Rfc3339Copy()}
}

// newHub is a fake hub holding the work, which versions patches as an API
// server does.
func newHub(t *testing.T, work *workv1.ManifestWork) *fakework.Clientset {
	t.Helper()
	hub := fakework.NewSimpleClientset()
	require.NoError(t, hub.Tracker().Add(work))
	ct.VersionPatches(hub)
	return hub
}

// counts are a controller's counters.
type counts struct {
	status    map[string]float64 // by result
	finalizer map[string]float64 // by "action result"
}

func countsOf(t *testing.T, controller string) counts {
	t.Helper()
	c := counts{status: map[string]float64{}, finalizer: map[string]float64{}}
	for _, result := range []string{metrics.PatchSent, metrics.PatchSkipped, metrics.PatchError} {
		v, err := testutil.GetCounterMetricValue(metrics.StatusPatches.WithLabelValues(controller, result))
		require.NoError(t, err)
		if v > 0 {
			c.status[result] = v
		}
		for _, action := range []string{metrics.FinalizerAdd, metrics.FinalizerRemove} {
			v, err := testutil.GetCounterMetricValue(metrics.FinalizerPatches.WithLabelValues(controller, action, result))
			require.NoError(t, err)
			if v > 0 {
				c.finalizer[action+" "+result] = v
			}
		}
	}
	return c
}

// Every write is skipped when it changes nothing, carries the version it was
// computed from, and is counted for its controller: status writes in
// StatusPatches, finalizer edits, by action, in FinalizerPatches.
func TestWrites(t *testing.T) {
	withDeleting := func(w *workv1.ManifestWork) workv1.ManifestWorkStatus {
		s := *w.Status.DeepCopy()
		s.Conditions = append(s.Conditions, condition(workv1.WorkDeleting, "WorkDeleting"))
		return s
	}
	cases := []struct {
		name  string
		work  func(*workv1.ManifestWork) // the copy the controller works on
		write func(*Writer, context.Context, *workv1.ManifestWork) (*workv1.ManifestWork, error)

		wantWrites     []string
		wantPatch      string // JSON of the one patch sent
		wantConflict   bool
		wantVersion    string   // of the work on the hub afterwards
		wantFinalizers []string // on the hub afterwards
		wantStatus     map[string]float64
		wantFinalizer  map[string]float64
	}{{
		name: "an unchanged status sends nothing",
		write: func(w *Writer, ctx context.Context, work *workv1.ManifestWork) (*workv1.ManifestWork, error) {
			return w.Status(ctx, work, *work.Status.DeepCopy())
		},
		wantVersion: "5", wantFinalizers: []string{"example.com/first", workv1.ManifestWorkFinalizer},
		wantStatus: map[string]float64{metrics.PatchSkipped: 1},
	}, {
		name: "a changed status is one merge patch of what changed, at the version it was read",
		write: func(w *Writer, ctx context.Context, work *workv1.ManifestWork) (*workv1.ManifestWork, error) {
			return w.Status(ctx, work, withDeleting(work))
		},
		wantWrites: []string{"patch manifestworks/status " + key},
		wantPatch: `{"metadata":{"resourceVersion":"5"},"status":{"conditions":[` +
			`{"lastTransitionTime":"1970-01-01T00:16:40Z","message":"Applied","reason":"Applied","status":"True","type":"Applied"},` +
			`{"lastTransitionTime":"1970-01-01T00:16:40Z","message":"WorkDeleting","reason":"WorkDeleting","status":"True","type":"Deleting"}]}}`,
		wantVersion: "6", wantFinalizers: []string{"example.com/first", workv1.ManifestWorkFinalizer},
		wantStatus: map[string]float64{metrics.PatchSent: 1},
	}, {
		name: "a status computed from an older copy conflicts",
		work: func(w *workv1.ManifestWork) { w.ResourceVersion = "4" },
		write: func(w *Writer, ctx context.Context, work *workv1.ManifestWork) (*workv1.ManifestWork, error) {
			return w.Status(ctx, work, withDeleting(work))
		},
		wantWrites:   []string{"patch manifestworks/status " + key},
		wantConflict: true, wantVersion: "5", wantFinalizers: []string{"example.com/first", workv1.ManifestWorkFinalizer},
		wantStatus: map[string]float64{metrics.PatchError: 1},
	}, {
		name:        "a finalizer already there is not added again",
		write:       (*Writer).AddFinalizer,
		wantVersion: "5", wantFinalizers: []string{"example.com/first", workv1.ManifestWorkFinalizer},
		wantFinalizer: map[string]float64{"add skipped": 1},
	}, {
		name: "the finalizer is added after the others, at the version it was read",
		work: func(w *workv1.ManifestWork) {
			w.Finalizers = []string{"example.com/first"}
		},
		write:      (*Writer).AddFinalizer,
		wantWrites: []string{"patch manifestworks " + key},
		wantPatch:  `{"metadata":{"finalizers":["example.com/first","` + workv1.ManifestWorkFinalizer + `"],"resourceVersion":"5"}}`,
		// The fake hub had it already: the patch changed nothing there.
		wantVersion: "5", wantFinalizers: []string{"example.com/first", workv1.ManifestWorkFinalizer},
		wantFinalizer: map[string]float64{"add sent": 1},
	}, {
		name:        "removing the finalizer keeps the others",
		write:       (*Writer).RemoveFinalizer,
		wantWrites:  []string{"patch manifestworks " + key},
		wantPatch:   `{"metadata":{"finalizers":["example.com/first"],"resourceVersion":"5"}}`,
		wantVersion: "6", wantFinalizers: []string{"example.com/first"},
		wantFinalizer: map[string]float64{"remove sent": 1},
	}, {
		name:        "removing the last finalizer clears the list",
		work:        func(w *workv1.ManifestWork) { w.Finalizers = []string{workv1.ManifestWorkFinalizer} },
		write:       (*Writer).RemoveFinalizer,
		wantWrites:  []string{"patch manifestworks " + key},
		wantPatch:   `{"metadata":{"finalizers":null,"resourceVersion":"5"}}`,
		wantVersion: "6", wantFinalizers: nil,
		wantFinalizer: map[string]float64{"remove sent": 1},
	}, {
		name:        "a finalizer that is not there is not removed",
		work:        func(w *workv1.ManifestWork) { w.Finalizers = []string{"example.com/first"} },
		write:       (*Writer).RemoveFinalizer,
		wantVersion: "5", wantFinalizers: []string{"example.com/first", workv1.ManifestWorkFinalizer},
		wantFinalizer: map[string]float64{"remove skipped": 1},
	}, {
		name:         "a finalizer edit from an older copy conflicts",
		work:         func(w *workv1.ManifestWork) { w.ResourceVersion = "4" },
		write:        (*Writer).RemoveFinalizer,
		wantWrites:   []string{"patch manifestworks " + key},
		wantConflict: true, wantVersion: "5", wantFinalizers: []string{"example.com/first", workv1.ManifestWorkFinalizer},
		wantFinalizer: map[string]float64{"remove error": 1},
	}}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			hub := newHub(t, stored())
			work := stored()
			if tc.work != nil {
				tc.work(work)
			}
			controller := fmt.Sprintf("TestWrites%d", i) // counters of its own
			w := New(Shared{Client: hub}, controller, Plain)

			updated, err := tc.write(w, ctx, work)
			if tc.wantConflict {
				require.Error(t, err)
				assert.True(t, apierrors.IsConflict(err), "a conflict the caller can recognize: %v", err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.wantWrites, ct.Writes(hub.Actions()))
			if tc.wantPatch != "" {
				require.Len(t, hub.Actions(), 1)
				assert.JSONEq(t, tc.wantPatch, string(hub.Actions()[0].(clienttesting.PatchAction).GetPatch()))
			}
			got, err := hub.WorkV1().ManifestWorks(fixture.Cluster).Get(ctx, "w", metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, tc.wantVersion, got.ResourceVersion)
			assert.Equal(t, tc.wantFinalizers, got.Finalizers)
			if len(tc.wantWrites) == 0 || tc.wantConflict {
				assert.Nil(t, updated, "nothing written")
			} else {
				require.NotNil(t, updated)
				assert.Equal(t, got.ResourceVersion, updated.ResourceVersion, "the work as the hub now holds it")
			}

			c := countsOf(t, controller)
			assert.Equal(t, orEmpty(tc.wantStatus), c.status, "status patches")
			assert.Equal(t, orEmpty(tc.wantFinalizer), c.finalizer, "finalizer patches")
		})
	}
}

func orEmpty(m map[string]float64) map[string]float64 {
	if m == nil {
		return map[string]float64{}
	}
	return m
}

// A status patch sets what disappeared to null, so the hub drops it.
func TestStatusPatchDropsWhatDisappeared(t *testing.T) {
	work := stored()
	work.Status.ResourceStatus.Manifests = []workv1.ManifestCondition{{ResourceMeta: workv1.ManifestResourceMeta{Ordinal: 0, Resource: "configmaps", Name: "cm"}}}
	hub := newHub(t, work)
	status := *work.Status.DeepCopy()
	status.ResourceStatus.Manifests = nil

	_, err := New(Shared{Client: hub}, "TestStatusPatchDropsWhatDisappeared", Plain).Status(context.Background(), work, status)
	require.NoError(t, err)
	var patch map[string]any
	require.NoError(t, json.Unmarshal(hub.Actions()[0].(clienttesting.PatchAction).GetPatch(), &patch))
	assert.Equal(t, map[string]any{"resourceStatus": map[string]any{"manifests": nil}}, patch["status"])
}

// A guarded writer tells a lister copy that its own writes replaced from
// one that is current; the others never find a copy outdated.
func TestOutdated(t *testing.T) {
	at := func(rv string) *workv1.ManifestWork {
		w := stored()
		w.ResourceVersion = rv
		return w
	}
	cases := []struct {
		name    string
		guarded bool
		writes  func(*testing.T, *Writer, *workv1.ManifestWork) // from the copy at version 5
		copies  []string                                        // versions the lister shows, in order
		want    []bool                                          // Outdated of each
	}{{
		name: "nothing written: no copy is outdated", guarded: true,
		writes: func(*testing.T, *Writer, *workv1.ManifestWork) {},
		copies: []string{"5"}, want: []bool{false},
	}, {
		name: "the versions a reconcile's writes replaced are outdated, the last is not", guarded: true,
		writes: removeFinalizerThenStatus,
		copies: []string{"5", "6", "7"}, want: []bool{true, true, false},
	}, {
		name: "once the current copy was seen, what was replaced is forgotten", guarded: true,
		writes: removeFinalizerThenStatus,
		copies: []string{"7", "5"}, want: []bool{false, false},
	}, {
		name: "a write that changed nothing on the hub keeps its version current", guarded: true,
		writes: func(t *testing.T, w *Writer, work *workv1.ManifestWork) {
			work.Finalizers = []string{"example.com/first"} // the lister lacks it; the hub has it
			updated, err := w.AddFinalizer(context.Background(), work)
			require.NoError(t, err)
			assert.Equal(t, "5", updated.ResourceVersion)
		},
		copies: []string{"5"}, want: []bool{false},
	}, {
		name: "a failed write replaced nothing", guarded: true,
		writes: func(t *testing.T, w *Writer, work *workv1.ManifestWork) {
			work.ResourceVersion = "4"
			_, err := w.RemoveFinalizer(context.Background(), work)
			require.Error(t, err)
		},
		copies: []string{"4", "5"}, want: []bool{false, false},
	}, {
		name:   "a writer without guard never finds a copy outdated",
		writes: removeFinalizerThenStatus,
		copies: []string{"5", "6"}, want: []bool{false, false},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hub := newHub(t, stored())
			w := New(Shared{Client: hub}, "TestOutdated", Plain)
			if tc.guarded {
				w = New(Shared{Client: hub}, "TestOutdated", Guarded)
			}
			tc.writes(t, w, stored())
			var got []bool
			for _, rv := range tc.copies {
				got = append(got, w.Outdated(at(rv)))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// removeFinalizerThenStatus makes 6 and then 7 from the copy at version 5.
func removeFinalizerThenStatus(t *testing.T, w *Writer, work *workv1.ManifestWork) {
	t.Helper()
	ctx := context.Background()
	updated, err := w.RemoveFinalizer(ctx, work)
	require.NoError(t, err)
	require.Equal(t, "6", updated.ResourceVersion)
	status := *updated.Status.DeepCopy()
	status.Conditions = nil
	updated, err = w.Status(ctx, updated, status)
	require.NoError(t, err)
	require.Equal(t, "7", updated.ResourceVersion)
}

// Forget drops what a guarded writer remembers of a work that is gone, and
// only of that work.
func TestForget(t *testing.T) {
	hub := newHub(t, stored())
	other := stored()
	other.Name = "other"
	require.NoError(t, hub.Tracker().Add(other))
	w := New(Shared{Client: hub}, "TestForget", Guarded)
	removeFinalizerThenStatus(t, w, stored())
	_, err := w.RemoveFinalizer(context.Background(), other.DeepCopy())
	require.NoError(t, err)

	w.Forget(key)
	assert.False(t, w.Outdated(stored()), "forgotten")
	assert.True(t, w.Outdated(other), "another work's versions are kept")
}

// A status over the size limit is written trimmed, once: writing the same
// untrimmed status again, or the trimmed one read back with another part
// changed, sends nothing more than that change, and both writers trim the
// same way.
func TestStatusTrimmed(t *testing.T) {
	ctx := context.Background()
	work := stored()
	hub := newHub(t, work)
	big := func(w *workv1.ManifestWork) workv1.ManifestWorkStatus {
		s := *w.Status.DeepCopy()
		s.ResourceStatus.Manifests = []workv1.ManifestCondition{{
			ResourceMeta: workv1.ManifestResourceMeta{Ordinal: 0, Resource: "configmaps", Name: "cm"},
			StatusFeedbacks: workv1.StatusFeedbackResult{Values: []workv1.FeedbackValue{{Name: "data",
				Value: workv1.FieldValue{Type: workv1.JsonRaw, JsonRaw: ptr.To(`"` + strings.Repeat("x", 1000) + `"`)}}}},
		}}
		return s
	}
	feedback := New(Shared{Client: hub, MaxStatusSize: 1000}, "TestStatusTrimmed-feedback", Plain)
	other := New(Shared{Client: hub, MaxStatusSize: 1000}, "TestStatusTrimmed-other", Plain)

	updated, err := feedback.Status(ctx, work, big(work))
	require.NoError(t, err)
	require.NotNil(t, updated, "written")
	trimmed := meta.FindStatusCondition(updated.Status.Conditions, TrimmedConditionType)
	require.NotNil(t, trimmed)
	assert.Equal(t, metav1.ConditionTrue, trimmed.Status)
	assert.Nil(t, updated.Status.ResourceStatus.Manifests[0].StatusFeedbacks.Values[0].Value.JsonRaw, "cut")

	again, err := feedback.Status(ctx, updated, big(updated))
	require.NoError(t, err)
	assert.Nil(t, again, "the same status again sends nothing")

	changed := *updated.Status.DeepCopy()
	meta.SetStatusCondition(&changed.Conditions, condition(workv1.WorkAvailable, "ResourcesAvailable"))
	final, err := other.Status(ctx, updated, changed)
	require.NoError(t, err)
	require.NotNil(t, final)
	assert.Equal(t, trimmed, meta.FindStatusCondition(final.Status.Conditions, TrimmedConditionType), "kept by another writer")

	again, err = feedback.Status(ctx, final, big(final))
	require.NoError(t, err)
	assert.Nil(t, again, "no fight between writers")
	assert.Len(t, ct.Writes(hub.Actions()), 2)
}

// The writers New makes carry the client, size limit and Event
// recorder; only a Guarded one is guarded, only a Paced one paced.
func TestNew(t *testing.T) {
	events := record.NewFakeRecorder(1)
	shared := Shared{Client: newHub(t, stored()), MaxStatusSize: 4096, Events: events, Pacing: NewPacing(time.Minute)}
	plain, guarded, paced := New(shared, "plain", Plain), New(shared, "guarded", Guarded), New(shared, "paced", Paced)
	for _, w := range []*Writer{plain, guarded, paced} {
		assert.Same(t, shared.Client, w.client)
		assert.Equal(t, 4096, w.maxSize)
		assert.Same(t, events, w.events)
	}
	assert.Equal(t, "plain", plain.controller)
	assert.Nil(t, plain.replaced)
	assert.Nil(t, plain.pacing)
	assert.Equal(t, "guarded", guarded.controller)
	assert.NotNil(t, guarded.replaced)
	assert.Nil(t, guarded.pacing)
	assert.Equal(t, "paced", paced.controller)
	assert.Nil(t, paced.replaced)
	assert.Same(t, shared.Pacing, paced.pacing)
}
