package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/apply/records"
	"github.com/manifestwork/work/pkg/agent/controllers/appliedresources"
	"github.com/manifestwork/work/pkg/agent/controllers/availability"
	"github.com/manifestwork/work/pkg/agent/controllers/eviction"
	"github.com/manifestwork/work/pkg/agent/controllers/executorcache"
	"github.com/manifestwork/work/pkg/agent/controllers/finalize"
	"github.com/manifestwork/work/pkg/agent/controllers/manifestwork"
	"github.com/manifestwork/work/pkg/agent/controllers/statusfeedback"
	"github.com/manifestwork/work/pkg/agent/executor"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	"github.com/manifestwork/work/pkg/agent/status/conditionrules"
	"github.com/manifestwork/work/pkg/agent/status/health"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	workscheme "github.com/manifestwork/work/pkg/client/clientset/versioned/scheme"
	"github.com/manifestwork/work/pkg/client/informers/externalversions"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/kubeconn/outage"
	"github.com/manifestwork/work/pkg/manifest"
)

// wiring is everything the active replica runs.
type wiring struct {
	// factories are the informer factories: ManifestWorks on the hub, this
	// cluster's AppliedManifestWorks, RBAC of the managed cluster.
	factories    []informerFactory
	synced       []cache.InformerSynced
	labelApplied appliedwork.Starting // labels the records without it, before the controllers start
	objects      *objectwatch.Tracker
	appliedTypes func() []objectwatch.Use // types and namespaces the AppliedManifestWorks record
	monitors     outage.Monitors          // run them before the informers
	controllers  []runnable
	background   []func(context.Context) // run beside the controllers
	events       record.EventBroadcaster // writes the controllers' Events to the hub; shut it down
	hubAddress   string                  // for the logs
}

type informerFactory interface {
	Start(stop <-chan struct{})
	Shutdown()
}

type runnable struct {
	controller factory.Controller
	workers    int
}

// clients are the API clients of the hub and the managed cluster.
type clients struct {
	hub       hubConnection
	spoke     versioned.Interface
	kube      kubernetes.Interface // the managed cluster
	dynamic   dynamic.Interface
	metadata  metadata.Interface
	discovery discovery.DiscoveryInterface
	watch     *watchClients // the managed cluster's informers'
	// monitors tell when the hub or the managed cluster answers again
	monitors outage.Monitors
}

func (a *agent) clients() (*clients, error) {
	var c clients
	var err error
	if c.hub, err = dialHub(a.agentDeps); err != nil {
		return nil, err
	}
	if c.spoke, err = versioned.NewForConfig(a.Spoke); err != nil {
		return nil, fmt.Errorf("managed cluster client: %w", err)
	}
	if c.kube, err = kubernetes.NewForConfig(a.Spoke); err != nil {
		return nil, fmt.Errorf("managed cluster client: %w", err)
	}
	if c.dynamic, err = dynamic.NewForConfig(a.Spoke); err != nil {
		return nil, fmt.Errorf("managed cluster client: %w", err)
	}
	if c.metadata, err = metadata.NewForConfig(a.Spoke); err != nil {
		return nil, fmt.Errorf("managed cluster client: %w", err)
	}
	if c.discovery, err = discovery.NewDiscoveryClientForConfig(a.Spoke); err != nil {
		return nil, fmt.Errorf("managed cluster client: %w", err)
	}
	if c.watch, err = newWatchClients(a.Spoke); err != nil {
		return nil, err
	}
	c.monitors = outage.Monitors{c.hub.Monitor(), c.watch.monitor}
	return &c, nil
}

// celCostLimit bounds the runtime cost of one CEL expression of a condition
// rule (OCM's per-call limit), so that a rule cannot stall a worker.
const celCostLimit = 1_000_000

