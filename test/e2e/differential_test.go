package e2e

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/yaml"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/framework"
)

// The differential test puts the same ManifestWorks through OCM's work agent
// v1.0.0 and ours and compares what a user observes. One hub, two managed
// clusters: cluster1 is run by OCM's agent, cluster2 by ours, each agent
// alone on its own managed cluster (the pair "hub + managed cluster" per
// agent shares the hub, so that both agents see the same hub URL and name
// their AppliedManifestWorks alike). Every case runs on both at once, in its
// own namespace, and is compared after each step once both clusters have
// settled: the objects on the managed cluster (without uid, resourceVersion,
// times; owner references by kind and name), the work's status (conditions
// with status, reason, message and observedGeneration, their order, feedback
// values in order; our Healthy, InSync and Stalled left out), the
// AppliedManifestWorks (finalizers, labels, annotation keys, applied
// resources), the Events about the case on the managed cluster's agent
// namespace and on the hub (their types and reasons), and the writes each
// agent sent from the step until it settled (ours at most OCM's).
//
// A difference fails the test unless a row of docs/ocm-differences.yaml
// explains it (same case, path starting with the row's path); so does a row
// of a case that ran and explains no difference.

const (
	diffOCMCluster  = "cluster1"
	diffOursCluster = "cluster2"
	// diffParallel cases run at once.
	diffParallel = 16
	// diffQuiet is how long both clusters must stay unchanged, with no
	// write of either agent, to count as settled: longer than the longest
	// wait for a status sync after a change. OCM's agent requeues each work
	// after its status sync interval (10s) with up to 90% jitter, so 19s.
	diffQuiet = 20 * time.Second
	// diffSettleTimeout bounds a step.
	diffSettleTimeout = 3 * time.Minute
	diffPoll          = 2 * time.Second
	// diffUser is the field manager of what the test itself writes to a
	// managed cluster, as a user or a controller of the cluster would.
	diffUser = "df-user"
)

// diffCase is one case: the works (spec YAML, $NS the case's namespace on
// the managed cluster, $UID(name) the UID of the object of before so
// named on that cluster), objects on the managed cluster before them, and
// the steps after they settled.
type diffCase struct {
	name   string
	works  []string
	before []string
	steps  []diffStep
	// remain are objects ("apiVersion kind name", in the case's
	// namespace) that must still exist on both clusters after the steps.
	remain []string
}

// diffStep changes the case on both clusters alike, then both settle and are
// compared.
type diffStep struct {
	name string
	// works replaces the specs of the works by index; "" deletes the work.
	works map[int]string
	// spoke are strategic merge patches (by a user) of objects of the managed cluster.
	spoke []spokePatch
	// spokeApply are objects a user server-side applies to the managed
	// cluster (YAML, as before), after spoke.
	spokeApply []string
	// spokeDelete are objects a user deletes from the managed cluster
	// ("apiVersion kind name", in the case's namespace unless
	// cluster-scoped), after spokeApply.
	spokeDelete []string
	// touch labels every work of the case once the rest of the step is
	// done: OCM's agent reconciles a work on any event of it, so that what
	// it does at a reconcile shows without waiting for its resync.
	touch bool
	// uninstall simulates a Klusterlet uninstall: the agent stops, the
	// AppliedManifestWorks lose their finalizers and their CRD is deleted.
	uninstall bool
}

// spokePatch is a strategic merge patch of an object of the managed cluster, as its
// users or controllers write: apiVersion, kind, name (in the case's
// namespace unless cluster-scoped) and the patch ($NS replaced).
type spokePatch struct {
	apiVersion, kind, name string
	patch                  string
	subresource            string
}

// diffSide is one managed cluster of the test and the agent that runs it.
type diffSide struct {
	label   string
	cluster *framework.Cluster
	agent   *framework.Process
	tail    *framework.RequestTail
	mapper  *restmapper.DeferredDiscoveryRESTMapper
	// managedEvents are the Events of the agent's namespace on the managed
	// cluster (where OCM's agent records them), hubEvents those of the
	// cluster's namespace on the hub (where ours records them, on the works).
	managedEvents, hubEvents cache.Store
}

