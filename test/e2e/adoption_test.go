package e2e

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/manifestwork/work/pkg/agent/controllers/manifestwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// appliedObject is an object a work of the take-over test applies.
type appliedObject struct {
	gvr  schema.GroupVersionResource
	name string
}

func (o appliedObject) String() string { return o.gvr.Resource + "/" + o.name }

// objectState is what any write that changes an object moves.
type objectState struct {
	UID             types.UID
	Generation      int64
	ResourceVersion string
	Labels          map[string]string
	Annotations     map[string]string
	Owners          []metav1.OwnerReference
}

var (
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	configMapsGVR  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	servicesGVR    = schema.GroupVersionResource{Version: "v1", Resource: "services"}
)

// Replacing OCM's work agent with ours on a running managed cluster (same
// hub, cluster name and agent id, as the Klusterlet's image swap does) adopts
// every AppliedManifestWork and applied object as it is: no object is
// written, UIDs and generations stay, the works' status carries on. Handing
// back to OCM's agent leaves it nothing to change either: it sends the
// (no-op) writes it sends when it merely restarts over its own objects, to
// the same objects, and no object changes.
//
// It needs pods that become Ready on cluster2, whose fake nodes a restart of
// the cluster (outage_test.go) leaves unmanaged for a while: go test runs
// the files in name order, and this one comes first.
func TestTakeOverFromOCMAgentAndHandBack(t *testing.T) {
	e := setup(t)
	ocmBinary := framework.OCMAgentBinary(t)
	const cluster = "cluster2"
	ctx := t.Context()
	ns := "e2e-takeover"
	stopSharedAgent(t, cluster)
	managed := e.Cluster(cluster)
	require.NoError(t, managed.EnsureNamespaces(ctx, ns))
	t.Cleanup(func() {
		_ = managed.Kube.CoreV1().Namespaces().Delete(context.Background(), ns, metav1.DeleteOptions{})
	})

	// Both update strategies OCM's agent writes differently: Update (a
	// Deployment, a ConfigMap, a Service), ServerSideApply (a Deployment, a
	// ConfigMap) and ServerSideApply with ignoreFields, where OCM's agent
	// keeps a hash annotation on the object.
	ssa := func(resource appliedObject, ignore ...string) workv1.ManifestConfigOption {
		c := fixture.WithStrategy(fixture.Config(resource.gvr.Group, resource.gvr.Resource, ns, resource.name), workv1.UpdateStrategyTypeServerSideApply)
		if len(ignore) > 0 {
			c.UpdateStrategy.ServerSideApply = &workv1.ServerSideApplyConfig{IgnoreFields: []workv1.IgnoreField{{
				Condition: workv1.IgnoreFieldsConditionOnSpokeChange, JSONPaths: ignore,
			}}}
		}
		return c
	}
	works := map[string][]appliedObject{
		"takeover-update":     {{configMapsGVR, "tk-update"}, {deploymentsGVR, "web"}, {servicesGVR, "web"}},
		"takeover-ssa":        {{configMapsGVR, "tk-ssa"}, {deploymentsGVR, "api"}},
		"takeover-ssa-ignore": {{deploymentsGVR, "worker"}},
	}
	names := slices.Sorted(maps.Keys(works))
	var objects []appliedObject
	for _, name := range names {
		objects = append(objects, works[name]...)
	}

	// 1. OCM's agent applies the works.
	ocm, err := e.StartOCMAgent(ocmBinary, cluster, "-v=6", "--disable-leader-election")
	t.Cleanup(func() { _, _ = ocm.Stop(convergeTimeout) })
	require.NoError(t, err, "OCM's work agent")
	createWork(t, fixture.NewWork(cluster, "takeover-update").WithManifest(
		fixture.ConfigMap(ns, "tk-update", map[string]string{"v": "1"}), fixture.Deployment(ns, "web", 2), fixture.Service(ns, "web")).Build())
	createWork(t, fixture.NewWork(cluster, "takeover-ssa").WithManifest(
		fixture.ConfigMap(ns, "tk-ssa", map[string]string{"v": "1"}), fixture.Deployment(ns, "api", 1)).
		WithConfig(ssa(works["takeover-ssa"][0])).WithConfig(ssa(works["takeover-ssa"][1])).Build())
	createWork(t, fixture.NewWork(cluster, "takeover-ssa-ignore").WithManifest(fixture.Deployment(ns, "worker", 1)).
		WithConfig(ssa(works["takeover-ssa-ignore"][0], ".spec.replicas")).Build())
	settled := func(what string) map[string]*workv1.ManifestWork {
		t.Helper()
		out := map[string]*workv1.ManifestWork{}
		for _, name := range names {
			waitWorkCondition(t, cluster, name, workv1.WorkApplied, metav1.ConditionTrue)
			out[name] = waitWorkCondition(t, cluster, name, workv1.WorkAvailable, metav1.ConditionTrue)
		}
		waitDeploymentsRolledOut(t, cluster, ns, "web", "api", "worker")
		waitAppliedResources(t, cluster, works, what)
		return out
	}
	before := settled("OCM's agent applied the works")
	applied := appliedWorks(t, cluster, names)
	stateOCM := objectStates(t, cluster, ns, objects)
	worker := stateOCM[appliedObject{deploymentsGVR, "worker"}]
	assert.Contains(t, worker.Annotations, "open-cluster-management.io/config-spec-hash",
		"OCM's agent keeps a hash on an object applied with ignoreFields")

	// 2. OCM's agent restarts on its own objects: what it sends then is
	// what it costs to hand back to it, at best.
	restarted := time.Now()
	require.NoError(t, ocm.Restart(convergeTimeout))
	waitRequestsFor(t, ocm, cluster, ns, objects, restarted, "OCM's agent looked at every object again")
	settled("OCM's agent restarted")
	ocmRestartWrites := writesTo(t, ocm, cluster, ns, restarted)
	stateOCM = assertSameObjects(t, stateOCM, objectStates(t, cluster, ns, objects), "OCM's agent restarted")
	t.Logf("OCM's agent, restarting, wrote (no-ops): %v", ocmRestartWrites)

	// 3. Take over: OCM's agent stops, ours starts with the same cluster
	// name, agent id and hub.
	_, err = ocm.Stop(convergeTimeout)
	require.NoError(t, err)
	tookOver := time.Now()
	ours := startAgent(t, cluster, "-v=6", "--agent-id="+cluster)
	ready := time.Since(tookOver)
	adopted := waitAdopted(t, cluster, names)
	t.Logf("our agent: ready %s after its start, every work adopted (reported on) after %s",
		ready.Round(time.Millisecond), adopted.Round(time.Millisecond))
	after := settled("our agent adopted the works")
	assert.Empty(t, writesTo(t, ours, cluster, ns, tookOver), "our agent writes none of the objects it adopts")
	for object, n := range dryRunsTo(t, ours, cluster, ns, tookOver) {
		assert.LessOrEqual(t, n, 1, "our agent compares %s, which it knows nothing of, with one dry run at most", object)
	}
	assertSameObjects(t, stateOCM, objectStates(t, cluster, ns, objects), "our agent took over")
	assertSameApplied(t, applied, appliedWorks(t, cluster, names))
	assertNoGap(t, before, after)
	logRequests(t, "our agent, taking over", ours, tookOver)

	// The works' status carries on: a change of a work is applied and
	// reported.
	updateWork(t, cluster, "takeover-update", func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests[0] = manifestOf(t, fixture.ConfigMap(ns, "tk-update", map[string]string{"v": "2"}))
	})
	waitConfigMapData(t, cluster, ns, "tk-update", "v", "2")
	settled("our agent applied a change")
	stateOurs := objectStates(t, cluster, ns, objects)

	// 4. Hand back: ours stops, OCM's agent starts again. It finds nothing
	// that its own restart would not have found.
	_, err = ours.Stop(convergeTimeout)
	require.NoError(t, err)
	handedBack := time.Now()
	require.NoError(t, ocm.Start())
	require.NoError(t, ocm.WaitReady(convergeTimeout))
	waitRequestsFor(t, ocm, cluster, ns, objects, handedBack, "OCM's agent looked at every object again")
	settled("OCM's agent took back")
	handBackWrites := writesTo(t, ocm, cluster, ns, handedBack)
	assertSameObjects(t, stateOurs, objectStates(t, cluster, ns, objects), "handed back to OCM's agent")
	t.Logf("OCM's agent, taking back, wrote (no-ops): %v", handBackWrites)
	assert.ElementsMatch(t, slices.Collect(maps.Keys(ocmRestartWrites)), slices.Collect(maps.Keys(handBackWrites)),
		"OCM's agent writes the objects it writes on a restart over its own, and no other")
	assertSameApplied(t, applied, appliedWorks(t, cluster, names))
	logRequests(t, "OCM's agent, restarting", ocm, restarted)
	logRequests(t, "OCM's agent, taking back", ocm, handedBack)

	// OCM's agent deletes what it took back, as its own.
	for _, name := range names {
		require.NoError(t, e.Hub.Work.WorkV1().ManifestWorks(cluster).Delete(ctx, name, metav1.DeleteOptions{}))
	}
	for _, o := range objects {
		waitGone(t, o.String(), func(ctx context.Context) error {
			_, err := managed.Dynamic.Resource(o.gvr).Namespace(ns).Get(ctx, o.name, metav1.GetOptions{})
			return err
		})
	}
}

