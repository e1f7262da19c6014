//go:build linux

package bench

import (
	"context"
	"fmt"
	"maps"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// driftEach is how many applied ConfigMaps are deleted, and how many modified.
const driftEach = 10

// driftResult is phase 3.
type driftResult struct {
	Deleted  int     `json:"deleted"`
	Modified int     `json:"modified"`
	Seconds  float64 `json:"seconds"` // first change until all are restored
	// ChangesSeconds is how long the bench took to make its changes, one
	// request after the other: on a loaded machine most of Seconds.
	ChangesSeconds float64 `json:"changesSeconds"`
	// RepairSeconds is, per changed object, from the return of the bench's
	// change until the bench's informer saw the object restored: the
	// agent's part, one watch event and a write.
	RepairSeconds []float64      `json:"repairSeconds"`
	Managed       map[string]int `json:"managedRequests"`
	Hub           map[string]int `json:"hubRequests"`
}

// driftTarget is one changed ConfigMap and what tells that it is restored:
// a deleted one is back with a new UID, a modified one is back to its data
// in a resourceVersion that neither the original nor our change has.
type driftTarget struct {
	name     string
	deleted  bool
	uid      string
	notRVs   []string
	restored bool
	// changed is when the bench's change returned, restoredAt when a
	// driftClock first saw the object restored.
	changed, restoredAt time.Time
}

func (d *driftTarget) check(cm *corev1.ConfigMap) bool {
	if cm == nil || !maps.Equal(cm.Data, coldData(d.name)) {
		return false
	}
	if d.deleted {
		return string(cm.UID) != d.uid
	}
	for _, rv := range d.notRVs {
		if cm.ResourceVersion == rv {
			return false
		}
	}
	return true
}

// drift deletes driftEach applied ConfigMaps and modifies driftEach others,
// spread over the works, and measures the time until all are restored.
func (h *harness) drift(ctx context.Context, agentExited <-chan struct{}) (*driftResult, error) {
	targets, err := h.driftTargets()
	if err != nil {
		return nil, err
	}
	win, err := h.openWindow(ctx)
	if err != nil {
		return nil, err
	}
	clock, err := h.startDriftClock(ctx, targets)
	if err != nil {
		return nil, err
	}
	defer clock.stop()
	began := time.Now()
	res := &driftResult{}
	if res.Deleted, res.Modified, err = h.makeDrift(ctx, targets); err != nil {
		return nil, err
	}
	res.ChangesSeconds = time.Since(began).Seconds()
	err = h.waitRestored(ctx, agentExited, targets)
	elapsed := time.Since(began)
	if err != nil {
		return nil, fmt.Errorf("drift repair: %w", err)
	}
	res.Seconds = elapsed.Seconds()
	hub, managed, _, err := h.closeWindow(ctx, win)
	if err != nil {
		return nil, err
	}
	res.Hub, res.Managed = hub.byKey(), managed.byKey()
	res.RepairSeconds = clock.repairs(ctx)
	return res, nil
}

// driftTargets are 2 x driftEach applied ConfigMaps spread evenly over all
// works, every other one to be deleted, the rest modified.
func (h *harness) driftTargets() ([]*driftTarget, error) {
	total := h.params.Works * h.params.Manifests
	n := min(2*driftEach, total)
	var targets []*driftTarget
	for k := range n {
		i := k * total / n
		name := coldConfigMapName(i/h.params.Manifests, i%h.params.Manifests)
		cm := h.configMap(name)
		if cm == nil {
			return nil, fmt.Errorf("drift: %s is not in the cache", name)
		}
		targets = append(targets, &driftTarget{name: name, deleted: k%2 == 0, uid: string(cm.UID), notRVs: []string{cm.ResourceVersion}})
	}
	return targets, nil
}

// makeDrift deletes or modifies each target.
func (h *harness) makeDrift(ctx context.Context, targets []*driftTarget) (deleted, modified int, err error) {
	cms := h.spokeKube.CoreV1().ConfigMaps(benchNamespace)
	for _, target := range targets {
		if target.deleted {
			if err := cms.Delete(ctx, target.name, metav1.DeleteOptions{}); err != nil {
				return deleted, modified, fmt.Errorf("drift: delete %s: %w", target.name, err)
			}
			h.driftMu.Lock()
			target.changed = time.Now()
			h.driftMu.Unlock()
			deleted++
			continue
		}
		cm := h.configMap(target.name).DeepCopy()
		cm.Data["value"] = "drifted"
		updated, err := cms.Update(ctx, cm, metav1.UpdateOptions{})
		if err != nil {
			return deleted, modified, fmt.Errorf("drift: modify %s: %w", target.name, err)
		}
		h.driftMu.Lock()
		target.notRVs = append(target.notRVs, updated.ResourceVersion)
		target.changed = time.Now()
		h.driftMu.Unlock()
		modified++
	}
	return deleted, modified, nil
}

// waitRestored waits until every target is as the work wants it again.
func (h *harness) waitRestored(ctx context.Context, agentExited <-chan struct{}, targets []*driftTarget) error {
	return waitUntil(ctx, h.params.Timeout, agentExited, func() bool {
		h.driftMu.Lock()
		defer h.driftMu.Unlock()
		for _, target := range targets {
			target.restored = target.restored || target.check(h.configMap(target.name))
			if !target.restored {
				return false
			}
		}
		return true
	}, h.configMaps)
}

// driftClock notes, from the events of the bench's ConfigMap informer, when
// each target is first seen restored, while the bench is still making the
// other changes. It has a handler of its own, which may run a little behind
// the informer's store that waitRestored reads.
type driftClock struct {
	h       *harness
	targets map[string]*driftTarget
	reg     cache.ResourceEventHandlerRegistration
	left    int           // targets not seen restored yet
	done    chan struct{} // closed once every target was seen restored
}

// clockLag bounds how long the clock's handler may take to see the last
// repair after waitRestored saw it.
const clockLag = 5 * time.Second

// startDriftClock registers the clock's handler and waits until it has
// taken in the ConfigMaps that exist, so that it notes repairs as they come.
func (h *harness) startDriftClock(ctx context.Context, targets []*driftTarget) (*driftClock, error) {
	c := &driftClock{h: h, targets: map[string]*driftTarget{}, left: len(targets), done: make(chan struct{})}
	for _, t := range targets {
		c.targets[t.name] = t
	}
	seen := func(obj any) {
		cm, ok := obj.(*corev1.ConfigMap)
		if !ok {
			return
		}
		h.driftMu.Lock()
		defer h.driftMu.Unlock()
		if t := c.targets[cm.Name]; t != nil && t.restoredAt.IsZero() && t.check(cm) {
			t.restoredAt = time.Now()
			if c.left--; c.left == 0 {
				close(c.done)
			}
		}
	}
	reg, err := h.configMaps.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { seen(obj) },
		UpdateFunc: func(_, obj any) { seen(obj) },
	})
	if err != nil {
		return nil, err
	}
	c.reg = reg
	if !cache.WaitForCacheSync(ctx.Done(), reg.HasSynced) {
		c.stop()
		return nil, fmt.Errorf("drift: the clock's handler did not sync: %w", ctx.Err())
	}
	return c, nil
}

func (c *driftClock) stop() { _ = c.h.configMaps.RemoveEventHandler(c.reg) }

// repairs are the seconds from each change to its repair, once the clock
// has seen every target restored or clockLag has passed; a repair seen
// before the bench's request returned counts 0.
func (c *driftClock) repairs(ctx context.Context) []float64 {
	select {
	case <-c.done:
	case <-time.After(clockLag):
	case <-ctx.Done():
	}
	c.h.driftMu.Lock()
	defer c.h.driftMu.Unlock()
	var out []float64
	for _, t := range c.targets {
		if !t.restoredAt.IsZero() {
			out = append(out, max(0, t.restoredAt.Sub(t.changed).Seconds()))
		}
	}
	return out
}
