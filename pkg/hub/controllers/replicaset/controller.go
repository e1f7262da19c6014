// Package replicaset runs ManifestWorkReplicaSets on the hub: one
// ManifestWork per cluster that the replica set's placements select, rolled
// out as its strategy says, and the replica set's status, as OCM v1.3's
// controller (ocm pkg/work/hub/controllers/manifestworkreplicasetcontroller)
// keeps them.
package replicaset

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	appsv1client "k8s.io/client-go/kubernetes/typed/apps/v1"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	clusterinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/cluster/v1beta1"
	fleetinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/fleet/v1alpha1"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/work/v1"
	rsinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/work/v1alpha1"
	clusterlisters "github.com/manifestwork/work/pkg/client/listers/cluster/v1beta1"
	fleetlisters "github.com/manifestwork/work/pkg/client/listers/fleet/v1alpha1"
	rslisters "github.com/manifestwork/work/pkg/client/listers/work/v1alpha1"
	"github.com/manifestwork/work/pkg/metrics"
)

// ControllerName names the controller in logs, events and its queue.
const ControllerName = "ManifestWorkReplicaSetController"

// Index names.
const (
	byPlacement  = "placement"  // replica sets by their placements' keys (placementKey)
	byReplicaSet = "replicaset" // works by the value of their replica set label
)

// Deps are the controller's collaborators.
type Deps struct {
	Client      workclient.Interface // writes works and replica sets on the hub
	ReplicaSets rsinformers.ManifestWorkReplicaSetInformer
	Works       workinformers.ManifestWorkInformer
	Placements  clusterinformers.PlacementInformer
	Decisions   clusterinformers.PlacementDecisionInformer
	Recorder    events.Recorder
	// Events records Kubernetes Events on the replica sets (RolloutStopped);
	// nil sends none.
	Events record.EventRecorder
	Clock  clock.PassiveClock // nil means the real clock
	// Revisions are the hub's ControllerRevisions of replica sets (those with
	// the label revision.ReplicaSetLabel), written with RevisionClient; nil
	// records no revision, and RevisionsOff says why on each replica set
	// (condition RevisionsRecorded), if it is not "".
	Revisions      appsinformers.ControllerRevisionInformer
	RevisionClient appsv1client.ControllerRevisionsGetter
	RevisionsOff   string
	// Approvals are the hub's RolloutApprovals, created with Client; nil
	// keeps every approval gate closed, and ApprovalsOff says why in
	// RolloutWaiting (the CRD is not installed, or the hub refused the right).
	Approvals    fleetinformers.RolloutApprovalInformer
	ApprovalsOff string
	// Overrides are the hub's WorkOverrides, whose rules render each
	// cluster's work; nil renders the template as it is for every cluster.
	Overrides fleetinformers.WorkOverrideInformer
	// ManagedClusters are OCM's ManagedClusters (unstructured, by name),
	// whose labels and claims are a cluster's facts; nil when the hub does
	// not serve them. Namespaces give the labels of a cluster's namespace
	// instead, for a cluster without one; nil gives no label.
	ManagedClusters cache.SharedIndexInformer
	Namespaces      coreinformers.NamespaceInformer
}

// Controller reconciles ManifestWorkReplicaSets.
type Controller struct {
	client      workclient.Interface
	replicaSets rslisters.ManifestWorkReplicaSetLister
	rsIndex     cache.Indexer
	works       cache.Indexer
	placements  clusterlisters.PlacementLister
	decisions   clusterlisters.PlacementDecisionLister
	events      record.EventRecorder
	announced   announcements           // the failed sets of the RolloutStopped Events sent
	aborted     byRevision[abortRecord] // the abort that holds each replica set, whatever the cache shows
	written     writtenStatuses         // the last status written, and what the hub kept of it
	wroteWorks  writtenWorks            // the works updated that the cache may not show yet
	gauges      gauges                  // what each replica set adds to the metrics
	clock       clock.PassiveClock

	revisions      appslisters.ControllerRevisionLister // nil: revisions are not recorded
	revisionClient appsv1client.ControllerRevisionsGetter
	revisionsOff   string                      // why they are not, when the hub refused the right
	blocked        byRevision[blocked]         // the templates whose recording the hub refused
	baked          byRevision[map[string]bool] // the <placement>/<group> whose bake ended, for the current revision

	approvals    fleetlisters.RolloutApprovalLister // nil: approval gates stay closed
	approvalsOff string                             // why, when they are off

	overrideIndex   cache.Indexer // WorkOverrides by the replica set they name; nil: none
	overrideTargets overrideTargets
	wroteOverrides  writtenOverrides
	renders         renderMemos                 // the works rendered by each replica set's last pass
	managedClusters cache.Indexer               // nil: the hub serves no ManagedCluster
	namespaces      corelisters.NamespaceLister // nil: clusters have no labels
}