// objectStates reads the objects.
func objectStates(t *testing.T, cluster, ns string, objects []appliedObject) map[appliedObject]objectState {
	t.Helper()
	out := map[appliedObject]objectState{}
	for _, o := range objects {
		u, err := env.Cluster(cluster).Dynamic.Resource(o.gvr).Namespace(ns).Get(t.Context(), o.name, metav1.GetOptions{})
		require.NoError(t, err, "%s", o)
		out[o] = objectState{UID: u.GetUID(), Generation: u.GetGeneration(), ResourceVersion: u.GetResourceVersion(),
			Labels: u.GetLabels(), Annotations: u.GetAnnotations(), Owners: u.GetOwnerReferences()}
	}
	return out
}

// assertSameObjects checks that no object changed: not recreated, no
// generation, resourceVersion or metadata moved. It logs each object and
// returns now.
func assertSameObjects(t *testing.T, was, now map[appliedObject]objectState, what string) map[appliedObject]objectState {
	t.Helper()
	for o, before := range was {
		after := now[o]
		assert.Equal(t, before, after, "%s: %s is unchanged", what, o)
		t.Logf("%s: %s generation %d→%d, resourceVersion %s→%s", what, o, before.Generation, after.Generation,
			before.ResourceVersion, after.ResourceVersion)
	}
	return now
}

