package objectwatch

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// in is the uses of config maps in namespaces.
func in(namespaces ...string) []Use {
	var uses []Use
	for _, ns := range namespaces {
		uses = append(uses, Use{Resource: configMaps, Namespace: ns})
	}
	return uses
}

// A type is watched in each namespace its users need, up to MaxNamespaces,
// and in the whole cluster beyond that or when a user needs objects that are
// not namespaced; the watches follow the users both ways.
func TestWatchesFollowNamespaces(t *testing.T) {
	many := make([]string, MaxNamespaces)
	for i := range many {
		many[i] = fmt.Sprintf("many%02d", i)
	}
	steps := []struct {
		name string
		user string
		uses []Use
		want []string // namespaces watched; "" is the whole cluster
	}{
		{"one namespace", "w1", in("ns1"), []string{"ns1"}},
		{"a second user in another namespace", "w2", in("ns2"), []string{"ns1", "ns2"}},
		{"a second user in the same namespace adds nothing", "w3", in("ns1"), []string{"ns1", "ns2"}},
		{"past MaxNamespaces: the whole cluster", "w4", in(many...), []string{""}},
		{"back to few namespaces", "w4", nil, []string{"ns1", "ns2"}},
		{"an object that is not namespaced: the whole cluster", "w5", in(""), []string{""}},
		{"and back", "w5", nil, []string{"ns1", "ns2"}},
		{"a namespace left by its last user", "w2", nil, []string{"ns1"}},
		{"still used by one of two users", "w1", nil, []string{"ns1"}},
		{"nobody", "w3", nil, nil},
	}
	client := newFakeClient()
	e := start(t, client)
	for _, step := range steps {
		e.tracker.SetUses(step.user, step.uses)
		require.Eventually(t, func() bool {
			return assert.ObjectsAreEqual(step.want, client.watchedNamespaces(configMaps))
		}, timeout, tick, "%s: watching %q, want %q", step.name, client.watchedNamespaces(configMaps), step.want)
	}
}

// A namespace's informer answers for its namespace only: an object
// elsewhere is not known (the caller reads the API), and changes elsewhere
// neither reach its cache nor the works.
func TestNamespaceInformerSeesItsNamespaceOnly(t *testing.T) {
	client := newFakeClient()
	client.create(configMaps, object("ns1", "cm1", workOwner("amw-1")))
	client.create(configMaps, object("ns2", "cm2", workOwner("amw-2")))
	e := start(t, client)

	e.tracker.SetUses("ns/work1", in("ns1"))
	require.True(t, e.tracker.WaitForSync(t.Context(), in("ns1")))

	got, synced, err := e.tracker.Get(configMaps, "ns1", "cm1")
	require.NoError(t, err)
	require.True(t, synced)
	assert.Equal(t, "cm1", got.Name)
	_, synced, err = e.tracker.Get(configMaps, "ns2", "cm2")
	require.NoError(t, err)
	assert.False(t, synced, "no informer watches ns2")

	relabel := func(o *metav1.PartialObjectMetadata) { o.Labels = map[string]string{"edited": "yes"} }
	client.update(configMaps, "ns2", "cm2", relabel)
	client.update(configMaps, "ns1", "cm1", relabel)
	require.Eventually(t, func() bool { return len(e.changes.List()) > 0 }, timeout, tick)
	assert.Equal(t, []string{"amw-1"}, e.changes.List(), "only the watched namespace's change reaches the works")
}

// Going from some namespaces to the whole cluster keeps the namespaces'
// informers for Linger, answering meanwhile; a namespace wanted again
// within it takes its informer back, without a new list.
func TestNamespaceInformersLingerAcrossReplans(t *testing.T) {
	client := newFakeClient()
	client.create(configMaps, object("ns1", "cm1"))
	e := startWith(t, client, Deps{Linger: time.Hour})

	e.tracker.SetUses("ns/work1", in("ns1"))
	require.True(t, e.tracker.WaitForSync(t.Context(), in("ns1")))
	e.tracker.SetUses("ns/work2", in(""))
	require.Eventually(t, func() bool {
		return assert.ObjectsAreEqual([]string{"", "ns1"}, client.watchedNamespaces(configMaps))
	}, timeout, tick, "the namespace's informer lingers while the whole cluster is watched")
	_, synced, err := e.tracker.Get(configMaps, "ns1", "cm1")
	require.NoError(t, err)
	assert.True(t, synced)
	lists := len(client.listTimes(configMaps))

	e.tracker.SetUses("ns/work2", nil)
	_, synced, err = e.tracker.Get(configMaps, "ns1", "cm1")
	require.NoError(t, err)
	assert.True(t, synced, "the namespace's informer is wanted again and still synced")
	assert.Len(t, client.listTimes(configMaps), lists, "no new list for it")
}
