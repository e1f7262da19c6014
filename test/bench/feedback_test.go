//go:build linux

package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// feedbackTimeout bounds one sample; Poll needs up to a status-sync
// interval (10 s by default) plus the time the pods take.
const feedbackTimeout = 2 * time.Minute

// feedbackModes are the two scrape types, each with its own work and Deployment.
var feedbackModes = []workv1.FeedbackScrapeType{workv1.FeedbackWatchType, workv1.FeedbackPollType}

func feedbackName(mode workv1.FeedbackScrapeType) string {
	if mode == workv1.FeedbackWatchType {
		return "fb-watch"
	}
	return "fb-poll"
}

// feedbackWork carries a Deployment whose well-known status is reported back
// with the given scrape type. The manifest leaves replicas out (the API
// server defaults it to 1): with replicas in the manifest a scale on the
// managed cluster would be drift and be undone.
func feedbackWork(mode workv1.FeedbackScrapeType) *workv1.ManifestWork {
	name := feedbackName(mode)
	deployment := fixture.Deployment(benchNamespace, name, 1)
	deployment.Spec.Replicas = nil
	config := fixture.Config("apps", "deployments", benchNamespace, name)
	config.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	config.FeedbackScrapeType = mode
	return fixture.NewWork(clusterName, name).WithManifest(deployment).WithConfig(config).Build()
}

// feedbackSample is one scale: seconds from the scale request until the
// managed Deployment showed the new readyReplicas, and until the hub showed
// the new ReadyReplicas and Replicas feedback values (-1: not seen in time).
type feedbackSample struct {
	Replicas          int32   `json:"replicas"`
	ManagedReady      float64 `json:"managedReadySeconds"`
	HubReadyReplicas  float64 `json:"hubReadyReplicasSeconds"`
	HubReplicas       float64 `json:"hubReplicasSeconds"`
	AgentReadySeconds float64 `json:"agentSeconds"` // hub ReadyReplicas minus managed readiness: the agent's part
}

// feedbackResult is phase 4.
type feedbackResult struct {
	Samples map[workv1.FeedbackScrapeType][]feedbackSample `json:"samples"`
}

func feedbackInt(w *workv1.ManifestWork, name string) (int64, bool) {
	if w == nil {
		return 0, false
	}
	for _, m := range w.Status.ResourceStatus.Manifests {
		for _, v := range m.StatusFeedbacks.Values {
			if v.Name == name && v.Value.Integer != nil {
				return *v.Value.Integer, true
			}
		}
	}
	return 0, false
}

// feedback creates both works, waits for ReadyReplicas 1, then scales each
// Deployment samples times and times the way back to the hub.
func (h *harness) feedback(ctx context.Context, agentExited <-chan struct{}) (*feedbackResult, error) {
	for _, mode := range feedbackModes {
		if _, err := h.hubWork.WorkV1().ManifestWorks(clusterName).Create(ctx, feedbackWork(mode), metav1.CreateOptions{}); err != nil {
			return nil, fmt.Errorf("feedback: %w", err)
		}
	}
	err := waitUntil(ctx, h.params.Timeout, agentExited, func() bool {
		for _, mode := range feedbackModes {
			if v, ok := feedbackInt(h.work(feedbackName(mode)), "ReadyReplicas"); !ok || v != 1 {
				return false
			}
		}
		return true
	}, h.works)
	if err != nil {
		return nil, fmt.Errorf("feedback: ReadyReplicas 1 on the hub: %w", err)
	}
	res := &feedbackResult{Samples: map[workv1.FeedbackScrapeType][]feedbackSample{}}
	for _, mode := range feedbackModes {
		for i := range h.params.FeedbackSamples {
			// A Poll sample ends just after a poll; scaling at once would
			// always meet the same phase (a whole period to wait). A random
			// pause within the interval samples the phase instead.
			if mode == workv1.FeedbackPollType {
				if err := pause(ctx, agentExited, rand.N(h.params.PollInterval)); err != nil {
					return res, err
				}
			}
			replicas := int32(2 + i%2) // 2, 3, 2, …: every sample is a change
			s, err := h.feedbackSample(ctx, agentExited, feedbackName(mode), replicas)
			if err != nil {
				return res, fmt.Errorf("feedback %s sample %d: %w", mode, i, err)
			}
			res.Samples[mode] = append(res.Samples[mode], s)
		}
	}
	return res, nil
}

// pause waits d: a deliberate gap between samples, not a wait for a state.
func pause(ctx context.Context, agentExited <-chan struct{}, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-agentExited:
		return errAgentExited
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *harness) feedbackSample(ctx context.Context, agentExited <-chan struct{}, name string, replicas int32) (feedbackSample, error) {
	s := feedbackSample{Replicas: replicas, ManagedReady: -1, HubReadyReplicas: -1, HubReplicas: -1, AgentReadySeconds: -1}
	patch := fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, replicas)
	began := time.Now()
	_, err := h.spokeKube.AppsV1().Deployments(benchNamespace).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}, "scale")
	if err != nil {
		return s, err
	}
	since := func() float64 { return time.Since(began).Seconds() }
	// One wait over both clusters' events records each moment as it comes;
	// it ends when the hub has ReadyReplicas, or has Replicas and the managed
	// side is ready but ReadyReplicas never follows (reported as -1).
	err = waitUntil(ctx, feedbackTimeout, agentExited, func() bool {
		if d := h.deployment(name); s.ManagedReady < 0 && d != nil && d.Status.ReadyReplicas == replicas {
			s.ManagedReady = since()
		}
		w := h.work(name)
		if v, ok := feedbackInt(w, "Replicas"); s.HubReplicas < 0 && ok && v == int64(replicas) {
			s.HubReplicas = since()
		}
		if v, ok := feedbackInt(w, "ReadyReplicas"); s.HubReadyReplicas < 0 && ok && v == int64(replicas) {
			s.HubReadyReplicas = since()
		}
		return s.HubReadyReplicas >= 0
	}, h.works, h.deploys)
	if s.HubReadyReplicas >= 0 && s.ManagedReady >= 0 {
		s.AgentReadySeconds = s.HubReadyReplicas - s.ManagedReady
	}
	if err != nil && s.HubReplicas < 0 {
		return s, err // neither value arrived: the feedback does not work at all
	}
	return s, nil
}

// removeFeedbackWorks deletes both works and waits until they and their
// Deployments are gone, so that deletion of the cold works is measured alone.
func (h *harness) removeFeedbackWorks(ctx context.Context, agentExited <-chan struct{}) error {
	for _, mode := range feedbackModes {
		err := h.hubWork.WorkV1().ManifestWorks(clusterName).Delete(ctx, feedbackName(mode), metav1.DeleteOptions{})
		if err != nil && !isNotFound(err) {
			return err
		}
	}
	return waitUntil(ctx, h.params.Timeout, agentExited, func() bool {
		return !slices.ContainsFunc(feedbackModes, func(mode workv1.FeedbackScrapeType) bool {
			return h.work(feedbackName(mode)) != nil || h.deployment(feedbackName(mode)) != nil
		})
	}, h.works, h.deploys)
}
