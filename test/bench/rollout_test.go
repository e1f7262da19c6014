//go:build linux

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// A fleet rollout (issue 27): one ManifestWorkReplicaSet whose Placement
// selects BENCH_ROLLOUT_CLUSTERS clusters, rolled out by each hub controller
// of BENCH_ROLLOUT_CONTROLLERS in turn, with strategy All and with
// Progressive maxConcurrency 20%. The clusters' agents are the bench itself:
// it reports each work healthy for its generation after a delay drawn once
// per cluster, so what is measured is the hub controller alone.

const (
	// rolloutNamespace holds the replica set, its Placement and decisions.
	rolloutNamespace = "bench-rollout"
	rolloutName      = "fleet-config"
	rolloutPlacement = "bench-fleet"
	// decisionSize is the most clusters one PlacementDecision lists, as
	// OCM's placement controller splits them.
	decisionSize = 100
	// rolloutSeed, leastDelay and mostDelay draw each simulated cluster's
	// delay between seeing a new generation and reporting it.
	rolloutSeed = 27
	leastDelay  = 200 * time.Millisecond
	mostDelay   = time.Second
	// envOCMBinary names OCM's work binary; when set, OCM's `work manager`
	// is measured after ours by default.
	envOCMBinary = framework.EnvOCMAgent
	// rolloutCleanupTimeout bounds the deletion of a replica set and its works.
	rolloutCleanupTimeout = 2 * time.Minute
)

// The default hub controllers. Ours runs as the hub's work-hub
// ServiceAccount, without lease and probes. OCM's v1.0 `work manager` runs
// with its ManifestWorkReplicaSet gate on and no lease, as the hub's admin:
// its HTTPS server (library-go) reads the ConfigMap
// kube-system/extension-apiserver-authentication at start, which OCM's
// ClusterManager grants its work controller and deploy/hub does not; it
// needs a port of its own.
const (
	ourRolloutController = "ours={{.WorkBinary}} hub --kubeconfig={{.HubKubeconfig}}" +
		" --disable-leader-election --health-probe-bind-address=0 --listen=0"
	ocmRolloutController = "ocm={{.OCMBinary}} manager --work-driver=kube --kubeconfig={{.AdminKubeconfig}}" +
		" --feature-gates=ManifestWorkReplicaSet=true --disable-leader-election --listen=127.0.0.1:{{.Port}}"
)

// defaultRolloutControllers is ours, and OCM's when its binary is known.
func defaultRolloutControllers(ocmBinary string) string {
	if ocmBinary == "" {
		return ourRolloutController
	}
	return ourRolloutController + ";" + ocmRolloutController
}

// rolloutVars are the placeholders a hub controller's command may use.
type rolloutVars struct {
	HubKubeconfig   string // the hub's work-hub ServiceAccount (deploy/hub RBAC)
	AdminKubeconfig string // the hub's admin, for a controller that needs more
	WorkBinary      string
	OCMBinary       string // $WORK_OCM_AGENT
	Port            int    // a free port
}

// rolloutResources are what a replica set controller reads and writes on
// the hub.
var rolloutResources = []string{"manifestworks", "manifestworkreplicasets", "placements", "placementdecisions", "events", "controllerrevisions"}

// rolloutStrategies are the strategies measured, in order.
var rolloutStrategies = []struct {
	name     string
	strategy workv1alpha1.RolloutStrategy
}{
	{"All", workv1alpha1.RolloutStrategy{Type: workv1alpha1.All, All: &workv1alpha1.RolloutAll{}}},
	{"Progressive 20%", workv1alpha1.RolloutStrategy{Type: workv1alpha1.Progressive,
		Progressive: &workv1alpha1.RolloutProgressive{MaxConcurrency: intstr.FromString("20%")}}},
}

