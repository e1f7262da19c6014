package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// An executor without rights on the managed cluster gets nothing applied
// and the manifest says why; a RoleBinding makes the work converge, and
// deleting the work deletes what it applied.
func TestExecutorDeniedUntilRoleBinding(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	ns := "e2e-executor"
	executorNamespace(t, "cluster1", ns)

	createWork(t, fixture.NewWork("cluster1", "executor").WithExecutor(ns, "executor1").
		WithManifest(fixture.ConfigMap(ns, "settings", map[string]string{"a": "b"})).Build())
	waitManifestsApplied(t, "cluster1", "executor", map[int]string{0: "Failed to apply manifest: not allowed to apply the resource  configmaps, " +
		ns + " settings, will try again in 1m0s"}, "the manifest is denied, in the words of OCM's agent")
	_, err := e.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns).Get(t.Context(), "settings", metav1.GetOptions{})
	require.True(t, apierrors.IsNotFound(err), "nothing is applied for the executor: %v", err)

	granted := time.Now()
	bindEdit(t, "cluster1", ns)
	waitWorkCondition(t, "cluster1", "executor", workv1.WorkApplied, metav1.ConditionTrue)
	t.Logf("applied %s after the RoleBinding was created", time.Since(granted).Round(time.Millisecond))
	waitConfigMapData(t, "cluster1", ns, "settings", "a", "b")

	require.NoError(t, e.Hub.Work.WorkV1().ManifestWorks("cluster1").Delete(t.Context(), "executor", metav1.DeleteOptions{}))
	waitGone(t, "work", func(ctx context.Context) error {
		_, err := getWork(ctx, "cluster1", "executor")
		return err
	})
	_, err = e.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns).Get(t.Context(), "settings", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "it went with the work: %v", err)
}

