package statusfeedback

import (
	"context"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/metrics"
)

// watchKey is the unit of watching: a resource type in one namespace.
type watchKey struct {
	target
}

func keyOf(t target) watchKey { return watchKey{target{gvr: t.gvr, namespace: t.namespace}} }

// Watches runs one dynamic informer per (resource, namespace) that some work
// reads with feedbackScrapeType Watch, at most max of them, and stops each
// when no work needs it any more. A change of a watched object requeues the
// works reading it.
type Watches struct {
	client  dynamic.Interface
	max     int
	enqueue func(workKey string)

	mu      sync.Mutex
	ctx     context.Context
	running map[watchKey]*watch
	uses    map[string][]target // work key -> targets it watches
}

type watch struct {
	informer cache.SharedIndexInformer
	stop     context.CancelFunc
}

func newWatches(client dynamic.Interface, max int, enqueue func(string)) *Watches {
	return &Watches{client: client, max: max, enqueue: enqueue,
		running: map[watchKey]*watch{}, uses: map[string][]target{}}
}

// Run starts the watches requested so far and stops all when ctx ends.
func (w *Watches) Run(ctx context.Context) {
	w.mu.Lock()
	w.ctx = ctx
	w.reconcileLocked()
	w.mu.Unlock()
	<-ctx.Done()
	w.mu.Lock()
	defer w.mu.Unlock()
	for k, r := range w.running {
		r.stop()
		delete(w.running, k)
	}
	metrics.FeedbackWatches.Set(0)
}

// setUses records what a work watches and starts or stops informers.
func (w *Watches) setUses(workKey string, targets []target) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(targets) == 0 {
		delete(w.uses, workKey)
	} else {
		w.uses[workKey] = targets
	}
	w.reconcileLocked()
}

// Running is the number of informers running.
func (w *Watches) Running() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.running)
}

func (w *Watches) reconcileLocked() {
	wanted := map[watchKey]bool{}
	for _, targets := range w.uses {
		for _, t := range targets {
			wanted[keyOf(t)] = true
		}
	}
	for k, r := range w.running {
		if !wanted[k] {
			r.stop()
			delete(w.running, k)
			klog.FromContext(w.ctx).Info("Stopped a feedback watch", "resource", k.gvr.String(), "namespace", k.namespace, "watches", len(w.running))
		}
	}
	if w.ctx == nil {
		return // not running yet
	}
	for k := range wanted {
		if _, ok := w.running[k]; !ok && len(w.running) < w.max {
			w.running[k] = w.start(k)
			klog.FromContext(w.ctx).Info("Started a feedback watch", "resource", k.gvr.String(), "namespace", k.namespace, "watches", len(w.running))
		}
	}
	metrics.FeedbackWatches.Set(float64(len(w.running)))
}

func (w *Watches) start(k watchKey) *watch {
	ctx, stop := context.WithCancel(w.ctx)
	informer := dynamicinformer.NewFilteredDynamicInformer(w.client, k.gvr, k.namespace, 0, cache.Indexers{}, nil).Informer()
	_, _ = informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { w.changed(k, obj) },
		UpdateFunc: func(_, obj any) { w.changed(k, obj) },
		DeleteFunc: func(obj any) { w.changed(k, obj) },
	})
	go informer.RunWithContext(ctx)
	return &watch{informer: informer, stop: stop}
}

// changed requeues the works that read the changed object.
func (w *Watches) changed(k watchKey, obj any) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	u, ok := obj.(runtime.Object)
	if !ok {
		return
	}
	name := ""
	if acc, ok := u.(*unstructured.Unstructured); ok {
		name = acc.GetName()
	}
	w.mu.Lock()
	var keys []string
	for workKey, targets := range w.uses {
		for _, t := range targets {
			if keyOf(t) == k && t.name == name {
				keys = append(keys, workKey)
				break
			}
		}
	}
	w.mu.Unlock()
	for _, key := range keys {
		w.enqueue(key)
	}
}

// get reads an object from its watch: ok is false when no synced informer
// serves it; watching is false when the limit left it without one.
func (w *Watches) get(t target) (obj *unstructured.Unstructured, ok, watching bool) {
	w.mu.Lock()
	r, running := w.running[keyOf(t)]
	w.mu.Unlock()
	if !running {
		return nil, false, false
	}
	if !r.informer.HasSynced() {
		return nil, false, true
	}
	item, exists, err := r.informer.GetStore().GetByKey(cache.NewObjectName(t.namespace, t.name).String())
	if err != nil || !exists {
		return nil, err == nil, true
	}
	u, isU := item.(*unstructured.Unstructured)
	if !isU {
		return nil, false, true
	}
	return u.DeepCopy(), true, true
}