// slotsOf is how many clusters a strategy lets roll out at once, as OCM
// scales a percentage (rounded up).
func slotsOf(s workv1alpha1.RolloutStrategy, clusters int) int {
	if s.Type != workv1alpha1.Progressive || s.Progressive == nil {
		return clusters
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(&s.Progressive.MaxConcurrency, clusters, true)
	if err != nil || n < 1 {
		return clusters
	}
	return n
}

func rolloutClusterName(i int) string { return fmt.Sprintf("rollout-%04d", i+1) }

// rolloutTemplate is the replica set's template: one small ConfigMap whose
// data carries revision.
func rolloutTemplate(revision string) workv1.ManifestWorkSpec {
	return fixture.NewWork("template", "template").
		WithManifest(fixture.ConfigMap("default", "fleet-config", map[string]string{"revision": revision})).Build().Spec
}

// TestRollout measures each hub controller of BENCH_ROLLOUT_CONTROLLERS in
// turn, prints the table and writes it with the JSON under BENCH_OUT as
// rollout-<time>.
func TestRollout(t *testing.T) {
	started, machine := time.Now(), thisMachine()
	e, p, out, h := rolloutSetup(t)
	ctx := t.Context()
	r := &rolloutReport{
		Started: started, Clusters: p.Rollout.Clusters, Idle: p.Idle.String(),
		Delays: rolloutDelays(), Machine: machine, Background: rates(h.hub.background),
	}
	r.Controllers = eachAgent(t, p.Rollout.Controllers, func(spec agentSpec) (rolloutResult, []string) {
		res := h.measure(ctx, t, e, spec, out)
		return res, res.Errors
	}, func() error { return h.reset(ctx) })
	r.Machine.LoadAfter = loadAvg()
	r.Table = tableOf(r.rows(), r.Controllers)
	path, err := writeReport(out, "rollout-"+r.Started.Format("20060102-150405"), r, r.text())
	if err != nil {
		t.Error(err)
	}
	fmt.Printf("\n%s\nbench: written %s (and .txt)\n", r.text(), path)
}

// rolloutSetup is what a test of the rollout's clusters starts from: the
// clusters, the parameters, the output folder, and the harness, the hub's
// background measured, closed when t ends. BENCH_ROLLOUT_CLUSTERS=0 skips t.
func rolloutSetup(t *testing.T) (*framework.E2E, params, string, *rolloutHarness) {
	t.Helper()
	e := setup(t)
	p := paramsFromEnv(t)
	if p.Rollout.Clusters == 0 {
		t.Skip("BENCH_ROLLOUT_CLUSTERS=0")
	}
	out := outDir(t, p)
	h, err := newRolloutHarness(t.Context(), e, p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.close)
	t.Logf("measuring the hub's background for %s", p.Baseline)
	if err := h.hub.measureBackground(t.Context(), p.Baseline); err != nil {
		t.Fatal(err)
	}
	return e, p, out, h
}

// rolloutDelays describes the simulated clusters' delays.
func rolloutDelays() string {
	return fmt.Sprintf("%s to %s, uniform, seed %d", leastDelay, mostDelay, rolloutSeed)
}

// rolloutHarness is the hub with the Placement, the clusters' namespaces,
// informers on the replica set and its works, and the simulated agents.
type rolloutHarness struct {
	params   params
	clusters []string
	delays   map[string]time.Duration
	hub      *meter
	work     workclient.Interface // counted
	works    cache.SharedIndexInformer
	sets     cache.SharedIndexInformer
	agents   *simulatedAgents
	poke     chan struct{} // an informer event or a report
	stop     chan struct{}
}

func newRolloutHarness(ctx context.Context, e *framework.E2E, p params) (*rolloutHarness, error) {
	h := &rolloutHarness{params: p, stop: make(chan struct{}), poke: make(chan struct{}, 1)}
	for i := range p.Rollout.Clusters {
		h.clusters = append(h.clusters, rolloutClusterName(i))
	}
	h.delays = simulatedDelays(h.clusters, rolloutSeed, leastDelay, mostDelay)
	fail := func(err error) (*rolloutHarness, error) {
		close(h.stop)
		return nil, err
	}
	counter := newCounter()
	kube, err := kubernetes.NewForConfig(counter.config(e.Hub.Config))
	if err != nil {
		return fail(err)
	}
	if h.work, err = workclient.NewForConfig(counter.config(e.Hub.Config)); err != nil {
		return fail(err)
	}
	h.hub = &meter{kube: kube, resources: rolloutResources, own: counter}
	if err := ensureRolloutCRDs(ctx, e.Hub); err != nil {
		return fail(err)
	}
	if err := e.Hub.EnsureNamespaces(ctx, append([]string{rolloutNamespace}, h.clusters...)...); err != nil {
		return fail(err)
	}
	if err := h.writePlacement(ctx); err != nil {
		return fail(err)
	}
	works := workinformers.NewSharedInformerFactoryWithOptions(h.work, 0,
		workinformers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = workv1alpha1.ReplicaSetLabel }))
	sets := workinformers.NewSharedInformerFactoryWithOptions(h.work, 0, workinformers.WithNamespace(rolloutNamespace))
	h.works = works.Work().V1().ManifestWorks().Informer()
	h.sets = sets.Work().V1alpha1().ManifestWorkReplicaSets().Informer()
	h.agents = newSimulatedAgents(ctx, h.work, h.works.GetStore(), h.delays, h.notify)
	if _, err := h.works.AddEventHandler(h.agents.handler()); err != nil {
		return fail(err)
	}
	for _, inf := range []cache.SharedIndexInformer{h.works, h.sets} {
		if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(any) { h.notify() },
			UpdateFunc: func(any, any) { h.notify() },
			DeleteFunc: func(any) { h.notify() },
		}); err != nil {
			return fail(err)
		}
	}
	works.Start(h.stop)
	sets.Start(h.stop)
	if !cache.WaitForCacheSync(ctx.Done(), h.works.HasSynced, h.sets.HasSynced) {
		return fail(fmt.Errorf("informers did not sync"))
	}
	return h, nil
}