// With ExecutorValidatingCaches, a grant still reaches a denied work at once
// (the RoleBinding invalidates the cached denial), and once decided, drift
// repairs and updates of a 10-manifest work send no SubjectAccessReview at
// all. Without the cache, every write of those 10 manifests is reviewed.
func TestExecutorCacheSendsNoReviewsInSteadyState(t *testing.T) {
	e := setup(t)
	const cluster, ns, name = "cluster2", "e2e-executor-cache", "executor-cache"
	agent := startAgent(t, cluster, "--feature-gates=ExecutorValidatingCaches=true", "-v=2")
	executorNamespace(t, cluster, ns)

	build := func(value string) *workv1.ManifestWork {
		b := fixture.NewWork(cluster, name).WithExecutor(ns, "executor1")
		for i := range 10 {
			b.WithManifest(fixture.ConfigMap(ns, fmt.Sprintf("cm-%d", i), map[string]string{"v": value}))
		}
		return b.Build()
	}
	createWork(t, build("1"))
	waitWork(t, convergeTimeout, cluster, name, func(w *workv1.ManifestWork) error {
		if c := manifestCondition(w, 9, workv1.ManifestApplied); c == nil || !strings.Contains(c.Message, "not allowed to apply the resource") {
			return fmt.Errorf("manifest 9 not denied yet: %v", c)
		}
		return nil
	}, "denied while the executor has no rights")

	bindEdit(t, cluster, ns)
	waitWorkCondition(t, cluster, name, workv1.WorkApplied, metav1.ConditionTrue)
	// A second after an RBAC change its decisions are dropped once more (the
	// API server's view of RBAC may lag the agent's); steady state is after.
	framework.Eventually(t, convergeTimeout, func() error {
		if !strings.Contains(agent.Tail(200), `"RBAC changed; forgetting executor decisions" executor="system:serviceaccount:`+ns+`:executor1" settling=true`) {
			return fmt.Errorf("decisions not settled yet")
		}
		return nil
	}, "the decisions settle after the grant")
	// The next writes decide anew, once.
	updateWork(t, cluster, name, func(w *workv1.ManifestWork) { w.Spec.Workload = build("2").Spec.Workload })
	for i := range 10 {
		waitConfigMapData(t, cluster, ns, fmt.Sprintf("cm-%d", i), "v", "2")
	}

	// Steady state: drift repaired and the work updated, all from cached decisions.
	before := subjectAccessReviews(t, cluster)
	cms := e.Cluster(cluster).Kube.CoreV1().ConfigMaps(ns)
	for i := range 3 {
		require.NoError(t, cms.Delete(t.Context(), fmt.Sprintf("cm-%d", i), metav1.DeleteOptions{}))
	}
	for i := range 3 {
		waitConfigMapData(t, cluster, ns, fmt.Sprintf("cm-%d", i), "v", "2")
	}
	updateWork(t, cluster, name, func(w *workv1.ManifestWork) { w.Spec.Workload = build("3").Spec.Workload })
	waitWorkCondition(t, cluster, name, workv1.WorkApplied, metav1.ConditionTrue)
	for i := range 10 {
		waitConfigMapData(t, cluster, ns, fmt.Sprintf("cm-%d", i), "v", "3")
	}
	assert.Zero(t, subjectAccessReviews(t, cluster)-before, "no SubjectAccessReview in steady state with the cache")

	// Without the cache, every write is reviewed for each of the verbs its
	// strategy needs (create, update, patch, get, delete). A restarted agent
	// writes nothing (its records tell it the objects are as the work wants
	// them), so it reviews nothing; an update of all 10 manifests costs 50
	// reviews.
	_, err := agent.Stop(convergeTimeout)
	require.NoError(t, err)
	before = subjectAccessReviews(t, cluster)
	startAgent(t, cluster)
	framework.Consistently(t, 5*time.Second, func() error {
		if n := subjectAccessReviews(t, cluster) - before; n != 0 {
			return fmt.Errorf("%d reviews after the restart", n)
		}
		return nil
	}, "a restart reviews nothing")

	before = subjectAccessReviews(t, cluster)
	updateWork(t, cluster, name, func(w *workv1.ManifestWork) { w.Spec.Workload = build("4").Spec.Workload })
	waitWorkCondition(t, cluster, name, workv1.WorkApplied, metav1.ConditionTrue)
	for i := range 10 {
		waitConfigMapData(t, cluster, ns, fmt.Sprintf("cm-%d", i), "v", "4")
	}
	assert.Equal(t, 50, subjectAccessReviews(t, cluster)-before, "an update of 10 manifests without the cache")
}

// startAgent starts an agent of its own for a managed cluster, stopped when
// the test ends.
func startAgent(t *testing.T, cluster string, args ...string) *framework.Process {
	t.Helper()
	agent, err := env.StartAgent(cluster, append([]string{"--disable-leader-election"}, args...)...)
	require.NoError(t, err, "starting the agent of %s", cluster)
	t.Cleanup(func() { _, _ = agent.Stop(convergeTimeout) })
	return agent
}

// executorNamespace creates a namespace with the ServiceAccount executor1 on
// a managed cluster, removed when the test ends.
func executorNamespace(t *testing.T, cluster, ns string) {
	t.Helper()
	kube := env.Cluster(cluster).Kube
	_, err := kube.CoreV1().Namespaces().Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = kube.CoreV1().Namespaces().Delete(context.Background(), ns, metav1.DeleteOptions{}) })
	_, err = kube.CoreV1().ServiceAccounts(ns).Create(t.Context(), &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "executor1"}}, metav1.CreateOptions{})
	require.NoError(t, err)
}

// bindEdit grants executor1 the built-in ClusterRole edit in its namespace.
func bindEdit(t *testing.T, cluster, ns string) {
	t.Helper()
	_, err := env.Cluster(cluster).Kube.RbacV1().RoleBindings(ns).Create(t.Context(), &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "executor1-edit"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "edit"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: ns, Name: "executor1"}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
}

