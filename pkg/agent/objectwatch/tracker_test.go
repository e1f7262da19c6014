package objectwatch

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	ct "github.com/manifestwork/work/pkg/controllertest"
)

const (
	timeout = 10 * time.Second
	tick    = 10 * time.Millisecond
)

var (
	configMaps  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	secrets     = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

// workOwner is the owner reference the agent puts on what it applies.
func workOwner(name string) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: "work.open-cluster-management.io/v1",
		Kind:       "AppliedManifestWork",
		Name:       name,
		UID:        types.UID("uid-" + name),
	}
}

func object(namespace, name string, owners ...metav1.OwnerReference) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
		Namespace:       namespace,
		Name:            name,
		OwnerReferences: owners,
	}}
}

// env is a Tracker running against a fake client.
type env struct {
	client  *fakeClient
	tracker *Tracker
	changes *ct.Calls
	cancel  context.CancelFunc
	done    chan struct{} // closed when Run has returned
}

// start runs a Tracker until the test ends and checks that Run returns then.
func start(t *testing.T, client *fakeClient) *env {
	t.Helper()
	return startWith(t, client, Deps{})
}

// startWith is start with the other dependencies of d; d.OnChange, unless
// set, records into changes.
func startWith(t *testing.T, client *fakeClient, d Deps) *env {
	t.Helper()
	e := &env{client: client, changes: &ct.Calls{}, done: make(chan struct{})}
	d.Client = client
	if d.OnChange == nil {
		d.OnChange = e.changes.Add
	}
	e.tracker = New(d)
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel = cancel
	go func() {
		defer close(e.done)
		e.tracker.Run(ctx)
	}()
	t.Cleanup(func() { e.stop(t) })
	return e
}

// stop cancels Run and waits, bounded, for it to return.
func (e *env) stop(t *testing.T) {
	t.Helper()
	e.cancel()
	select {
	case <-e.done:
	case <-time.After(timeout):
		t.Fatal("Run did not return after its context was cancelled")
	}
}

// waitSynced waits until Get answers from the cache for gvr.
func (e *env) waitSynced(t *testing.T, gvr schema.GroupVersionResource) {
	t.Helper()
	require.Eventually(t, func() bool { return e.synced(t, gvr) }, timeout, tick, "informer for %s never synced", gvr)
}

func (e *env) synced(t *testing.T, gvr schema.GroupVersionResource) bool {
	t.Helper()
	_, synced, err := e.tracker.Get(gvr, "", "no-such-object")
	require.NoError(t, err)
	return synced
}

func TestGetAnswersFromCache(t *testing.T) {
	client := newFakeClient()
	stored := client.create(configMaps, object("ns1", "cm1", workOwner("hub-work1")))
	node := client.create(secrets, object("", "cluster-scoped"))
	e := start(t, client)

	e.tracker.SetUses("ns/work1", everywhere(configMaps, secrets))
	e.waitSynced(t, configMaps)
	e.waitSynced(t, secrets)

	got, synced, err := e.tracker.Get(configMaps, "ns1", "cm1")
	require.NoError(t, err)
	require.True(t, synced)
	require.NotNil(t, got)
	assert.Equal(t, stored.ResourceVersion, got.ResourceVersion)
	assert.Equal(t, stored.UID, got.UID)

	got, synced, err = e.tracker.Get(secrets, "", "cluster-scoped")
	require.NoError(t, err)
	require.True(t, synced)
	require.NotNil(t, got)
	assert.Equal(t, node.ResourceVersion, got.ResourceVersion)

	got, synced, err = e.tracker.Get(configMaps, "ns1", "absent")
	require.NoError(t, err)
	assert.True(t, synced, "a synced cache can tell that an object does not exist")
	assert.Nil(t, got)

	got, synced, err = e.tracker.Get(deployments, "ns1", "cm1")
	require.NoError(t, err)
	assert.False(t, synced, "nobody uses deployments, so there is no cache for them")
	assert.Nil(t, got)

	assert.Equal(t, []schema.GroupVersionResource{configMaps, secrets}, e.tracker.Running())
}

