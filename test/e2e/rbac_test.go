package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/client-go/util/retry"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

const (
	agentNamespace      = "open-cluster-management-agent"
	agentServiceAccount = "klusterlet-work-sa"
)

// The agent of cluster2 runs under the RBAC of deploy/agent. A custom
// resource it may not touch fails with the server's own message, the rest of
// the work is applied, and once another work delivers a ClusterRole labelled
// aggregate-to-work the agent applies it by itself.
func TestForbiddenUntilAggregatedRoleArrives(t *testing.T) {
	e := setup(t)
	ctx := t.Context()
	c2 := e.Cluster("cluster2")
	// The framework applied deploy/agent (with its Deployment scaled to 0).
	ensureWidgetCRD(t, "cluster2")

	kubeconfig := serviceAccountKubeconfig(t, c2.Kubeconfig)
	agent, err := e.StartAgent("cluster2", "--spoke-kubeconfig", kubeconfig, "--kubeconfig", kubeconfig)
	require.NoError(t, err, "agent under deploy/agent RBAC:\n%s", agent.Tail(30))
	t.Cleanup(func() { _, _ = agent.Stop(convergeTimeout) })

	ns := "e2e-rbac"
	createWork(t, fixture.NewWork("cluster2", "rbac-widget").
		WithManifest(fixture.Namespace(ns), fixture.Widget(ns, "w", map[string]any{"size": int64(1)}), fixture.ConfigMap(ns, "c", nil)).
		Build())
	waitManifestsApplied(t, "cluster2", "rbac-widget", map[int]string{
		0: workv1.ManifestAppliedReasonComplete,
		1: `widgets.example.com "w" is forbidden: User "system:serviceaccount:open-cluster-management-agent:klusterlet-work-sa" cannot`,
		2: workv1.ManifestAppliedReasonComplete,
	}, "the forbidden manifest fails with the server's message, the others are applied")

	createWork(t, fixture.NewWork("cluster2", "rbac-grant").WithManifest(
		aggregatedRole("open-cluster-management:work-agent:widgets", "example.com", "widgets")).Build())
	// Cleanups run last first: the Widget's work is gone before the work
	// that grants the agent Widgets is deleted, or nothing could delete the
	// Widget and the work would stay, being deleted, for the next tests.
	t.Cleanup(func() { deleteWorkAndWait(t, "cluster2", "rbac-widget") })
	w := waitWorkCondition(t, "cluster2", "rbac-widget", workv1.WorkApplied, metav1.ConditionTrue)
	assert.Equal(t, metav1.ConditionTrue, manifestCondition(w, 1, workv1.ManifestApplied).Status)
	live := c2.Dynamic.Resource(widgets).Namespace(ns)
	obj, err := live.Get(ctx, "w", metav1.GetOptions{})
	require.NoError(t, err)

	// The watch of Widgets, refused until the grant, was restarted by the
	// RBAC change rather than on its backoff; the Widget's health follows
	// its controller from then on.
	waitMetric(t, agent, "work_objectwatch_rbac_restarts_total")
	setReadyFalse(t, live, obj)
	waitManifestHealth(t, "cluster2", "rbac-widget", 1, metav1.ConditionFalse, workv1.HealthyReasonDegraded, "Ready is False: Broken")
	waitWorkReason(t, "cluster2", "rbac-widget", workv1.WorkDegraded, metav1.ConditionTrue,
		workv1.WorkDegradedReasonManifestsDegraded, "Widget e2e-rbac/w is Degraded")
}

// serviceAccountKubeconfig is the admin kubeconfig of a cluster with its user
// replaced by a token of the agent's ServiceAccount.
func serviceAccountKubeconfig(t *testing.T, adminKubeconfig string) string {
	t.Helper()
	c2 := env.Cluster("cluster2")
	expiry := int64(3600)
	token, err := c2.Kube.CoreV1().ServiceAccounts(agentNamespace).CreateToken(t.Context(), agentServiceAccount,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &expiry}}, metav1.CreateOptions{})
	require.NoError(t, err)

	cfg, err := clientcmd.LoadFromFile(adminKubeconfig)
	require.NoError(t, err)
	cfg.AuthInfos = map[string]*clientcmdapi.AuthInfo{"agent": {Token: token.Status.Token}}
	for _, c := range cfg.Contexts {
		c.AuthInfo = "agent"
	}
	path := filepath.Join(t.TempDir(), "agent.kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(*cfg, path))
	return path
}

