package hub

import (
	"context"
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	workscheme "github.com/manifestwork/work/pkg/client/clientset/versioned/scheme"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/pkg/kubeconn"
)

// replicaSetWorkers is how many replica sets the controller handles at once.
const replicaSetWorkers = 2

// replicaSetAPIs are the APIs the replica set controller reads: its own, and
// OCM's Placements and PlacementDecisions. Each comes from a CRD that may be
// installed after the hub starts.
var replicaSetAPIs = []kubeconn.API{
	{GroupVersion: workv1alpha1.SchemeGroupVersion.String(), Resource: "manifestworkreplicasets", Kind: "ManifestWorkReplicaSet", CRD: true},
	{GroupVersion: clusterv1beta1.SchemeGroupVersion.String(), Resource: "placements", Kind: "Placement", CRD: true},
	{GroupVersion: clusterv1beta1.SchemeGroupVersion.String(), Resource: "placementdecisions", Kind: "PlacementDecision", CRD: true},
}

// apiBackoff spaces the discovery checks while the APIs are missing: from a
// second, doubling, to a minute at the most. Discovery is open to every
// user, so the controller needs no right on CustomResourceDefinitions (OCM's
// work-controller ClusterRole grants none).
var apiBackoff = wait.Backoff{Duration: time.Second, Factor: 2, Jitter: 0.1, Steps: math.MaxInt32, Cap: time.Minute}

// runReplicaSets waits until the hub serves the replica set APIs, then
// starts their informers and runs the controller until ctx is done.
func (h *hub) runReplicaSets(ctx context.Context, w *wiring) {
	logger := klog.FromContext(ctx).WithValues("controller", replicaset.ControllerName)
	ctx = klog.NewContext(ctx, logger)
	if err := waitForAPIs(ctx, h.probeReplicaSetAPIs, apiBackoff); err != nil {
		return // stopped while waiting
	}
	kube, err := kubernetes.NewForConfig(h.Config)
	if err != nil {
		logger.Error(err, "ManifestWorkReplicaSets are not handled: no Kubernetes client")
		return
	}
	events, stopEvents := replicaSetEvents(ctx, kube)
	defer stopEvents()
	d := replicaset.Deps{
		Events:      events,
		Client:      w.client,
		ReplicaSets: w.informers.Work().V1alpha1().ManifestWorkReplicaSets(),
		Works:       w.informers.Work().V1().ManifestWorks(),
		Placements:  w.informers.Cluster().V1beta1().Placements(),
		Decisions:   w.informers.Cluster().V1beta1().PlacementDecisions(),
		Recorder:    w.recorder,
	}
	synced := []cache.InformerSynced{d.ReplicaSets.Informer().HasSynced, d.Works.Informer().HasSynced,
		d.Placements.Informer().HasSynced, d.Decisions.Informer().HasSynced}
	revisions := withRevisions(ctx, kube, &d)
	if revisions != nil {
		synced = append(synced, d.Revisions.Informer().HasSynced)
	}
	if withApprovals(ctx, w, &d) {
		synced = append(synced, d.Approvals.Informer().HasSynced)
	}
	facts := h.withOverrides(ctx, w, kube, &d)
	synced = append(synced, facts.synced...)
	c, err := replicaset.New(d)
	if err != nil {
		logger.Error(err, "ManifestWorkReplicaSets are not handled: the controller cannot be built")
		return
	}
	w.informers.Start(ctx.Done())
	facts.start(ctx)
	defer facts.shutdown()
	if revisions != nil {
		revisions.Start(ctx.Done())
		defer revisions.Shutdown()
	}
	if !cache.WaitForNamedCacheSyncWithContext(ctx, synced...) {
		return
	}
	c.Run(ctx, replicaSetWorkers)
}

// withRevisions gives the controller the hub's ControllerRevisions of
// replica sets (an informer filtered by their label) and returns their
// informer factory, to start; or, when the hub does not let it list them,
// says why in d.RevisionsOff and in the log (once) and returns nil.
func withRevisions(ctx context.Context, kube kubernetes.Interface, d *replicaset.Deps) kubeinformers.SharedInformerFactory {
	if d.RevisionsOff = revisionsOff(ctx, kube); d.RevisionsOff != "" {
		klog.FromContext(ctx).Info("Warning: replica set revisions are not recorded: "+d.RevisionsOff,
			"condition", replicaset.ConditionRevisionsRecorded)
		return nil
	}
	revisions := kubeinformers.NewSharedInformerFactoryWithOptions(kube, informerResync,
		kubeinformers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = revision.ReplicaSetLabel }))
	d.Revisions, d.RevisionClient = revisions.Apps().V1().ControllerRevisions(), kube.AppsV1()
	return revisions
}

