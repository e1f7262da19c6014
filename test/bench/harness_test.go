//go:build linux

package bench

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions"
	"github.com/manifestwork/work/test/framework"
)

const (
	// benchNamespace holds the ConfigMaps and Deployments on the managed cluster.
	benchNamespace = "bench"
	// coldPrefix names the works (and their ConfigMaps) of cold apply.
	coldPrefix = "bench-"
	// agentLeaseNamespace holds an agent's leader-election lease (our
	// default, and OCM's); leases elsewhere are the clusters' own.
	agentLeaseNamespace = "open-cluster-management-agent"
)

// meters are counted clients of the hub and of cluster1 and what measures
// an agent's requests to each, shared by every phase of the bench.
type meters struct {
	hub   *meter
	spoke *meter

	hubWork   workclient.Interface
	spokeKube kubernetes.Interface
	spokeWork workclient.Interface
	leases    cache.SharedIndexInformer // every Lease of cluster1
}

// newMeters builds the counted clients and meters, and starts the Lease
// informer of cluster1 until stop is closed; wait for meters.leases to sync.
func newMeters(e *framework.E2E, stop <-chan struct{}) (*meters, error) {
	hubCounter, spokeCounter := newCounter(), newCounter()
	spoke := managedCluster(e)
	m := &meters{}
	hubKube, err := kubernetes.NewForConfig(hubCounter.config(e.Hub.Config))
	if err != nil {
		return nil, err
	}
	if m.hubWork, err = workclient.NewForConfig(hubCounter.config(e.Hub.Config)); err != nil {
		return nil, err
	}
	if m.spokeKube, err = kubernetes.NewForConfig(spokeCounter.config(spoke.Config)); err != nil {
		return nil, err
	}
	if m.spokeWork, err = workclient.NewForConfig(spokeCounter.config(spoke.Config)); err != nil {
		return nil, err
	}
	m.hub = &meter{kube: hubKube, resources: hubResources, own: hubCounter}
	m.spoke = &meter{kube: m.spokeKube, resources: managedResources, own: spokeCounter}
	// kube-apiserver renews its identity lease and kwok its nodes' leases
	// every few seconds: too irregular to subtract as a rate from a window of
	// seconds, so every lease write outside the agent's lease namespace is
	// seen in a watch and taken out one by one.
	m.spoke.observed = newCounter()
	leaseFactory := kubeinformers.NewSharedInformerFactory(m.spokeKube, 0)
	m.leases = leaseFactory.Coordination().V1().Leases().Informer()
	if _, err := m.leases.AddEventHandler(leaseWrites(m.spoke.observed, m.leases)); err != nil {
		return nil, err
	}
	leaseFactory.Start(stop)
	return m, nil
}

// harness is what one agent's measurement uses: counted clients of both
// clusters and informers that observe them (one LIST and one WATCH each,
// started before the first window and stopped after the last, so that no
// request of theirs falls inside a window).
type harness struct {
	params params
	*meters
	apiServers

	works      cache.SharedIndexInformer // ManifestWorks of cluster1 on the hub
	configMaps cache.SharedIndexInformer // ConfigMaps of benchNamespace on cluster1
	deploys    cache.SharedIndexInformer // Deployments of benchNamespace on cluster1
	stop       chan struct{}
	driftMu    sync.Mutex // guards the drift targets, which informer events read
}

func newHarness(ctx context.Context, e *framework.E2E, p params) (*harness, error) {
	h := &harness{params: p, stop: make(chan struct{})}
	var err error
	if h.apiServers, err = findAPIServers(e); err != nil {
		close(h.stop)
		return nil, err
	}
	if h.meters, err = newMeters(e, h.stop); err != nil {
		close(h.stop)
		return nil, err
	}
	if err := managedCluster(e).EnsureNamespaces(ctx, benchNamespace); err != nil {
		close(h.stop)
		return nil, err
	}
	hubFactory := workinformers.NewSharedInformerFactoryWithOptions(h.hubWork, 0, workinformers.WithNamespace(clusterName))
	h.works = hubFactory.Work().V1().ManifestWorks().Informer()
	spokeFactory := kubeinformers.NewSharedInformerFactoryWithOptions(h.spokeKube, 0, kubeinformers.WithNamespace(benchNamespace))
	h.configMaps = spokeFactory.Core().V1().ConfigMaps().Informer()
	h.deploys = spokeFactory.Apps().V1().Deployments().Informer()
	hubFactory.Start(h.stop)
	spokeFactory.Start(h.stop)
	if !cache.WaitForCacheSync(ctx.Done(), h.works.HasSynced, h.configMaps.HasSynced, h.deploys.HasSynced, h.leases.HasSynced) {
		close(h.stop)
		return nil, fmt.Errorf("informers did not sync")
	}
	return h, nil
}