func TestGetReturnsACopy(t *testing.T) {
	client := newFakeClient()
	client.create(configMaps, object("ns1", "cm1"))
	e := start(t, client)
	e.tracker.SetUses("ns/work1", everywhere(configMaps))
	e.waitSynced(t, configMaps)

	first, _, err := e.tracker.Get(configMaps, "ns1", "cm1")
	require.NoError(t, err)
	first.Labels = map[string]string{"changed": "by-caller"}

	second, _, err := e.tracker.Get(configMaps, "ns1", "cm1")
	require.NoError(t, err)
	assert.Empty(t, second.Labels, "a caller's change must not reach the cache")
}

func TestGetSeesLaterChanges(t *testing.T) {
	client := newFakeClient()
	client.create(configMaps, object("ns1", "cm1"))
	e := start(t, client)
	e.tracker.SetUses("ns/work1", everywhere(configMaps))
	e.waitSynced(t, configMaps)

	updated := client.update(configMaps, "ns1", "cm1", func(o *metav1.PartialObjectMetadata) { o.Labels = map[string]string{"a": "b"} })
	require.Eventually(t, func() bool {
		got, _, err := e.tracker.Get(configMaps, "ns1", "cm1")
		return err == nil && got != nil && got.ResourceVersion == updated.ResourceVersion
	}, timeout, tick)

	assert.False(t, e.tracker.Deleted(configMaps, updated.UID), "not deleted yet")
	client.delete(configMaps, "ns1", "cm1")
	require.Eventually(t, func() bool {
		got, synced, err := e.tracker.Get(configMaps, "ns1", "cm1")
		return err == nil && synced && got == nil
	}, timeout, tick)
	// The cache drops the object before the informer's handlers hear of
	// the deletion: Deleted follows a moment later.
	assert.Eventually(t, func() bool { return e.tracker.Deleted(configMaps, updated.UID) }, timeout, tick,
		"the deletion was seen: gone for sure")
	assert.False(t, e.tracker.Deleted(secrets, updated.UID), "another type's informer saw nothing")
}

// Deletions are remembered for deletedTTL, and forgotten after.
func TestDeletedUIDsExpire(t *testing.T) {
	d := newDeletedUIDs()
	now := time.Unix(1000, 0)
	d.now = func() time.Time { return now }
	d.add("a", "ns", "x")
	assert.True(t, d.has("a"))
	assert.False(t, d.has("b"))
	assert.True(t, d.hasName("ns", "x", now))
	assert.False(t, d.hasName("ns", "x", now.Add(time.Second)), "not deleted since")
	d.add("z", "", "cluster-scoped")
	assert.True(t, d.hasName("", "cluster-scoped", now), "a cluster-scoped object is found by the name it was added with")
	assert.False(t, d.hasName("ns", "cluster-scoped", now), "a namespaced object of that name was not deleted")
	// 50,000 objects deleted at QPS 50 take 17 minutes: the first is
	// asked about again once the last is deleted.
	now = now.Add(20 * time.Minute)
	d.add("b", "ns", "y")
	assert.True(t, d.has("a"), "a deletion is remembered for as long as deleting many works can take")
	now = now.Add(deletedTTL - 20*time.Minute + time.Second)
	assert.False(t, d.has("a"), "expired")
	d.add("c", "ns", "x") // forgets a
	assert.Len(t, d.seen, 2)
	assert.Len(t, d.names, 2)
	assert.True(t, d.hasName("ns", "x", now), "the name deleted again keeps its newer time")
}

// At most maxDeleted deletions are remembered: the oldest go first.
func TestDeletedUIDsAreBounded(t *testing.T) {
	d := newDeletedUIDs()
	for i := range maxDeleted + 10 {
		d.add(types.UID(strconv.Itoa(i)), "ns", strconv.Itoa(i))
	}
	assert.Len(t, d.seen, maxDeleted)
	assert.Len(t, d.names, maxDeleted)
	assert.Len(t, d.order, maxDeleted)
	assert.False(t, d.has("9"), "among the oldest")
	assert.True(t, d.has("10"))
	assert.True(t, d.has(types.UID(strconv.Itoa(maxDeleted+9))))
}

