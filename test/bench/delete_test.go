//go:build linux

package bench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"

	"github.com/manifestwork/work/pkg/agent/controllers/finalize"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

var errAgentExited = errors.New("the agent exited")

func isNotFound(err error) bool { return apierrors.IsNotFound(err) }

// deleteResult is phase 5.
type deleteResult struct {
	Seconds float64        `json:"seconds"`
	Managed map[string]int `json:"managedRequests"`
	Hub     map[string]int `json:"hubRequests"`
}

// deleteAll deletes every cold work and measures the time until all are gone
// from the hub and all their ConfigMaps from the managed cluster.
func (h *harness) deleteAll(ctx context.Context, agentExited <-chan struct{}) (*deleteResult, error) {
	win, err := h.openWindow(ctx)
	if err != nil {
		return nil, err
	}
	began := time.Now()
	if err := h.deleteWorks(ctx, coldPrefix); err != nil {
		return nil, err
	}
	err = waitUntil(ctx, h.params.Timeout, agentExited, func() bool {
		return h.countWorks(coldPrefix) == 0 && h.countConfigMaps(coldPrefix) == 0
	}, h.works, h.configMaps)
	elapsed := time.Since(began)
	if err != nil {
		return nil, fmt.Errorf("delete all: %d works and %d ConfigMaps left: %w", h.countWorks(coldPrefix), h.countConfigMaps(coldPrefix), err)
	}
	res := &deleteResult{Seconds: elapsed.Seconds()}
	hub, managed, _, err := h.closeWindow(ctx, win)
	if err != nil {
		return nil, err
	}
	res.Hub, res.Managed = hub.byKey(), managed.byKey()
	return res, nil
}

// deleteWorks deletes the works whose name has prefix, in parallel.
func (h *harness) deleteWorks(ctx context.Context, prefix string) error {
	var names []string
	for _, w := range h.listWorks() {
		if strings.HasPrefix(w.Name, prefix) {
			names = append(names, w.Name)
		}
	}
	next := make(chan string)
	errs := make(chan error, len(names))
	done := make(chan struct{})
	go func() {
		defer close(done)
		sem := make(chan struct{}, createWorkers)
		for name := range next {
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				err := h.hubWork.WorkV1().ManifestWorks(clusterName).Delete(ctx, name, metav1.DeleteOptions{})
				if err != nil && !isNotFound(err) {
					errs <- fmt.Errorf("delete work %s: %w", name, err)
				}
			}()
		}
		for range createWorkers {
			sem <- struct{}{}
		}
	}()
	for _, name := range names {
		next <- name
	}
	close(next)
	<-done
	close(errs)
	return <-errs
}

// warmup creates one small work, waits until it is Applied, deletes it and
// waits until it and its ConfigMap are gone: the agent's start (discovery,
// informers, first lists) is then not part of cold apply.
func (h *harness) warmup(ctx context.Context, agentExited <-chan struct{}) error {
	const name = "warmup"
	work := fixture.NewWork(clusterName, name).
		WithManifest(fixture.ConfigMap(benchNamespace, name, map[string]string{"v": "1"})).Build()
	if _, err := h.hubWork.WorkV1().ManifestWorks(clusterName).Create(ctx, work, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	err := waitUntil(ctx, h.params.Timeout, agentExited, func() bool {
		w := h.work(name)
		return w != nil && conditionTrue(w, "Applied") && h.configMap(name) != nil
	}, h.works, h.configMaps)
	if err != nil {
		return fmt.Errorf("warm-up work not applied: %w", err)
	}
	if err := h.hubWork.WorkV1().ManifestWorks(clusterName).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	err = waitUntil(ctx, h.params.Timeout, agentExited, func() bool {
		return h.work(name) == nil && h.configMap(name) == nil
	}, h.works, h.configMaps)
	if err != nil {
		return fmt.Errorf("warm-up work not deleted: %w", err)
	}
	h.waitCleanedUpEvent(ctx, name)
	return nil
}

// warmupEventWait bounds the wait for the warm-up's last Event.
const warmupEventWait = 5 * time.Second

// waitCleanedUpEvent waits, bounded, until the hub has the Event our agent
// sends once a deleted work is cleaned up (ResourcesCleanedUp): the
// Event's write, sent after the work is gone, then lands before cold apply
// instead of being counted as one of its hub writes. OCM's agent sends no
// such Event: the wait then ends at its bound.
func (h *harness) waitCleanedUpEvent(ctx context.Context, work string) {
	selector := fields.Set{"involvedObject.name": work, "reason": finalize.EventResourcesCleanedUp}.AsSelector().String()
	_ = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, warmupEventWait, true, func(ctx context.Context) (bool, error) {
		events, err := h.hub.kube.CoreV1().Events(clusterName).List(ctx, metav1.ListOptions{FieldSelector: selector})
		return err == nil && len(events.Items) > 0, nil
	})
}

