// A Cleaner removes one object that an AppliedManifestWork applied from the
// managed cluster, or releases it: the object stays and only loses
// the AppliedManifestWork's owner reference.
//
// Both the controller that prunes resources dropped from a work and the
// controller that finalizes a deleted AppliedManifestWork use it, so that the
// two agree on when an object is still "ours":
//   - the object must be the one recorded: when a UID was recorded, an object
//     of the same name with another UID was created by someone else after ours
//     was gone, and is never touched;
//   - the object must carry an owner reference to the AppliedManifestWork (by
//     UID): objects the agent only reads (ReadOnly) or found in place
//     (CreateOnly) carry none and are never deleted;
//   - an object that another AppliedManifestWork also owns is shared: it is
//     only released, never deleted.
//
// Every write is conditional on what it was decided on: deletes carry a UID
// precondition (and a resourceVersion one when decided on a cached copy), and
// owner patches test the UID and the very reference they remove, so a
// concurrent change makes the write fail, and it is decided again on a fresh
// read, instead of deleting or overwriting something that changed meanwhile.

package appliedwork

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// appliedManifestWorkKind is the owner kind of applied objects.
const appliedManifestWorkKind = "AppliedManifestWork"

// ObjectCache answers from a watch cache what an object's metadata is.
// synced is false when the cache cannot answer and the API must be read; when
// synced is true a nil object means the cache has not seen the object.
// Deleted tells that the watch saw the object with that UID deleted lately.
type ObjectCache interface {
	Get(gvr schema.GroupVersionResource, namespace, name string) (*metav1.PartialObjectMetadata, bool, error)
	Deleted(gvr schema.GroupVersionResource, uid types.UID) bool
}

// Action is what to do with an applied object.
type Action int

const (
	// Delete removes the object, unless another AppliedManifestWork owns it
	// too: then it is released.
	Delete Action = iota
	// Orphan releases the object: it stays, without our owner reference.
	Orphan
)

func (a Action) String() string {
	if a == Orphan {
		return "Orphan"
	}
	return "Delete"
}

// Outcome is where an object stands after Clean.
type Outcome int

const (
	// Gone means the object does not exist, or the name now belongs to another
	// object (different UID) that is not ours to touch.
	Gone Outcome = iota
	// Kept means the object exists and stays, without our owner reference:
	// released now, or never owned by us.
	Kept
	// Deleting means the delete was requested now. The caller waits until the
	// object is Gone; most objects are gone a moment later.
	Deleting
	// Terminating means the object was already being deleted, held by a
	// finalizer or by its dependents. The caller waits until it is Gone.
	Terminating
)