// diffRun is a case on one side.
type diffRun struct {
	*diffSide
	c  *diffCase
	ns string
	// works are the names of the works on the hub, by index.
	works []string
	// objects are every object the case's manifests named so far.
	objects map[string]objectRef
	// uids are the UIDs of the objects of before, by name.
	uids map[string]string
	// touched counts the steps that touched the works.
	touched int
}

type objectRef struct{ apiVersion, kind, namespace, name string }

// diffResults gathers the differences of every case.
type diffResults struct {
	mu    sync.Mutex
	seen  []framework.Difference
	ran   map[string]bool
	lines []string
}

func (r *diffResults) add(name string, diffs []framework.Difference, log string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ran[name] = true
	r.seen = append(r.seen, diffs...)
	r.lines = append(r.lines, log)
}

func TestDifferential(t *testing.T) {
	e := setup(t)
	ocmBinary := framework.OCMAgentBinary(t)
	rows, err := framework.LoadDifferences(framework.RepoPath(framework.DifferencesFile))
	require.NoError(t, err)
	began := time.Now()

	stopSharedAgent(t, diffOCMCluster)
	stopSharedAgent(t, diffOursCluster)
	hosts := map[string]string{}
	for _, c := range e.Clusters() {
		hosts[framework.HostOf(c.Config.Host)] = c.Name
	}
	ocmCluster, oursCluster := e.Cluster(diffOCMCluster), e.Cluster(diffOursCluster)
	ocm, err := e.StartOCMAgent(ocmBinary, diffOCMCluster, "-v=6", "--disable-leader-election")
	t.Cleanup(func() { _, _ = ocm.Stop(convergeTimeout) })
	require.NoError(t, err, "OCM's work agent")
	// Ours with the same identity on its managed cluster as OCM's (the
	// admin kubeconfig), so that no difference comes from RBAC.
	ours := startAgent(t, diffOursCluster, "-v=6", "--spoke-kubeconfig", oursCluster.Kubeconfig, "--kubeconfig", oursCluster.Kubeconfig)
	sides := [2]*diffSide{
		{label: "OCM", cluster: ocmCluster, agent: ocm, tail: framework.NewRequestTail(ocm.LogPath, hosts), mapper: mapperOf(ocmCluster)},
		{label: "ours", cluster: oursCluster, agent: ours, tail: framework.NewRequestTail(ours.LogPath, hosts), mapper: mapperOf(oursCluster)},
	}
	for _, s := range sides {
		s.managedEvents = eventStore(t, s.cluster, framework.AgentLeaseNamespace)
		s.hubEvents = eventStore(t, e.Hub, s.cluster.Name)
	}

	results := &diffResults{ran: map[string]bool{}}
	cases := append(diffCases(), specExampleCases(t)...)
	t.Run("cases", func(t *testing.T) {
		names := map[string]bool{}
		sem := make(chan struct{}, diffParallel)
		var wg sync.WaitGroup
		for i := range cases {
			c := &cases[i]
			require.False(t, names[c.name], "case %s twice", c.name)
			names[c.name] = true
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				t.Run(c.name, func(t *testing.T) { runDiffCase(t, c, sides, results) })
			})
		}
		wg.Wait()
	})
	t.Run("klusterlet-uninstall", func(t *testing.T) {
		c := klusterletUninstallCase()
		runDiffCase(t, &c, sides, results)
	})

	report := strings.Join(slices.Sorted(slices.Values(results.lines)), "\n")
	reportPath := framework.RepoPath("_output", "differential-report.txt")
	if err := os.MkdirAll(filepath.Dir(reportPath), 0o755); err == nil {
		_ = os.WriteFile(reportPath, []byte(report+"\n"), 0o644)
	}
	unexplained, unused := framework.MatchDifferences(rows, results.ran, results.seen)
	for _, d := range unexplained {
		t.Errorf("a difference %s does not explain:\n  %s", framework.DifferencesFile, d)
	}
	for _, r := range unused {
		t.Errorf("%s: the row of case %q, path %q (%s) explains no difference any more", framework.DifferencesFile, r.Case, r.Path, r.Behaviour)
	}
	t.Logf("differential test: %d cases, %d differences (%d unexplained), %s; report in %s",
		len(results.ran), len(results.seen), len(unexplained), time.Since(began).Round(time.Second), reportPath)
}

