package objectwatch

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/sharedstrings"
)

func TestContentVersion(t *testing.T) {
	at := func(sec int) *metav1.Time { tm := metav1.NewTime(time.Unix(int64(1700000000+sec), 0)); return &tm }
	fields := func(raw string) *metav1.FieldsV1 { return &metav1.FieldsV1{Raw: []byte(raw)} }
	base := func() *metav1.PartialObjectMetadata {
		o := object("ns1", "cm1")
		o.UID, o.ResourceVersion, o.Generation = "uid-1", "10", 1
		o.ManagedFields = []metav1.ManagedFieldsEntry{
			{Manager: "work-agent", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: at(0),
				FieldsType: "FieldsV1", FieldsV1: fields(`{"f:data":{"f:key":{}}}`)},
			{Manager: "some-controller", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: at(1),
				Subresource: "status", FieldsType: "FieldsV1", FieldsV1: fields(`{"f:status":{"f:phase":{}}}`)},
		}
		return o
	}
	tests := []struct {
		name    string
		edit    func(*metav1.PartialObjectMetadata)
		changed bool
	}{
		{name: "a status write by a controller", edit: func(o *metav1.PartialObjectMetadata) {
			o.ResourceVersion = "11"
			o.ManagedFields[1].Time = at(5)
			o.ManagedFields[1].FieldsV1 = fields(`{"f:status":{"f:phase":{},"f:ready":{}}}`)
		}},
		{name: "the same entries in another order", edit: func(o *metav1.PartialObjectMetadata) {
			o.ManagedFields[0], o.ManagedFields[1] = o.ManagedFields[1], o.ManagedFields[0]
		}},
		{name: "another writer changes a field (kubectl edit)", changed: true, edit: func(o *metav1.PartialObjectMetadata) {
			o.ResourceVersion = "11"
			o.ManagedFields[0].FieldsV1 = fields(`{"f:data":{}}`)
			o.ManagedFields = append(o.ManagedFields, metav1.ManagedFieldsEntry{Manager: "kubectl-edit",
				Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: at(7), FieldsV1: fields(`{"f:data":{"f:key":{}}}`)})
		}},
		{name: "a field removed by another writer", changed: true, edit: func(o *metav1.PartialObjectMetadata) {
			o.ManagedFields[0].FieldsV1 = fields(`{"f:data":{}}`)
		}},
		{name: "a writer changes a field it owned already", changed: true, edit: func(o *metav1.PartialObjectMetadata) {
			o.ManagedFields[0].Time = at(9)
		}},
		{name: "deleted and created again", changed: true, edit: func(o *metav1.PartialObjectMetadata) { o.UID = "uid-2" }},
		{name: "being deleted", changed: true, edit: func(o *metav1.PartialObjectMetadata) { o.DeletionTimestamp = at(3) }},
		{name: "a new generation", changed: true, edit: func(o *metav1.PartialObjectMetadata) { o.Generation = 2 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := base()
			tt.edit(o)
			assert.Equal(t, tt.changed, ContentVersion(o) != ContentVersion(base()))
		})
	}

	// A kind without status (no generation, no status writer) is written
	// only for its content: a writer setting a field back within the second
	// of its last change leaves its entry as it was, the resourceVersion
	// tells.
	t.Run("a kind without status: the resourceVersion counts", func(t *testing.T) {
		plain := func(rv string) *metav1.PartialObjectMetadata {
			o := base()
			o.Generation, o.ResourceVersion = 0, rv
			o.ManagedFields = o.ManagedFields[:1]
			return o
		}
		assert.NotEqual(t, ContentVersion(plain("10")), ContentVersion(plain("11")))
		withStatus := base()
		withStatus.Generation = 0
		movedStatus := base()
		movedStatus.Generation, movedStatus.ResourceVersion = 0, "11"
		assert.Equal(t, ContentVersion(withStatus), ContentVersion(movedStatus), "a status writer's kind keeps ignoring the resourceVersion")
	})

	t.Run("without managedFields the resourceVersion counts", func(t *testing.T) {
		a, b := base(), base()
		a.ManagedFields, b.ManagedFields = nil, nil
		b.ResourceVersion = "11"
		assert.NotEqual(t, ContentVersion(a), ContentVersion(b))
	})
}

func TestLastWriter(t *testing.T) {
	at := func(sec int) *metav1.Time { tm := metav1.NewTime(time.Unix(int64(1700000000+sec), 0)); return &tm }
	entry := func(manager string, sec int, subresource string) metav1.ManagedFieldsEntry {
		return metav1.ManagedFieldsEntry{Manager: manager, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1",
			Time: at(sec), Subresource: subresource}
	}
	tests := []struct {
		name    string
		entries []metav1.ManagedFieldsEntry
		want    string
	}{
		{name: "none", want: ""},
		{name: "one writer", entries: []metav1.ManagedFieldsEntry{entry("work-agent", 0, "")}, want: "work-agent"},
		{name: "the latest writer", entries: []metav1.ManagedFieldsEntry{entry("kubectl-edit", 3, ""), entry("work-agent", 5, "")}, want: "work-agent"},
		{name: "another writer after the agent", entries: []metav1.ManagedFieldsEntry{entry("work-agent", 5, ""), entry("kubectl-edit", 6, "")}, want: "kubectl-edit"},
		{name: "status writes do not count", entries: []metav1.ManagedFieldsEntry{entry("work-agent", 5, ""), entry("kube-controller-manager", 9, "status")}, want: "work-agent"},
		{name: "two writers in one second: unknown", entries: []metav1.ManagedFieldsEntry{entry("work-agent", 5, ""), entry("kubectl-edit", 5, "")}, want: ""},
		{name: "one writer's two operations in one second", entries: []metav1.ManagedFieldsEntry{entry("work-agent", 5, ""), {Manager: "work-agent", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "v1", Time: at(5)}}, want: "work-agent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := object("ns1", "cm1")
			o.ManagedFields = tt.entries
			assert.Equal(t, tt.want, LastWriter(o))
			cached, err := stripMetadata(sharedstrings.New(4))(o.DeepCopy())
			assert.NoError(t, err)
			assert.Equal(t, tt.want, LastWriter(cached.(metav1.Object)), "the cached copy keeps it")
		})
	}
}
