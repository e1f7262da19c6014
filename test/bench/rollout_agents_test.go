//go:build linux

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
)

// simulatedAgents play the agents of the rollout's clusters (hundreds of
// real agents do not fit on one machine): when a cluster's work shows a new
// generation, they write, after the cluster's delay, the status a healthy
// agent reports for it, or the status of a failed rollout (Progressing and
// Degraded) for the clusters and revision named by fail. One work per
// cluster: they key works by namespace.
type simulatedAgents struct {
	ctx    context.Context
	cancel context.CancelFunc
	client workclient.Interface
	store  cache.Store // the works, from the bench's informer
	delays map[string]time.Duration
	notify func()

	mu     sync.Mutex
	works  map[string]*simulatedWork // by cluster
	errors []string
	wg     sync.WaitGroup
	// failing are the clusters that report the revision failing failed.
	failing      map[string]bool
	failingRev   string
	firstFailure time.Time                  // when the first failure was written
	seen         map[string]map[string]bool // revision → clusters whose work held it
}

// simulatedWork is what an agent knows of its cluster's work: the newest
// generation seen, the template revision it holds, when it appeared and when
// its status was written.
type simulatedWork struct {
	generation int64
	revision   string
	appeared   time.Time
	reported   time.Time
}

func newSimulatedAgents(ctx context.Context, client workclient.Interface, store cache.Store, delays map[string]time.Duration, notify func()) *simulatedAgents {
	ctx, cancel := context.WithCancel(ctx)
	return &simulatedAgents{ctx: ctx, cancel: cancel, client: client, store: store, delays: delays, notify: notify,
		works: map[string]*simulatedWork{}, seen: map[string]map[string]bool{}}
}

// fail makes clusters report revision as failed from now on, and forgets
// the failures written before.
func (a *simulatedAgents) fail(revision string, clusters []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.failingRev, a.failing, a.firstFailure = revision, map[string]bool{}, time.Time{}
	for _, c := range clusters {
		a.failing[c] = true
	}
}

// failedAt is when the first failure since fail was written (zero: none yet).
func (a *simulatedAgents) failedAt() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.firstFailure
}

// reached are the clusters whose work held revision at some point, sorted.
func (a *simulatedAgents) reached(revision string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Sorted(maps.Keys(a.seen[revision]))
}

// close stops the reports still pending and waits for those being written.
func (a *simulatedAgents) close() {
	a.cancel()
	a.wg.Wait()
}

func (a *simulatedAgents) handler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { a.saw(obj) },
		UpdateFunc: func(_, obj any) { a.saw(obj) },
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if w, ok := obj.(*workv1.ManifestWork); ok {
				a.mu.Lock()
				delete(a.works, w.Namespace)
				a.mu.Unlock()
			}
		},
	}
}

// saw schedules the report of a generation the first time it is seen.
func (a *simulatedAgents) saw(obj any) {
	w, ok := obj.(*workv1.ManifestWork)
	if !ok {
		return
	}
	now := time.Now()
	a.mu.Lock()
	if known := a.works[w.Namespace]; known != nil && known.generation >= w.Generation {
		a.mu.Unlock()
		return
	}
	rev := templateRevision(w)
	a.works[w.Namespace] = &simulatedWork{generation: w.Generation, revision: rev, appeared: now}
	if a.seen[rev] == nil {
		a.seen[rev] = map[string]bool{}
	}
	a.seen[rev][w.Namespace] = true
	a.wg.Add(1)
	a.mu.Unlock()
	delay, key, generation := a.delays[w.Namespace], w.Namespace+"/"+w.Name, w.Generation
	go func() {
		defer a.wg.Done()
		select {
		case <-time.After(delay):
		case <-a.ctx.Done():
			return
		}
		if err := a.report(key, generation); err != nil {
			a.mu.Lock()
			a.errors = append(a.errors, fmt.Sprintf("%s generation %d: %v", key, generation, err))
			a.mu.Unlock()
		}
	}()
}

// report writes the work's status as healthy for generation, unless the work
// has moved on to another (whose own report is scheduled) or is gone.
func (a *simulatedAgents) report(key string, generation int64) error {
	obj, ok, _ := a.store.GetByKey(key)
	if !ok {
		return nil
	}
	w := obj.(*workv1.ManifestWork).DeepCopy()
	for range 5 {
		if w.Generation != generation || w.DeletionTimestamp != nil {
			return nil
		}
		a.mu.Lock()
		failed := a.failing[w.Namespace] && templateRevision(w) == a.failingRev
		a.mu.Unlock()
		reportStatus(w, !failed)
		_, err := a.client.WorkV1().ManifestWorks(w.Namespace).UpdateStatus(a.ctx, w, metav1.UpdateOptions{})
		switch {
		case err == nil:
			a.mu.Lock()
			if known := a.works[w.Namespace]; known != nil && known.generation == generation {
				known.reported = time.Now()
			}
			if failed && a.firstFailure.IsZero() {
				a.firstFailure = time.Now()
			}
			a.mu.Unlock()
			a.notify()
			return nil
		case apierrors.IsNotFound(err) || a.ctx.Err() != nil:
			return nil
		case !apierrors.IsConflict(err):
			return err
		}
		// The informer is behind: read the work itself.
		if w, err = a.client.WorkV1().ManifestWorks(w.Namespace).Get(a.ctx, w.Name, metav1.GetOptions{}); err != nil {
			if apierrors.IsNotFound(err) {
				return nil
			}
			return err
		}
	}
	return fmt.Errorf("status conflicts 5 times")
}