// reset leaves the clusters as the next agent must find them, whatever the
// last one left: no works (finalizers dropped, as no agent runs any more),
// no AppliedManifestWorks, no bench ConfigMaps or Deployments.
func (h *harness) reset(ctx context.Context) error {
	for _, w := range h.listWorks() {
		if err := h.deleteWorkNow(ctx, w); err != nil {
			return err
		}
	}
	if err := h.deleteAppliedWorks(ctx); err != nil {
		return err
	}
	kube := h.spokeKube
	for _, key := range h.configMaps.GetStore().ListKeys() {
		_, name, _ := cache.SplitMetaNamespaceKey(key)
		if name == "kube-root-ca.crt" {
			continue
		}
		if err := kube.CoreV1().ConfigMaps(benchNamespace).Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !isNotFound(err) {
			return err
		}
	}
	for _, key := range h.deploys.GetStore().ListKeys() {
		_, name, _ := cache.SplitMetaNamespaceKey(key)
		if err := kube.AppsV1().Deployments(benchNamespace).Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !isNotFound(err) {
			return err
		}
	}
	return waitUntil(ctx, 2*time.Minute, nil, func() bool {
		return len(h.works.GetStore().ListKeys()) == 0 && h.countConfigMaps("") <= 1 && len(h.deploys.GetStore().ListKeys()) == 0
	}, h.works, h.configMaps, h.deploys)
}

// deleteAppliedWorks deletes every AppliedManifestWork of cluster1, its
// finalizer dropped first, as no agent runs any more.
func (m *meters) deleteAppliedWorks(ctx context.Context) error {
	applied := m.spokeWork.WorkV1().AppliedManifestWorks()
	list, err := applied.List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, a := range list.Items {
		if _, err := applied.Patch(ctx, a.Name, types.MergePatchType, dropFinalizers, metav1.PatchOptions{}); err != nil && !isNotFound(err) {
			return err
		}
		if err := applied.Delete(ctx, a.Name, metav1.DeleteOptions{}); err != nil && !isNotFound(err) {
			return err
		}
	}
	return nil
}

// dropFinalizers is a merge patch that removes every finalizer.
var dropFinalizers = []byte(`{"metadata":{"finalizers":null}}`)

// deleteWorkNow deletes a work on the hub, its finalizers dropped first, as
// no agent runs any more.
func (m *meters) deleteWorkNow(ctx context.Context, w *workv1.ManifestWork) error {
	works := m.hubWork.WorkV1().ManifestWorks(w.Namespace)
	if len(w.Finalizers) > 0 {
		if _, err := works.Patch(ctx, w.Name, types.MergePatchType, dropFinalizers, metav1.PatchOptions{}); err != nil && !isNotFound(err) {
			return err
		}
	}
	if err := works.Delete(ctx, w.Name, metav1.DeleteOptions{}); err != nil && !isNotFound(err) {
		return err
	}
	return nil
}