// wire builds the informers and controllers. The hub informers only see the
// namespace named after this cluster. Once it returns a wiring, the caller
// shuts its events down.
func (a *agent) wire() (w *wiring, err error) {
	c, err := a.clients()
	if err != nil {
		return nil, err
	}
	broadcaster, recorder := newEventRecorder(c.hub.EventSink())
	defer func() {
		if err != nil {
			broadcaster.Shutdown()
		}
	}()
	compact := newCacheCompactor()
	hubInformers := externalversions.NewSharedInformerFactoryWithOptions(c.hub.WatchClient(), informerResync,
		externalversions.WithNamespace(a.ClusterName), externalversions.WithTransform(compact.transform))
	spokeInformers := externalversions.NewSharedInformerFactoryWithOptions(c.watch.spoke, informerResync,
		externalversions.WithTransform(compact.transform),
		externalversions.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = appliedwork.Selector(a.ClusterName) }))
	kubeInformers := kubeinformers.NewSharedInformerFactory(c.watch.kube, informerResync) // RBAC
	w = &wiring{
		events: broadcaster, monitors: c.monitors, hubAddress: c.hub.Address(),
		factories: []informerFactory{hubInformers, spokeInformers, kubeInformers},
	}
	in := informers{
		works:   hubInformers.Work().V1().ManifestWorks(),
		applied: spokeInformers.Work().V1().AppliedManifestWorks(),
	}
	w.synced = []cache.InformerSynced{in.works.Informer().HasSynced, in.applied.Informer().HasSynced}

	q := newQueues(recorder)
	q.records = records.NewStore()
	q.writes = workwriter.Shared{Client: c.hub.Client(), MaxStatusSize: a.MaxStatusSize, Events: recorder, Pacing: workwriter.NewPacing(a.StatusSyncInterval)}
	agent := appliedwork.Agent{ClusterName: a.ClusterName, HubHash: appliedwork.HubHash(c.hub.Address()), AgentID: a.AgentID}
	w.labelApplied = appliedwork.Starting{
		Agent: agent, Client: c.spoke,
		Works: in.works.Lister().ManifestWorks(a.ClusterName), Labelled: in.applied.Lister(),
	}
	w.appliedTypes = func() []objectwatch.Use {
		return appliedTypes(in.applied.Lister(), in.works.Lister().ManifestWorks(a.ClusterName), agent.HubHash)
	}
	w.objects = objectwatch.New(objectwatch.Deps{
		Client: c.watch.metadata, OnChange: q.onObjectChange(agent), OnListed: q.onListed(agent), Linger: objectwatch.DefaultLinger,
		OnRead: func(key string) { q.apply.Queue().Add(key) }, OnWatchFailure: q.onWatchFailure(a.ClusterName),
		Dynamic: c.watch.dynamic, StatusFields: health.Fields,
		MaxWholeWatches: a.MaxFeedbackWatch, OnWholeChange: func(key string) { q.feedback.Queue().Add(key) },
	})
	q.availability = availability.NewAssessor(availability.AssessorDeps{
		Objects: w.objects, Metadata: c.metadata, Dynamic: c.dynamic, Events: q.events,
	})
	executors := executor.New(c.kube.AuthorizationV1().SubjectAccessReviews(), executor.NewDryRuns(a.Spoke), a.ExecutorCaching)
	apply := manifestwork.New(manifestwork.Deps{
		Agent: agent, Writes: q.writes, Works: in.works, SpokeClient: c.spoke, AppliedWorks: in.applied,
		Dynamic: c.dynamic, Mapper: manifest.NewMapper(c.discovery), Objects: w.objects,
		Records: q.records, OnRecorded: q.onRecorded,
		Executors: executors, Recorder: q.recorder, Events: q.events, SyncContext: q.apply,
		Cluster: c.watch.monitor,
	})
	q.onOutages(c.monitors, c.watch.monitor, apply, in)
	w.controllers = append([]runnable{{workers: a.Workers, controller: apply}}, a.controllers(c, in, q, w.objects, agent)...)
	executorCache, err := executorcache.New(executorcache.Deps{
		RBAC: kubeInformers.Rbac().V1(), Invalidator: executors, Recorder: q.recorder,
		Changed: q.onRBACChange(in.works.Lister().ManifestWorks(a.ClusterName), agent, w.objects),
	})
	if err != nil {
		return nil, err
	}
	w.controllers = append(w.controllers, runnable{workers: 1, controller: executorCache})
	feedbackController := statusfeedback.New(statusfeedback.Deps{
		ClusterName: a.ClusterName, Writes: q.writes, Works: in.works, Dynamic: c.dynamic, Objects: w.objects,
		Feedback: a.Feedback, Rules: conditionrules.NewEvaluator(celCostLimit),
		Interval: a.StatusSyncInterval, Availability: q.availability,
		Recorder: q.recorder, SyncContext: q.feedback,
	})
	w.controllers = append(w.controllers, runnable{workers: 2, controller: feedbackController})
	w.background = append(w.background, w.objects.Run)
	return w, nil
}

// labelAppliedWorks labels the AppliedManifestWorks this agent answers for
// that were written without its cluster label (by OCM's agent, or a version
// of this one from before the label), and waits, bounded, until its
// informer has them: the controllers then start with every record of this
// cluster in their cache. A work whose record is left without it (the
// labelling failed, or the record appeared later) has it labelled when the
// work is applied (the apply finds it when it creates it).
func (w *wiring) labelAppliedWorks(ctx context.Context) {
	if err := appliedwork.LabelAll(ctx, w.labelApplied, appliedTypesTimeout); err != nil && ctx.Err() == nil {
		klog.FromContext(ctx).Info("Not every AppliedManifestWork could be labelled in time; starting anyway", "err", err)
	}
}

// appliedTypesUser holds, while the agent starts, the watches of the types
// its AppliedManifestWorks record.
const appliedTypesUser = "agent-start"