func (h *rolloutHarness) close() {
	h.agents.close()
	close(h.stop)
}

func (h *rolloutHarness) notify() {
	select {
	case h.poke <- struct{}{}:
	default:
	}
}

// ensureRolloutCRDs installs the Placement CRDs (manifests/placement) when
// the hub lacks them, and checks that it serves ManifestWorkReplicaSets.
func ensureRolloutCRDs(ctx context.Context, hub *framework.Cluster) error {
	for _, crd := range []string{"placements.cluster.open-cluster-management.io", "placementdecisions.cluster.open-cluster-management.io"} {
		ok, err := hub.CRDEstablished(ctx, crd)
		if err != nil {
			return err
		}
		if !ok {
			if _, err := hub.InstallCRDs(framework.RepoPath("manifests", "placement")); err != nil {
				return fmt.Errorf("installing the Placement CRDs: %w", err)
			}
			break
		}
	}
	ok, err := hub.CRDEstablished(ctx, "manifestworkreplicasets.work.open-cluster-management.io")
	if err == nil && !ok {
		err = fmt.Errorf("the hub does not serve ManifestWorkReplicaSets (manifests/hub)")
	}
	return err
}

// writePlacement writes the Placement's status and its PlacementDecisions,
// as OCM's placement controller would: every cluster in decision group 0,
// at most decisionSize clusters per decision.
func (h *rolloutHarness) writePlacement(ctx context.Context) error {
	var names []string
	for from := 0; from < len(h.clusters); from += decisionSize {
		name := fmt.Sprintf("%s-decision-%d", rolloutPlacement, from/decisionSize+1)
		names = append(names, name)
		d := &clusterv1beta1.PlacementDecision{ObjectMeta: metav1.ObjectMeta{
			Namespace: rolloutNamespace, Name: name,
			Labels: map[string]string{
				clusterv1beta1.PlacementLabel:          rolloutPlacement,
				clusterv1beta1.DecisionGroupIndexLabel: "0",
				clusterv1beta1.DecisionGroupNameLabel:  "",
			},
		}}
		for _, c := range h.clusters[from:min(from+decisionSize, len(h.clusters))] {
			d.Status.Decisions = append(d.Status.Decisions, clusterv1beta1.ClusterDecision{ClusterName: c})
		}
		if err := h.upsertDecision(ctx, d); err != nil {
			return err
		}
	}
	placements := h.work.ClusterV1beta1().Placements(rolloutNamespace)
	p, err := placements.Get(ctx, rolloutPlacement, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		p, err = placements.Create(ctx, &clusterv1beta1.Placement{ObjectMeta: metav1.ObjectMeta{
			Namespace: rolloutNamespace, Name: rolloutPlacement}}, metav1.CreateOptions{})
	}
	if err != nil {
		return fmt.Errorf("placement: %w", err)
	}
	p.Status = clusterv1beta1.PlacementStatus{
		NumberOfSelectedClusters: int32(len(h.clusters)),
		DecisionGroups: []clusterv1beta1.DecisionGroupStatus{{
			DecisionGroupIndex: 0, Decisions: names, ClustersCount: int32(len(h.clusters)),
		}},
		Conditions: []metav1.Condition{},
	}
	if _, err := placements.UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("placement status: %w", err)
	}
	return nil
}