func (h *harness) close() { close(h.stop) }

// leaseWrites counts, as the API server labels them, the writes of Leases
// outside the agent's lease namespace: one watch event is one successful
// write. The initial list is not counted.
func leaseWrites(c *counter, inf cache.SharedIndexInformer) cache.ResourceEventHandler {
	background := func(obj any) bool {
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		lease, ok := obj.(*coordinationv1.Lease)
		return ok && lease.Namespace != agentLeaseNamespace
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if inf.HasSynced() && background(obj) {
				c.inc(reqKey{Verb: "POST", Resource: "leases"})
			}
		},
		UpdateFunc: func(_, obj any) {
			if background(obj) {
				c.inc(reqKey{Verb: "PUT", Resource: "leases"})
			}
		},
		DeleteFunc: func(obj any) {
			if background(obj) {
				c.inc(reqKey{Verb: "DELETE", Resource: "leases"})
			}
		},
	}
}

// waitUntil evaluates cond at once and after every event of the informers,
// and returns when it holds, when the agent exits, or after timeout. cond
// reads the informers' stores, which events follow, so nothing is polled.
func waitUntil(ctx context.Context, timeout time.Duration, agentExited <-chan struct{}, cond func() bool, informers ...cache.SharedIndexInformer) error {
	poke := make(chan struct{}, 1)
	notify := func() {
		select {
		case poke <- struct{}{}:
		default:
		}
	}
	handler := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { notify() },
		UpdateFunc: func(any, any) { notify() },
		DeleteFunc: func(any) { notify() },
	}
	for _, inf := range informers {
		reg, err := inf.AddEventHandler(handler)
		if err != nil {
			return err
		}
		defer func() { _ = inf.RemoveEventHandler(reg) }()
	}
	return waitFor(ctx, timeout, agentExited, cond, poke)
}

// waitFor evaluates cond at once and after every poke, and returns when it
// holds, when the agent exits, or after timeout.
func waitFor(ctx context.Context, timeout time.Duration, agentExited <-chan struct{}, cond func() bool, poke <-chan struct{}) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		if cond() {
			return nil
		}
		select {
		case <-poke:
		case <-deadline.C:
			return fmt.Errorf("not reached within %s", timeout)
		case <-agentExited:
			return fmt.Errorf("the agent exited")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Readers of the informer stores.

func (h *harness) listWorks() []*workv1.ManifestWork {
	var out []*workv1.ManifestWork
	for _, obj := range h.works.GetStore().List() {
		out = append(out, obj.(*workv1.ManifestWork))
	}
	return out
}

func (h *harness) work(name string) *workv1.ManifestWork {
	obj, ok, _ := h.works.GetStore().GetByKey(clusterName + "/" + name)
	if !ok {
		return nil
	}
	return obj.(*workv1.ManifestWork)
}

func (h *harness) configMap(name string) *corev1.ConfigMap {
	obj, ok, _ := h.configMaps.GetStore().GetByKey(benchNamespace + "/" + name)
	if !ok {
		return nil
	}
	return obj.(*corev1.ConfigMap)
}

func (h *harness) deployment(name string) *appsv1.Deployment {
	obj, ok, _ := h.deploys.GetStore().GetByKey(benchNamespace + "/" + name)
	if !ok {
		return nil
	}
	return obj.(*appsv1.Deployment)
}

// countConfigMaps counts the ConfigMaps whose name has prefix.
func (h *harness) countConfigMaps(prefix string) int {
	n := 0
	for _, key := range h.configMaps.GetStore().ListKeys() {
		if strings.HasPrefix(key, benchNamespace+"/"+prefix) {
			n++
		}
	}
	return n
}

// countWorks counts the works whose name has prefix.
func (h *harness) countWorks(prefix string) int {
	n := 0
	for _, key := range h.works.GetStore().ListKeys() {
		if strings.HasPrefix(key, clusterName+"/"+prefix) {
			n++
		}
	}
	return n
}

// converged reports whether a work is Applied and Available for its generation.
func converged(w *workv1.ManifestWork) bool {
	return conditionTrue(w, workv1.WorkApplied) && conditionTrue(w, workv1.WorkAvailable)
}

func conditionTrue(w *workv1.ManifestWork, condType string) bool {
	for _, c := range w.Status.Conditions {
		if c.Type == condType {
			return c.Status == metav1.ConditionTrue && c.ObservedGeneration == w.Generation
		}
	}
	return false
}
