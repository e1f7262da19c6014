//go:build linux

package bench

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

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
	managed, hub   counts
	began, ended   time.Time // the window, for the agent's log
}

// cold creates W works of M ConfigMaps and measures the time from the first
// create until every work is Applied and Available for its generation, and
// the agent's requests meanwhile.
func (h *harness) cold(ctx context.Context, agentExited <-chan struct{}) (*coldResult, error) {
	w, m := h.params.Works, h.params.Manifests
	works := make([]*workv1.ManifestWork, w)
	for i := range works {
		works[i] = coldWork(i, m)
	}
	win, err := h.openWindow(ctx)
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
	if res.hub, res.managed, _, err = h.closeWindow(ctx, win); err != nil {
		return nil, err
	}
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