// upsertDecision creates or replaces a PlacementDecision with its status.
func (h *rolloutHarness) upsertDecision(ctx context.Context, want *clusterv1beta1.PlacementDecision) error {
	decisions := h.work.ClusterV1beta1().PlacementDecisions(rolloutNamespace)
	d, err := decisions.Get(ctx, want.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		d, err = decisions.Create(ctx, want, metav1.CreateOptions{})
	}
	if err != nil {
		return fmt.Errorf("decision %s: %w", want.Name, err)
	}
	d.Labels, d.Status = want.Labels, want.Status
	if _, err := decisions.Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("decision %s: %w", want.Name, err)
	}
	if _, err := decisions.UpdateStatus(ctx, d, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("decision %s status: %w", want.Name, err)
	}
	return nil
}

// measure runs every strategy with one controller, a new process each.
func (h *rolloutHarness) measure(ctx context.Context, t *testing.T, e *framework.E2E, spec agentSpec, out string) (res rolloutResult) {
	res = rolloutResult{Name: spec.Name}
	port, err := framework.FreePort()
	if err != nil {
		res.Errors = append(res.Errors, err.Error())
		return res
	}
	ocm := os.Getenv(envOCMBinary)
	if ocm != "" {
		ocm, _ = filepath.Abs(ocm)
	}
	command, err := spec.render(rolloutVars{
		HubKubeconfig: e.Hub.WorkKubeconfig, AdminKubeconfig: e.Hub.Kubeconfig,
		WorkBinary: e.WorkBinary, OCMBinary: ocm, Port: port,
	})
	if err != nil {
		res.Errors = append(res.Errors, err.Error())
		return res
	}
	res.Command = command
	for _, s := range rolloutStrategies {
		log := filepath.Join(out, fmt.Sprintf("rollout-%s-%s.log", spec.Name, strings.Fields(s.name)[0]))
		sr, err := h.measureStrategy(ctx, t, spec.Name, command, log, s.name, s.strategy)
		res.Strategies = append(res.Strategies, sr)
		if err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("%s: %v (controller log: %s)", s.name, err, log))
		}
		for _, f := range h.agents.takeFailures() {
			res.Errors = append(res.Errors, fmt.Sprintf("%s: a simulated agent's report: %s", s.name, f))
		}
		if err := h.reset(ctx); err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("%s: cleaning up: %v", s.name, err))
			break
		}
	}
	return res
}