// subjectAccessReviews is how many SubjectAccessReviews a cluster's
// kube-apiserver has served, from its apiserver_request_total metric.
func subjectAccessReviews(t *testing.T, cluster string) int {
	t.Helper()
	raw, err := env.Cluster(cluster).Kube.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(t.Context())
	require.NoError(t, err)
	total := 0
	scanner := bufio.NewScanner(bytes.NewReader(raw))
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		line := scanner.Text()
		if !strings.HasPrefix(line, "apiserver_request_total{") || !strings.Contains(line, `resource="subjectaccessreviews"`) {
			continue
		}
		value, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		require.NoError(t, err, line)
		total += int(value)
	}
	require.NoError(t, scanner.Err())
	return total
}

// rbacAgent starts the agent of cluster2 under the RBAC of deploy/agent (the
// framework applied it), so that what the agent itself needs for executors,
// impersonate included, is the base's.
func rbacAgent(t *testing.T) {
	t.Helper()
	kubeconfig := serviceAccountKubeconfig(t, env.Cluster("cluster2").Kubeconfig)
	startAgent(t, "cluster2", "--spoke-kubeconfig", kubeconfig, "--kubeconfig", kubeconfig)
}

// bindAdmin grants executor1 the built-in ClusterRole admin in its
// namespace, and returns how to take it back.
func bindAdmin(t *testing.T, cluster, ns string) (revoke func()) {
	t.Helper()
	bindings := env.Cluster(cluster).Kube.RbacV1().RoleBindings(ns)
	_, err := bindings.Create(t.Context(), fixture.RoleBinding(ns, "executor1-admin", "ClusterRole", "admin", "executor1"), metav1.CreateOptions{})
	require.NoError(t, err)
	return func() {
		t.Helper()
		require.NoError(t, bindings.Delete(t.Context(), "executor1-admin", metav1.DeleteOptions{}))
	}
}

var (
	getConfigMaps = rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get"}}
	getGizmos     = rbacv1.PolicyRule{APIGroups: []string{"example.com"}, Resources: []string{"gizmos"}, Verbs: []string{"get"}}
)

// An executor bound to ClusterRole admin in its namespace delivers a Role
// granting what it holds and a RoleBinding to it: both are applied, as
// OCM's agent applies them (the API server, asked in a dry run as the
// executor, needs neither escalate nor bind for them). A Role granting what
// it lacks, and a binding to a ClusterRole it does not hold, are refused
// with OCM's words and what the API server says is missing.
func TestExecutorDeliversTheRBACItHolds(t *testing.T) {
	e := setup(t)
	const cluster, ns = "cluster2", "e2e-executor-rbac"
	rbacAgent(t)
	executorNamespace(t, cluster, ns)
	bindAdmin(t, cluster, ns)

	createWork(t, fixture.NewWork(cluster, "tenant-rbac").WithExecutor(ns, "executor1").WithManifest(
		fixture.Role(ns, "reader", getConfigMaps),
		fixture.RoleBinding(ns, "readers", "Role", "reader", "executor1"),
	).Build())
	t.Cleanup(func() { deleteWorkAndWait(t, cluster, "tenant-rbac") })
	waitManifestsApplied(t, cluster, "tenant-rbac", map[int]string{
		0: workv1.ManifestAppliedReasonComplete, 1: workv1.ManifestAppliedReasonComplete,
	}, "a role granting what the executor holds, and its binding, are applied")
	rbac := e.Cluster(cluster).Kube.RbacV1()
	_, err := rbac.Roles(ns).Get(t.Context(), "reader", metav1.GetOptions{})
	require.NoError(t, err)
	_, err = rbac.RoleBindings(ns).Get(t.Context(), "readers", metav1.GetOptions{})
	require.NoError(t, err)

	createWork(t, fixture.NewWork(cluster, "tenant-escalation").WithExecutor(ns, "executor1").WithManifest(
		fixture.Role(ns, "gizmo-reader", getConfigMaps, getGizmos),
		fixture.RoleBinding(ns, "admins", "ClusterRole", "cluster-admin", "executor1"),
		fixture.ConfigMap(ns, "settings", nil),
	).Build())
	t.Cleanup(func() { deleteWorkAndWait(t, cluster, "tenant-escalation") })
	escalation := "Failed to apply manifest: not allowed to apply the resource rbac.authorization.k8s.io %s, " + ns + " %s, " +
		`error: permission escalation: user "system:serviceaccount:` + ns + `:executor1" is attempting to grant RBAC permissions not currently held: `
	w := waitManifestsApplied(t, cluster, "tenant-escalation", map[int]string{
		0: fmt.Sprintf(escalation, "roles", "gizmo-reader") + `{APIGroups:["example.com"], Resources:["gizmos"], Verbs:["get"]}, will try again in 1m0s`,
		1: fmt.Sprintf(escalation, "rolebindings", "admins"),
		2: workv1.ManifestAppliedReasonComplete,
	}, "what the API server refuses the executor is refused, saying what it lacks; the rest is applied")
	t.Logf("binding refused: %s", manifestCondition(w, 1, workv1.ManifestApplied).Message)
	_, err = rbac.Roles(ns).Get(t.Context(), "gizmo-reader", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "the refused role is not created: %v", err)
	_, err = rbac.RoleBindings(ns).Get(t.Context(), "admins", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "the refused binding is not created: %v", err)
}