// New returns the controller, ready to Run. It adds its indexes to the
// replica set and work informers (started or not).
// It is woken by its replica sets, by works with the replica set label, and
// by the Placements and PlacementDecisions its replica sets refer to, and by
// their ControllerRevisions and RolloutApprovals, by the WorkOverrides
// that name them, and, for the replica sets with overrides, by a change to
// a cluster's labels or claims (its ManagedCluster or namespace); a soak time, a progress
// deadline or a bake time queues the replica set again when it ends.
func New(d Deps) (factory.Controller, error) {
	if err := addIndexers(d); err != nil {
		return nil, err
	}
	c := newController(d)
	// A work deleted by anyone takes with it what the controller remembers
	// of its last update (a work it deleted itself was forgotten already).
	if _, err := d.Works.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.wroteWorks.forgetDeleted}); err != nil {
		return nil, err
	}
	syncCtx := factory.NewSyncContext(ControllerName, d.Recorder)
	for _, informer := range []cache.SharedIndexInformer{d.ManagedClusters, namespaceInformer(d)} {
		if informer == nil {
			continue
		}
		if _, err := informer.AddEventHandler(c.factsHandler(syncCtx.Queue())); err != nil {
			return nil, err
		}
	}
	f := factory.New().WithSyncContext(syncCtx).
		WithInformersQueueKeysFunc(objectKey, d.ReplicaSets.Informer()).
		WithFilteredEventsInformersQueueKeysFunc(replicaSetOfWork, hasReplicaSetLabel, d.Works.Informer()).
		WithInformersQueueKeysFunc(c.replicaSetsOfPlacement, d.Placements.Informer()).
		WithInformersQueueKeysFunc(c.replicaSetsOfDecision, d.Decisions.Informer())
	if d.Revisions != nil {
		f = f.WithInformersQueueKeysFunc(replicaSetOfRevision, d.Revisions.Informer())
	}
	if d.Approvals != nil {
		f = f.WithInformersQueueKeysFunc(replicaSetOfApproval, d.Approvals.Informer())
	}
	if d.Overrides != nil {
		f = f.WithInformersQueueKeysFunc(c.replicaSetsOfOverride, d.Overrides.Informer())
	}
	return f.WithSync(metrics.InstrumentSync(ControllerName, c.sync)).
		ToController(ControllerName, d.Recorder), nil
}

// addIndexers adds the controller's indexes to the informers.
func addIndexers(d Deps) error {
	if err := d.ReplicaSets.Informer().AddIndexers(cache.Indexers{byPlacement: indexByPlacement}); err != nil {
		return err
	}
	if d.Overrides != nil {
		if err := d.Overrides.Informer().AddIndexers(cache.Indexers{byOverrideTarget: indexByOverrideTarget}); err != nil {
			return err
		}
	}
	return d.Works.Informer().AddIndexers(cache.Indexers{byReplicaSet: indexByReplicaSet})
}

// namespaceInformer is d's Namespace informer; nil when it has none.
func namespaceInformer(d Deps) cache.SharedIndexInformer {
	if d.Namespaces == nil {
		return nil
	}
	return d.Namespaces.Informer()
}

func newController(d Deps) *Controller {
	clk := d.Clock
	if clk == nil {
		clk = clock.RealClock{}
	}
	c := &Controller{
		client:      d.Client,
		replicaSets: d.ReplicaSets.Lister(),
		rsIndex:     d.ReplicaSets.Informer().GetIndexer(),
		works:       d.Works.Informer().GetIndexer(),
		placements:  d.Placements.Lister(),
		decisions:   d.Decisions.Lister(),
		events:      d.Events,
		clock:       clk,

		revisionClient: d.RevisionClient,
		revisionsOff:   d.RevisionsOff,
		approvalsOff:   d.ApprovalsOff,
	}
	if d.Revisions != nil {
		c.revisions = d.Revisions.Lister()
	}
	if d.Approvals != nil {
		c.approvals = d.Approvals.Lister()
	}
	if d.Overrides != nil {
		c.overrideIndex = d.Overrides.Informer().GetIndexer()
	}
	if d.ManagedClusters != nil {
		c.managedClusters = d.ManagedClusters.GetIndexer()
	}
	if d.Namespaces != nil {
		c.namespaces = d.Namespaces.Lister()
	}
	return c
}

