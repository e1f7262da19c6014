package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/openshift/library-go/pkg/operator/events"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	kubeinformers "k8s.io/client-go/informers"
	rbacinformers "k8s.io/client-go/informers/rbac/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

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
	"github.com/manifestwork/work/pkg/startup"
)

// wiring is what the agent's controllers share, made at once by
// newWiring before any of them; nothing changes it afterwards.
type wiring struct {
	agent     appliedwork.Agent // the cluster, hub and agent ID the records name
	clients   *clients
	factories []startup.InformerFactory // hub, managed cluster, RBAC
	informers informers
	router    router               // the controllers' queues, fed by the triggers
	recorder  events.Recorder      // library-go's, only logs
	events    record.EventRecorder // Kubernetes Events on the hub
	records   *records.Store       // what was last applied, shared by apply and record
	writes    workwriter.Shared    // the writes of ManifestWorks on the hub
	objects   *objectwatch.Tracker // the applied objects, watched
	// availability assesses the availability and health of works, for the
	// availability controller and, for works with rules, the feedback one
	availability *availability.Assessor
	executors    *executor.Authorizer
}

type informers struct {
	works   workinformers.ManifestWorkInformer
	applied workinformers.AppliedManifestWorkInformer // this cluster's
	rbac    rbacinformers.Interface                   // the managed cluster's
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

// wire builds the informers and controllers; nothing runs yet.
func (a *agent) wire() (*startup.Controllers, error) {
	c, err := a.clients()
	if err != nil {
		return nil, err
	}
	broadcaster, events := newEventRecorder(c.hub.EventSink())
	w := a.newWiring(c, events)
	controllers, err := a.controllers(w)
	if err != nil {
		broadcaster.Shutdown()
		return nil, err
	}
	return &startup.Controllers{
		Monitors:    []func(context.Context){c.monitors.Run},
		Informers:   w.factories,
		Synced:      []cache.InformerSynced{w.informers.works.Informer().HasSynced, w.informers.applied.Informer().HasSynced},
		Background:  []func(context.Context){w.objects.Run},
		Prepare:     []func(context.Context){w.labelAppliedWorks, w.watchAppliedTypes},
		Controllers: controllers,
		ReadyLog:    []any{"cluster", a.ClusterName, "hub", c.hub.Address(), "agentID", a.AgentID},
		Stop:        broadcaster.Shutdown, // writes the controllers' Events to the hub
	}, nil
}

// newWiring builds the informers, the queues and what the controllers
// share. The hub informers only see the namespace named after this cluster,
// the managed cluster's the AppliedManifestWorks of this cluster.
func (a *agent) newWiring(c *clients, eventRecorder record.EventRecorder) *wiring {
	compact := newCacheCompactor()
	hubInformers := externalversions.NewSharedInformerFactoryWithOptions(c.hub.WatchClient(), informerResync,
		externalversions.WithNamespace(a.ClusterName), externalversions.WithTransform(compact.transform))
	spokeInformers := externalversions.NewSharedInformerFactoryWithOptions(c.watch.spoke, informerResync,
		externalversions.WithTransform(compact.transform),
		externalversions.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = appliedwork.Selector(a.ClusterName) }))
	kubeInformers := kubeinformers.NewSharedInformerFactory(c.watch.kube, informerResync)
	agent := appliedwork.Agent{ClusterName: a.ClusterName, HubHash: appliedwork.HubHash(c.hub.Address()), AgentID: a.AgentID}
	recorder := events.NewLoggingEventRecorder(eventComponent, clock.RealClock{})
	r := newRouter(agent, recorder)
	objects := objectwatch.New(objectwatch.Deps{
		Client: c.watch.metadata, OnChange: r.onObjectChange, OnListed: r.onListed, Linger: objectwatch.DefaultLinger,
		OnRead: r.onRead, OnWatchFailure: r.onWatchFailure,
		Dynamic: c.watch.dynamic, StatusFields: health.Fields,
		MaxWholeWatches: a.MaxFeedbackWatch, OnWholeChange: r.onWholeChange,
	})
	return &wiring{
		agent: agent, clients: c, router: r, recorder: recorder, events: eventRecorder, objects: objects,
		factories: []startup.InformerFactory{hubInformers, spokeInformers, kubeInformers},
		informers: informers{
			works:   hubInformers.Work().V1().ManifestWorks(),
			applied: spokeInformers.Work().V1().AppliedManifestWorks(),
			rbac:    kubeInformers.Rbac().V1(),
		},
		records: records.NewStore(),
		writes: workwriter.Shared{Client: c.hub.Client(), MaxStatusSize: a.MaxStatusSize, Events: eventRecorder,
			Pacing: workwriter.NewPacing(a.StatusSyncInterval)},
		availability: availability.NewAssessor(availability.AssessorDeps{
			Objects: objects, Metadata: c.metadata, Dynamic: c.dynamic, Events: eventRecorder,
		}),
		executors: executor.New(c.kube.AuthorizationV1().SubjectAccessReviews(), executor.NewDryRuns(a.Spoke), a.ExecutorCaching),
	}
}

