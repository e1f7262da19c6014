//go:build linux

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// Many clusters on one hub (issue 16): BENCH_FLEET_AGENTS simulated managed
// clusters, each with its namespace on the hub and its own agent process,
// against the one hub. They share cluster1: each cluster's objects live in a
// namespace of its name there, and its works are named after it, since
// AppliedManifestWorks are cluster-scoped and named after the hub and the
// work.

const (
	// fleetLabel marks the fleet's works, which the bench's informer selects.
	fleetLabel = "bench.manifestwork.io/fleet"
	// fleetReadySuffix names each cluster's warm-up work: once the agent has
	// applied it, the agent is up and its caches synced.
	fleetReadySuffix = "-ready"
	// changeWorkers send the updates of the change phase.
	changeWorkers = 16
)

func fleetClusterName(i int) string { return fmt.Sprintf("fleet-%04d", i+1) }

func fleetWorkName(cluster string, j int) string { return fmt.Sprintf("%s-w%02d", cluster, j) }

func fleetConfigMapName(j, m int) string { return fmt.Sprintf("w%02d-cm%02d", j, m) }

// fleetData is what a fleet ConfigMap holds; the change phase changes value.
func fleetData(name, value string) map[string]string {
	return map[string]string{"name": name, "value": value}
}

// fleetWork is work j of a cluster: manifests ConfigMaps in the cluster's
// namespace on cluster1.
func fleetWork(cluster string, j, manifests int) *workv1.ManifestWork {
	b := fixture.NewWork(cluster, fleetWorkName(cluster, j))
	for m := range manifests {
		name := fleetConfigMapName(j, m)
		b.WithManifest(fixture.ConfigMap(cluster, name, fleetData(name, "1")))
	}
	return labelled(b.Build())
}

// fleetReadyWork is a cluster's warm-up work, one ConfigMap.
func fleetReadyWork(cluster string) *workv1.ManifestWork {
	return labelled(fixture.NewWork(cluster, cluster+fleetReadySuffix).
		WithManifest(fixture.ConfigMap(cluster, "ready", fleetData("ready", "1"))).Build())
}

func labelled(w *workv1.ManifestWork) *workv1.ManifestWork {
	w.Labels = map[string]string{fleetLabel: "true"}
	return w
}

// TestFleet measures BENCH_FLEET_AGENTS agents on one hub for each agent of
// BENCH_AGENTS in turn, prints the table and writes it with the JSON under
// BENCH_OUT as fleet-<time>.
func TestFleet(t *testing.T) {
	e := setup(t)
	p := paramsFromEnv(t)
	if p.Fleet.Agents == 0 {
		t.Skip("BENCH_FLEET_AGENTS=0")
	}
	out := outDir(t, p)
	ctx := t.Context()
	r := &fleetReport{
		Started: time.Now(), Clusters: p.Fleet.Agents, Works: p.Fleet.Works, Manifests: p.Fleet.Manifests,
		Batch: p.Fleet.Batch, QPS: p.QPS, Idle: p.Idle.String(),
		Machine: thisMachine(),
	}
	h, err := newFleetHarness(ctx, e, p)
	if err != nil {
		t.Fatal(err)
	}
	defer h.close()
	r.Agents = eachAgent(t, p.Agents, func(spec agentSpec) (fleetResult, []string) {
		res := h.measure(ctx, t, e, spec, out)
		return res, res.Errors
	}, func() error { return h.reset(ctx) })
	r.Machine.LoadAfter = loadAvg()
	r.Table = tableOf(r.rows(), r.Agents)
	path, err := writeReport(out, "fleet-"+r.Started.Format("20060102-150405"), r, r.text())
	if err != nil {
		t.Error(err)
	}
	fmt.Printf("\n%s\nbench: written %s (and .txt)\n", r.text(), path)
}

// fleetHarness observes the fleet's works on the hub and the two
// kube-apiservers' requests and CPU.
type fleetHarness struct {
	params   params
	clusters []string
	// hubKubeconfigs are the clusters' agent identities on the hub, by
	// cluster: each a ServiceAccount of its namespace, as a real hub gives.
	// An admin's kubeconfig instead would be exempt from the hub's API
	// Priority and Fairness, which protects a real hub from a fleet.
	hubKubeconfigs []string
	*meters
	works cache.SharedIndexInformer // the fleet's works, in every namespace
	apiServers
	stop chan struct{}
}