// sync looks the replica set up and reconciles a copy of it, which writes
// its status once, if it changed; then it moves the gauges and sends the
// RolloutStopped Event. A soak time or deadline that ends later queues the
// replica set again for that moment.
func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	key := syncCtx.QueueKey()
	ref, err := cache.ParseObjectName(key)
	if err != nil {
		return nil // not a key of ours; retrying cannot help
	}
	old, err := c.replicaSets.ManifestWorkReplicaSets(ref.Namespace).Get(ref.Name)
	if apierrors.IsNotFound(err) {
		c.announced.forget(ref)
		c.aborted.forget(ref)
		c.gauges.forget(ref)
		c.written.forget(ref)
		c.blocked.forget(ref)
		c.baked.forget(ref)
		c.renders.forget(ref)
		return nil
	}
	if err != nil {
		return err
	}
	logger := klog.FromContext(ctx).WithValues("manifestWorkReplicaSet", klog.KObj(old))
	ctx = klog.NewContext(ctx, logger)

	out, err := c.reconcile(ctx, old.DeepCopy())
	c.report(ref, out)
	if err != nil {
		return err
	}
	if out.recheckAfter > 0 {
		logger.V(4).Info("Rollout waits for the clock", "after", out.recheckAfter)
		syncCtx.Queue().AddAfter(key, out.recheckAfter)
	}
	return nil
}

// report moves the gauges by what the replica set's new status and works
// say, and sends a Warning Event when the set of clusters whose failures
// stopped the rollout changed, or when the pass aborted the rollout.
func (c *Controller) report(ref cache.ObjectName, out outcome) {
	switch {
	case out.deleting:
		c.gauges.forget(ref)
		return
	case out.rs == nil:
		return
	}
	c.gauges.set(ref, snapshotOf(out.next.status.Conditions, isPaused(out.rs), out.next.fleet))
	if out.next.aborted != "" && c.events != nil {
		c.events.Event(out.rs, corev1.EventTypeWarning, EventRolloutAborted, out.next.aborted)
		c.announceAbort(ref, out.next.abortedHash)
	}
	if out.next.stoppedHead == "" {
		c.announced.forget(ref)
		return
	}
	// Remembered even when the status named the set already (after a
	// restart), so that a cache a write behind cannot bring it back.
	if c.announced.first(ref, out.next.stoppedHead) && out.next.stopped != "" && c.events != nil {
		c.events.Event(out.rs, corev1.EventTypeWarning, EventRolloutStopped, out.next.stopped)
	}
}

// writeStatus writes the computed status, unless it equals the cached one
// or is what was written last and the cache holds what the hub kept of it.
func (c *Controller) writeStatus(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet,
	cached, computed workv1alpha1.ManifestWorkReplicaSetStatus) error {
	ref := cache.MetaObjectToName(rs)
	if equality.Semantic.DeepEqual(cached, computed) || c.written.same(ref, cached, computed) {
		return nil
	}
	stored, err := c.patchStatus(ctx, ref, computed)
	if err != nil {
		return err
	}
	c.written.remember(ref, computed, stored)
	return nil
}

// patchStatus writes the whole status with a merge patch: the status is the
// controller's alone, so that a cache one write behind costs no conflict. It
// returns the status as the hub stored it (nil when the replica set is gone).
func (c *Controller) patchStatus(ctx context.Context, ref cache.ObjectName,
	status workv1alpha1.ManifestWorkReplicaSetStatus) (*workv1alpha1.ManifestWorkReplicaSetStatus, error) {
	patch, err := json.Marshal(map[string]any{"status": status})
	if err != nil {
		return nil, err
	}
	stored, err := c.client.WorkV1alpha1().ManifestWorkReplicaSets(ref.Namespace).Patch(ctx, ref.Name, types.MergePatchType, patch,
		metav1.PatchOptions{}, "status")
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &stored.Status, nil
}

