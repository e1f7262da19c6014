package objectwatch

import (
	"cmp"
	"encoding/binary"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The cached copy of an object keeps its ContentVersion, in hexadecimal,
// and its LastWriter, after a space, in its selfLink: the cache drops
// managedFields, from which both are computed. API servers have not set
// selfLink since Kubernetes 1.20, and ignore it in what they are sent; one
// that still does sets a path, which starts with a slash and so is never
// read as a version. The field is already in every cached object, so the
// version costs its 16 bytes and the writer's name its own (an annotation
// map of one entry cost about 350 bytes an object).
func setCachedContentVersion(obj metav1.Object, version uint64, lastWriter string) {
	obj.SetSelfLink(strconv.FormatUint(version, 16) + " " + lastWriter)
}

// cachedContentVersion is the version and last writer that
// setCachedContentVersion kept on obj.
func cachedContentVersion(obj metav1.Object) (uint64, string, bool) {
	link := obj.GetSelfLink()
	if link == "" || strings.HasPrefix(link, "/") {
		return 0, "", false
	}
	hex, writer, _ := strings.Cut(link, " ")
	v, err := strconv.ParseUint(hex, 16, 64)
	return v, writer, err == nil
}

// LastWriter is the field manager that last changed obj, status writes
// aside: the manager of the managedFields entry with the latest time. It is
// "" when that is not known: no managedFields, or entries of several
// managers share the latest time (entries keep seconds only). An object
// whose last writer is the agent's field manager has not been changed by
// anybody else since the agent last wrote it.
//
// obj may be a full object or a cached copy from a Tracker.
func LastWriter(obj metav1.Object) string {
	if _, writer, ok := cachedContentVersion(obj); ok {
		return writer
	}
	return computeLastWriter(obj)
}

func computeLastWriter(obj metav1.Object) string {
	var writer string
	var latest time.Time
	for _, e := range obj.GetManagedFields() {
		if e.Subresource == statusSubresource || e.Time == nil {
			continue
		}
		switch t := e.Time.UTC(); {
		case writer == "" || t.After(latest):
			writer, latest = e.Manager, t
		case t.Equal(latest) && e.Manager != writer:
			return "" // two writers within the same second: either may be last
		}
	}
	return writer
}

// statusSubresource is the subresource whose writes ContentVersion ignores.
const statusSubresource = "status"

// ContentVersion is a version of obj that moves with every write of anything
// but its status. Unlike the resourceVersion, it stays put while the
// object's controllers write its status, so "has anyone changed what the
// work applied since the agent last looked?" is answered without reading
// the object, also by an agent that restarted meanwhile.
//
// It hashes the UID, the generation, whether the object is being deleted,
// and the managedFields entries of every writer but status writers. The API
// server updates a writer's entry (its fields and time) whenever that writer
// changes the object, and takes a field away from a writer whose value
// another changed or removed, so any such change shows; but its time has
// seconds only, and one writer setting a field back within the same second
// (kubectl patch twice) leaves the entry as it was. An object of a kind
// without status (no generation, no status writer: a ConfigMap, a Secret)
// moves its resourceVersion only when it is written, so for it, and for an
// object without managedFields, the resourceVersion is hashed too.
//
// obj may be a full object or a cached copy from a Tracker.
func ContentVersion(obj metav1.Object) uint64 {
	if v, _, ok := cachedContentVersion(obj); ok {
		return v
	}
	return computeContentVersion(obj)
}

func computeContentVersion(obj metav1.Object) uint64 {
	h := fnv.New64a()
	write := func(s string) {
		_, _ = h.Write([]byte(s))
		_, _ = h.Write([]byte{0})
	}
	write(string(obj.GetUID()))
	_, _ = h.Write(binary.BigEndian.AppendUint64(nil, uint64(obj.GetGeneration())))
	write(strconv.FormatBool(obj.GetDeletionTimestamp() != nil))
	entries := slices.DeleteFunc(slices.Clone(obj.GetManagedFields()), func(e metav1.ManagedFieldsEntry) bool {
		return e.Subresource == statusSubresource
	})
	if len(obj.GetManagedFields()) == 0 || (obj.GetGeneration() == 0 && len(entries) == len(obj.GetManagedFields())) {
		write(obj.GetResourceVersion())
	}
	slices.SortFunc(entries, func(a, b metav1.ManagedFieldsEntry) int {
		return cmp.Or(cmp.Compare(a.Manager, b.Manager), cmp.Compare(a.Operation, b.Operation),
			cmp.Compare(a.APIVersion, b.APIVersion), cmp.Compare(a.Subresource, b.Subresource))
	})
	for _, e := range entries {
		write(e.Manager)
		write(string(e.Operation))
		write(e.APIVersion)
		write(e.Subresource)
		if e.Time != nil {
			write(e.Time.UTC().Format(time.RFC3339))
		}
		if e.FieldsV1 != nil {
			write(string(e.FieldsV1.Raw))
		}
	}
	return h.Sum64()
}