// writesTo counts, by "VERB resource/name" ("POST resource" for a create),
// the writes a process logged (-v=6) to objects of namespace ns on a cluster
// since from. A server-side dry run is no write (see dryRunsTo).
func writesTo(t *testing.T, p *framework.Process, cluster, ns string, from time.Time) map[string]int {
	t.Helper()
	return requestsTo(t, p, cluster, ns, from, framework.LoggedRequest.IsWrite)
}

// dryRunsTo counts, as writesTo counts writes, the server-side dry runs.
func dryRunsTo(t *testing.T, p *framework.Process, cluster, ns string, from time.Time) map[string]int {
	t.Helper()
	return requestsTo(t, p, cluster, ns, from, func(r framework.LoggedRequest) bool { return r.DryRun })
}

// requestsTo counts the requests that keep selects, as writesTo does.
func requestsTo(t *testing.T, p *framework.Process, cluster, ns string, from time.Time, keep func(framework.LoggedRequest) bool) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, r := range loggedRequests(t, p, from) {
		_, object, inNS := strings.Cut(r.Path, "/namespaces/"+ns+"/")
		if r.Cluster != cluster || !inNS || !keep(r) {
			continue
		}
		out[r.Method+" "+object]++
	}
	return out
}

func loggedRequests(t *testing.T, p *framework.Process, from time.Time) []framework.LoggedRequest {
	t.Helper()
	hosts := map[string]string{}
	for _, c := range env.Clusters() {
		hosts[framework.HostOf(c.Config.Host)] = c.Name
	}
	requests, err := framework.ReadRequestLog(p.LogPath, hosts, from, time.Time{})
	require.NoError(t, err)
	return requests
}

// logRequests logs what a process sent since from, by cluster and
// verb/resource, dry runs apart.
func logRequests(t *testing.T, what string, p *framework.Process, from time.Time) {
	t.Helper()
	counts := map[string]int{}
	for _, r := range loggedRequests(t, p, from) {
		counts[r.Cluster+": "+r.Key]++
	}
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		lines = append(lines, fmt.Sprintf("%s ×%d", k, counts[k]))
	}
	t.Logf("%s sent since %s:\n  %s", what, from.Format("15:04:05.000"), strings.Join(lines, "\n  "))
}

// waitRequestsFor waits until a process has sent a request about every
// object since from: it has looked at them all.
func waitRequestsFor(t *testing.T, p *framework.Process, cluster, ns string, objects []appliedObject, from time.Time, what string) {
	t.Helper()
	framework.Eventually(t, convergeTimeout, func() error {
		seen := map[string]bool{}
		for _, r := range loggedRequests(t, p, from) {
			if _, object, ok := strings.Cut(r.Path, "/namespaces/"+ns+"/"); ok && r.Cluster == cluster {
				seen[object] = true
			}
		}
		for _, o := range objects {
			if !seen[o.String()] {
				return fmt.Errorf("no request about %s yet", o)
			}
		}
		return nil
	}, "%s", what)
}

