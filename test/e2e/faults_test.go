package e2e

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// The fault tests run their own agents on faultCluster, with leader election
// on and POD_NAME set as a pod would set it.
const (
	faultCluster = "cluster2"
	// agentLease is the Lease the agent elects its leader with, in
	// framework.AgentLeaseNamespace on the managed cluster.
	agentLease = "work-agent"
	// leaseTimeout bounds waiting for a free lease: one left held by a
	// process killed before (e.g. an aborted run) expires within 137 s.
	leaseTimeout = 4 * time.Minute
	// faultTimeout bounds each step of a fault test, which throttles its agent.
	faultTimeout = 3 * time.Minute
	// faultLabel marks the objects of a fault test with the name of their work.
	faultLabel = "e2e.work.open-cluster-management.io/fault-work"
)

// An agent killed with SIGKILL four times while it applies a work of 150
// ConfigMaps, and once while it deletes it, restarted each time in the same
// pod: nothing is duplicated (one AppliedManifestWork, each object recorded
// once) and nothing is lost (every object applied and recorded with its UID;
// after deletion nothing of the work is left anywhere).
func TestAgentKilledWhileApplyingAndDeleting(t *testing.T) {
	e := setup(t)
	const n, kills = 150, 4
	ns := "faults-kill"
	require.NoError(t, e.Cluster(faultCluster).EnsureNamespaces(t.Context(), ns))
	// A throttled client stretches applying and deleting over many seconds,
	// so that every kill lands in the middle of them.
	agent := startElectingAgent(t, "work-agent-kill", "--kube-api-qps=10", "--kube-api-burst=10")
	work := fixture.NewWork(faultCluster, "killed-agent").WithManifest(faultConfigMaps(ns, "killed-agent", "cm", n)...).Build()
	createWork(t, work)

	for i := 1; i <= kills; i++ {
		count := waitFaultObjects(t, ns, work.Name, fmt.Sprintf("at least %d", i*n/(kills+1)),
			func(count int) bool { return count >= i*n/(kills+1) })
		killAndStart(t, agent)
		require.Less(t, count, n, "kill %d must land while the agent applies", i)
		t.Logf("kill %d: %d of %d objects applied", i, count, n)
	}
	waitExactlyApplied(t, ns, work.Name, objectNames("cm", n))

	works := e.Hub.Work.WorkV1().ManifestWorks(faultCluster)
	require.NoError(t, works.Delete(t.Context(), work.Name, metav1.DeleteOptions{}))
	count := waitFaultObjects(t, ns, work.Name, fmt.Sprintf("at most %d", 3*n/4),
		func(count int) bool { return count <= 3*n/4 })
	killAndStart(t, agent)
	require.Positive(t, count, "the kill must land while the agent deletes")
	t.Logf("kill during deletion: %d of %d objects left", count, n)
	waitNothingLeft(t, ns, work.Name)
}

// A restarted agent takes its lease back at once when it runs in the same pod
// (POD_NAME), and acts well within the lease duration (137 s). An agent of
// another pod leaves the lease alone while it has not expired, even though
// its holder is dead, and takes over when the holder stops gracefully.
func TestRestartedAgentTakesItsLeaseBackAtOnce(t *testing.T) {
	e := setup(t)
	ns := "faults-lease"
	require.NoError(t, e.Cluster(faultCluster).EnsureNamespaces(t.Context(), ns))
	first := startElectingAgent(t, "work-agent-first")

	killedAt := time.Now()
	_, err := first.Kill()
	require.NoError(t, err)
	require.NoError(t, first.Start())
	require.NoError(t, first.WaitReady(convergeTimeout))
	waitLeaseRenewedBy(t, "work-agent-first", killedAt)
	applyOneConfigMap(t, ns, "after-restart")

	// A standby of another pod, started while the first holds the lease.
	second, err := e.StartAgentWithEnv(faultCluster, []string{"POD_NAME=work-agent-second"})
	require.NoError(t, err)
	t.Cleanup(func() { stopAgent(t, second) })
	// The holder dies without releasing the lease: the standby must wait for
	// it to expire, and leaves a new work alone meanwhile.
	_, err = first.Kill()
	require.NoError(t, err)
	untouched := fixture.NewWork(faultCluster, "while-standby").
		WithManifest(fixture.ConfigMap(ns, "while-standby", map[string]string{"k": "v"})).Build()
	createWork(t, untouched)
	framework.Consistently(t, 30*time.Second, func() error {
		if holder := leaseHolder(t); holder != "work-agent-first" {
			return fmt.Errorf("the lease is held by %q", holder)
		}
		w, err := getWork(t.Context(), faultCluster, untouched.Name)
		if err != nil {
			return err
		}
		if len(w.Finalizers) > 0 || len(w.Status.Conditions) > 0 {
			return fmt.Errorf("an agent acted on work %s: finalizers %v, conditions %v", w.Name, w.Finalizers, w.Status.Conditions)
		}
		return nil
	}, "the standby of another pod does not act while the dead holder's lease is valid")

	// The holder comes back in its pod, takes its lease back and applies the
	// work; stopped gracefully, it hands the lease over to the standby.
	restartedAt := time.Now()
	require.NoError(t, first.Start())
	require.NoError(t, first.WaitReady(convergeTimeout))
	waitLeaseRenewedBy(t, "work-agent-first", restartedAt)
	waitWorkCondition(t, faultCluster, untouched.Name, workv1.WorkApplied, metav1.ConditionTrue)
	stopAgent(t, first)
	framework.Eventually(t, faultTimeout, func() error {
		if holder := leaseHolder(t); holder != "work-agent-second" {
			return fmt.Errorf("the lease is held by %q", holder)
		}
		return nil
	}, "the standby takes over the released lease")
	applyOneConfigMap(t, ns, "after-handover")
}