// measureStrategy starts the controller, creates the replica set, changes
// its template, idles, and deletes it; the footprint is read before the
// controller stops.
func (h *rolloutHarness) measureStrategy(ctx context.Context, t *testing.T, controller, command, log, name string,
	strategy workv1alpha1.RolloutStrategy) (res strategyResult, err error) {
	res = strategyResult{Strategy: name, Slots: slotsOf(strategy, len(h.clusters)), Log: log}
	_ = os.Remove(log)
	proc, err := startAgentProcess(command, log)
	if err != nil {
		return res, err
	}
	defer func() {
		if stats, serr := readProcStats(proc.pid()); serr == nil {
			res.Process = &stats
		}
		if serr := proc.stop(agentStopTimeout); serr != nil && err == nil {
			err = serr
		}
	}()
	exited := proc.exited()
	phase := func(what string, run func() error) error {
		began := time.Now()
		t.Logf("%s, %s: %s", controller, name, what)
		if err := run(); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		t.Logf("%s, %s: %s done in %s", controller, name, what, time.Since(began).Round(time.Millisecond))
		return nil
	}
	err = phase("create → rolled out", func() (err error) {
		res.Create, err = h.timeRollout(ctx, exited, proc.pid(), "1", res.Slots, func() error {
			return h.createReplicaSet(ctx, strategy, nil)
		})
		return err
	})
	if err != nil {
		return res, err
	}
	err = phase("template change → rolled out", func() (err error) {
		res.Change, err = h.timeRollout(ctx, exited, proc.pid(), "2", res.Slots, func() error {
			return h.patchTemplate(ctx, "2", nil)
		})
		return err
	})
	if err != nil {
		return res, err
	}
	err = phase(fmt.Sprintf("idle %s", h.params.Idle), func() (err error) {
		res.Idle, err = h.idle(ctx, exited)
		return err
	})
	if err != nil {
		return res, err
	}
	return res, phase("delete", func() error { return h.deleteReplicaSet(ctx, exited) })
}

// createReplicaSet creates the replica set with revision 1's template,
// strategy for its Placement, and annotations.
func (h *rolloutHarness) createReplicaSet(ctx context.Context, strategy workv1alpha1.RolloutStrategy, annotations map[string]string) error {
	_, err := h.work.WorkV1alpha1().ManifestWorkReplicaSets(rolloutNamespace).Create(ctx, &workv1alpha1.ManifestWorkReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: rolloutNamespace, Name: rolloutName, Annotations: annotations},
		Spec: workv1alpha1.ManifestWorkReplicaSetSpec{
			ManifestWorkTemplate: rolloutTemplate("1"),
			PlacementRefs:        []workv1alpha1.LocalPlacementReference{{Name: rolloutPlacement, RolloutStrategy: strategy}},
		},
	}, metav1.CreateOptions{})
	return err
}

// patchTemplate gives the replica set the template of revision, and
// strategy unless it is nil.
func (h *rolloutHarness) patchTemplate(ctx context.Context, rev string, strategy *workv1alpha1.RolloutStrategy) error {
	ops := []map[string]any{{
		"op": "replace", "path": "/spec/manifestWorkTemplate/workload/manifests/0",
		"value": rolloutTemplate(rev).Workload.Manifests[0],
	}}
	if strategy != nil {
		ops = append(ops, map[string]any{"op": "replace", "path": "/spec/placementRefs/0/rolloutStrategy", "value": strategy})
	}
	patch, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = h.work.WorkV1alpha1().ManifestWorkReplicaSets(rolloutNamespace).Patch(ctx, rolloutName, types.JSONPatchType, patch, metav1.PatchOptions{})
	return err
}

// timeRollout opens a window, calls write, and waits until every cluster's
// work holds revision, reported for its generation, and the replica set
// says rolled out.
func (h *rolloutHarness) timeRollout(ctx context.Context, exited <-chan struct{}, pid int, revision string, slots int,
	write func() error) (*rolloutPhase, error) {
	start, err := h.hub.mark(ctx)
	if err != nil {
		return nil, err
	}
	cpuBefore, err := cpuSeconds(pid)
	if err != nil {
		return nil, err
	}
	res := &rolloutPhase{Revision: revision}
	began := time.Now()
	if err := write(); err != nil {
		return nil, err
	}
	notRolledOut := false
	err = waitFor(ctx, h.params.Timeout, exited, func() bool {
		rolledOut, _ := h.rolledOut()
		notRolledOut = notRolledOut || !rolledOut
		return rolledOut && h.agents.reported(h.clusters, revision) == len(h.clusters)
	}, h.poke)
	if err != nil {
		summary := "none"
		if _, rs := h.rolledOut(); rs != nil {
			summary = fmt.Sprintf("%+v, conditions %+v", rs.Status.Summary, rs.Status.Conditions)
		}
		return nil, fmt.Errorf("%d of %d clusters reported revision %s (replica set summary %s): %w",
			h.agents.reported(h.clusters, revision), len(h.clusters), revision, summary, err)
	}
	res.Seconds = time.Since(began).Seconds()
	res.SawNotRolledOut = notRolledOut
	cpuAfter, err := cpuSeconds(pid)
	if err != nil {
		return nil, err
	}
	res.CPUSeconds = cpuAfter - cpuBefore
	if res.hub, _, err = h.hub.since(ctx, start); err != nil {
		return nil, err
	}
	res.Hub = res.hub.byKey()
	res.Works = h.agents.timings(h.clusters, revision, began)
	res.InFlight = maxInFlight(res.Works)
	res.FloorSlots = floorSlots(res.Works, slots)
	res.SlotFloor, res.BatchFloor = slotFloor(res.Works, res.FloorSlots), batchFloor(res.Works, res.FloorSlots)
	if _, rs := h.rolledOut(); rs != nil {
		res.Summary = &rs.Status.Summary
	}
	return res, nil
}

