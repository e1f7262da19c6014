package hub

import (
	"context"
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
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
	c, err := replicaset.New(d)
	if err != nil {
		logger.Error(err, "ManifestWorkReplicaSets are not handled: the controller cannot be built")
		return
	}
	w.informers.Start(ctx.Done())
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
	const grant = "; the rollouts without approval gates go on"
	for {
		_, err := client.FleetV1alpha1().RolloutApprovals("").List(ctx, metav1.ListOptions{Limit: 1})
		switch {
		case err == nil:
			return ""
		case apierrors.IsNotFound(err):
			return "the hub does not serve rolloutapprovals.fleet.manifestwork.io: apply manifests/hub/" +
				"fleet.manifestwork.io_rolloutapprovals.yaml and restart work hub" + grant
		case apierrors.IsForbidden(err):
			return "the hub's identity may not list rolloutapprovals (group fleet.manifestwork.io) in all namespaces; " +
				"grant it get, list, watch, create and delete on them (work hub's ClusterRole does; on an OCM hub, deploy/ocm-hub) " +
				"and restart work hub" + grant
		}
		klog.FromContext(ctx).V(2).Info("Asking again whether the hub serves RolloutApprovals", "reason", err.Error())
		if !sleepStep(ctx, &backoff) {
			return ""
		}
	}
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