func TestSetUsesBeforeRun(t *testing.T) {
	client := newFakeClient()
	tracker := New(Deps{Client: client})
	tracker.SetUses("ns/work1", everywhere(configMaps))

	assert.Empty(t, tracker.Running(), "nothing runs before Run")
	_, synced, err := tracker.Get(configMaps, "ns1", "cm1")
	require.NoError(t, err)
	assert.False(t, synced)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tracker.Run(ctx)
	}()
	defer func() {
		cancel()
		<-done
	}()
	require.Eventually(t, func() bool {
		_, synced, err := tracker.Get(configMaps, "ns1", "cm1")
		return err == nil && synced
	}, timeout, tick, "Run must start what was asked for before it")
}

// TestRunningFollowsUses checks the reference counting: an informer runs
// exactly while at least one user needs its type.
func TestRunningFollowsUses(t *testing.T) {
	type call struct {
		user string
		gvrs []schema.GroupVersionResource
	}
	gvrs := func(g ...schema.GroupVersionResource) []schema.GroupVersionResource { return g }
	steps := []struct {
		name string
		call call
		want []schema.GroupVersionResource
	}{
		{"first user starts its types", call{"w1", gvrs(deployments, configMaps)}, gvrs(configMaps, deployments)},
		{"second user of a type starts nothing", call{"w2", gvrs(configMaps)}, gvrs(configMaps, deployments)},
		{"duplicates count once", call{"w3", gvrs(secrets, secrets)}, gvrs(configMaps, secrets, deployments)},
		{"dropping a type keeps it while others use it", call{"w1", gvrs(deployments)}, gvrs(configMaps, secrets, deployments)},
		{"replacing the set stops types no one uses", call{"w1", gvrs(configMaps)}, gvrs(configMaps, secrets)},
		{"duplicate entries released once", call{"w3", nil}, gvrs(configMaps)},
		{"releasing an unknown user is harmless", call{"unknown", nil}, gvrs(configMaps)},
		{"one of two users left", call{"w1", gvrs()}, gvrs(configMaps)},
		{"last user left", call{"w2", nil}, gvrs()},
		{"a type can be used again", call{"w4", gvrs(configMaps)}, gvrs(configMaps)},
	}

	e := start(t, newFakeClient())
	// Run begins asynchronously; once an informer has synced it has begun, and
	// from then on Running follows SetUses synchronously.
	e.tracker.SetUses("probe", everywhere(configMaps))
	e.waitSynced(t, configMaps)
	e.tracker.SetUses("probe", nil)
	require.Empty(t, e.tracker.Running())

	for _, step := range steps {
		e.tracker.SetUses(step.call.user, everywhere(step.call.gvrs...))
		assert.Equal(t, step.want, e.tracker.Running(), step.name)
	}
}

func TestReleasingLastUserStopsInformer(t *testing.T) {
	client := newFakeClient()
	client.create(configMaps, object("ns1", "cm1"))
	e := start(t, client)

	e.tracker.SetUses("ns/work1", everywhere(configMaps))
	e.tracker.SetUses("ns/work2", everywhere(configMaps))
	e.waitSynced(t, configMaps)
	require.Eventually(t, func() bool { return client.activeWatches(configMaps) == 1 }, timeout, tick)

	e.tracker.SetUses("ns/work1", nil)
	assert.True(t, e.synced(t, configMaps), "work2 still uses config maps")

	e.tracker.SetUses("ns/work2", everywhere())
	assert.Empty(t, e.tracker.Running())
	got, synced, err := e.tracker.Get(configMaps, "ns1", "cm1")
	require.NoError(t, err)
	assert.False(t, synced, "a stopped informer's cache must not be used")
	assert.Nil(t, got)
	require.Eventually(t, func() bool { return client.activeWatches(configMaps) == 0 }, timeout, tick,
		"the stopped informer must end its watch")

	e.tracker.SetUses("ns/work3", everywhere(configMaps))
	e.waitSynced(t, configMaps)
}