// rolledOut reports whether the replica set says PlacementRolledOut=True.
func (h *rolloutHarness) rolledOut() (bool, *workv1alpha1.ManifestWorkReplicaSet) {
	obj, ok, _ := h.sets.GetStore().GetByKey(rolloutNamespace + "/" + rolloutName)
	if !ok {
		return false, nil
	}
	rs := obj.(*workv1alpha1.ManifestWorkReplicaSet)
	return apimeta.IsStatusConditionTrue(rs.Status.Conditions, workv1alpha1.ConditionPlacementRolledOut), rs
}

// idle counts the controller's requests over BENCH_IDLE.
func (h *rolloutHarness) idle(ctx context.Context, exited <-chan struct{}) (*idleResult, error) {
	start, err := h.hub.mark(ctx)
	if err != nil {
		return nil, err
	}
	if err := pause(ctx, exited, h.params.Idle); err != nil {
		return nil, err
	}
	res := &idleResult{}
	var d time.Duration
	if res.hub, d, err = h.hub.since(ctx, start); err != nil {
		return nil, err
	}
	res.managed = counts{}
	res.Seconds, res.Hub, res.Managed = d.Seconds(), res.hub.byKey(), map[string]int{}
	res.Writes, res.Reads = res.hub.writes(), res.hub.reads()
	return res, nil
}

// deleteReplicaSet deletes the replica set and waits until the controller
// has removed its works and its finalizer.
func (h *rolloutHarness) deleteReplicaSet(ctx context.Context, exited <-chan struct{}) error {
	err := h.work.WorkV1alpha1().ManifestWorkReplicaSets(rolloutNamespace).Delete(ctx, rolloutName, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return waitFor(ctx, rolloutCleanupTimeout, exited, h.gone, h.poke)
}

// gone reports whether neither the replica set nor any of its works is left.
func (h *rolloutHarness) gone() bool {
	return len(h.sets.GetStore().ListKeys()) == 0 && len(h.works.GetStore().ListKeys()) == 0
}

// reset leaves the hub as the next measurement must find it, once its
// controller is stopped: no replica set (finalizer dropped), no works.
func (h *rolloutHarness) reset(ctx context.Context) error {
	sets := h.work.WorkV1alpha1().ManifestWorkReplicaSets(rolloutNamespace)
	for _, obj := range h.sets.GetStore().List() {
		rs := obj.(*workv1alpha1.ManifestWorkReplicaSet)
		if len(rs.Finalizers) > 0 {
			_, err := sets.Patch(ctx, rs.Name, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
			if err != nil && !apierrors.IsNotFound(err) {
				return err
			}
		}
		if err := sets.Delete(ctx, rs.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	for _, obj := range h.works.GetStore().List() {
		w := obj.(*workv1.ManifestWork)
		err := h.work.WorkV1().ManifestWorks(w.Namespace).Delete(ctx, w.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return waitFor(ctx, rolloutCleanupTimeout, nil, h.gone, h.poke)
}