// appliedTypesTimeout bounds the wait for those watches: a type that cannot
// be listed (its CRD gone, or no longer allowed) must not hold the agent.
const appliedTypesTimeout = 30 * time.Second

// watchAppliedTypes starts watching every type the AppliedManifestWorks of
// this agent record, in the namespaces they record, and waits, bounded,
// until those caches have synced, so that the controllers, once they start,
// find every applied object in a cache: a restarted agent then tells
// unchanged objects from drifted ones without reading them. The works take
// the watches over as they are reconciled (an unused watch lingers, see
// objectwatch.DefaultLinger).
func (w *wiring) watchAppliedTypes(ctx context.Context) {
	uses := w.appliedTypes()
	if len(uses) == 0 {
		return
	}
	w.objects.SetUses(appliedTypesUser, uses)
	defer w.objects.SetUses(appliedTypesUser, nil)
	waitCtx, cancel := context.WithTimeout(ctx, appliedTypesTimeout)
	defer cancel()
	if !w.objects.WaitForSync(waitCtx, uses) && ctx.Err() == nil {
		klog.FromContext(ctx).Info("Not every applied resource type could be watched in time; starting anyway", "types", len(uses))
	}
}

// appliedTypes lists the resource types, and their namespaces, that the
// AppliedManifestWorks of hubHash record for the works of this cluster: the
// objects the agent is about to look at. Records of the same hub for works
// elsewhere are other agents' sharing the managed cluster.
func appliedTypes(applied worklisters.AppliedManifestWorkLister, works worklisters.ManifestWorkNamespaceLister, hubHash string) []objectwatch.Use {
	all, err := applied.List(labels.Everything())
	if err != nil {
		return nil
	}
	seen := map[objectwatch.Use]bool{}
	var uses []objectwatch.Use
	for _, amw := range all {
		if amw.Spec.HubHash != hubHash {
			continue
		}
		if _, err := works.Get(amw.Spec.ManifestWorkName); err != nil {
			continue
		}
		for _, r := range amw.Status.AppliedResources {
			u := objectwatch.Use{
				Resource:  schema.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Resource},
				Namespace: r.Namespace,
			}
			if !seen[u] {
				seen[u] = true
				uses = append(uses, u)
			}
		}
	}
	return uses
}

type informers struct {
	works   workinformers.ManifestWorkInformer
	applied workinformers.AppliedManifestWorkInformer // this cluster's
}

// eventComponent is the source of the agent's Events.
const eventComponent = "work-agent"

// newEventRecorder returns a recorder of Kubernetes Events on ManifestWorks,
// which the broadcaster writes to the hub's sink, in each work's namespace,
// until it is shut down.
func newEventRecorder(sink record.EventSink) (record.EventBroadcaster, record.EventRecorder) {
	broadcaster := record.NewBroadcaster()
	broadcaster.StartRecordingToSink(sink)
	return broadcaster, broadcaster.NewRecorder(workscheme.Scheme, corev1.EventSource{Component: eventComponent})
}

// controllers are the agent's controllers but the ManifestWork one, each
// with its workers.
func (a *agent) controllers(c *clients, in informers, q queues, objects *objectwatch.Tracker, agent appliedwork.Agent) []runnable {
	return []runnable{
		{workers: 2, controller: availability.New(availability.Deps{
			ClusterName: a.ClusterName, Writes: q.writes, Works: in.works, Assessor: q.availability,
			Recorder: q.recorder, SyncContext: q.available,
		})},
		{workers: 2, controller: appliedresources.New(appliedresources.Deps{
			Agent: agent,
			Works: in.works, SpokeClient: c.spoke, AppliedWorks: in.applied,
			Metadata: c.metadata, Objects: objects, Records: q.records,
			Recorder: q.recorder, Events: q.events, SyncContext: q.record,
		})},
		{workers: 2, controller: finalize.NewWorkController(finalize.WorkDeps{
			Agent:  agent,
			Writes: q.writes, Works: in.works, SpokeClient: c.spoke, AppliedWorks: in.applied,
			Recorder: q.recorder, Events: q.events, SyncContext: q.finalize,
		})},
		{workers: 2, controller: finalize.NewAppliedController(finalize.AppliedDeps{
			Agent:  agent,
			Writes: q.writes, Works: in.works, SpokeClient: c.spoke, AppliedWorks: in.applied,
			Metadata: c.metadata, Objects: objects,
			Recorder: q.recorder, Events: q.events, SyncContext: q.done,
		})},
		{workers: 1, controller: eviction.New(eviction.Deps{
			Agent: agent, GracePeriod: a.EvictionGracePeriod,
			Works: in.works, SpokeClient: c.spoke, AppliedWorks: in.applied, Recorder: q.recorder,
		})},
	}
}