func TestRunStopsEveryInformer(t *testing.T) {
	client := newFakeClient()
	e := start(t, client)
	e.tracker.SetUses("ns/work1", everywhere(configMaps, deployments))
	e.waitSynced(t, configMaps)
	e.waitSynced(t, deployments)

	e.stop(t)

	// Run returns only after the informers' goroutines have exited, and the
	// reflectors stop their watches before exiting.
	assert.Zero(t, client.activeWatches(configMaps))
	assert.Zero(t, client.activeWatches(deployments))
	assert.Empty(t, e.tracker.Running())
	assert.False(t, e.synced(t, configMaps))

	e.tracker.SetUses("ns/work2", everywhere(secrets))
	assert.Empty(t, e.tracker.Running(), "nothing starts after Run has returned")
}

func TestOnChange(t *testing.T) {
	otherOwner := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "uid-rs"}
	foreignKind := metav1.OwnerReference{APIVersion: "example.io/v1", Kind: "AppliedManifestWork", Name: "foreign", UID: "uid-f"}
	relabel := func(o *metav1.PartialObjectMetadata) { o.Labels = map[string]string{"edited": "by-someone"} }

	cases := []struct {
		name    string
		objects []*metav1.PartialObjectMetadata
		change  func(c *fakeClient)
		want    []string
	}{{
		name:    "update of an owned object",
		objects: []*metav1.PartialObjectMetadata{object("ns1", "cm1", workOwner("amw-a"))},
		change:  func(c *fakeClient) { c.update(configMaps, "ns1", "cm1", relabel) },
		want:    []string{"amw-a"},
	}, {
		name:    "update event with an unchanged resourceVersion",
		objects: []*metav1.PartialObjectMetadata{object("ns1", "cm1", workOwner("amw-a"))},
		change:  func(c *fakeClient) { c.replayUnchanged(configMaps, "ns1", "cm1") },
	}, {
		name:    "update of an object not owned by an AppliedManifestWork",
		objects: []*metav1.PartialObjectMetadata{object("ns1", "cm1", otherOwner, foreignKind)},
		change:  func(c *fakeClient) { c.update(configMaps, "ns1", "cm1", relabel) },
	}, {
		name:    "delete of an owned object",
		objects: []*metav1.PartialObjectMetadata{object("ns1", "cm1", otherOwner, workOwner("amw-a"))},
		change:  func(c *fakeClient) { c.delete(configMaps, "ns1", "cm1") },
		want:    []string{"amw-a"},
	}, {
		name:    "delete of an object not owned by an AppliedManifestWork",
		objects: []*metav1.PartialObjectMetadata{object("ns1", "cm1", otherOwner)},
		change:  func(c *fakeClient) { c.delete(configMaps, "ns1", "cm1") },
	}, {
		name:    "update of an object shared by two works",
		objects: []*metav1.PartialObjectMetadata{object("ns1", "cm1", workOwner("amw-b"), workOwner("amw-a"))},
		change:  func(c *fakeClient) { c.update(configMaps, "ns1", "cm1", relabel) },
		want:    []string{"amw-a", "amw-b"},
	}, {
		name:    "delete of an object shared by two works",
		objects: []*metav1.PartialObjectMetadata{object("ns1", "cm1", workOwner("amw-a"), workOwner("amw-b"))},
		change:  func(c *fakeClient) { c.delete(configMaps, "ns1", "cm1") },
		want:    []string{"amw-a", "amw-b"},
	}, {
		name:    "owner reference removed by someone else",
		objects: []*metav1.PartialObjectMetadata{object("ns1", "cm1", workOwner("amw-a"))},
		change: func(c *fakeClient) {
			c.update(configMaps, "ns1", "cm1", func(o *metav1.PartialObjectMetadata) { o.OwnerReferences = nil })
		},
		want: []string{"amw-a"},
	}, {
		name:   "object created after sync by someone else",
		change: func(c *fakeClient) { c.create(configMaps, object("ns1", "new", workOwner("amw-a"))) },
		want:   []string{"amw-a"},
	}, {
		name:    "delete missed by the watch and found by a relist",
		objects: []*metav1.PartialObjectMetadata{object("ns1", "cm1", workOwner("amw-a"))},
		change:  func(c *fakeClient) { c.deleteUnseen(configMaps, "ns1", "cm1") },
		want:    []string{"amw-a"},
	}}

	const barrierOwner = "barrier"
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			client := newFakeClient()
			for _, o := range tc.objects {
				client.create(configMaps, o)
			}
			client.create(configMaps, object("ns1", "barrier", workOwner(barrierOwner)))
			e := start(t, client)
			e.tracker.SetUses("ns/work", everywhere(configMaps))
			e.waitSynced(t, configMaps)

			tc.change(client)
			// One informer delivers events in order, so once the barrier's
			// update has been seen, so has every event caused by the change.
			client.update(configMaps, "ns1", "barrier", relabel)
			require.Eventually(t, func() bool { return slices.Contains(e.changes.List(), barrierOwner) }, timeout, tick)

			require.Eventually(t, func() bool {
				return slices.Equal(withoutBarrier(e.changes.List(), barrierOwner), tc.want)
			}, timeout, tick, "want OnChange for %v", tc.want)
			assert.Equal(t, tc.want, withoutBarrier(e.changes.List(), barrierOwner))
		})
	}
}