// Six spec changes in quick succession, each replacing every manifest of the
// work by objects of other names: only the last set is left, on the managed
// cluster and in appliedResources.
func TestQuickSpecChangesLeaveOnlyTheLastSet(t *testing.T) {
	e := setup(t)
	const n, changes = 20, 6
	ns := "faults-changes"
	require.NoError(t, e.Cluster(faultCluster).EnsureNamespaces(t.Context(), ns))
	startElectingAgent(t, "work-agent-changes")
	name := "quick-changes"
	createWork(t, fixture.NewWork(faultCluster, name).WithManifest(faultConfigMaps(ns, name, "set0", n)...).Build())
	waitExactlyApplied(t, ns, name, objectNames("set0", n))

	for i := 1; i <= changes; i++ {
		manifests := fixture.NewWork(faultCluster, name).WithManifest(faultConfigMaps(ns, name, fmt.Sprintf("set%d", i), n)...).Build().Spec.Workload.Manifests
		updateWork(t, faultCluster, name, func(w *workv1.ManifestWork) { w.Spec.Workload.Manifests = manifests })
	}
	last := objectNames(fmt.Sprintf("set%d", changes), n)
	waitExactlyApplied(t, ns, name, last)
	// An apply of an earlier set still in flight would bring objects back.
	framework.Consistently(t, 5*time.Second, func() error {
		return checkExactlyApplied(t.Context(), ns, name, last)
	}, "only the last set stays")
}

// startElectingAgent stops the other agents of faultCluster (gracefully, so
// that they release the lease), starts one with leader election as pod
// podName, and waits until it holds the lease. The agent is stopped when t
// ends.
func startElectingAgent(t *testing.T, podName string, extraArgs ...string) *framework.Process {
	t.Helper()
	for _, p := range env.Processes() {
		if p.Name == "agent-"+faultCluster || strings.HasPrefix(p.Name, "agent-"+faultCluster+"-") {
			stopAgent(t, p)
		}
	}
	p, err := env.StartAgentWithEnv(faultCluster, []string{"POD_NAME=" + podName}, extraArgs...)
	require.NoError(t, err)
	t.Cleanup(func() { stopAgent(t, p) })
	framework.Eventually(t, leaseTimeout, func() error {
		if holder := leaseHolder(t); holder != podName {
			return fmt.Errorf("the lease is held by %q", holder)
		}
		return nil
	}, "agent %s holds the lease", podName)
	return p
}

// stopAgent stops an agent gracefully if it runs; it then releases its lease.
func stopAgent(t *testing.T, p *framework.Process) {
	t.Helper()
	if p.Running() {
		_, err := p.Stop(30 * time.Second)
		require.NoError(t, err, "stop %s", p.Name)
	}
}

// killAndStart kills the agent with SIGKILL and starts it again in the same
// pod, ready (as a standby at first) within convergeTimeout.
func killAndStart(t *testing.T, p *framework.Process) {
	t.Helper()
	require.NoError(t, p.KillAndStart(convergeTimeout))
}

// leaseHolder is the holder of the agent's lease on faultCluster, "" when
// there is none.
func leaseHolder(t *testing.T) string {
	t.Helper()
	return leaseHolderOn(t, faultCluster, framework.AgentLeaseNamespace)
}

