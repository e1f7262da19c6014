package objectwatch

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	k8stesting "k8s.io/client-go/testing"

	ct "github.com/manifestwork/work/pkg/controllertest"
)

func configMap(namespace, name, rv, value string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"namespace": namespace, "name": name, "resourceVersion": rv,
			"labels": map[string]any{"app": "web"}},
		"data": map[string]any{"value": value},
	}}
}

func cmKey(namespace, name string) ObjectKey {
	return ObjectKey{Resource: configMaps, Namespace: namespace, Name: name}
}

// wholeEnv is a Tracker whose whole reads are served by a fake dynamic
// client, its metadata ones by the fake metadata client.
type wholeEnv struct {
	*env
	dyn   *dynamicfake.FakeDynamicClient
	woken *ct.Calls
	// watches has a value for each watch of the dynamic client, sent once
	// the watch is registered.
	watches chan struct{}
}

func startWhole(t *testing.T, max int, objects ...runtime.Object) *wholeEnv {
	t.Helper()
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{configMaps: "ConfigMapList"}, objects...)
	watches := make(chan struct{}, 10)
	dyn.PrependWatchReactor("*", func(action k8stesting.Action) (bool, watch.Interface, error) {
		w, err := dyn.Tracker().Watch(action.GetResource(), action.GetNamespace())
		watches <- struct{}{}
		return true, w, err
	})
	woken := &ct.Calls{}
	e := startWith(t, newFakeClient(), Deps{Dynamic: dyn, MaxWholeWatches: max, OnWholeChange: woken.Add})
	// Run begins asynchronously; once an informer has synced it has begun.
	e.tracker.SetUses("probe", everywhere(secrets))
	e.waitSynced(t, secrets)
	e.tracker.SetUses("probe", nil)
	return &wholeEnv{env: e, dyn: dyn, woken: woken, watches: watches}
}

// waitSyncedIn waits until Get answers from the cache for config maps in
// namespace.
func (e *wholeEnv) waitSyncedIn(t *testing.T, namespace string) {
	t.Helper()
	require.Eventually(t, func() bool {
		_, synced, err := e.tracker.Get(configMaps, namespace, "no-such-object")
		return err == nil && synced
	}, timeout, tick)
}

// TestWholeReadsAreCountedPerUserUpToTheLimit follows the pairs watched for
// whole reads: one per (resource, namespace), whatever the objects and
// users, at most the limit, first come first served.
func TestWholeReadsAreCountedPerUserUpToTheLimit(t *testing.T) {
	a1, b1, a2, a3 := cmKey("ns1", "a"), cmKey("ns1", "b"), cmKey("ns2", "a"), cmKey("ns3", "a")
	steps := []struct {
		name    string
		user    string
		objects []ObjectKey
		watched []ObjectKey // of a1, b1, a2, a3
	}{
		{"a first pair is watched", "w1", []ObjectKey{a1}, []ObjectKey{a1, b1}},
		{"another object of the pair costs nothing", "w2", []ObjectKey{b1}, []ObjectKey{a1, b1}},
		{"a second pair fills the limit", "w3", []ObjectKey{a2}, []ObjectKey{a1, b1, a2}},
		{"beyond the limit, a pair waits", "w4", []ObjectKey{a3}, []ObjectKey{a1, b1, a2}},
		{"a pair released makes room for the one waiting", "w3", nil, []ObjectKey{a1, b1, a3}},
		{"a pair stays while it has a reader", "w1", nil, []ObjectKey{a1, b1, a3}},
		{"the same user's second pair waits", "w4", []ObjectKey{a3, a2}, []ObjectKey{a1, b1, a3}},
		{"the last reader of a pair releases it", "w2", nil, []ObjectKey{a2, a3}},
		{"every user gone", "w4", nil, nil},
	}
	e := startWhole(t, 2)
	for _, step := range steps {
		e.tracker.SetWholeReads(step.user, step.objects)
		var watched []ObjectKey
		for _, k := range []ObjectKey{a1, b1, a2, a3} {
			if _, _, ok := e.tracker.GetWhole(k); ok {
				watched = append(watched, k)
			}
		}
		assert.Equal(t, step.watched, watched, step.name)
	}
	assert.Empty(t, e.tracker.Running(), "no informer is left")
	assert.Empty(t, e.tracker.refs, "no count is left")
}