// eventStore is a synced cache of the Events of a namespace of a cluster.
func eventStore(t *testing.T, c *framework.Cluster, namespace string) cache.Store {
	f := informers.NewSharedInformerFactoryWithOptions(c.Kube, 0, informers.WithNamespace(namespace))
	informer := f.Core().V1().Events().Informer()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	f.Start(ctx.Done())
	require.True(t, cache.WaitForCacheSync(t.Context().Done(), informer.HasSynced), "Events of %s on %s", namespace, c.Name)
	return informer.GetStore()
}

func mapperOf(c *framework.Cluster) *restmapper.DeferredDiscoveryRESTMapper {
	return restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(c.Kube.Discovery()))
}

// runDiffCase runs a case on both clusters and records its differences.
func runDiffCase(t *testing.T, c *diffCase, sides [2]*diffSide, results *diffResults) {
	runs := [2]*diffRun{}
	for i, s := range sides {
		runs[i] = newDiffRun(t, c, s)
	}
	var diffs []framework.Difference
	var log strings.Builder
	fmt.Fprintf(&log, "== %s\n", c.name)
	step := func(name string, do func(r *diffRun)) {
		from := time.Now()
		for _, r := range runs {
			do(r)
		}
		snaps, writes, moving := settleBoth(t, runs, from, name)
		framework.CommonOrder(snaps[0], snaps[1])
		found := framework.CompareSnapshots(c.name, name, snaps[0], snaps[1])
		if moving[0] != "" || moving[1] != "" {
			found = append(found, framework.Difference{Case: c.name, Step: name, Path: "settled",
				OCM: settledText(moving[0]), Ours: settledText(moving[1])})
		}
		for _, area := range []string{"managed", "hub"} {
			o, u := writes[0][area], writes[1][area]
			if len(u) > len(o) {
				found = append(found, framework.Difference{Case: c.name, Step: name, Path: "writes." + area,
					OCM: describeWrites(o), Ours: describeWrites(u)})
			}
		}
		fmt.Fprintf(&log, "  step %q: settled in %s; writes managed OCM %s, ours %s; hub OCM %d, ours %d; %d differences\n",
			name, time.Since(from).Round(time.Second), describeWrites(writes[0]["managed"]), describeWrites(writes[1]["managed"]),
			len(writes[0]["hub"]), len(writes[1]["hub"]), len(found))
		for _, d := range found {
			fmt.Fprintf(&log, "    %s\n      OCM:  %s\n      ours: %s\n", d.Path, d.OCM, d.Ours)
		}
		diffs = append(diffs, found...)
	}
	step("create", func(r *diffRun) { r.create(t) })
	for _, s := range c.steps {
		step(s.name, func(r *diffRun) { r.apply(t, s) })
	}
	t.Log(log.String())
	results.add(c.name, diffs, log.String())
	for _, r := range runs {
		r.checkRemain(t)
	}
}

// checkRemain checks, for a while, that the objects the case says remain
// are there.
func (r *diffRun) checkRemain(t *testing.T) {
	for _, o := range r.c.remain {
		fields := strings.Fields(o)
		ref := objectRef{apiVersion: fields[0], kind: fields[1], namespace: r.ns, name: fields[2]}
		gvr, err := r.resource(ref)
		require.NoError(t, err)
		framework.Consistently(t, 10*time.Second, func() error {
			_, err := r.client(gvr, r.ns).Get(t.Context(), ref.name, metav1.GetOptions{})
			return err
		}, "%s: %s %s is still on %s (%s's agent)", r.c.name, ref.kind, ref.name, r.cluster.Name, r.label)
	}
}

func newDiffRun(t *testing.T, c *diffCase, s *diffSide) *diffRun {
	r := &diffRun{diffSide: s, c: c, ns: "df-" + c.name, objects: map[string]objectRef{}, uids: map[string]string{}}
	for i := range c.works {
		r.works = append(r.works, fmt.Sprintf("%s-%d", r.ns, i))
	}
	require.NoError(t, s.cluster.EnsureNamespaces(t.Context(), r.ns))
	t.Cleanup(func() {
		ctx := context.Background()
		for _, w := range r.works {
			_ = env.Hub.Work.WorkV1().ManifestWorks(s.cluster.Name).Delete(ctx, w, metav1.DeleteOptions{})
		}
		for _, o := range r.objects {
			if o.namespace == "" {
				if gvr, err := r.resource(o); err == nil {
					_ = s.cluster.Dynamic.Resource(gvr).Delete(ctx, o.name, metav1.DeleteOptions{})
				}
			}
		}
		_ = s.cluster.Kube.CoreV1().Namespaces().Delete(ctx, r.ns, metav1.DeleteOptions{})
	})
	return r
}

