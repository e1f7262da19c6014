//go:build linux

package bench

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// createWorkers create the works of cold apply in parallel, so that the
// bench's creates (at most a second or two) are not what is measured.
const createWorkers = 8

func coldWorkName(i int) string { return fmt.Sprintf("%sw%04d", coldPrefix, i) }

func coldConfigMapName(work, manifest int) string {
	return fmt.Sprintf("%sw%04d-cm%03d", coldPrefix, work, manifest)
}

// coldData is what every ConfigMap of cold apply holds: a few small keys,
// so that the size of the objects is not what is measured.
func coldData(name string) map[string]string {
	return map[string]string{"name": name, "value": "1"}
}

func coldWork(i, manifests int) *workv1.ManifestWork {
	b := fixture.NewWork(clusterName, coldWorkName(i))
	for m := range manifests {
		name := coldConfigMapName(i, m)
		b.WithManifest(fixture.ConfigMap(benchNamespace, name, coldData(name)))
	}
	return b.Build()
}

// coldResult is phase 1.
type coldResult struct {
	Seconds        float64        `json:"seconds"`
	Managed        map[string]int `json:"managedRequests"`
	Hub            map[string]int `json:"hubRequests"`
	ManagedPerItem float64        `json:"managedRequestsPerManifest"`
	HubWritesPer   float64        `json:"hubWritesPerWork"`
	Cost           coldCost       `json:"cost"`
	managed, hub   counts
	began, ended   time.Time // the window, for the agent's log
}

// coldCost is what cold apply cost: the CPU time of the agent and of both
// kube-apiservers, and the request bodies the agent sent to each, in total
// and per object applied.
type coldCost struct {
	CPU  cpuUse                         `json:"cpuSeconds"` // Agents is the agent measured
	Sent map[string]map[string]bodySize `json:"sentBytes"`  // cluster → body key → bytes and number
	// Per 1,000 objects applied, and bytes per object.
	AgentCPUPer1000            float64 `json:"agentCpuSecondsPer1000Objects"`
	HubAPIServerCPUPer1000     float64 `json:"hubApiserverCpuSecondsPer1000Objects"`
	ManagedAPIServerCPUPer1000 float64 `json:"managedApiserverCpuSecondsPer1000Objects"`
	HubBytesPerObject          float64 `json:"hubBytesPerObject"`
	ManagedBytesPerObject      float64 `json:"managedBytesPerObject"`
}

// costOf divides what applying objects cost by their number.
func costOf(objects int, used cpuUse, hub, managed bodySizes) coldCost {
	c := coldCost{CPU: used, Sent: map[string]map[string]bodySize{"hub": hub.byKey(), "managed": managed.byKey()}}
	if objects <= 0 {
		return c
	}
	per1000 := 1000 / float64(objects)
	c.AgentCPUPer1000 = used.Agents * per1000
	c.HubAPIServerCPUPer1000 = used.HubAPIServer * per1000
	c.ManagedAPIServerCPUPer1000 = used.ManagedAPIServer * per1000
	c.HubBytesPerObject = hub.total() / float64(objects)
	c.ManagedBytesPerObject = managed.total() / float64(objects)
	return c
}

// cpu reads the CPU time of both kube-apiservers and of the agent so far.
func (h *harness) cpu(agentPID int) (cpuUse, error) {
	c, err := h.apiServers.cpu()
	if err == nil {
		c.Agents, err = cpuSeconds(agentPID)
	}
	return c, err
}

