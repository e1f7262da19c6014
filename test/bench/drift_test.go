//go:build linux

package bench

import (
	"context"
	"fmt"
	"maps"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// driftEach is how many applied ConfigMaps are deleted, and how many modified.
const driftEach = 10

// driftResult is phase 3.
type driftResult struct {
	Deleted  int            `json:"deleted"`
	Modified int            `json:"modified"`
	Seconds  float64        `json:"seconds"` // first change until all are restored
	Managed  map[string]int `json:"managedRequests"`
	Hub      map[string]int `json:"hubRequests"`
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
	began := time.Now()
	res := &driftResult{}
	if res.Deleted, res.Modified, err = h.makeDrift(ctx, targets); err != nil {
		return nil, err
	}
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
			deleted++
			continue
		}
		cm := h.configMap(target.name).DeepCopy()
		cm.Data["value"] = "drifted"
		updated, err := cms.Update(ctx, cm, metav1.UpdateOptions{})
		if err != nil {
			return deleted, modified, fmt.Errorf("drift: modify %s: %w", target.name, err)
		}
		target.notRVs = append(target.notRVs, updated.ResourceVersion)
		modified++
	}
	return deleted, modified, nil
}

// waitRestored waits until every target is as the work wants it again.
func (h *harness) waitRestored(ctx context.Context, agentExited <-chan struct{}, targets []*driftTarget) error {
	return waitUntil(ctx, h.params.Timeout, agentExited, func() bool {
		for _, target := range targets {
			target.restored = target.restored || target.check(h.configMap(target.name))
			if !target.restored {
				return false
			}
		}
		return true
	}, h.configMaps)
}