func (r *diffRun) expand(text string) string {
	for name, uid := range r.uids {
		text = strings.ReplaceAll(text, "$UID("+name+")", uid)
	}
	return strings.ReplaceAll(text, "$NS", r.ns)
}

// create makes the objects of before, as a user, and the works.
func (r *diffRun) create(t *testing.T) {
	for _, text := range r.c.before {
		r.applyAsUser(t, text)
	}
	for i, spec := range r.c.works {
		w := &workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{Namespace: r.cluster.Name, Name: r.works[i]}}
		w.Spec = r.spec(t, spec)
		_, err := env.Hub.Work.WorkV1().ManifestWorks(r.cluster.Name).Create(t.Context(), w, metav1.CreateOptions{})
		require.NoError(t, err, "%s: work %d", r.c.name, i)
	}
}

// applyAsUser server-side applies an object (YAML) as a user and notes its UID.
func (r *diffRun) applyAsUser(t *testing.T, text string) {
	u := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal([]byte(r.expand(text)), &u.Object), "%s: object of a user", r.c.name)
	gvr, err := r.resource(refOf(u))
	require.NoError(t, err)
	raw, err := u.MarshalJSON()
	require.NoError(t, err)
	force := true
	made, err := r.client(gvr, u.GetNamespace()).Patch(t.Context(), u.GetName(), types.ApplyPatchType, raw,
		metav1.PatchOptions{FieldManager: diffUser, Force: &force})
	require.NoError(t, err, "%s: apply %s", r.c.name, u.GetName())
	r.uids[made.GetName()] = string(made.GetUID())
}

// spec reads a work's spec and notes the objects of its manifests.
func (r *diffRun) spec(t *testing.T, text string) workv1.ManifestWorkSpec {
	var spec workv1.ManifestWorkSpec
	require.NoError(t, yaml.Unmarshal([]byte(r.expand(text)), &spec), "%s: work spec", r.c.name)
	for _, m := range spec.Workload.Manifests {
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(m.Raw); err != nil || u.GetName() == "" {
			continue
		}
		ref := refOf(u)
		// The server drops the namespace of a cluster-scoped object.
		if _, scope, err := r.mapping(ref); err == nil && scope != meta.RESTScopeNameNamespace {
			ref.namespace = ""
		}
		r.objects[framework.ObjectPath(ref.apiVersion, ref.kind, ref.namespace, ref.name)] = ref
	}
	return spec
}

func refOf(u *unstructured.Unstructured) objectRef {
	return objectRef{apiVersion: u.GetAPIVersion(), kind: u.GetKind(), namespace: u.GetNamespace(), name: u.GetName()}
}