// A pair read whole and used otherwise is served by one informer: the
// cache keeps every object trimmed, and a whole copy of the objects read
// whole only.
func TestWholeReadsShareTheInformerOfTheirPair(t *testing.T) {
	e := startWhole(t, 10, configMap("ns1", "a", "1", "one"), configMap("ns1", "b", "1", "other"))
	e.tracker.SetUses("ns/work1", []Use{{Resource: configMaps, Namespace: "ns1"}})
	e.waitSyncedIn(t, "ns1")

	e.tracker.SetWholeReads("ns/work1", []ObjectKey{cmKey("ns1", "a")})
	_, synced, err := e.tracker.Get(configMaps, "ns1", "a")
	require.NoError(t, err)
	assert.True(t, synced, "the metadata informer serves until the one of whole objects has synced")
	<-e.watches
	require.Eventually(t, func() bool {
		_, synced, _ := e.tracker.GetWhole(cmKey("ns1", "a"))
		return synced
	}, timeout, tick, "the informer that lists whole objects syncs")
	require.Eventually(t, func() bool {
		e.tracker.mu.RLock()
		defer e.tracker.mu.RUnlock()
		return len(e.tracker.replaced) == 0
	}, timeout, tick, "the metadata informer stops once replaced")
	assert.Len(t, e.tracker.informers, 1, "one informer for the pair")
	require.Eventually(t, func() bool { return len(e.woken.List()) == 1 }, timeout, tick)
	assert.Equal(t, []string{"ns/work1"}, e.woken.List(), "the object read whole was listed")

	obj, _, _ := e.tracker.GetWhole(cmKey("ns1", "a"))
	assert.Equal(t, "one", obj.Object["data"].(map[string]any)["value"], "whole")
	assert.Equal(t, "web", obj.GetLabels()["app"], "whole")
	meta, synced, err := e.tracker.Get(configMaps, "ns1", "b")
	require.NoError(t, err)
	require.True(t, synced)
	assert.Empty(t, meta.Labels, "trimmed")
	_, synced, watched := e.tracker.GetWhole(cmKey("ns1", "b"))
	assert.True(t, watched)
	assert.False(t, synced, "not read whole: no copy")
	assert.Len(t, e.tracker.whole.copies, 1)

	// b is read whole from now on: the API's copy is kept, as the cache holds
	// that version, until the next change.
	e.tracker.SetWholeReads("ns/work2", []ObjectKey{cmKey("ns1", "b")})
	e.tracker.KeepWhole(cmKey("ns1", "b"), configMap("ns1", "b", "0", "older"))
	_, synced, _ = e.tracker.GetWhole(cmKey("ns1", "b"))
	assert.False(t, synced, "another version than the cache's is not kept")
	e.tracker.KeepWhole(cmKey("ns1", "b"), configMap("ns1", "b", "1", "other"))
	obj, synced, _ = e.tracker.GetWhole(cmKey("ns1", "b"))
	require.True(t, synced)
	assert.Equal(t, "other", obj.Object["data"].(map[string]any)["value"])

	_, err = e.dyn.Resource(configMaps).Namespace("ns1").Update(context.Background(), configMap("ns1", "b", "2", "changed"), metav1.UpdateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		obj, synced, _ := e.tracker.GetWhole(cmKey("ns1", "b"))
		return synced && obj.Object["data"].(map[string]any)["value"] == "changed"
	}, timeout, tick, "the change reaches the copy")
	require.Eventually(t, func() bool { return len(e.woken.List()) == 2 }, timeout, tick)
	assert.Equal(t, []string{"ns/work1", "ns/work2"}, e.woken.List(), "the reader of the change is told")

	e.tracker.SetWholeReads("ns/work2", nil)
	e.tracker.SetWholeReads("ns/work1", nil)
	assert.Empty(t, e.tracker.whole.copies, "no copy is left")
	assert.Len(t, e.tracker.informers, 1, "a metadata informer takes over")
	e.waitSyncedIn(t, "ns1")
	_, _, watched = e.tracker.GetWhole(cmKey("ns1", "a"))
	assert.False(t, watched)
}