// revisionsOff says why the controller cannot keep revisions on this hub:
// its identity may not list ControllerRevisions (as under OCM's
// ClusterManager, whose ClusterRole grants none); "" when it may, or when
// the answer is not a refusal (the informer retries then).
func revisionsOff(ctx context.Context, kube kubernetes.Interface) string {
	_, err := kube.AppsV1().ControllerRevisions("").List(ctx, metav1.ListOptions{LabelSelector: revision.ReplicaSetLabel, Limit: 1})
	if !apierrors.IsForbidden(err) {
		return ""
	}
	return "the hub's identity may not list controllerrevisions (group apps) in all namespaces; grant it get, list, watch, " +
		"create, update, patch and delete on them (work hub's ClusterRole does) and restart work hub; the rollouts go on meanwhile"
}

// withApprovals gives the controller the hub's RolloutApprovals (from the
// shared factory, started with the others) and returns true; or, when the
// hub does not serve them or does not let it list them, says why in
// d.ApprovalsOff and in the log (once) and returns false.
func withApprovals(ctx context.Context, w *wiring, d *replicaset.Deps) bool {
	if d.ApprovalsOff = approvalsOff(ctx, w.client, apiBackoff); d.ApprovalsOff != "" {
		klog.FromContext(ctx).Info("Warning: approval gates of replica sets stay closed: "+d.ApprovalsOff,
			"condition", replicaset.ConditionRolloutWaiting)
		return false
	}
	d.Approvals = w.informers.Fleet().V1alpha1().RolloutApprovals()
	return true
}

// approvalsOff says why the controller cannot keep RolloutApprovals on this
// hub: the CRD is not installed (as under OCM's ClusterManager, which
// installs OCM's only), or its identity may not list them; "" when it may.
// Any other answer (a timeout, an unavailable API server) is no answer: it
// asks again, spaced by backoff, until it gets one or ctx is done ("").
func approvalsOff(ctx context.Context, client workclient.Interface, backoff wait.Backoff) string {
	return fleetAPIOff(ctx, func(ctx context.Context) error {
		_, err := client.FleetV1alpha1().RolloutApprovals("").List(ctx, metav1.ListOptions{Limit: 1})
		return err
	}, "rolloutapprovals", "get, list, watch, create and delete on them", "; the rollouts without approval gates go on", backoff)
}

// fleetAPIOff says why the hub's identity cannot list a resource of our
// fleet.manifestwork.io group with list: the CRD is not installed, or the
// identity may not list it (grant says what to grant, then says what goes
// on meanwhile); "" when it may. Any other answer is no answer: it asks
// again, spaced by backoff, until it gets one or ctx is done ("").
func fleetAPIOff(ctx context.Context, list func(context.Context) error, resource, grant, then string, backoff wait.Backoff) string {
	for {
		err := list(ctx)
		switch {
		case err == nil:
			return ""
		case apierrors.IsNotFound(err):
			return "the hub does not serve " + resource + ".fleet.manifestwork.io: apply manifests/hub/" +
				"fleet.manifestwork.io_" + resource + ".yaml and restart work hub" + then
		case apierrors.IsForbidden(err):
			return "the hub's identity may not list " + resource + " (group fleet.manifestwork.io) in all namespaces; " +
				"grant it " + grant + " (work hub's ClusterRole does; on an OCM hub, deploy/ocm-hub) and restart work hub" + then
		}
		klog.FromContext(ctx).V(2).Info("Asking again whether the hub serves "+resource, "reason", err.Error())
		if !sleepStep(ctx, &backoff) {
			return ""
		}
	}
}

// clusterFacts are the informers of what a cluster's overrides read: OCM's
// ManagedClusters (when the hub serves them) and the hub's namespaces.
type clusterFacts struct {
	namespaces      kubeinformers.SharedInformerFactory // nil: none
	managedClusters cache.SharedIndexInformer           // nil: none
	synced          []cache.InformerSynced
	stop            context.CancelFunc
}

func (f *clusterFacts) start(ctx context.Context) {
	ctx, f.stop = context.WithCancel(ctx)
	if f.namespaces != nil {
		f.namespaces.Start(ctx.Done())
	}
	if f.managedClusters != nil {
		go f.managedClusters.RunWithContext(ctx)
	}
}

func (f *clusterFacts) shutdown() {
	if f.stop != nil {
		f.stop()
	}
	if f.namespaces != nil {
		f.namespaces.Shutdown()
	}
}

// managedClusterAPI is OCM's ManagedCluster, served by a hub where OCM's
// registration runs.
var managedClusterAPI = kubeconn.API{GroupVersion: render.ManagedClusterResource.GroupVersion().String(),
	Resource: render.ManagedClusterResource.Resource, Kind: "ManagedCluster", CRD: true}