// waitLeaseRenewedBy waits until holder has renewed the agent's lease after
// since, within convergeTimeout: well within the 137 s a dead holder's lease
// lasts.
func waitLeaseRenewedBy(t *testing.T, holder string, since time.Time) {
	t.Helper()
	leases := env.Cluster(faultCluster).Kube.CoordinationV1().Leases(framework.AgentLeaseNamespace)
	framework.Eventually(t, convergeTimeout, func() error {
		lease, err := leases.Get(t.Context(), agentLease, metav1.GetOptions{})
		if err != nil {
			return err
		}
		got, renewed := "", lease.Spec.RenewTime
		if lease.Spec.HolderIdentity != nil {
			got = *lease.Spec.HolderIdentity
		}
		if got != holder || renewed == nil || renewed.Time.Before(since) {
			return fmt.Errorf("the lease is held by %q, renewed at %v", got, renewed)
		}
		return nil
	}, "%s renews the lease", holder)
}

// applyOneConfigMap creates a work of one ConfigMap and waits until the
// ConfigMap exists on faultCluster.
func applyOneConfigMap(t *testing.T, ns, name string) {
	t.Helper()
	createWork(t, fixture.NewWork(faultCluster, name).WithManifest(fixture.ConfigMap(ns, name, map[string]string{"k": "v"})).Build())
	waitConfigMapData(t, faultCluster, ns, name, "k", "v")
}

// faultConfigMaps are n ConfigMaps prefix-0… labelled with the work's name.
func faultConfigMaps(ns, work, prefix string, n int) []runtime.Object {
	objs := make([]runtime.Object, 0, n)
	for _, name := range objectNames(prefix, n) {
		cm := fixture.ConfigMap(ns, name, map[string]string{"work": work})
		cm.Labels = map[string]string{faultLabel: work}
		objs = append(objs, cm)
	}
	return objs
}

func objectNames(prefix string, n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("%s-%d", prefix, i)
	}
	return names
}

// liveFaultObjects are the UIDs of the work's ConfigMaps on faultCluster, by
// name.
func liveFaultObjects(ctx context.Context, ns, work string) (map[string]string, error) {
	list, err := env.Cluster(faultCluster).Kube.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{LabelSelector: faultLabel + "=" + work})
	if err != nil {
		return nil, err
	}
	uids := map[string]string{}
	for _, cm := range list.Items {
		uids[cm.Name] = string(cm.UID)
	}
	return uids, nil
}

// waitFaultObjects waits until the number of the work's objects satisfies ok,
// and returns it.
func waitFaultObjects(t *testing.T, ns, work, what string, ok func(int) bool) int {
	t.Helper()
	var count int
	framework.Eventually(t, faultTimeout, func() error {
		live, err := liveFaultObjects(t.Context(), ns, work)
		if err != nil {
			return err
		}
		if count = len(live); !ok(count) {
			return fmt.Errorf("%d objects", count)
		}
		return nil
	}, "%s objects of work %s", what, work)
	return count
}

// appliedWorksOf are the AppliedManifestWorks of faultCluster for the work.
func appliedWorksOf(ctx context.Context, work string) ([]workv1.AppliedManifestWork, error) {
	list, err := env.Cluster(faultCluster).Work.WorkV1().AppliedManifestWorks().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []workv1.AppliedManifestWork
	for _, a := range list.Items {
		if a.Spec.ManifestWorkName == work {
			out = append(out, a)
		}
	}
	return out, nil
}

// waitExactlyApplied waits until checkExactlyApplied holds.
func waitExactlyApplied(t *testing.T, ns, work string, names []string) {
	t.Helper()
	framework.Eventually(t, faultTimeout, func() error {
		return checkExactlyApplied(t.Context(), ns, work, names)
	}, "work %s applied exactly once, with exactly its %d objects", work, len(names))
}