// The agent of cluster2 runs under the RBAC of deploy/agent. A work
// delivers a new CRD and, with it or after it, the ClusterRole labelled
// aggregate-to-work that lets the agent manage its kind; a second work
// adds an object of that kind. In either order the object is applied and its
// health follows its controller: Ready=False makes the manifest Degraded and
// the work Degraded. A list or watch of the kind that the API server refused
// before the rights arrived was restarted by the RBAC change that brought
// them, which the agent counts.
func TestDeliveredCRDWithAggregatedRights(t *testing.T) {
	e := setup(t)
	c2 := e.Cluster("cluster2")
	kubeconfig := serviceAccountKubeconfig(t, c2.Kubeconfig)
	agent, err := e.StartAgent("cluster2", "--spoke-kubeconfig", kubeconfig, "--kubeconfig", kubeconfig)
	require.NoError(t, err, "agent under deploy/agent RBAC:\n%s", agent.Tail(30))
	t.Cleanup(func() { _, _ = agent.Stop(convergeTimeout) })

	for _, tc := range []struct {
		name  string
		group string // of the CRD; each case has a kind of its own
		// rightsFirst: the work delivers the CRD and the ClusterRole
		// together, and the object is added once that work is applied.
		// Otherwise the object is added once the CRD is served, is refused,
		// and the ClusterRole is added to the CRD's work after that.
		rightsFirst bool
	}{
		{name: "rights a moment before the object", group: "e2e-rights.example.com", rightsFirst: true},
		{name: "rights after the object", group: "e2e-rights-late.example.com"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			logStart := logSize(t, agent.LogPath)
			restartsBefore := scrape(t, agent)[rbacRestarts]
			crd := rightsGizmoCRD(tc.group)
			ns, definitions, objects := tc.group[:strings.IndexByte(tc.group, '.')], "gizmos-"+tc.group, "gizmo-"+tc.group
			role := aggregatedRole("open-cluster-management:work-agent:"+crd.Name, crd.Spec.Group, crd.Spec.Names.Plural)

			if tc.rightsFirst {
				newWork(t, "cluster2", definitions, crd, role)
			} else {
				newWork(t, "cluster2", definitions, crd)
			}
			// Cleanups run last first: the Gizmo's work goes while the agent
			// may still delete Gizmos, then the CRD and the grant go with
			// their work.
			t.Cleanup(func() {
				deleteWorkAndWait(t, "cluster2", definitions)
				crds := c2.APIExtensions.ApiextensionsV1().CustomResourceDefinitions()
				framework.Eventually(t, convergeTimeout, func() error {
					_, err := crds.Get(context.Background(), crd.Name, metav1.GetOptions{})
					if apierrors.IsNotFound(err) {
						return nil
					}
					return fmt.Errorf("still there: %v", err)
				}, "CRD %s deleted with its work", crd.Name)
			})
			waitWorkCondition(t, "cluster2", definitions, workv1.WorkApplied, metav1.ConditionTrue)

			newWork(t, "cluster2", objects, fixture.Namespace(ns), rightsGizmo(tc.group, ns, "g"))
			t.Cleanup(func() { deleteWorkAndWait(t, "cluster2", objects) })
			if !tc.rightsFirst {
				waitManifestsApplied(t, "cluster2", objects, map[int]string{
					0: workv1.ManifestAppliedReasonComplete,
					1: fmt.Sprintf(`%s "g" is forbidden: User "system:serviceaccount:open-cluster-management-agent:klusterlet-work-sa" cannot`, crd.Name),
				}, "the Gizmo is refused until the rights arrive")
				setWorkManifests(t, "cluster2", definitions, crd, role)
			}
			waitWorkCondition(t, "cluster2", objects, workv1.WorkApplied, metav1.ConditionTrue)
			live := c2.Dynamic.Resource(schema.GroupVersionResource{
				Group: crd.Spec.Group, Version: "v1", Resource: crd.Spec.Names.Plural,
			}).Namespace(ns)
			obj, err := live.Get(ctx, "g", metav1.GetOptions{})
			require.NoError(t, err, "the Gizmo is applied")

			setReadyFalse(t, live, obj)
			// The bound is generous: what matters is that health follows at all.
			waitManifestHealth(t, "cluster2", objects, 1, metav1.ConditionFalse, workv1.HealthyReasonDegraded, "Ready is False: Broken")
			waitWorkReason(t, "cluster2", objects, workv1.WorkDegraded, metav1.ConditionTrue,
				workv1.WorkDegradedReasonManifestsDegraded, fmt.Sprintf("Gizmo %s/g is Degraded", ns))

			// The agent logs each refused list or watch of Gizmos. The RBAC
			// change that brought the rights restarted it.
			refusals := logLines(t, agent.LogPath, logStart, "Cannot list or watch objects", crd.Name+" is forbidden")
			restarts := scrape(t, agent)[rbacRestarts] - restartsBefore
			t.Logf("refused lists or watches of %s: %d; %s rose by %v", crd.Name, refusals, rbacRestarts, restarts)
			if !tc.rightsFirst {
				assert.Positive(t, refusals, "the watch of Gizmos was refused before the rights arrived")
			}
			if refusals > 0 {
				assert.Positive(t, restarts, "the refused watch of Gizmos was restarted by the RBAC change")
			}
		})
	}
}