// writtenStatuses remember, per replica set, the last status written and
// what the hub stored of it. A hub whose CRD has an older schema (OCM v1.0's
// has no summary.applied, desiredTotal or updated) drops fields of every
// write, so the cached status never equals the one computed: that it is
// what the hub kept of the same status is what tells that nothing changed.
type writtenStatuses struct {
	mu   sync.Mutex
	last map[cache.ObjectName]writtenStatus
}

type writtenStatus struct {
	computed, stored workv1alpha1.ManifestWorkReplicaSetStatus
}

// same tells whether computed was written last for key and cached is what
// the hub stored of it.
func (w *writtenStatuses) same(key cache.ObjectName, cached, computed workv1alpha1.ManifestWorkReplicaSetStatus) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	last, ok := w.last[key]
	return ok && equality.Semantic.DeepEqual(last.computed, computed) && equality.Semantic.DeepEqual(last.stored, cached)
}

func (w *writtenStatuses) remember(key cache.ObjectName, computed workv1alpha1.ManifestWorkReplicaSetStatus, stored *workv1alpha1.ManifestWorkReplicaSetStatus) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if stored == nil {
		delete(w.last, key)
		return
	}
	if w.last == nil {
		w.last = map[cache.ObjectName]writtenStatus{}
	}
	w.last[key] = writtenStatus{computed: *computed.DeepCopy(), stored: *stored.DeepCopy()}
}

func (w *writtenStatuses) forget(key cache.ObjectName) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.last, key)
}

func objectKey(obj runtime.Object) []string {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return nil
	}
	return []string{key}
}

// replicaSetLabelOf is the replica set label of a work (or of the last
// state of a deleted one): the filter, the queue key and the index of works
// all read it here.
func replicaSetLabelOf(obj any) (string, bool) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	w, ok := obj.(*workv1.ManifestWork)
	if !ok {
		return "", false
	}
	v, ok := w.Labels[workv1alpha1.ReplicaSetLabel]
	return v, ok
}

// hasReplicaSetLabel tells whether obj is a work with the replica set label.
func hasReplicaSetLabel(obj any) bool {
	_, ok := replicaSetLabelOf(obj)
	return ok
}

// replicaSetOfWork maps a work to the replica set its label names
// (<namespace>.<name>; namespaces have no dots).
func replicaSetOfWork(obj runtime.Object) []string {
	label, _ := replicaSetLabelOf(obj)
	namespace, name, ok := strings.Cut(label, ".")
	if !ok || namespace == "" || name == "" {
		return nil
	}
	return []string{cache.NewObjectName(namespace, name).String()}
}

func indexByReplicaSet(obj any) ([]string, error) {
	if v, ok := replicaSetLabelOf(obj); ok {
		return []string{v}, nil
	}
	return nil, nil
}

// placementKey is the index key of a placement: its namespace/name.
func placementKey(namespace, name string) string {
	return cache.NewObjectName(namespace, name).String()
}

func indexByPlacement(obj any) ([]string, error) {
	rs, ok := obj.(*workv1alpha1.ManifestWorkReplicaSet)
	if !ok {
		return nil, nil
	}
	keys := make([]string, 0, len(rs.Spec.PlacementRefs))
	for _, ref := range rs.Spec.PlacementRefs {
		keys = append(keys, placementKey(rs.Namespace, ref.Name))
	}
	return keys, nil
}

func (c *Controller) replicaSetsOfPlacement(obj runtime.Object) []string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	return c.replicaSetsReferring(m.GetNamespace(), m.GetName())
}

func (c *Controller) replicaSetsOfDecision(obj runtime.Object) []string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	placement, ok := m.GetLabels()[clusterv1beta1.PlacementLabel]
	if !ok {
		return nil
	}
	return c.replicaSetsReferring(m.GetNamespace(), placement)
}

// replicaSetsReferring are the keys of the replica sets that refer to the
// placement.
func (c *Controller) replicaSetsReferring(namespace, placement string) []string {
	objs, err := c.rsIndex.ByIndex(byPlacement, placementKey(namespace, placement))
	if err != nil {
		return nil
	}
	var keys []string
	for _, o := range objs {
		keys = append(keys, objectKey(o.(runtime.Object))...)
	}
	return keys
}