// waitDeploymentsRolledOut waits until the Deployments' controllers are done
// with them, so that their status stops moving their resourceVersion.
func waitDeploymentsRolledOut(t *testing.T, cluster, ns string, names ...string) {
	t.Helper()
	for _, name := range names {
		framework.Eventually(t, convergeTimeout, func() error {
			d, err := env.Cluster(cluster).Kube.AppsV1().Deployments(ns).Get(t.Context(), name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			if d.Status.ObservedGeneration != d.Generation || d.Status.AvailableReplicas != *d.Spec.Replicas ||
				d.Status.UpdatedReplicas != *d.Spec.Replicas || d.Status.Replicas != *d.Spec.Replicas {
				return fmt.Errorf("deployment %s: %+v", name, d.Status)
			}
			return nil
		}, "deployment %s/%s rolled out", ns, name)
	}
}

// waitAppliedResources waits until each work's AppliedManifestWork lists all
// its objects.
func waitAppliedResources(t *testing.T, cluster string, works map[string][]appliedObject, what string) {
	t.Helper()
	framework.Eventually(t, convergeTimeout, func() error {
		for name, amw := range appliedWorks(t, cluster, slices.Collect(maps.Keys(works))) {
			if n := len(amw.Status.AppliedResources); n != len(works[name]) {
				return fmt.Errorf("AppliedManifestWork of %s lists %d resources, want %d", name, n, len(works[name]))
			}
		}
		return nil
	}, "%s", what)
}

// appliedWorks reads the AppliedManifestWorks of the works, by work name.
func appliedWorks(t *testing.T, cluster string, names []string) map[string]*workv1.AppliedManifestWork {
	t.Helper()
	list, err := env.Cluster(cluster).Work.WorkV1().AppliedManifestWorks().List(t.Context(), metav1.ListOptions{})
	require.NoError(t, err)
	out := map[string]*workv1.AppliedManifestWork{}
	for i := range list.Items {
		amw := &list.Items[i]
		if slices.Contains(names, amw.Spec.ManifestWorkName) {
			require.NotContains(t, out, amw.Spec.ManifestWorkName, "one AppliedManifestWork per work")
			out[amw.Spec.ManifestWorkName] = amw
		}
	}
	require.Len(t, out, len(names), "an AppliedManifestWork per work")
	return out
}

// assertSameApplied checks that the AppliedManifestWorks were kept: same
// names, UIDs, hub hash and agent id.
func assertSameApplied(t *testing.T, was, now map[string]*workv1.AppliedManifestWork) {
	t.Helper()
	for name, before := range was {
		after := now[name]
		assert.Equal(t, before.Name, after.Name, "AppliedManifestWork of %s", name)
		assert.Equal(t, before.UID, after.UID, "AppliedManifestWork of %s is the same object", name)
		assert.Equal(t, before.Spec, after.Spec, "AppliedManifestWork of %s", name)
	}
}

// waitAdopted waits until our agent has reported on every manifest of each
// work (its own InSync condition, which OCM's agent does not write): it has
// adopted them all. It returns how long that took since the call.
func waitAdopted(t *testing.T, cluster string, names []string) time.Duration {
	t.Helper()
	began := time.Now()
	framework.Eventually(t, convergeTimeout, func() error {
		for _, name := range names {
			w, err := getWork(t.Context(), cluster, name)
			if err != nil {
				return err
			}
			for _, m := range w.Status.ResourceStatus.Manifests {
				if apimeta.FindStatusCondition(m.Conditions, manifestwork.ConditionInSync) == nil {
					return fmt.Errorf("work %s: no InSync on %s %s yet", name, m.ResourceMeta.Kind, m.ResourceMeta.Name)
				}
			}
		}
		return nil
	}, "our agent reported on every manifest")
	return time.Since(began)
}

// assertNoGap checks that the works' Applied and Available conditions never
// left True: their last transition is the one OCM's agent reported.
func assertNoGap(t *testing.T, before, after map[string]*workv1.ManifestWork) {
	t.Helper()
	for name, w := range before {
		for _, condType := range []string{workv1.WorkApplied, workv1.WorkAvailable} {
			was := apimeta.FindStatusCondition(w.Status.Conditions, condType)
			now := apimeta.FindStatusCondition(after[name].Status.Conditions, condType)
			require.NotNil(t, now)
			assert.Equal(t, was.LastTransitionTime, now.LastTransitionTime, "work %s: %s stayed True", name, condType)
		}
	}
}
