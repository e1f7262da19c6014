package cloudevents

import (
	"context"
	"slices"
	"strings"
	"testing"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// Spec events change the local copy as the source means them: new works,
// newer specs, deletions; duplicates, late and foreign events change
// nothing; a bad spec is refused with a condition and the last good spec
// stays.
func TestSpecEvents(t *testing.T) {
	big := fixture.NewWork(cluster, "w").WithUID("w").
		WithManifest(fixture.ConfigMap("default", "big", map[string]string{"a": strings.Repeat("x", 600*1024)})).Build()
	tests := []struct {
		name   string
		events []cloudevents.Event
		// want is the generation of work "w" in the copy; 0 when absent.
		want         int64
		wantDeleting bool
		// wantRefused is the reason in the status sent for the last event,
		// if any.
		wantRefused string
	}{
		{name: "create", events: []cloudevents.Event{fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1)}, want: 1},
		{name: "update", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1),
			fixture.SpecEvent(source, fixture.SpecUpdateType, work("w"), 2),
		}, want: 2},
		{name: "late update ignored", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 3),
			fixture.SpecEvent(source, fixture.SpecUpdateType, work("w"), 2),
		}, want: 3},
		{name: "an update's action is not trusted", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecUpdateType, work("w"), 4),
		}, want: 4},
		{name: "deletion", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1),
			fixture.DeleteEvent(source, cluster, "w", 1),
		}, want: 1, wantDeleting: true},
		{name: "deletion of an unknown work", events: []cloudevents.Event{
			fixture.DeleteEvent(source, cluster, "w", 5),
		}, want: 5, wantDeleting: true},
		{name: "spec after deletion ignored", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1),
			fixture.DeleteEvent(source, cluster, "w", 1),
			fixture.SpecEvent(source, fixture.SpecUpdateType, work("w"), 2),
		}, want: 1, wantDeleting: true},
		{name: "another cluster", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, fixture.NewWork("cluster2", "w").WithUID("w").Build(), 1),
		}},
		{name: "unknown type", events: []cloudevents.Event{
			retype(fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1), "io.open-cluster-management.works.v1alpha1.manifestbundles"),
		}},
		{name: "no resource id", events: []cloudevents.Event{
			without(fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1), ExtResourceID),
		}},
		{name: "data that is no manifest bundle", events: []cloudevents.Event{
			withData(fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1), `{"manifests": 3}`),
		}, wantRefused: InvalidSpecReason},
		{name: "too large", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, big, 1),
		}, wantRefused: InvalidSpecReason},
		{name: "invalid update keeps the last good spec", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1),
			fixture.SpecEvent(source, fixture.SpecUpdateType, fixture.NewWork(cluster, "w").WithUID("w").Build(), 2),
		}, want: 1, wantRefused: InvalidSpecReason},
		{name: "a good spec after a bad one", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, big, 1),
			fixture.SpecEvent(source, fixture.SpecUpdateType, work("w"), 2),
		}, want: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, tr := newTestHub()
			for _, e := range tt.events[:len(tt.events)-1] {
				h.Receive(context.Background(), e)
			}
			tr.take()
			h.Receive(context.Background(), tt.events[len(tt.events)-1])
			got, ok := h.store.get("w")
			if tt.want == 0 {
				assert.False(t, ok, "no work")
			} else {
				require.True(t, ok)
				assert.Equal(t, tt.want, got.Generation)
				assert.Equal(t, tt.wantDeleting, got.DeletionTimestamp != nil)
				assert.Equal(t, types.UID("w"), got.UID)
				assert.Equal(t, source, got.Labels[OriginalSourceLabel])
			}
			sent := tr.take()
			if tt.wantRefused == "" {
				assert.Empty(t, sent)
				return
			}
			require.NotEmpty(t, sent)
			status := readStatus(t, sent[len(sent)-1])
			c := meta.FindStatusCondition(status.Status.Conditions, workv1.WorkStalled)
			require.NotNil(t, c)
			assert.Equal(t, tt.wantRefused, c.Reason)
			assert.Equal(t, "w", status.ResourceID)
			t.Log(c.Message)
		})
	}
}

// A new work is named as the metadata of its event names it (OCM's agent
// from v1.1 on), unless an AppliedManifestWork exists under its resource id
// (OCM v1.0.0's agent names works so); a work keeps its name.
func TestNaming(t *testing.T) {
	named := fixture.NewWork(cluster, "web").WithUID("uid-1").WithManifest(fixture.ConfigMap("default", "web", nil)).Build()
	tests := []struct {
		name    string
		event   cloudevents.Event
		applied []string // AppliedManifestWorks by work name
		before  []cloudevents.Event
		want    string
	}{
		{name: "metadata", event: fixture.SpecEvent(source, fixture.SpecCreateType, named, 1), want: "web"},
		{name: "no metadata", event: without(fixture.SpecEvent(source, fixture.SpecCreateType, named, 1), ExtMetadata), want: "uid-1"},
		{name: "applied under the resource id", event: fixture.SpecEvent(source, fixture.SpecCreateType, named, 1),
			applied: []string{"uid-1"}, want: "uid-1"},
		{name: "applied under the name", event: fixture.SpecEvent(source, fixture.SpecCreateType, named, 1),
			applied: []string{"web"}, want: "web"},
		{name: "a deletion of an unknown work", event: withMeta(fixture.DeleteEvent(source, cluster, "uid-1", 1), "web"),
			applied: []string{"uid-1"}, want: "uid-1"},
		{name: "a name another work has", before: []cloudevents.Event{fixture.SpecEvent(source, fixture.SpecCreateType,
			fixture.NewWork(cluster, "web").WithUID("uid-0").WithManifest(fixture.ConfigMap("default", "other", nil)).Build(), 1)},
			event: fixture.SpecEvent(source, fixture.SpecCreateType, named, 1), want: "uid-1"},
		{name: "a work keeps its name", before: []cloudevents.Event{without(fixture.SpecEvent(source, fixture.SpecCreateType, named, 1), ExtMetadata)},
			event: fixture.SpecEvent(source, fixture.SpecUpdateType, named, 2), want: "uid-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHub(Deps{ClusterName: cluster, ClientID: agentID, Transport: &fakeTransport{},
				Applied: func(_ context.Context, name string) (bool, error) { return slices.Contains(tt.applied, name), nil }})
			for _, e := range append(tt.before, tt.event) {
				h.Receive(context.Background(), e)
			}
			w, ok := h.store.byID("uid-1")
			require.True(t, ok)
			assert.Equal(t, tt.want, w.Name)
			_, err := h.Client().WorkV1().ManifestWorks(cluster).Get(context.Background(), tt.want, metav1.GetOptions{})
			assert.NoError(t, err)
		})
	}
}

func withMeta(e cloudevents.Event, name string) cloudevents.Event {
	e.SetExtension(ExtMetadata, `{"name":"`+name+`"}`)
	return e
}