func newFleetHarness(ctx context.Context, e *framework.E2E, p params) (*fleetHarness, error) {
	h := &fleetHarness{params: p, stop: make(chan struct{})}
	for i := range p.Fleet.Agents {
		h.clusters = append(h.clusters, fleetClusterName(i))
	}
	fail := func(err error) (*fleetHarness, error) {
		close(h.stop)
		return nil, err
	}
	var err error
	if h.apiServers, err = findAPIServers(e); err != nil {
		return fail(err)
	}
	if h.meters, err = newMeters(e, h.stop); err != nil {
		return fail(err)
	}
	if h.hubKubeconfigs, err = clusterIdentities(e, h.clusters); err != nil {
		return fail(err)
	}
	if err := managedCluster(e).EnsureNamespaces(ctx, h.clusters...); err != nil {
		return fail(err)
	}
	factory := workinformers.NewSharedInformerFactoryWithOptions(h.hubWork, 0,
		workinformers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = fleetLabel }))
	h.works = factory.Work().V1().ManifestWorks().Informer()
	factory.Start(h.stop)
	if !cache.WaitForCacheSync(ctx.Done(), h.works.HasSynced, h.leases.HasSynced) {
		return fail(fmt.Errorf("informers did not sync"))
	}
	return h, nil
}

func (h *fleetHarness) close() { close(h.stop) }

// identityWorkers apply the clusters' namespaces on the hub at once.
const identityWorkers = 4

// clusterIdentities applies deploy/cluster-namespace for each cluster on the
// hub and returns the kubeconfigs of their agents' identities, in order.
func clusterIdentities(e *framework.E2E, clusters []string) ([]string, error) {
	kubeconfigs := make([]string, len(clusters))
	err := inParallel(len(clusters), identityWorkers, func(i int) (err error) {
		kubeconfigs[i], err = e.ClusterNamespace(clusters[i])
		return err
	})
	return kubeconfigs, err
}

func (h *fleetHarness) work(cluster, name string) *workv1.ManifestWork {
	obj, ok, _ := h.works.GetStore().GetByKey(cluster + "/" + name)
	if !ok {
		return nil
	}
	return obj.(*workv1.ManifestWork)
}

// measure runs the phases for one agent command. A failed phase ends the
// measurement; the footprint is still read.
func (h *fleetHarness) measure(ctx context.Context, t *testing.T, e *framework.E2E, spec agentSpec, out string) (res fleetResult) {
	res = fleetResult{Name: spec.Name, Logs: filepath.Join(out, "fleet-"+spec.Name)}
	fail := func(err error) fleetResult {
		res.Errors = append(res.Errors, err.Error())
		return res
	}
	commands := make([]string, len(h.clusters))
	for i, cluster := range h.clusters {
		var err error
		commands[i], err = spec.render(agentVars{
			HubKubeconfig: h.hubKubeconfigs[i], Kubeconfig: managedCluster(e).Kubeconfig,
			ClusterName: cluster, WorkBinary: e.WorkBinary,
		})
		if err != nil {
			return fail(err)
		}
	}
	res.Command = commands[0]
	t.Logf("%s: measuring the clusters' background for %s", spec.Name, h.params.Baseline)
	var err error
	if res.Background, err = h.background(ctx); err != nil {
		return fail(err)
	}
	if err := os.RemoveAll(res.Logs); err != nil {
		return fail(err)
	}
	if err := os.MkdirAll(res.Logs, 0o755); err != nil {
		return fail(err)
	}
	agents := newFleet()
	guard := make(chan struct{})
	go agents.guardMemory(guard, minAvailableMB)
	defer func() {
		close(guard)
		err := agents.stop(agentStopTimeout)
		if why := agents.stoppedForMemory(); why != "" {
			res.Errors = append(res.Errors, why) // which is why the agents had exited
		} else if err != nil {
			res.Errors = append(res.Errors, err.Error())
		}
	}()
	phases := []struct {
		name string
		run  func() error
	}{
		{"start", func() (err error) { res.StartSeconds, err = h.start(ctx, t, agents, commands, res.Logs); return err }},
		{"cold apply", func() (err error) { res.Cold, err = h.cold(ctx, agents); return err }},
		{"change", func() (err error) { res.Change, err = h.change(ctx, agents); return err }},
		{"idle", func() (err error) { res.Idle, err = h.idle(ctx, agents); return err }},
	}
	for _, phase := range phases {
		began := time.Now()
		t.Logf("%s: %s", spec.Name, phase.name)
		if err := phase.run(); err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("%s: %v (agent logs: %s)", phase.name, err, res.Logs))
			break
		}
		t.Logf("%s: %s done in %s", spec.Name, phase.name, time.Since(began).Round(time.Millisecond))
	}
	// The kube-apiservers' own metrics, for the analysis: request and etcd
	// durations, priority-and-fairness waits.
	for name, kube := range map[string]kubernetes.Interface{"hub": h.hub.kube, "managed": h.spoke.kube} {
		raw, err := kube.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
		if err == nil {
			err = os.WriteFile(filepath.Join(res.Logs, name+"-apiserver-metrics.txt"), raw, 0o644)
		}
		if err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("%s metrics: %v", name, err))
		}
	}
	if fp, err := agents.footprint(); err != nil {
		res.Errors = append(res.Errors, "process stats: "+err.Error())
	} else {
		res.Footprint = &fp
	}
	return res
}