// apply runs a step on this side.
func (r *diffRun) apply(t *testing.T, s diffStep) {
	ctx := t.Context()
	for _, p := range s.spoke {
		var sub []string
		if p.subresource != "" {
			sub = append(sub, p.subresource)
		}
		_, err := r.caseClient(t, p.apiVersion, p.kind).Patch(ctx, r.expand(p.name), types.StrategicMergePatchType, []byte(r.expand(p.patch)),
			metav1.PatchOptions{FieldManager: diffUser}, sub...)
		require.NoError(t, err, "%s: patch %s %s", r.c.name, p.kind, p.name)
	}
	for _, text := range s.spokeApply {
		r.applyAsUser(t, text)
	}
	for _, o := range s.spokeDelete {
		fields := strings.Fields(o)
		err := r.caseClient(t, fields[0], fields[1]).Delete(ctx, r.expand(fields[2]), metav1.DeleteOptions{})
		require.NoError(t, err, "%s: delete %s", r.c.name, o)
	}
	for _, i := range slices.Sorted(maps.Keys(s.works)) {
		works := env.Hub.Work.WorkV1().ManifestWorks(r.cluster.Name)
		if s.works[i] == "" {
			require.NoError(t, works.Delete(ctx, r.works[i], metav1.DeleteOptions{}))
			continue
		}
		spec := r.spec(t, s.works[i])
		updateWork(t, r.cluster.Name, r.works[i], func(w *workv1.ManifestWork) { w.Spec = spec })
	}
	if s.touch {
		r.touched++
		patch := fmt.Sprintf(`{"metadata":{"labels":{"df-touched":"%d"}}}`, r.touched)
		for _, w := range r.works {
			_, err := env.Hub.Work.WorkV1().ManifestWorks(r.cluster.Name).Patch(ctx, w, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
			if !apierrors.IsNotFound(err) {
				require.NoError(t, err, "%s: touch %s", r.c.name, w)
			}
		}
	}
	if s.uninstall {
		r.uninstall(t)
	}
}

// uninstall does what a Klusterlet uninstall does to the work agent: it
// stops, its AppliedManifestWorks lose their finalizers and their CRD is
// deleted (which deletes them). The CRD comes back afterwards for the
// other tests.
func (r *diffRun) uninstall(t *testing.T) {
	ctx := t.Context()
	_, err := r.agent.Stop(convergeTimeout)
	require.NoError(t, err)
	amws := r.cluster.Work.WorkV1().AppliedManifestWorks()
	list, err := amws.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	for _, a := range list.Items {
		_, err := amws.Patch(ctx, a.Name, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		if !apierrors.IsNotFound(err) {
			require.NoError(t, err)
		}
	}
	crds := r.cluster.APIExtensions.ApiextensionsV1().CustomResourceDefinitions()
	const crd = "appliedmanifestworks.work.open-cluster-management.io"
	require.NoError(t, crds.Delete(ctx, crd, metav1.DeleteOptions{}))
	waitGone(t, "CRD "+crd, func(ctx context.Context) error {
		_, err := crds.Get(ctx, crd, metav1.GetOptions{})
		return err
	})
	t.Cleanup(func() {
		installed, err := r.cluster.InstallCRDs(framework.ManagedCRDDir())
		if err == nil {
			err = r.cluster.WaitCRDsEstablished(context.Background(), time.Minute, installed...)
		}
		if err != nil {
			t.Errorf("%s: reinstalling the CRDs: %v", r.cluster.Name, err)
		}
		// The hub works lose the finalizer no agent removes now.
		works := env.Hub.Work.WorkV1().ManifestWorks(r.cluster.Name)
		for _, w := range r.works {
			_ = works.Delete(context.Background(), w, metav1.DeleteOptions{})
			_, _ = works.Patch(context.Background(), w, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		}
	})
}

func (r *diffRun) mapping(ref objectRef) (schema.GroupVersionResource, meta.RESTScopeName, error) {
	gv, err := schema.ParseGroupVersion(ref.apiVersion)
	if err != nil {
		return schema.GroupVersionResource{}, "", err
	}
	m, err := r.mapper.RESTMapping(gv.WithKind(ref.kind).GroupKind(), gv.Version)
	if meta.IsNoMatchError(err) {
		r.mapper.Reset()
		m, err = r.mapper.RESTMapping(gv.WithKind(ref.kind).GroupKind(), gv.Version)
	}
	if err != nil {
		return schema.GroupVersionResource{}, "", err
	}
	return m.Resource, m.Scope.Name(), nil
}

func (r *diffRun) resource(ref objectRef) (schema.GroupVersionResource, error) {
	gvr, _, err := r.mapping(ref)
	return gvr, err
}

// caseClient is the client of a kind of object a user names by name alone:
// in the case's namespace, unless the kind is cluster-scoped.
func (r *diffRun) caseClient(t *testing.T, apiVersion, kind string) dynamicResource {
	gvr, scope, err := r.mapping(objectRef{apiVersion: apiVersion, kind: kind})
	require.NoError(t, err, "%s: %s %s", r.c.name, apiVersion, kind)
	if scope == meta.RESTScopeNameNamespace {
		return r.client(gvr, r.ns)
	}
	return r.client(gvr, "")
}

func (r *diffRun) client(gvr schema.GroupVersionResource, namespace string) dynamicResource {
	if namespace == "" {
		return r.cluster.Dynamic.Resource(gvr)
	}
	return r.cluster.Dynamic.Resource(gvr).Namespace(namespace)
}

// dynamicResource is what runs need of a dynamic client of one resource.
type dynamicResource interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions, sub ...string) (*unstructured.Unstructured, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions, sub ...string) error
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, sub ...string) (*unstructured.Unstructured, error)
}

