package ttl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	"github.com/manifestwork/work/pkg/client/informers/externalversions"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

const (
	name = "job"
	uid  = types.UID("uid-1")
)

// key is the work's queue key.
var key = cache.NewObjectName(fixture.Cluster, name).String()

// now is the fake clock's time; conditions are set relative to it.
var now = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// work is a work with the given TTL (nil: none) and, unless completedAgo is
// nil, a Complete condition that became True that long ago.
func work(ttlSeconds *int64, completedAgo *time.Duration) *workv1.ManifestWork {
	b := fixture.NewWork(fixture.Cluster, name).WithUID(uid)
	if ttlSeconds != nil {
		b.WithDeleteOption(workv1.DeleteOption{TTLSecondsAfterFinished: ttlSeconds})
	}
	if completedAgo != nil {
		b.WithCondition(metav1.Condition{
			Type: workv1.WorkComplete, Status: metav1.ConditionTrue, Reason: "Done",
			LastTransitionTime: metav1.NewTime(now.Add(-*completedAgo)),
		})
	}
	return b.Build()
}

func seconds(s int64) *int64 { return &s }

func ago(d time.Duration) *time.Duration { return &d }

func withCondition(w *workv1.ManifestWork, status metav1.ConditionStatus) *workv1.ManifestWork {
	w.Status.Conditions[0].Status = status
	return w
}

func deleting(w *workv1.ManifestWork) *workv1.ManifestWork {
	t := metav1.NewTime(now.Add(-time.Minute))
	w.DeletionTimestamp = &t
	w.Finalizers = []string{"cluster.open-cluster-management.io/manifest-work-cleanup"}
	return w
}

type harness struct {
	client *fake.Clientset
	c      *Controller
}

// newFixture is the controller with w (if any) in its cache and on the
// fake hub, and a fake clock at now.
func newHarness(t *testing.T, w *workv1.ManifestWork) *harness {
	t.Helper()
	var objs []runtime.Object
	if w != nil {
		objs = append(objs, w)
	}
	client := fake.NewSimpleClientset(objs...)
	informers := externalversions.NewSharedInformerFactory(client, 0)
	works := informers.Work().V1().ManifestWorks()
	if w != nil {
		require.NoError(t, works.Informer().GetIndexer().Add(w))
	}
	c := newController(Deps{Client: client, Works: works, Clock: clocktesting.NewFakeClock(now)})
	return &harness{client: client, c: c}
}

func (f *harness) writes() []string { return ct.Writes(f.client.Actions()) }

func TestSync(t *testing.T) {
	tests := []struct {
		name       string
		work       *workv1.ManifestWork
		wantDelete bool
		wantAfter  time.Duration // 0: not requeued
	}{
		{name: "gone", work: nil},
		{name: "no ttl", work: work(nil, ago(time.Hour))},
		{name: "not complete", work: work(seconds(10), nil)},
		{name: "complete is false", work: withCondition(work(seconds(10), ago(time.Hour)), metav1.ConditionFalse)},
		{name: "complete is unknown", work: withCondition(work(seconds(0), ago(time.Hour)), metav1.ConditionUnknown)},
		{name: "ttl not yet due", work: work(seconds(300), ago(100*time.Second)), wantAfter: 200 * time.Second},
		{name: "ttl due in a millisecond", work: work(seconds(1), ago(999*time.Millisecond)), wantAfter: time.Millisecond},
		{name: "ttl due exactly now", work: work(seconds(300), ago(300*time.Second)), wantDelete: true},
		{name: "ttl overdue", work: work(seconds(300), ago(time.Hour)), wantDelete: true},
		{name: "ttl 0", work: work(seconds(0), ago(0)), wantDelete: true},
		{name: "already deleting", work: deleting(work(seconds(0), ago(time.Hour)))},
		{name: "already deleting, ttl not yet due", work: deleting(work(seconds(300), ago(time.Second)))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newHarness(t, tt.work)
			syncCtx := ct.NewSyncContext(key)

			require.NoError(t, f.c.sync(t.Context(), syncCtx))

			if tt.wantAfter > 0 {
				assert.Equal(t, []time.Duration{tt.wantAfter}, syncCtx.Q.After)
			} else {
				assert.Empty(t, syncCtx.Q.Added, "requeued")
			}
			assert.Empty(t, syncCtx.Q.RateLimited)
			if !tt.wantDelete {
				assert.Empty(t, f.writes())
				return
			}
			assert.Equal(t, []string{"delete manifestworks " + key}, f.writes())
			assertUIDPrecondition(t, f.client.Actions())
			_, err := f.client.WorkV1().ManifestWorks(fixture.Cluster).Get(t.Context(), name, metav1.GetOptions{})
			assert.True(t, apierrors.IsNotFound(err), "work still there: %v", err)
		})
	}
}

func assertUIDPrecondition(t *testing.T, actions []clienttesting.Action) {
	t.Helper()
	for _, a := range actions {
		if d, ok := a.(clienttesting.DeleteAction); ok {
			pre := d.GetDeleteOptions().Preconditions
			require.NotNil(t, pre, "no preconditions")
			require.NotNil(t, pre.UID, "no UID precondition")
			assert.Equal(t, uid, *pre.UID)
		}
	}
}

// The clock decides: the same work is requeued for the rest of its TTL, then
// deleted once the clock reaches its expiry.
func TestSyncFollowsTheClock(t *testing.T) {
	f := newHarness(t, work(seconds(60), ago(0)))
	clk := f.c.clock.(*clocktesting.FakeClock)

	clk.Step(45 * time.Second)
	syncCtx := ct.NewSyncContext(key)
	require.NoError(t, f.c.sync(t.Context(), syncCtx))
	after, ok := syncCtx.Q.Delay(key)
	require.True(t, ok, "no requeue")
	assert.Equal(t, 15*time.Second, after)
	assert.Empty(t, f.writes())

	clk.Step(after)
	syncCtx = ct.NewSyncContext(key)
	require.NoError(t, f.c.sync(t.Context(), syncCtx))
	assert.Empty(t, syncCtx.Q.Added)
	assert.Equal(t, []string{"delete manifestworks " + key}, f.writes())
}

func TestSyncDeleteErrors(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		wantErr bool
	}{
		{name: "not found: gone already", err: apierrors.NewNotFound(workv1.Resource("manifestworks"), name)},
		{name: "conflict: another work of that name", err: apierrors.NewConflict(workv1.Resource("manifestworks"), name, assert.AnError)},
		{name: "other errors: retried", err: assert.AnError, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newHarness(t, work(seconds(0), ago(0)))
			f.client.PrependReactor("delete", "manifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
				return true, nil, tt.err
			})
			syncCtx := ct.NewSyncContext(key)

			err := f.c.sync(t.Context(), syncCtx)

			assert.Equal(t, tt.wantErr, err != nil, "error: %v", err)
			assert.Empty(t, syncCtx.Q.Added)
		})
	}
}

func TestFilterAndKeys(t *testing.T) {
	assert.True(t, hasTTL(work(seconds(0), nil)))
	assert.False(t, hasTTL(work(nil, nil)))
	assert.False(t, hasTTL(&workv1.ManifestWork{Spec: workv1.ManifestWorkSpec{DeleteOption: &workv1.DeleteOption{}}}))
	assert.False(t, hasTTL(cache.DeletedFinalStateUnknown{Key: key, Obj: work(seconds(0), nil)}))
	assert.Equal(t, []string{key}, workKey(work(nil, nil)))
}
