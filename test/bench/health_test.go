//go:build linux

package bench

import (
	"context"
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// healthPerWork is how many Deployments each health work carries.
const healthPerWork = 100

// healthProbe is the work whose Deployment is scaled for the latency samples.
const healthProbe = "health-probe"

// healthResult is the health phase: BENCH_HEALTH_DEPLOYMENTS Deployments
// (with 0 replicas, so that kwok runs no pods for them) tracked for health,
// the agent's memory before and after, and the latency of health changes.
type healthResult struct {
	Deployments int              `json:"deployments"`
	Before      procStats        `json:"before"`
	After       procStats        `json:"after"`
	Converged   float64          `json:"convergedSeconds"` // creation until every work is Healthy
	Samples     []feedbackSample `json:"samples"`          // HubReadyReplicas: the hub's Healthy=True "n of n"
}

func healthWorkName(i int) string { return fmt.Sprintf("health-%d", i) }

// healthWork carries Deployments health-<i>-<j> with 0 replicas.
func healthWork(i, n int) *workv1.ManifestWork {
	var objs []runtime.Object
	for j := range n {
		objs = append(objs, fixture.Deployment(benchNamespace, fmt.Sprintf("health-%d-%d", i, j), 0))
	}
	return fixture.NewWork(clusterName, healthWorkName(i)).WithManifest(objs...).Build()
}

// workHealthy says whether the work is Healthy=True for its generation and,
// unless message is "", its first manifest's Healthy message contains message.
func workHealthy(w *workv1.ManifestWork, message string) bool {
	if w == nil {
		return false
	}
	c := apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkHealthy)
	if c == nil || c.Status != metav1.ConditionTrue || c.ObservedGeneration != w.Generation {
		return false
	}
	if message == "" {
		return true
	}
	if len(w.Status.ResourceStatus.Manifests) == 0 {
		return false
	}
	m := apimeta.FindStatusCondition(w.Status.ResourceStatus.Manifests[0].Conditions, workv1.ManifestHealthy)
	return m != nil && strings.Contains(m.Message, message)
}

// health creates the health works, waits until they are Healthy, reads the
// agent's memory, then scales the probe Deployment on the managed cluster
// and times how the hub's Healthy follows.
func (h *harness) health(ctx context.Context, agentExited <-chan struct{}, pid int) (*healthResult, error) {
	res := &healthResult{Deployments: h.params.HealthDeployments}
	var err error
	if res.Before, err = readProcStats(pid); err != nil {
		return nil, err
	}
	works := (res.Deployments + healthPerWork - 1) / healthPerWork
	began := time.Now()
	for i := range works {
		n := min(healthPerWork, res.Deployments-i*healthPerWork)
		if _, err := h.hubWork.WorkV1().ManifestWorks(clusterName).Create(ctx, healthWork(i, n), metav1.CreateOptions{}); err != nil {
			return nil, fmt.Errorf("health: %w", err)
		}
	}
	err = waitUntil(ctx, h.params.Timeout, agentExited, func() bool {
		for i := range works {
			if !workHealthy(h.work(healthWorkName(i)), "") {
				return false
			}
		}
		return true
	}, h.works)
	if err != nil {
		return nil, fmt.Errorf("health: every work Healthy: %w", err)
	}
	res.Converged = time.Since(began).Seconds()
	if res.After, err = readProcStats(pid); err != nil {
		return nil, err
	}

	probe := fixture.Deployment(benchNamespace, healthProbe, 1)
	probe.Spec.Replicas = nil // scaled on the managed cluster, not drift
	if _, err := h.hubWork.WorkV1().ManifestWorks(clusterName).Create(ctx,
		fixture.NewWork(clusterName, healthProbe).WithManifest(probe).Build(), metav1.CreateOptions{}); err != nil {
		return res, fmt.Errorf("health: %w", err)
	}
	if err := waitUntil(ctx, h.params.Timeout, agentExited, func() bool {
		return workHealthy(h.work(healthProbe), "1 of 1")
	}, h.works); err != nil {
		return res, fmt.Errorf("health: probe Healthy: %w", err)
	}
	for i := range h.params.FeedbackSamples {
		s, err := h.healthSample(ctx, agentExited, int32(2+i%2))
		if err != nil {
			return res, fmt.Errorf("health sample %d: %w", i, err)
		}
		res.Samples = append(res.Samples, s)
	}
	return res, h.removeHealthWorks(ctx, agentExited, works)
}