func withoutBarrier(names []string, barrier string) []string {
	var out []string
	for _, n := range names {
		if n != barrier {
			out = append(out, n)
		}
	}
	return out
}

func TestCacheStripsBulkyMetadata(t *testing.T) {
	client := newFakeClient()
	withBulk := func(o *metav1.PartialObjectMetadata) {
		o.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply}}
		o.Annotations = map[string]string{
			"kubectl.kubernetes.io/last-applied-configuration": `{"big":"json"}`,
			"open-cluster-management.io/object-hash":           "abc",
		}
	}
	o := object("ns1", "cm1", workOwner("amw-a"))
	withBulk(o)
	client.create(configMaps, o)
	e := start(t, client)
	e.tracker.SetUses("ns/work1", everywhere(configMaps))
	e.waitSynced(t, configMaps)

	assertStripped := func() {
		t.Helper()
		got, synced, err := e.tracker.Get(configMaps, "ns1", "cm1")
		require.NoError(t, err)
		require.True(t, synced)
		require.NotNil(t, got)
		assert.Nil(t, got.ManagedFields)
		assert.Nil(t, got.Annotations)
		assert.NotEmpty(t, got.SelfLink, "the content version is kept")
		assert.Equal(t, "amw-a", got.OwnerReferences[0].Name, "owners kept")
	}
	assertStripped()

	updated := client.update(configMaps, "ns1", "cm1", withBulk)
	require.Eventually(t, func() bool {
		got, _, err := e.tracker.Get(configMaps, "ns1", "cm1")
		return err == nil && got != nil && got.ResourceVersion == updated.ResourceVersion
	}, timeout, tick)
	assertStripped()
}

func TestForbiddenListBacksOffAndRecovers(t *testing.T) {
	client := newFakeClient()
	client.create(configMaps, object("ns1", "cm1"))
	client.fail(configMaps, apierrors.NewForbidden(configMaps.GroupResource(), "", fmt.Errorf("no RBAC")))
	e := start(t, client)
	e.tracker.SetUses("ns/work1", everywhere(configMaps))

	require.Eventually(t, func() bool { return len(client.listTimes(configMaps)) >= 2 }, timeout, tick,
		"the informer must retry the list")
	calls := client.listTimes(configMaps)
	assert.GreaterOrEqual(t, calls[1].Sub(calls[0]), 500*time.Millisecond, "retries must back off, not spin")
	assert.False(t, e.synced(t, configMaps), "an informer that cannot list is not synced")
	assert.Equal(t, []schema.GroupVersionResource{configMaps}, e.tracker.Running(), "it keeps retrying while in use")

	client.fail(configMaps, nil)
	e.waitSynced(t, configMaps)
}