// snapshot reads what a user observes of the case on this side.
func (r *diffRun) snapshot(ctx context.Context) (framework.Snapshot, error) {
	s := framework.Snapshot{}
	for i, name := range r.works {
		w, err := env.Hub.Work.WorkV1().ManifestWorks(r.cluster.Name).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			w, err = nil, nil
		}
		if err != nil {
			return nil, err
		}
		s.AddWorkStatus(fmt.Sprintf("status.work[%d]", i), w)
		// Both agents see the same hub URL, so name it alike.
		applied := appliedwork.Name(appliedwork.HubHash(env.Hub.Config.Host), name)
		a, err := r.cluster.Work.WorkV1().AppliedManifestWorks().Get(ctx, applied, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			a, err = nil, nil
		}
		if err != nil {
			return nil, err
		}
		s.AddAppliedWork(fmt.Sprintf("applied[%d]", i), a)
	}
	s.AddEvents("events.managed", r.caseEvents(r.managedEvents))
	s.AddEvents("events.hub", r.caseEvents(r.hubEvents))
	for path, ref := range r.objects {
		gvr, err := r.resource(ref)
		if err != nil {
			s[path] = "no such kind"
			continue
		}
		u, err := r.client(gvr, ref.namespace).Get(ctx, ref.name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			u, err = nil, nil
		}
		if apierrors.IsMethodNotSupported(err) || apierrors.IsForbidden(err) {
			s[path] = "unreadable: " + string(apierrors.ReasonForError(err))
			continue
		}
		if err != nil {
			return nil, err
		}
		s.AddObject(path, u)
	}
	return s, nil
}

// caseEvents are the Events of a store about the case: on one of its works,
// or naming its namespace, one of its works or their AppliedManifestWorks,
// or a cluster-scoped object of its manifests.
func (r *diffRun) caseEvents(store cache.Store) []corev1.Event {
	var out []corev1.Event
	for _, o := range store.List() {
		e := o.(*corev1.Event)
		if (e.InvolvedObject.Kind == "ManifestWork" && slices.Contains(r.works, e.InvolvedObject.Name)) ||
			r.mentions(e.Message) || r.mentions(e.Reason) || r.mentions(e.InvolvedObject.Name) {
			out = append(out, *e)
		}
	}
	return out
}

// eventWord splits a text into the words names are made of.
var eventWord = regexp.MustCompile(`[a-z0-9.-]+`)

// mentions reports whether a text names the case.
func (r *diffRun) mentions(text string) bool {
	for _, w := range eventWord.FindAllString(text, -1) {
		if w == r.ns || strings.Contains(w, "."+r.ns+".") || strings.HasPrefix(w, r.ns+".") {
			return true
		}
		for _, name := range r.works {
			if w == name || strings.HasSuffix(w, "-"+name) {
				return true
			}
		}
		for _, o := range r.objects {
			if o.namespace == "" && w == o.name {
				return true
			}
		}
	}
	return false
}

// writes are the writes this side's agent sent since from about the case:
// to its objects on the managed cluster and to its works and their
// AppliedManifestWorks, by area ("managed", "hub"), as "VERB path". A
// server-side dry run (of an update, or as an executor) is no write.
func (r *diffRun) writes(from time.Time) (map[string][]string, error) {
	requests, err := r.tail.Since(from)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, q := range requests {
		verb := q.Method
		if !q.IsWrite() || !r.concerns(q.Path) {
			continue
		}
		area := "managed"
		if q.Cluster == framework.HubName {
			area = "hub"
		} else if q.Cluster != r.cluster.Name {
			continue
		}
		out[area] = append(out[area], verb+" "+q.Path)
	}
	return out, nil
}

// concerns reports whether a request path is about the case: its
// namespace, one of its works or their AppliedManifestWorks, or a
// cluster-scoped object of its manifests.
func (r *diffRun) concerns(path string) bool {
	segments := strings.Split(strings.Trim(path, "/"), "/")
	for i, seg := range segments {
		if seg == "namespaces" && i+1 < len(segments) && segments[i+1] == r.ns {
			return true
		}
		for _, w := range r.works {
			if seg == w || (strings.HasSuffix(seg, "-"+w) && len(seg) == 65+len(w)) {
				return true
			}
		}
		for _, o := range r.objects {
			if o.namespace == "" && seg == o.name {
				return true
			}
		}
	}
	return false
}