const rbacRestarts = "work_objectwatch_rbac_restarts_total"

// newWork creates a work of the manifests on the hub and returns its name.
// Unlike createWork it leaves the deletion to the test (deleteWorkAndWait),
// which orders it.
func newWork(t *testing.T, cluster, name string, manifests ...runtime.Object) string {
	t.Helper()
	_, err := env.Hub.Work.WorkV1().ManifestWorks(cluster).Create(t.Context(),
		fixture.NewWork(cluster, name).WithManifest(manifests...).Build(), metav1.CreateOptions{})
	require.NoError(t, err)
	return name
}

// aggregatedRole is a ClusterRole labelled aggregate-to-work that lets the
// agent manage a resource of a group, as a work delivers it.
func aggregatedRole(name, group, resource string) *rbacv1.ClusterRole {
	return &rbacv1.ClusterRole{
		TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole"},
		ObjectMeta: metav1.ObjectMeta{
			Name:   name,
			Labels: map[string]string{workv1.AggregateToWorkLabel: "true"},
		},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{group}, Resources: []string{resource},
			Verbs: []string{"get", "list", "watch", "create", "update", "patch", "delete"},
		}},
	}
}

// setReadyFalse writes the status of a custom resource as its controller
// would when the object breaks: Ready=False, reason Broken.
func setReadyFalse(t *testing.T, res dynamic.ResourceInterface, obj *unstructured.Unstructured) {
	t.Helper()
	require.NoError(t, unstructured.SetNestedSlice(obj.Object, []any{map[string]any{
		"type": "Ready", "status": "False", "reason": "Broken", "message": "set by the test",
		"lastTransitionTime": time.Now().UTC().Format(time.RFC3339),
	}}, "status", "conditions"))
	_, err := res.UpdateStatus(t.Context(), obj, metav1.UpdateOptions{})
	require.NoError(t, err)
}

// setWorkManifests replaces the manifests of a work on the hub.
func setWorkManifests(t *testing.T, cluster, name string, manifests ...runtime.Object) {
	t.Helper()
	works := env.Hub.Work.WorkV1().ManifestWorks(cluster)
	workload := fixture.NewWork(cluster, name).WithManifest(manifests...).Build().Spec.Workload
	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w, err := works.Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		w.Spec.Workload = workload
		_, err = works.Update(t.Context(), w, metav1.UpdateOptions{})
		return err
	}))
}

// deleteWorkAndWait deletes a work and waits until its agent has finished
// deleting what it applied. It runs in cleanups, after t's context is done.
func deleteWorkAndWait(t *testing.T, cluster, name string) {
	t.Helper()
	works := env.Hub.Work.WorkV1().ManifestWorks(cluster)
	_ = works.Delete(context.Background(), name, metav1.DeleteOptions{})
	framework.Eventually(t, convergeTimeout, func() error {
		_, err := works.Get(context.Background(), name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("still there: %v", err)
	}, "the agent of %s deletes work %s", cluster, name)
}

// rightsGizmoCRD defines gizmos.<group>/v1, with a status subresource.
func rightsGizmoCRD(group string) *apiextensionsv1.CustomResourceDefinition {
	crd := fixture.WidgetCRD()
	crd.Name = "gizmos." + group
	crd.Spec.Group = group
	crd.Spec.Names = apiextensionsv1.CustomResourceDefinitionNames{Plural: "gizmos", Singular: "gizmo", Kind: "Gizmo", ListKind: "GizmoList"}
	return crd
}

// rightsGizmo is a custom resource of rightsGizmoCRD(group).
func rightsGizmo(group, namespace, name string) *unstructured.Unstructured {
	obj := fixture.Widget(namespace, name, map[string]any{"size": int64(1)})
	obj.SetAPIVersion(group + "/v1")
	obj.SetKind("Gizmo")
	return obj
}

// logSize is the size of a process's log, where what it writes next begins.
func logSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	require.NoError(t, err)
	return info.Size()
}

// logLines counts the lines that a process wrote to its log from offset on
// and that contain every one of words.
func logLines(t *testing.T, path string, offset int64, words ...string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	n := 0
	for line := range strings.Lines(string(data[min(offset, int64(len(data))):])) {
		if !slices.ContainsFunc(words, func(w string) bool { return !strings.Contains(line, w) }) {
			n++
		}
	}
	return n
}