// works lists the works of this cluster.
func (w *wiring) works() worklisters.ManifestWorkNamespaceLister {
	return w.informers.works.Lister().ManifestWorks(w.agent.ClusterName)
}

// labelAppliedWorks labels the AppliedManifestWorks this agent answers for
// that were written without its cluster label (by OCM's agent, or a version
// of this one from before the label), and waits, bounded, until its
// informer has them: the controllers then start with every record of this
// cluster in their cache. A work whose record is left without it (the
// labelling failed, or the record appeared later) has it labelled when the
// work is applied (the apply finds it when it creates it).
func (w *wiring) labelAppliedWorks(ctx context.Context) {
	label := appliedwork.Starting{Agent: w.agent, Client: w.clients.spoke, Works: w.works(), Labelled: w.informers.applied.Lister()}
	if err := appliedwork.LabelAll(ctx, label, appliedTypesTimeout); err != nil && ctx.Err() == nil {
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
	uses := appliedTypes(w.informers.applied.Lister(), w.works(), w.agent.HubHash)
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

// controllers are the agent's controllers, each with its workers. Each
// takes its queue from the router, which the triggers feed; what the
// apply hears of the outages it declares here too.
func (a *agent) controllers(w *wiring) ([]startup.Controller, error) {
	in, c, q := w.informers, w.clients, w.router
	apply := manifestwork.New(manifestwork.Deps{
		Agent: w.agent, Writes: w.writes, Works: in.works, SpokeClient: c.spoke, AppliedWorks: in.applied,
		Dynamic: c.dynamic, Mapper: manifest.NewMapper(c.discovery), Objects: w.objects,
		Records: w.records, OnRecorded: q.onRecorded, Executors: w.executors, Cluster: c.watch.monitor,
		Recorder: w.recorder, Events: w.events, SyncContext: q.queue(manifestwork.ControllerName),
	})
	q.onOutages(c.monitors, c.watch.monitor, apply, w.works(), in.applied.Lister())
	executorCache, err := executorcache.New(executorcache.Deps{
		RBAC: in.rbac, Invalidator: w.executors, Recorder: w.recorder, Changed: q.onRBACChange(w.works(), w.objects),
	})
	if err != nil {
		return nil, err
	}
	return []startup.Controller{
		{Workers: a.Workers, Controller: apply},
		{Workers: 2, Controller: availability.New(availability.Deps{
			ClusterName: a.ClusterName, Writes: w.writes, Works: in.works, Assessor: w.availability,
			Recorder: w.recorder, SyncContext: q.queue(availability.ControllerName),
		})},
		{Workers: 2, Controller: appliedresources.New(appliedresources.Deps{
			Agent: w.agent, Works: in.works, SpokeClient: c.spoke, AppliedWorks: in.applied,
			Metadata: c.metadata, Objects: w.objects, Records: w.records,
			Recorder: w.recorder, Events: w.events, SyncContext: q.queue(appliedresources.ControllerName),
		})},
		{Workers: 2, Controller: finalize.NewWorkController(finalize.WorkDeps{
			Agent: w.agent, Writes: w.writes, Works: in.works, SpokeClient: c.spoke, AppliedWorks: in.applied,
			Recorder: w.recorder, Events: w.events, SyncContext: q.queue(finalize.ControllerName),
		})},
		{Workers: 2, Controller: finalize.NewAppliedController(finalize.AppliedDeps{
			Agent: w.agent, Writes: w.writes, Works: in.works, SpokeClient: c.spoke, AppliedWorks: in.applied,
			Metadata: c.metadata, Objects: w.objects,
			Recorder: w.recorder, Events: w.events, SyncContext: q.queue(finalize.AppliedControllerName),
		})},
		{Workers: 1, Controller: eviction.New(eviction.Deps{
			Agent: w.agent, GracePeriod: a.EvictionGracePeriod,
			Works: in.works, SpokeClient: c.spoke, AppliedWorks: in.applied, Recorder: w.recorder,
		})},
		{Workers: 1, Controller: executorCache},
		{Workers: 2, Controller: statusfeedback.New(statusfeedback.Deps{
			ClusterName: a.ClusterName, Writes: w.writes, Works: in.works, Dynamic: c.dynamic, Objects: w.objects,
			Feedback: a.Feedback, Rules: conditionrules.NewEvaluator(celCostLimit),
			Interval: a.StatusSyncInterval, Availability: w.availability,
			Recorder: w.recorder, SyncContext: q.queue(statusfeedback.ControllerName),
		})},
	}, nil
}