// withOverrides gives the controller the hub's WorkOverrides and what
// rules read of a cluster: its ManagedCluster's labels and claims when the
// hub serves ManagedClusters at start, and its namespace's labels. Each
// part the hub does not serve, or does not let the hub's identity list, is
// left out and said once in the log: without WorkOverrides every cluster
// gets the plain template, as OCM's controller writes it.
func (h *hub) withOverrides(ctx context.Context, w *wiring, kube kubernetes.Interface, d *replicaset.Deps) *clusterFacts {
	logger := klog.FromContext(ctx)
	facts := &clusterFacts{}
	if off := fleetAPIOff(ctx, func(ctx context.Context) error {
		_, err := w.client.FleetV1alpha1().WorkOverrides("").List(ctx, metav1.ListOptions{Limit: 1})
		return err
	}, "workoverrides", "get, list and watch them and update and patch workoverrides/status", "; every cluster gets the plain template", apiBackoff); off != "" {
		logger.Info("Warning: WorkOverrides are not applied: " + off)
		return facts
	}
	d.Overrides = w.informers.Fleet().V1alpha1().WorkOverrides()
	facts.synced = append(facts.synced, d.Overrides.Informer().HasSynced)
	if _, err := kube.CoreV1().Namespaces().List(ctx, metav1.ListOptions{Limit: 1}); apierrors.IsForbidden(err) {
		logger.Info("Warning: overrides read no label of a cluster's namespace: the hub's identity may not list namespaces; " +
			"grant it get, list and watch on them (work hub's ClusterRole does; on an OCM hub, deploy/ocm-hub) and restart work hub")
	} else {
		facts.namespaces = kubeinformers.NewSharedInformerFactory(kube, informerResync)
		d.Namespaces = facts.namespaces.Core().V1().Namespaces()
		facts.synced = append(facts.synced, d.Namespaces.Informer().HasSynced)
	}
	if kubeconn.Probe(ctx, h.Hub, h.Config, managedClusterAPI) != nil {
		logger.V(2).Info("The hub serves no ManagedCluster: overrides read the labels of each cluster's namespace")
	} else if informer, off := managedClusterInformer(ctx, h); off != "" {
		logger.Info("Warning: overrides read no ManagedCluster: " + off)
	} else {
		facts.managedClusters, d.ManagedClusters = informer, informer
		facts.synced = append(facts.synced, informer.HasSynced)
	}
	return facts
}

// managedClusterInformer is an informer of OCM's ManagedClusters, or why
// the hub's identity may not list them.
func managedClusterInformer(ctx context.Context, h *hub) (cache.SharedIndexInformer, string) {
	client, err := dynamic.NewForConfig(h.Config)
	if err != nil {
		return nil, err.Error()
	}
	clusters := client.Resource(render.ManagedClusterResource)
	if _, err := clusters.List(ctx, metav1.ListOptions{Limit: 1}); apierrors.IsForbidden(err) {
		return nil, "the hub's identity may not list managedclusters (group cluster.open-cluster-management.io); grant it get, list " +
			"and watch on them (work hub's ClusterRole does; on an OCM hub, deploy/ocm-hub) and restart work hub"
	}
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			return clusters.List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return clusters.Watch(ctx, o)
		},
	}
	return cache.NewSharedIndexInformer(lw, &unstructured.Unstructured{}, informerResync, cache.Indexers{}), ""
}

// eventComponent is the source of the Events on replica sets.
const eventComponent = "work-hub"

// replicaSetEvents returns a recorder of Kubernetes Events on replica sets,
// written in their namespaces, and the function that stops it.
func replicaSetEvents(ctx context.Context, kube kubernetes.Interface) (record.EventRecorder, func()) {
	broadcaster := record.NewBroadcaster(record.WithContext(ctx))
	broadcaster.StartRecordingToSink(&corev1client.EventSinkImpl{Interface: kube.CoreV1().Events("")})
	return broadcaster.NewRecorder(workscheme.Scheme, corev1.EventSource{Component: eventComponent}), broadcaster.Shutdown
}

// probeReplicaSetAPIs asks the hub's discovery whether it serves every
// replica set API; the error names the first one missing.
func (h *hub) probeReplicaSetAPIs(ctx context.Context) error {
	for _, api := range replicaSetAPIs {
		if err := kubeconn.Probe(ctx, h.Hub, h.Config, api); err != nil {
			return err
		}
	}
	return nil
}

// waitForAPIs returns once probe succeeds, or ctx's error once ctx is done.
// It says once, at Info, why it waits, and again when the wait ends.
func waitForAPIs(ctx context.Context, probe func(context.Context) error, backoff wait.Backoff) error {
	logger := klog.FromContext(ctx)
	waited := false
	for {
		err := probe(ctx)
		if err == nil {
			if waited {
				logger.Info("The hub serves the ManifestWorkReplicaSet APIs now: starting the controller")
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !waited {
			logger.Info("ManifestWorkReplicaSets wait: the hub does not serve their APIs yet; the controller starts when it does",
				"reason", err.Error(), "checkedAgainWithin", backoff.Cap)
			waited = true
		} else {
			logger.V(4).Info("Still waiting for the ManifestWorkReplicaSet APIs", "reason", err.Error())
		}
		if !sleepStep(ctx, &backoff) {
			return ctx.Err()
		}
	}
}

// sleepStep waits for the next step of backoff; false when ctx is done first.
func sleepStep(ctx context.Context, backoff *wait.Backoff) bool {
	timer := time.NewTimer(backoff.Step())
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}