// settledText says whether a side settled within diffSettleTimeout.
func settledText(moving string) string {
	if moving == "" {
		return "settled"
	}
	return fmt.Sprintf("still changing after %s, last: %s", diffSettleTimeout, moving)
}

// hubHash is the hub's hash in an AppliedManifestWork's name.
var hubHash = regexp.MustCompile(`[0-9a-f]{64}-`)

// describeWrites counts writes by kind, shortened for the report.
func describeWrites(writes []string) string {
	counts := map[string]int{}
	for _, w := range writes {
		w = strings.Replace(w, "/apis/work.open-cluster-management.io/v1/", "/", 1)
		counts[hubHash.ReplaceAllString(w, "<hub>-")]++
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, counts[k]))
	}
	return fmt.Sprintf("%d [%s]", len(writes), strings.Join(parts, ", "))
}

// settleBoth waits until neither cluster nor either agent's writes changed
// for diffQuiet, and returns the last snapshots, the writes since from and,
// for a side that kept changing until diffSettleTimeout, what changed last
// (else "").
func settleBoth(t *testing.T, runs [2]*diffRun, from time.Time, step string) ([2]framework.Snapshot, [2]map[string][]string, [2]string) {
	t.Helper()
	var snaps [2]framework.Snapshot
	var writes [2]map[string][]string
	var moving [2]string
	var last [2]string
	stable := [2]time.Time{time.Now(), time.Now()}
	deadline := time.Now().Add(diffSettleTimeout)
	for {
		var errs []error
		for i, r := range runs {
			s, err := r.snapshot(t.Context())
			errs = append(errs, err)
			w, err := r.writes(from)
			errs = append(errs, err)
			key := fmt.Sprint(s, len(w["managed"]), len(w["hub"]))
			if key != last[i] {
				stable[i] = time.Now()
				moving[i] = whatChanged(snaps[i], s, writes[i], w)
			}
			last[i], snaps[i], writes[i] = key, s, w
		}
		require.NoError(t, errors.Join(errs...), "%s: %s", runs[0].c.name, step)
		if time.Since(stable[0]) >= diffQuiet && time.Since(stable[1]) >= diffQuiet {
			return snaps, writes, [2]string{}
		}
		if time.Now().After(deadline) {
			for i := range moving {
				if time.Since(stable[i]) >= diffQuiet {
					moving[i] = ""
				}
			}
			return snaps, writes, moving
		}
		select {
		case <-t.Context().Done():
			t.Fatal(t.Context().Err())
		case <-time.After(diffPoll):
		}
	}
}

// whatChanged names the paths that changed between two snapshots of a side,
// and the writes sent in between.
func whatChanged(was, now framework.Snapshot, wroteBefore, wrote map[string][]string) string {
	var parts []string
	for _, d := range framework.CompareSnapshots("", "", was, now) {
		parts = append(parts, fmt.Sprintf("%s: %s → %s", d.Path, d.OCM, d.Ours))
	}
	for _, area := range []string{"managed", "hub"} {
		if n := len(wrote[area]) - len(wroteBefore[area]); n > 0 {
			parts = append(parts, fmt.Sprintf("%d more writes (%s)", n, describeWrites(wrote[area][len(wroteBefore[area]):])))
		}
	}
	return strings.Join(parts, "; ")
}

// specExampleCases are the ManifestWorks of the specification's examples
// (test/fixture/testdata/spec), each a case: in the case's namespace
// instead of default, and with cluster-scoped names of its own.
func specExampleCases(t *testing.T) []diffCase {
	dir := framework.RepoPath(framework.SpecExamplesDir)
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out []diffCase
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		var w struct {
			Spec map[string]any `json:"spec"`
		}
		require.NoError(t, yaml.Unmarshal(raw, &w), f)
		spec, err := yaml.Marshal(w.Spec)
		require.NoError(t, err)
		text := strings.NewReplacer("namespace: default", "namespace: $NS",
			"open-cluster-management:klusterlet-work:", "$NS:").Replace(string(spec))
		out = append(out, diffCase{name: framework.SpecExampleCase(f), works: []string{text}})
	}
	return out
}
