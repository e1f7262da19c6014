package objectwatch

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// appliedManifestWorkKind is the owner kind that marks an object as applied
// by this agent.
const appliedManifestWorkKind = "AppliedManifestWork"

// driftHandler turns informer events into OnChange calls for the
// AppliedManifestWorks owning the changed objects.
type driftHandler struct {
	logger   klog.Logger
	onChange func(appliedManifestWorkName string)
	onAdd    func(namespace, name string)                // every add, the initial list's included; may be nil
	onObject func(namespace, name string)                // every update or deletion, owned or not; may be nil
	deleted  func(uid types.UID, namespace, name string) // records every deletion seen, ours or not
	// wrote tells, and forgets, that the agent's own write made this
	// resourceVersion of the object; may be nil.
	wrote func(namespace, name, resourceVersion string) bool
}

var _ cache.ResourceEventHandler = driftHandler{}

// OnAdd tells onAdd, for the readers of whole objects, that the object
// they wait for is there. The owners of the objects of the initial list are
// told once the cache has synced (gvrInformer.tellListed), not here. A
// later add of an owned object calls OnChange, unless it is the agent's own
// create (wrote): the agent knows about its own writes, but not about an
// object someone else created with its owner reference, nor about one that
// a relist after a watch gap found already changed.
func (h driftHandler) OnAdd(obj interface{}, isInInitialList bool) {
	m, err := meta.Accessor(obj)
	if err != nil {
		h.logger.Error(err, "Ignoring add event without object metadata", "type", fmt.Sprintf("%T", obj))
		return
	}
	if h.onAdd != nil {
		h.onAdd(m.GetNamespace(), m.GetName())
	}
	owners := appliedManifestWorkOwners(m)
	if len(owners) == 0 || isInInitialList {
		return
	}
	if h.wrote != nil && h.wrote(m.GetNamespace(), m.GetName(), m.GetResourceVersion()) {
		return
	}
	h.notify("added", m, owners)
}

// OnUpdate reports the owners of an object whose resourceVersion changed.
// Equal versions mean nothing changed on the server (a resync replay). The
// owners before the update are reported too: if someone removed our owner
// reference, the work that lost the object must notice.
func (h driftHandler) OnUpdate(oldObj, newObj interface{}) {
	oldMeta, err := meta.Accessor(oldObj)
	if err != nil {
		h.logger.Error(err, "Ignoring update event without object metadata", "type", fmt.Sprintf("%T", oldObj))
		return
	}
	newMeta, err := meta.Accessor(newObj)
	if err != nil {
		h.logger.Error(err, "Ignoring update event without object metadata", "type", fmt.Sprintf("%T", newObj))
		return
	}
	if oldMeta.GetResourceVersion() == newMeta.GetResourceVersion() {
		return
	}
	if h.wrote != nil {
		h.wrote(newMeta.GetNamespace(), newMeta.GetName(), newMeta.GetResourceVersion()) // forgets it
	}
	h.notify("updated", newMeta, appliedManifestWorkOwners(oldMeta, newMeta))
	h.object(newMeta)
}

// OnDelete reports the owners of a deleted object. When the informer missed
// the delete event (watch gap, then relist), it hands over a tombstone holding
// the last state it knew, which still names the owners.
func (h driftHandler) OnDelete(obj interface{}) {
	m, err := deletedObjectMeta(obj)
	if err != nil {
		h.logger.Error(err, "Ignoring delete event without object metadata")
		return
	}
	if h.deleted != nil {
		h.deleted(m.GetUID(), m.GetNamespace(), m.GetName())
	}
	h.notify("deleted", m, appliedManifestWorkOwners(m))
	h.object(m)
}

// object tells onObject of a change of obj.
func (h driftHandler) object(obj metav1.Object) {
	if h.onObject != nil {
		h.onObject(obj.GetNamespace(), obj.GetName())
	}
}

// notify calls OnChange once per owner.
func (h driftHandler) notify(change string, obj metav1.Object, owners []string) {
	if len(owners) == 0 {
		return
	}
	h.logger.V(4).Info("Applied object changed", "change", change,
		"object", klog.KObj(obj), "resourceVersion", obj.GetResourceVersion(), "owners", owners)
	for _, name := range owners {
		h.onChange(name)
	}
}

// deletedObjectMeta returns the metadata of the object of a delete event,
// unwrapping a tombstone if there is one.
func deletedObjectMeta(obj interface{}) (metav1.Object, error) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		m, err := meta.Accessor(tombstone.Obj)
		if err != nil {
			return nil, fmt.Errorf("tombstone %q holds %T: %w", tombstone.Key, tombstone.Obj, err)
		}
		return m, nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, fmt.Errorf("delete event holds %T: %w", obj, err)
	}
	return m, nil
}

// appliedManifestWorkOwners returns the sorted, distinct names of the
// AppliedManifestWorks owning any of objs. Any version of the work API group
// counts, since owner references keep the version they were written with.
func appliedManifestWorkOwners(objs ...metav1.Object) []string {
	var names []string
	for _, obj := range objs {
		for _, ref := range obj.GetOwnerReferences() {
			if isAppliedManifestWorkRef(ref) {
				names = append(names, ref.Name)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

func isAppliedManifestWorkRef(ref metav1.OwnerReference) bool {
	if ref.Kind != appliedManifestWorkKind || ref.Name == "" {
		return false
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	return err == nil && gv.Group == workv1.GroupName
}