// A tenant is offboarded: its executor's RoleBinding is removed. A manifest
// then dropped from its work is pruned, and the work, once deleted, takes
// everything it applied with it and is released: the agent deletes as
// itself, as OCM's agent does (it checked delete when it applied them).
func TestExecutorOffboardedWorkIsPrunedAndDeleted(t *testing.T) {
	e := setup(t)
	const cluster, ns, name = "cluster2", "e2e-executor-offboard", "tenant"
	rbacAgent(t)
	executorNamespace(t, cluster, ns)
	revoke := bindAdmin(t, cluster, ns)

	createWork(t, fixture.NewWork(cluster, name).WithExecutor(ns, "executor1").WithManifest(
		fixture.Role(ns, "reader", getConfigMaps),
		fixture.RoleBinding(ns, "readers", "Role", "reader", "executor1"),
		fixture.ConfigMap(ns, "settings", map[string]string{"a": "b"}),
		fixture.ConfigMap(ns, "dropped", nil),
	).Build())
	waitWorkCondition(t, cluster, name, workv1.WorkApplied, metav1.ConditionTrue)
	applied := appliedwork.Name(appliedwork.HubHash(e.Hub.Config.Host), name)
	framework.Eventually(t, convergeTimeout, func() error {
		a, err := e.Cluster(cluster).Work.WorkV1().AppliedManifestWorks().Get(t.Context(), applied, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if n := len(a.Status.AppliedResources); n != 4 {
			return fmt.Errorf("%d resources recorded", n)
		}
		return nil
	}, "the four objects are recorded")

	revoke()
	updateWork(t, cluster, name, func(w *workv1.ManifestWork) { w.Spec.Workload.Manifests = w.Spec.Workload.Manifests[:3] })
	kube := e.Cluster(cluster).Kube
	waitGone(t, "the dropped config map", func(ctx context.Context) error {
		_, err := kube.CoreV1().ConfigMaps(ns).Get(ctx, "dropped", metav1.GetOptions{})
		return err
	})

	require.NoError(t, e.Hub.Work.WorkV1().ManifestWorks(cluster).Delete(t.Context(), name, metav1.DeleteOptions{}))
	waitGone(t, "work", func(ctx context.Context) error {
		_, err := getWork(ctx, cluster, name)
		return err
	})
	for what, get := range map[string]func(ctx context.Context) error{
		"role": func(ctx context.Context) error {
			_, err := kube.RbacV1().Roles(ns).Get(ctx, "reader", metav1.GetOptions{})
			return err
		},
		"role binding": func(ctx context.Context) error {
			_, err := kube.RbacV1().RoleBindings(ns).Get(ctx, "readers", metav1.GetOptions{})
			return err
		},
		"config map": func(ctx context.Context) error {
			_, err := kube.CoreV1().ConfigMaps(ns).Get(ctx, "settings", metav1.GetOptions{})
			return err
		},
	} {
		assert.True(t, apierrors.IsNotFound(get(t.Context())), "the %s went with the work", what)
	}
}