func (o Outcome) String() string {
	switch o {
	case Gone:
		return "Gone"
	case Kept:
		return "Kept"
	case Deleting:
		return "Deleting"
	case Terminating:
		return "Terminating"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Cleaner deletes or releases applied objects. Objects may be nil: every
// read then goes to the API.
type Cleaner struct {
	Client  metadata.Interface
	Objects ObjectCache
}

// Clean applies action to the object res names, for the AppliedManifestWork
// whose UID is owner. res.UID, when set, must be the live object's UID; when
// empty, the owner reference alone identifies the object as ours. A write
// that fails because the object changed is retried once on a fresh read.
// The agent deletes as itself, as OCM's agent does: a work's executor was
// checked, delete included, when the object was applied, and a work whose
// executor lost its rights since can still be deleted.
func (c *Cleaner) Clean(ctx context.Context, owner types.UID, res workv1.AppliedManifestResourceMeta, action Action) (Outcome, error) {
	gvr := GVR(res)
	logger := klog.FromContext(ctx).WithValues("resource", Describe(res), "action", action.String())
	ctx = klog.NewContext(ctx, logger)
	if res.UID != "" && c.Objects != nil && c.Objects.Deleted(gvr, types.UID(res.UID)) {
		// The watch saw the recorded object deleted: gone for sure, without
		// the read that an absence from the cache alone would need.
		return Gone, nil
	}

	live, cached, err := c.lookup(ctx, gvr, res.Namespace, res.Name)
	for attempt := 0; ; attempt++ {
		if err != nil {
			return Gone, err
		}
		if live == nil {
			return Gone, nil
		}
		outcome, cleanErr := c.cleanObject(ctx, gvr, owner, res, live, action, cached)
		if !changedMeanwhile(cleanErr) || attempt > 0 {
			return outcome, cleanErr
		}
		logger.V(4).Info("Object changed while cleaning it up; reading it again", "err", cleanErr)
		// A failed read is returned at the top of the loop: the object is
		// not known to be gone.
		live, err = c.get(ctx, gvr, res.Namespace, res.Name)
		cached = false
	}
}

// changedMeanwhile tells the failures of a conditional write: a precondition
// that no longer holds (Conflict) or a patch test that failed (Invalid).
func changedMeanwhile(err error) bool {
	return apierrors.IsConflict(err) || apierrors.IsInvalid(err)
}

// cleanObject decides on live, as last read, and writes at most once. cached
// says live came from the watch cache, which may be behind.
func (c *Cleaner) cleanObject(ctx context.Context, gvr schema.GroupVersionResource, owner types.UID,
	res workv1.AppliedManifestResourceMeta, live *metav1.PartialObjectMetadata, action Action, cached bool) (Outcome, error) {
	logger := klog.FromContext(ctx)
	if res.UID != "" && live.UID != types.UID(res.UID) {
		logger.V(2).Info("Leaving an object recreated by someone else alone", "recordedUID", res.UID, "liveUID", live.UID)
		return Gone, nil
	}
	if !OwnedBy(live, owner) {
		logger.V(2).Info("Leaving an object we do not own alone", "uid", live.UID)
		return Kept, nil
	}
	if action == Orphan || ownedByOtherAppliedWork(live, owner) {
		if err := c.release(ctx, gvr, live, owner); err != nil {
			return Kept, err
		}
		return Kept, nil
	}
	if live.DeletionTimestamp != nil {
		logger.V(4).Info("Waiting for a terminating object", "finalizers", live.Finalizers)
		return Terminating, nil
	}
	return c.delete(ctx, gvr, live, cached)
}

// delete removes live, and never another object of the same name: the
// delete is conditional on its UID. When live came from the cache, it is
// also conditional on its resourceVersion, since a cached copy may miss an
// owner added since; a fresh read is trusted as it is, so that objects whose
// status changes all the time (a Deployment scaling) can still be deleted.
// Dependents are collected in the background, like `kubectl delete`.
func (c *Cleaner) delete(ctx context.Context, gvr schema.GroupVersionResource, live *metav1.PartialObjectMetadata, cached bool) (Outcome, error) {
	uid := live.UID
	preconditions := &metav1.Preconditions{UID: &uid}
	if cached {
		rv := live.ResourceVersion
		preconditions.ResourceVersion = &rv
	}
	background := metav1.DeletePropagationBackground
	opts := metav1.DeleteOptions{Preconditions: preconditions, PropagationPolicy: &background}
	err := c.resource(gvr, live.Namespace).Delete(ctx, live.Name, opts)
	if apierrors.IsNotFound(err) {
		return Gone, nil
	}
	if err != nil {
		return Deleting, fmt.Errorf("deleting %s %s: %w", gvr.Resource, cache.NewObjectName(live.Namespace, live.Name), err)
	}
	klog.FromContext(ctx).Info("Deleted applied object", "uid", uid)
	return Deleting, nil
}

// release removes our owner references from live and keeps every other one.
// It is a JSON patch that first tests the object's UID and that each entry
// it removes is still ours at that index, so a concurrent change of the
// owners makes it fail rather than drop someone else's reference, while
// changes elsewhere in the object (status) do not get in its way.
func (c *Cleaner) release(ctx context.Context, gvr schema.GroupVersionResource, live *metav1.PartialObjectMetadata, owner types.UID) error {
	type op struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value,omitempty"`
	}
	ops := []op{{Op: "test", Path: "/metadata/uid", Value: live.UID}}
	refs := live.OwnerReferences
	// From the last to the first, so that each removal leaves the indexes of
	// the ones still to remove unchanged.
	for i := len(refs) - 1; i >= 0; i-- {
		if refs[i].UID != owner {
			continue
		}
		path := fmt.Sprintf("/metadata/ownerReferences/%d", i)
		ops = append(ops, op{Op: "test", Path: path + "/uid", Value: owner}, op{Op: "remove", Path: path})
	}
	patch, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = c.resource(gvr, live.Namespace).Patch(ctx, live.Name, types.JSONPatchType, patch, metav1.PatchOptions{})
	if apierrors.IsNotFound(err) {
		return nil // nothing left to release
	}
	if err != nil {
		return fmt.Errorf("removing owner reference from %s %s: %w", gvr.Resource, cache.NewObjectName(live.Namespace, live.Name), err)
	}
	klog.FromContext(ctx).Info("Released applied object", "uid", live.UID)
	return nil
}

// Lookup reads an object's metadata from the cache when the cache has it,
// and from the API otherwise; nil when it does not exist. A cache that has
// not seen an object may simply be behind, and "gone" must be sure before
// anything is decided on it.
func (c *Cleaner) Lookup(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*metav1.PartialObjectMetadata, error) {
	obj, _, err := c.lookup(ctx, gvr, namespace, name)
	return obj, err
}

// lookup is Lookup, telling also whether the object came from the cache.
func (c *Cleaner) lookup(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (obj *metav1.PartialObjectMetadata, cached bool, err error) {
	if c.Objects != nil {
		hit, synced, cacheErr := c.Objects.Get(gvr, namespace, name)
		if cacheErr != nil {
			klog.FromContext(ctx).V(2).Info("Cannot read the object cache; reading the API", "err", cacheErr)
		} else if synced && hit != nil {
			return hit, true, nil
		}
	}
	obj, err = c.get(ctx, gvr, namespace, name)
	return obj, false, err
}

// get reads the object from the API; nil when it does not exist.
func (c *Cleaner) get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*metav1.PartialObjectMetadata, error) {
	obj, err := c.resource(gvr, namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s %s: %w", gvr.Resource, cache.NewObjectName(namespace, name), err)
	}
	return obj, nil
}

func (c *Cleaner) resource(gvr schema.GroupVersionResource, namespace string) metadata.ResourceInterface {
	if namespace == "" {
		return c.Client.Resource(gvr)
	}
	return c.Client.Resource(gvr).Namespace(namespace)
}

// OwnedBy reports whether obj has an owner reference to the
// AppliedManifestWork whose UID is owner.
func OwnedBy(obj metav1.Object, owner types.UID) bool {
	return slices.ContainsFunc(obj.GetOwnerReferences(), func(ref metav1.OwnerReference) bool {
		return ref.UID == owner
	})
}

// ownedByOtherAppliedWork reports whether another AppliedManifestWork, of
// any hub or agent, owns obj too.
func ownedByOtherAppliedWork(obj metav1.Object, owner types.UID) bool {
	return slices.ContainsFunc(obj.GetOwnerReferences(), func(ref metav1.OwnerReference) bool {
		return ref.UID != owner && isAppliedManifestWorkRef(ref)
	})
}

func isAppliedManifestWorkRef(ref metav1.OwnerReference) bool {
	if ref.Kind != appliedManifestWorkKind {
		return false
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	return err == nil && gv.Group == workv1.GroupName
}

// GVR is the resource type of an applied resource.
func GVR(res workv1.AppliedManifestResourceMeta) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: res.Group, Version: res.Version, Resource: res.Resource}
}

// Describe names an applied resource for people, as
// "deployments apps/v1 default/web" or "namespaces v1 web".
func Describe(res workv1.AppliedManifestResourceMeta) string {
	return fmt.Sprintf("%s %s %s", res.Resource, GVR(res).GroupVersion().String(), cache.NewObjectName(res.Namespace, res.Name))
}