func TestAccessLostAfterSync(t *testing.T) {
	client := newFakeClient()
	client.create(configMaps, object("ns1", "cm1"))
	e := start(t, client)
	e.tracker.SetUses("ns/work1", everywhere(configMaps))
	e.waitSynced(t, configMaps)

	client.fail(configMaps, apierrors.NewForbidden(configMaps.GroupResource(), "", fmt.Errorf("RBAC revoked")))
	require.Eventually(t, func() bool { return !e.synced(t, configMaps) }, timeout, tick,
		"a cache that no longer receives changes must not be trusted")

	client.fail(configMaps, nil)
	e.waitSynced(t, configMaps)
}

func TestConcurrentUse(t *testing.T) {
	client := newFakeClient()
	all := []schema.GroupVersionResource{configMaps, deployments, secrets}
	for _, gvr := range all {
		client.create(gvr, object("ns1", "obj", workOwner("amw-a")))
	}
	e := start(t, client)

	var wg sync.WaitGroup
	for worker := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := fmt.Sprintf("ns/work%d", worker)
			for i := range 30 {
				e.tracker.SetUses(user, everywhere(all[:(worker+i)%(len(all)+1)]...))
				for _, gvr := range all {
					_, _, err := e.tracker.Get(gvr, "ns1", "obj")
					assert.NoError(t, err)
				}
				_ = e.tracker.Running()
			}
			e.tracker.SetUses(user, nil)
		}()
	}
	wg.Wait()

	assert.Empty(t, e.tracker.Running())
	for _, gvr := range all {
		require.Eventually(t, func() bool { return client.activeWatches(gvr) == 0 }, timeout, tick, "%s still watched", gvr)
	}
}

// With Linger, an informer outlives its last user for a while: a user that
// comes back meanwhile finds it synced; otherwise it stops.
func TestInformerLingers(t *testing.T) {
	client := newFakeClient()
	client.create(configMaps, object("ns1", "cm1"))
	e := startWith(t, client, Deps{Linger: 300 * time.Millisecond})

	e.tracker.SetUses("ns/work1", everywhere(configMaps))
	e.waitSynced(t, configMaps)
	e.tracker.SetUses("ns/work1", nil)
	e.tracker.SetUses("ns/work2", everywhere(configMaps))
	assert.True(t, e.synced(t, configMaps), "the lingering informer serves the next user at once")
	assert.Len(t, client.listTimes(configMaps), 1, "no second list")

	e.tracker.SetUses("ns/work2", nil)
	assert.Equal(t, []schema.GroupVersionResource{configMaps}, e.tracker.Running(), "still running for a while")
	require.Eventually(t, func() bool { return len(e.tracker.Running()) == 0 }, timeout, tick, "stopped after the linger")
}