// fleetBackground is what the clusters do without agents, per second.
type fleetBackground struct {
	Requests map[string]map[string]float64 `json:"requestsPerSecond"` // cluster → request → rate subtracted
	// HubAPIServerCPU and ManagedAPIServerCPU are the kube-apiservers' CPU
	// seconds per second.
	HubAPIServerCPU     float64 `json:"hubApiserverCpu"`
	ManagedAPIServerCPU float64 `json:"managedApiserverCpu"`
}

// background measures the request background of both clusters, and the
// kube-apiservers' CPU, over BENCH_BASELINE without agents.
func (h *fleetHarness) background(ctx context.Context) (*fleetBackground, error) {
	before, err := h.cpu(nil)
	if err != nil {
		return nil, err
	}
	began := time.Now()
	if err := h.measureBackground(ctx, h.params.Baseline); err != nil {
		return nil, err
	}
	after, err := h.cpu(nil)
	if err != nil {
		return nil, err
	}
	used, d := after.minus(before), time.Since(began).Seconds()
	return &fleetBackground{
		Requests:        map[string]map[string]float64{"hub": rates(h.hub.background), "managed": rates(h.spoke.background)},
		HubAPIServerCPU: used.HubAPIServer / d, ManagedAPIServerCPU: used.ManagedAPIServer / d,
	}, nil
}

// cpu reads the CPU time used so far; agents may be nil.
func (h *fleetHarness) cpu(agents *fleet) (cpuUse, error) {
	c, err := h.apiServers.cpu()
	if err == nil && agents != nil {
		c.Agents, err = agents.cpuSeconds()
	}
	return c, err
}

// start starts the agents in batches of BENCH_FLEET_BATCH: each cluster gets
// its warm-up work, the batch's agents start, and the next batch starts once
// every agent of this one has applied its warm-up work (so it is up, with
// its caches synced). It returns the seconds until the last was.
func (h *fleetHarness) start(ctx context.Context, t *testing.T, agents *fleet, commands []string, logs string) (float64, error) {
	began := time.Now()
	for from := 0; from < len(h.clusters); from += h.params.Fleet.Batch {
		batch := h.clusters[from:min(from+h.params.Fleet.Batch, len(h.clusters))]
		ready := make([]*workv1.ManifestWork, len(batch))
		for i, cluster := range batch {
			ready[i] = fleetReadyWork(cluster)
		}
		if err := h.createWorks(ctx, ready); err != nil {
			return 0, err
		}
		for i, cluster := range batch {
			if err := agents.start(commands[from+i], filepath.Join(logs, cluster+".log")); err != nil {
				return 0, err
			}
		}
		err := waitUntil(ctx, h.params.Timeout, agents.exited(), func() bool {
			for _, w := range ready {
				if !appliedFor(h.work(w.Namespace, w.Name), 1) {
					return false
				}
			}
			return true
		}, h.works)
		if err != nil {
			return 0, fmt.Errorf("agents %d-%d: warm-up works applied: %w", from+1, from+len(batch), err)
		}
		t.Logf("%d agents up after %s", from+len(batch), time.Since(began).Round(time.Millisecond))
	}
	return time.Since(began).Seconds(), nil
}

// fleetWrite is a phase that writes every work on the hub and times until
// each is Applied for what it wrote.
type fleetWrite struct {
	Works       int     `json:"works"`
	SentSeconds float64 `json:"sentSeconds"` // from the first write until the last was answered
	Seconds     float64 `json:"seconds"`     // from the first write until every work was Applied
	Latency     spread  `json:"latency"`     // each work, from its own write
	// Seen is each work, from its own write until the hub's watch brought
	// it to the bench's informer: the part of Latency no agent can shorten.
	Seen spread `json:"seen"`
	// ManagedLatency is, for a change, each work's changed ConfigMap, from
	// the work's write until the managed cluster holds the change: the part
	// of Latency before the agent's status write.
	ManagedLatency *spread        `json:"managedLatency,omitempty"`
	Hub            map[string]int `json:"hubRequests"`
	Managed        map[string]int `json:"managedRequests"`
	CPU            cpuUse         `json:"cpuSeconds"`
	// HubServerTime and ManagedServerTime are the kube-apiservers' mean
	// time per request, by request, over the phase.
	HubServerTime     map[string]meanTime `json:"hubServerTime"`
	ManagedServerTime map[string]meanTime `json:"managedServerTime"`
	hub, managed      counts
}