// reportStatus is what an agent reports once it has applied w's generation:
// Applied, Available, each manifest Applied and Available, and, healthy,
// Progressing=False and Degraded=False for it; else Progressing=True and
// Degraded=True, a rollout that failed.
func reportStatus(w *workv1.ManifestWork, healthy bool) {
	set := func(conds *[]metav1.Condition, condType string, status metav1.ConditionStatus, reason string) {
		apimeta.SetStatusCondition(conds, metav1.Condition{
			Type: condType, Status: status, Reason: reason, ObservedGeneration: w.Generation,
		})
	}
	set(&w.Status.Conditions, workv1.WorkApplied, metav1.ConditionTrue, "AppliedManifestWorkComplete")
	set(&w.Status.Conditions, workv1.WorkAvailable, metav1.ConditionTrue, "ResourcesAvailable")
	if healthy {
		set(&w.Status.Conditions, workv1.WorkProgressing, metav1.ConditionFalse, workv1.WorkProgressingReasonCompleted)
		set(&w.Status.Conditions, workv1.WorkDegraded, metav1.ConditionFalse, workv1.WorkDegradedReasonAsExpected)
	} else {
		set(&w.Status.Conditions, workv1.WorkProgressing, metav1.ConditionTrue, workv1.WorkProgressingReasonFailed)
		set(&w.Status.Conditions, workv1.WorkDegraded, metav1.ConditionTrue, workv1.WorkDegradedReasonManifestsDegraded)
	}
	manifests := make([]workv1.ManifestCondition, 0, len(w.Spec.Workload.Manifests))
	for i, m := range w.Spec.Workload.Manifests {
		var u unstructured.Unstructured
		_ = json.Unmarshal(m.Raw, &u.Object)
		gvk := u.GroupVersionKind()
		mc := workv1.ManifestCondition{ResourceMeta: workv1.ManifestResourceMeta{
			Ordinal: int32(i), Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind,
			Resource: resourceOf(gvk), Name: u.GetName(), Namespace: u.GetNamespace(),
		}}
		set(&mc.Conditions, workv1.ManifestApplied, metav1.ConditionTrue, "AppliedManifestComplete")
		set(&mc.Conditions, workv1.ManifestAvailable, metav1.ConditionTrue, "ResourceAvailable")
		manifests = append(manifests, mc)
	}
	w.Status.ResourceStatus.Manifests = manifests
}

// resourceOf is the plural resource of the kinds the rollout's template holds.
func resourceOf(gvk schema.GroupVersionKind) string {
	if gvk.Kind == "ConfigMap" {
		return "configmaps"
	}
	return ""
}

// templateRevision is the revision the work's first ConfigMap carries.
func templateRevision(w *workv1.ManifestWork) string {
	if len(w.Spec.Workload.Manifests) == 0 {
		return ""
	}
	var cm struct {
		Data map[string]string `json:"data"`
	}
	_ = json.Unmarshal(w.Spec.Workload.Manifests[0].Raw, &cm)
	return cm.Data["revision"]
}

// reported counts the clusters whose work holds revision and was reported
// for its newest generation.
func (a *simulatedAgents) reported(clusters []string, revision string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, c := range clusters {
		if w := a.works[c]; w != nil && w.revision == revision && !w.reported.IsZero() {
			n++
		}
	}
	return n
}

// timings are the clusters' timings for revision, from began.
func (a *simulatedAgents) timings(clusters []string, revision string, began time.Time) []rolloutTiming {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []rolloutTiming
	for _, c := range clusters {
		w := a.works[c]
		if w == nil || w.revision != revision {
			continue
		}
		out = append(out, rolloutTiming{Cluster: c, Appeared: w.appeared.Sub(began).Seconds(),
			Reported: w.reported.Sub(began).Seconds(), Delay: w.reported.Sub(w.appeared).Seconds(),
			Drawn: a.delays[c].Seconds()})
	}
	return out
}

// takeFailures returns the reports that could not be written since the
// last call.
func (a *simulatedAgents) takeFailures() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := a.errors
	a.errors = nil
	return out
}