// checkExactlyApplied says what is missing or too much: the work must be
// Applied and Available, each of its manifests too; the objects of the work
// on the managed cluster must be exactly names; and exactly one
// AppliedManifestWork must record each of them once, with its live UID.
func checkExactlyApplied(ctx context.Context, ns, work string, names []string) error {
	w, err := getWork(ctx, faultCluster, work)
	if err != nil {
		return err
	}
	live, err := liveFaultObjects(ctx, ns, work)
	if err != nil {
		return err
	}
	applied, err := appliedWorksOf(ctx, work)
	if err != nil {
		return err
	}
	problems := []error{checkWorkConditions(w, len(names))}
	if got := slices.Sorted(maps.Keys(live)); !slices.Equal(got, slices.Sorted(slices.Values(names))) {
		problems = append(problems, fmt.Errorf("the managed cluster has %d objects of the work, want %d: %s", len(got), len(names), diffNames(got, names)))
	}
	if len(applied) == 1 {
		problems = append(problems, checkRecorded(applied[0], ns, live, names))
	} else {
		problems = append(problems, fmt.Errorf("%d AppliedManifestWorks for the work, want 1", len(applied)))
	}
	return errors.Join(problems...)
}

// checkRecorded wants appliedResources to name each of names once, with the
// UID of the live object.
func checkRecorded(applied workv1.AppliedManifestWork, ns string, live map[string]string, names []string) error {
	var problems []error
	recorded := map[string]string{}
	for _, r := range applied.Status.AppliedResources {
		switch _, dup := recorded[r.Name]; {
		case r.Resource != "configmaps" || r.Namespace != ns:
			problems = append(problems, fmt.Errorf("appliedResources records %s %s/%s, not an object of the work", r.Resource, r.Namespace, r.Name))
		case dup:
			problems = append(problems, fmt.Errorf("appliedResources records %s twice", r.Name))
		case live[r.Name] != "" && live[r.Name] != r.UID:
			problems = append(problems, fmt.Errorf("appliedResources has %s with UID %q, the live object has %q", r.Name, r.UID, live[r.Name]))
		}
		recorded[r.Name] = r.UID
	}
	if got := slices.Sorted(maps.Keys(recorded)); !slices.Equal(got, slices.Sorted(slices.Values(names))) {
		problems = append(problems, fmt.Errorf("appliedResources records %d objects, want %d: %s", len(got), len(names), diffNames(got, names)))
	}
	return errors.Join(problems...)
}

// checkWorkConditions wants the work Applied and Available for its generation,
// with n manifests, each Applied and Available.
func checkWorkConditions(w *workv1.ManifestWork, n int) error {
	for _, t := range []string{workv1.WorkApplied, workv1.WorkAvailable} {
		c := apimeta.FindStatusCondition(w.Status.Conditions, t)
		if c == nil || c.Status != metav1.ConditionTrue || c.ObservedGeneration != w.Generation {
			return fmt.Errorf("work %s: %s is %v, generation %d", w.Name, t, c, w.Generation)
		}
	}
	manifests := w.Status.ResourceStatus.Manifests
	if len(manifests) != n {
		return fmt.Errorf("work %s has the status of %d manifests, want %d", w.Name, len(manifests), n)
	}
	for _, m := range manifests {
		for _, t := range []string{workv1.ManifestApplied, workv1.ManifestAvailable} {
			if !apimeta.IsStatusConditionTrue(m.Conditions, t) {
				return fmt.Errorf("manifest %s: %s is not True", m.ResourceMeta.Name, t)
			}
		}
	}
	return nil
}

// waitNothingLeft waits until the work, its AppliedManifestWork and its
// objects are gone.
func waitNothingLeft(t *testing.T, ns, work string) {
	t.Helper()
	framework.Eventually(t, faultTimeout, func() error {
		if _, err := getWork(t.Context(), faultCluster, work); !apierrors.IsNotFound(err) {
			return fmt.Errorf("the ManifestWork is still there (%v)", err)
		}
		applied, err := appliedWorksOf(t.Context(), work)
		if err != nil {
			return err
		}
		if len(applied) > 0 {
			return fmt.Errorf("%d AppliedManifestWorks left", len(applied))
		}
		live, err := liveFaultObjects(t.Context(), ns, work)
		if err != nil {
			return err
		}
		if len(live) > 0 {
			return fmt.Errorf("%d objects left on the managed cluster", len(live))
		}
		return nil
	}, "nothing of work %s left", work)
}

// diffNames lists, shortly, what got lacks and has too much.
func diffNames(got, want []string) string {
	var missing, extra []string
	for _, n := range want {
		if !slices.Contains(got, n) {
			missing = append(missing, n)
		}
	}
	for _, n := range got {
		if !slices.Contains(want, n) {
			extra = append(extra, n)
		}
	}
	return fmt.Sprintf("missing %s, extra %s", short(missing), short(extra))
}

func short(names []string) string {
	if len(names) > 5 {
		return fmt.Sprintf("%v… (%d)", names[:5], len(names))
	}
	return fmt.Sprint(names)
}