// A type whose list or watch fails is reported by WatchFailure, with the
// latest error and the time the failure began, and its users are told when
// it starts failing and when a watch works again; the users of other types
// are not. A type that may be listed but not watched keeps failing.
func TestWatchFailureIsToldToItsUsers(t *testing.T) {
	forbidden := func(verb string) error {
		return apierrors.NewForbidden(configMaps.GroupResource(), "", fmt.Errorf("cannot %s", verb))
	}
	cases := []struct {
		name string
		fail func(c *fakeClient) // after the informer synced
	}{
		{"list and watch forbidden", func(c *fakeClient) { c.fail(configMaps, forbidden("list")) }},
		{"only watch forbidden", func(c *fakeClient) { c.failWatch(configMaps, forbidden("watch")) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each waits for the informer's backoff
			client := newFakeClient()
			told := &ct.Calls{}
			e := startWith(t, client, Deps{OnWatchFailure: told.Add})
			e.tracker.SetUses("ns/uses-configmaps", everywhere(configMaps))
			e.tracker.SetUses("ns/uses-secrets", everywhere(secrets))
			e.waitSynced(t, configMaps)
			_, failing := e.tracker.WatchFailure(Use{Resource: configMaps})
			assert.False(t, failing)

			before, lists := time.Now(), len(client.listTimes(configMaps))
			tc.fail(client)
			require.Eventually(t, func() bool { return len(told.List()) == 1 }, timeout, tick, "the user is told")
			assert.Equal(t, []string{"ns/uses-configmaps"}, told.List(), "only the users of the type")
			failure, failing := e.tracker.WatchFailure(Use{Resource: configMaps})
			require.True(t, failing)
			assert.True(t, apierrors.IsForbidden(failure.Err), "%v", failure.Err)
			assert.False(t, failure.Since.Before(before.Truncate(time.Second)))
			require.Eventually(t, func() bool { return len(client.listTimes(configMaps)) >= lists+2 }, timeout, tick, "retried")
			again, failing := e.tracker.WatchFailure(Use{Resource: configMaps})
			require.True(t, failing, "still failing after retries")
			assert.Equal(t, failure.Since, again.Since, "since when is kept")
			assert.Len(t, told.List(), 1, "told once, not per retry")

			client.fail(configMaps, nil)
			client.failWatch(configMaps, nil)
			require.Eventually(t, func() bool { return len(told.List()) == 2 }, timeout, tick, "told again once it works")
			_, failing = e.tracker.WatchFailure(Use{Resource: configMaps})
			assert.False(t, failing)
			_, failing = e.tracker.WatchFailure(Use{Resource: secrets})
			assert.False(t, failing)
		})
	}
}

// everywhere is the uses of gvrs in the whole cluster.
func everywhere(gvrs ...schema.GroupVersionResource) []Use {
	var uses []Use
	for _, gvr := range gvrs {
		uses = append(uses, Use{Resource: gvr})
	}
	return uses
}

// An object that another writer changed between the agent's create and the
// first list of a watch that started meanwhile has no event of its own: once
// the cache has synced, the owners of what it listed are told, each once,
// and before the cache answers, so that a caller waiting for it (the
// agent's start) finds them told. An object the agent creates after the
// sync is no news to its owner; one that someone else creates is.
func TestInitialListTellsOwners(t *testing.T) {
	client := newFakeClient()
	client.create(configMaps, object("ns1", "cm1", workOwner("amw-a")))
	client.create(configMaps, object("ns1", "cm2", workOwner("amw-a"), workOwner("amw-b")))
	client.create(configMaps, object("ns1", "cm3"))
	client.update(configMaps, "ns1", "cm1", func(o *metav1.PartialObjectMetadata) { o.Labels = map[string]string{"by": "someone"} })
	listed := &ct.Calls{}
	e := startWith(t, client, Deps{OnListed: listed.Add})
	e.tracker.SetUses("ns/work", everywhere(configMaps))
	e.waitSynced(t, configMaps)
	assert.Equal(t, []string{"amw-a", "amw-b"}, listed.List(), "told before the cache answers")
	assert.Empty(t, e.changes.List(), "the initial list is told to OnListed, not to OnChange")

	ours := object("ns1", "ours", workOwner("amw-c"))
	ours.ResourceVersion = client.nextVersion()
	e.tracker.Wrote(configMaps, ours)
	client.create(configMaps, ours)
	client.create(configMaps, object("ns1", "theirs", workOwner("amw-d")))
	require.Eventually(t, func() bool { return slices.Contains(e.changes.List(), "amw-d") }, timeout, tick)
	assert.Equal(t, []string{"amw-d"}, e.changes.List(), "the agent's own create is not told")
	assert.Equal(t, []string{"amw-a", "amw-b"}, listed.List(), "a synced cache tells nobody again")
}