// cold creates W works of M ConfigMaps and measures the time from the first
// create until every work is Applied and Available for its generation, the
// agent's requests meanwhile, and what they cost.
func (h *harness) cold(ctx context.Context, agentExited <-chan struct{}, agentPID int) (*coldResult, error) {
	w, m := h.params.Works, h.params.Manifests
	works := make([]*workv1.ManifestWork, w)
	for i := range works {
		works[i] = coldWork(i, m)
	}
	win, err := h.openWindow(ctx)
	if err != nil {
		return nil, err
	}
	cpuBefore, err := h.cpu(agentPID)
	if err != nil {
		return nil, err
	}
	began := time.Now()
	if err := h.createWorks(ctx, works); err != nil {
		return nil, err
	}
	err = waitUntil(ctx, h.params.Timeout, agentExited, func() bool {
		done := 0
		for _, work := range h.listWorks() {
			if strings.HasPrefix(work.Name, coldPrefix) && converged(work) {
				done++
			}
		}
		return done == w
	}, h.works)
	elapsed := time.Since(began)
	if err != nil {
		return nil, fmt.Errorf("cold apply: %d works converged: %w", h.countConverged(), err)
	}
	res := &coldResult{Seconds: elapsed.Seconds(), began: began, ended: began.Add(elapsed)}
	cpuAfter, err := h.cpu(agentPID)
	if err != nil {
		return nil, err
	}
	end, err := h.openWindow(ctx) // the end marks, for the bytes too
	if err != nil {
		return nil, err
	}
	res.hub, res.managed, _ = h.between(win, end)
	res.Cost = costOf(w*m, cpuAfter.minus(cpuBefore), sentBetween(win.hub, end.hub), sentBetween(win.spoke, end.spoke))
	res.Hub, res.Managed = res.hub.byKey(), res.managed.byKey()
	res.ManagedPerItem = float64(res.managed.total()) / float64(w*m)
	res.HubWritesPer = float64(res.hub.writes()) / float64(w)
	return res, nil
}

func (h *harness) countConverged() int {
	n := 0
	for _, work := range h.listWorks() {
		if strings.HasPrefix(work.Name, coldPrefix) && converged(work) {
			n++
		}
	}
	return n
}

// createWorks creates works with a few parallel workers.
func (m *meters) createWorks(ctx context.Context, works []*workv1.ManifestWork) error {
	return inParallel(len(works), createWorkers, func(i int) error {
		work := works[i]
		if _, err := m.hubWork.WorkV1().ManifestWorks(work.Namespace).Create(ctx, work, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create work %s: %w", work.Name, err)
		}
		return nil
	})
}

// inParallel calls f(0) … f(n-1) on at most workers goroutines, and returns
// the first error.
func inParallel(n, workers int, f func(i int) error) error {
	next := make(chan int)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for i := range next {
				if err := f(i); err != nil {
					errs <- err
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	return <-errs // the first error, or nil
}

func TestCostOf(t *testing.T) {
	cm := reqKey{Verb: "create", Resource: "configmaps"}
	status := reqKey{Verb: "patch", Resource: "manifestworks"}
	cases := []struct {
		name         string
		objects      int
		used         cpuUse
		hub, managed bodySizes
		want         coldCost
	}{
		{name: "per 1,000 objects and per object", objects: 2000,
			used:    cpuUse{Agents: 1.8, HubAPIServer: 3, ManagedAPIServer: 2.9},
			hub:     bodySizes{status: {Bytes: 200_000, N: 200}},
			managed: bodySizes{cm: {Bytes: 800_000, N: 2000}},
			want: coldCost{
				CPU: cpuUse{Agents: 1.8, HubAPIServer: 3, ManagedAPIServer: 2.9},
				Sent: map[string]map[string]bodySize{
					"hub":     {"patch manifestworks": {Bytes: 200_000, N: 200}},
					"managed": {"create configmaps": {Bytes: 800_000, N: 2000}},
				},
				AgentCPUPer1000: 0.9, HubAPIServerCPUPer1000: 1.5, ManagedAPIServerCPUPer1000: 1.45,
				HubBytesPerObject: 100, ManagedBytesPerObject: 400,
			}},
		{name: "no objects: totals only", objects: 0, used: cpuUse{Agents: 1},
			want: coldCost{CPU: cpuUse{Agents: 1}, Sent: map[string]map[string]bodySize{"hub": {}, "managed": {}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := costOf(tc.objects, tc.used, tc.hub, tc.managed)
			assert.InDelta(t, tc.want.AgentCPUPer1000, got.AgentCPUPer1000, 1e-9)
			assert.InDelta(t, tc.want.HubAPIServerCPUPer1000, got.HubAPIServerCPUPer1000, 1e-9)
			assert.InDelta(t, tc.want.ManagedAPIServerCPUPer1000, got.ManagedAPIServerCPUPer1000, 1e-9)
			assert.InDelta(t, tc.want.HubBytesPerObject, got.HubBytesPerObject, 1e-9)
			assert.InDelta(t, tc.want.ManagedBytesPerObject, got.ManagedBytesPerObject, 1e-9)
			assert.Equal(t, tc.want.CPU, got.CPU)
			assert.Equal(t, tc.want.Sent, got.Sent)
		})
	}
}