// meanTime is the mean of N durations.
type meanTime struct {
	Seconds float64 `json:"seconds"`
	N       int     `json:"n"`
}

// serverTimes reads how long both kube-apiservers took per request so far.
func (h *fleetHarness) serverTimes(ctx context.Context) (hub, managed serverTime, err error) {
	if hub, err = scrapeServerTime(ctx, h.hub.kube, hubResources); err != nil {
		return hub, managed, err
	}
	managed, err = scrapeServerTime(ctx, h.spoke.kube, managedResources)
	return hub, managed, err
}

// meansSince is the mean time per request of every request seen since start.
func meansSince(now, start serverTime) map[string]meanTime {
	out := map[string]meanTime{}
	for k := range now.count {
		if mean, n := now.meanSince(start, k); n > 0 {
			out[k.String()] = meanTime{Seconds: mean, N: n}
		}
	}
	return out
}

// timeWrites opens a window, calls write(i) for i < n on a few workers
// (write returns the work's key, when it sent the request, and the
// generation the answer gave), and waits until every work written is
// Applied for that generation.
func (h *fleetHarness) timeWrites(ctx context.Context, agents *fleet, n, workers int,
	write func(i int) (key string, at time.Time, generation int64, err error)) (*fleetWrite, error) {
	l, seen := newLatencies(), seenLatencies()
	for _, t := range []*latencies{l, seen} {
		reg, err := h.works.AddEventHandler(t.handler())
		if err != nil {
			return nil, err
		}
		defer func() { _ = h.works.RemoveEventHandler(reg) }()
	}
	win, err := h.openWindow(ctx)
	if err != nil {
		return nil, err
	}
	cpuBefore, err := h.cpu(agents)
	if err != nil {
		return nil, err
	}
	hubBefore, managedBefore, err := h.serverTimes(ctx)
	if err != nil {
		return nil, err
	}
	res := &fleetWrite{Works: n}
	began := time.Now()
	err = inParallel(n, workers, func(i int) error {
		key, at, generation, err := write(i)
		if err != nil {
			return err
		}
		current, _, _ := h.works.GetStore().GetByKey(key)
		l.wrote(key, at, generation, current)
		seen.wrote(key, at, generation, current)
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.SentSeconds = time.Since(began).Seconds()
	if err := waitFor(ctx, h.params.Timeout, agents.exited(), func() bool { return l.count() == n }, l.poke); err != nil {
		return nil, fmt.Errorf("%d of %d works applied: %w", l.count(), n, err)
	}
	res.Seconds = time.Since(began).Seconds()
	res.Latency, res.Seen = spreadOf(l.samples()), spreadOf(seen.samples())
	cpuAfter, err := h.cpu(agents)
	if err != nil {
		return nil, err
	}
	res.CPU = cpuAfter.minus(cpuBefore)
	hubAfter, managedAfter, err := h.serverTimes(ctx)
	if err != nil {
		return nil, err
	}
	res.HubServerTime, res.ManagedServerTime = meansSince(hubAfter, hubBefore), meansSince(managedAfter, managedBefore)
	if res.hub, res.managed, _, err = h.closeWindow(ctx, win); err != nil {
		return nil, err
	}
	res.Hub, res.Managed = res.hub.byKey(), res.managed.byKey()
	return res, nil
}

// allWorks names work j of cluster i as index i*works+j.
func (h *fleetHarness) allWorks() (n int, at func(i int) (cluster string, j int)) {
	w := h.params.Fleet.Works
	return len(h.clusters) * w, func(i int) (string, int) { return h.clusters[i/w], i % w }
}

// cold creates every cluster's works at once.
func (h *fleetHarness) cold(ctx context.Context, agents *fleet) (*fleetWrite, error) {
	n, at := h.allWorks()
	return h.timeWrites(ctx, agents, n, createWorkers, func(i int) (string, time.Time, int64, error) {
		cluster, j := at(i)
		work := fleetWork(cluster, j, h.params.Fleet.Manifests)
		sent := time.Now()
		created, err := h.hubWork.WorkV1().ManifestWorks(cluster).Create(ctx, work, metav1.CreateOptions{})
		if err != nil {
			return "", sent, 0, fmt.Errorf("create work %s/%s: %w", cluster, work.Name, err)
		}
		return cluster + "/" + work.Name, sent, created.Generation, nil
	})
}

// change changes the first ConfigMap of every work on the hub at once, and
// times each also until the managed cluster holds it.
func (h *fleetHarness) change(ctx context.Context, agents *fleet) (*fleetWrite, error) {
	n, at := h.allWorks()
	configMaps := kubeinformers.NewSharedInformerFactory(h.spokeKube, 0).Core().V1().ConfigMaps().Informer()
	managed := managedLatencies(changedValue)
	if _, err := configMaps.AddEventHandler(managed.handler()); err != nil {
		return nil, err
	}
	stop := make(chan struct{})
	defer close(stop)
	go configMaps.Run(stop)
	if !cache.WaitForCacheSync(ctx.Done(), configMaps.HasSynced) {
		return nil, fmt.Errorf("the ConfigMap informer of cluster1 did not sync")
	}
	res, err := h.timeWrites(ctx, agents, n, changeWorkers, func(i int) (string, time.Time, int64, error) {
		cluster, j := at(i)
		name := fleetWorkName(cluster, j)
		cm := fleetConfigMapName(j, 0)
		patch, err := json.Marshal([]map[string]any{{
			"op": "replace", "path": "/spec/workload/manifests/0",
			"value": fixture.ConfigMap(cluster, cm, fleetData(cm, changedValue)),
		}})
		if err != nil {
			return "", time.Time{}, 0, err
		}
		sent := time.Now()
		changed, err := h.hubWork.WorkV1().ManifestWorks(cluster).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{})
		if err != nil {
			return "", sent, 0, fmt.Errorf("change work %s/%s: %w", cluster, name, err)
		}
		current, _, _ := configMaps.GetStore().GetByKey(cluster + "/" + cm)
		managed.wrote(cluster+"/"+cm, sent, 0, current)
		return cluster + "/" + name, sent, changed.Generation, nil
	})
	if err != nil {
		return nil, err
	}
	// Applied is written after the ConfigMap: its event is at most a moment behind.
	if err := waitFor(ctx, h.params.Timeout, agents.exited(), func() bool { return managed.count() == n }, managed.poke); err != nil {
		return nil, fmt.Errorf("%d of %d changed ConfigMaps seen: %w", managed.count(), n, err)
	}
	spread := spreadOf(managed.samples())
	res.ManagedLatency = &spread
	return res, nil
}

// changedValue is the value the change phase gives each work's first ConfigMap.
const changedValue = "2"

// fleetIdle is the idle window with every work applied.
type fleetIdle struct {
	*idleResult
	CPU cpuUse `json:"cpuSeconds"`
}

// idle counts the agents' requests and the CPU used over BENCH_IDLE.
func (h *fleetHarness) idle(ctx context.Context, agents *fleet) (*fleetIdle, error) {
	before, err := h.cpu(agents)
	if err != nil {
		return nil, err
	}
	res := &fleetIdle{}
	if res.idleResult, err = h.meters.idle(ctx, agents.exited(), h.params.Idle); err != nil {
		return nil, err
	}
	after, err := h.cpu(agents)
	if err != nil {
		return nil, err
	}
	res.CPU = after.minus(before)
	return res, nil
}

// reset leaves the clusters as the next agent must find them, once the
// agents are stopped: no fleet works (finalizers dropped), no
// AppliedManifestWorks, no ConfigMaps in the fleet's namespaces.
func (h *fleetHarness) reset(ctx context.Context) error {
	for _, obj := range h.works.GetStore().List() {
		if err := h.deleteWorkNow(ctx, obj.(*workv1.ManifestWork)); err != nil {
			return err
		}
	}
	if err := h.deleteAppliedWorks(ctx); err != nil {
		return err
	}
	for _, ns := range h.clusters {
		err := h.spokeKube.CoreV1().ConfigMaps(ns).DeleteCollection(ctx, metav1.DeleteOptions{},
			metav1.ListOptions{FieldSelector: "metadata.name!=kube-root-ca.crt"})
		if err != nil {
			return err
		}
	}
	return waitUntil(ctx, 2*time.Minute, nil, func() bool { return len(h.works.GetStore().ListKeys()) == 0 }, h.works)
}