// healthSample scales the probe and records when the managed Deployment is
// ready and when the hub's Healthy says so.
func (h *harness) healthSample(ctx context.Context, agentExited <-chan struct{}, replicas int32) (feedbackSample, error) {
	s := feedbackSample{Replicas: replicas, ManagedReady: -1, HubReadyReplicas: -1, HubReplicas: -1, AgentReadySeconds: -1}
	patch := fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, replicas)
	began := time.Now()
	if _, err := h.spokeKube.AppsV1().Deployments(benchNamespace).Patch(ctx, healthProbe, types.MergePatchType, patch, metav1.PatchOptions{}, "scale"); err != nil {
		return s, err
	}
	want := fmt.Sprintf("%d of %d", replicas, replicas)
	err := waitUntil(ctx, feedbackTimeout, agentExited, func() bool {
		if d := h.deployment(healthProbe); s.ManagedReady < 0 && d != nil && deploymentDone(d, replicas) {
			s.ManagedReady = time.Since(began).Seconds()
		}
		if s.HubReadyReplicas < 0 && workHealthy(h.work(healthProbe), want) {
			s.HubReadyReplicas = time.Since(began).Seconds()
		}
		return s.HubReadyReplicas >= 0
	}, h.works, h.deploys)
	if s.HubReadyReplicas >= 0 && s.ManagedReady >= 0 {
		s.AgentReadySeconds = s.HubReadyReplicas - s.ManagedReady
	}
	return s, err
}

// deploymentDone is what the health rule calls healthy.
func deploymentDone(d *appsv1.Deployment, replicas int32) bool {
	st := d.Status
	return st.ObservedGeneration >= d.Generation && st.UpdatedReplicas == replicas && st.AvailableReplicas == replicas && st.Replicas == replicas
}

// removeHealthWorks deletes the health works and the probe, and waits until
// they are gone, so that deletion of the cold works is measured alone.
func (h *harness) removeHealthWorks(ctx context.Context, agentExited <-chan struct{}, works int) error {
	names := []string{healthProbe}
	for i := range works {
		names = append(names, healthWorkName(i))
	}
	for _, name := range names {
		if err := h.hubWork.WorkV1().ManifestWorks(clusterName).Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !isNotFound(err) {
			return err
		}
	}
	return waitUntil(ctx, h.params.Timeout, agentExited, func() bool {
		for _, name := range names {
			if h.work(name) != nil {
				return false
			}
		}
		return h.deployment(healthProbe) == nil
	}, h.works, h.deploys)
}

// healthRows are the report's rows of the health phase.
func healthRows() []rowSpec {
	return []rowSpec{
		{"health: Deployments tracked; RSS / peak RSS added", "+25 MB peak at 1000", "",
			func(a *agentResult) (string, string) {
				if a.Health == nil {
					return "-", ""
				}
				peak := a.Health.After.PeakRSSMB - a.Health.Before.PeakRSSMB
				rss := a.Health.After.RSSMB - a.Health.Before.RSSMB
				v := fmt.Sprintf("%d: %+.1f / %+.1f MB (all Healthy after %.1f s)", a.Health.Deployments, rss, peak, a.Health.Converged)
				if a.Health.Deployments < 1000 {
					return v, fmt.Sprintf("n/a (%d)", a.Health.Deployments)
				}
				return v, met(peak <= 25)
			}},
		{"health change to the hub p50 / max (agent's part)", "< 1 s", "",
			func(a *agentResult) (string, string) {
				if a.Health == nil || len(a.Health.Samples) == 0 {
					return "-", ""
				}
				var hub, part []float64
				for _, s := range a.Health.Samples {
					hub = append(hub, s.HubReadyReplicas)
					if s.AgentReadySeconds >= 0 {
						part = append(part, s.AgentReadySeconds)
					}
				}
				p50, maxV := stats(hub)
				a50, aMax := stats(part)
				return fmt.Sprintf("%.2f / %.2f s (agent %.2f / %.2f s, n=%d)", p50, maxV, a50, aMax, len(hub)), met(aMax < 1)
			}},
	}
}
