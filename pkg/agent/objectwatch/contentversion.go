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

// The cached copy of an object keeps its ContentVersion, in hexadecimal, in
// its selfLink: the cache drops managedFields, from which it is computed.
// API servers have not set selfLink since Kubernetes 1.20, and ignore it in
// what they are sent; one that still does sets a path, which starts with a
// slash and so is never read as a version. The field is already in every
// cached object, so the version costs its 16 bytes and nothing else (an
// annotation map of one entry cost about 350 bytes an object).
func setCachedContentVersion(obj metav1.Object, version uint64) {
	obj.SetSelfLink(strconv.FormatUint(version, 16))
}

// cachedContentVersion is the version setCachedContentVersion kept on obj.
func cachedContentVersion(obj metav1.Object) (uint64, bool) {
	link := obj.GetSelfLink()
	if link == "" || strings.HasPrefix(link, "/") {
		return 0, false
	}
	v, err := strconv.ParseUint(link, 16, 64)
	return v, err == nil
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
	if v, ok := cachedContentVersion(obj); ok {
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
