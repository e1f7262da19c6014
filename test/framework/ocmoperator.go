package framework

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// OCM's operator (the `registration-operator` command of
// open-cluster-management.io/ocm) reconciles a Klusterlet on a managed
// cluster and a ClusterManager on a hub into the Deployments that run the
// `work` image. hack/ocm-agent.sh builds it beside OCM's agent, with the
// release's CRDs of both kinds in crds/klusterlet and crds/cluster-manager of
// the same cache folder.

// The names a Default-mode Klusterlet of OCM's samples gives its objects.
const (
	// KlusterletName is the name of the Klusterlet (cluster-scoped).
	KlusterletName = "klusterlet"
	// OCMOperatorNamespace is where OCM's operators run; they copy the
	// image pull Secret from there.
	OCMOperatorNamespace = "open-cluster-management"
	// KlusterletAgentNamespace holds the agents' Deployments and Secrets.
	KlusterletAgentNamespace = "open-cluster-management-agent"
	// KlusterletWorkAgent is the work agent's Deployment.
	KlusterletWorkAgent = KlusterletName + "-work-agent"
	// KlusterletHubSecret is the hub credential the registration agent
	// writes and the work agent mounts at /spoke/hub-kubeconfig.
	KlusterletHubSecret = "hub-kubeconfig-secret"
	// KlusterletBootstrapSecret is the credential a user gives the
	// registration agent to join the hub.
	KlusterletBootstrapSecret = "bootstrap-hub-kubeconfig"
	// OCMRegistrationImage is the registration image the Klusterlet names:
	// nothing runs it on kwok.
	OCMRegistrationImage = "quay.io/open-cluster-management/registration:v1.0.0"
)

// KlusterletGVR is the resource of OCM's Klusterlet.
var KlusterletGVR = schema.GroupVersionResource{Group: "operator.open-cluster-management.io", Version: "v1", Resource: "klusterlets"}

// OCMOperatorBinary returns the absolute path of OCM's operator, beside OCM's
// agent (see OCMAgentBinary, which skips t when WORK_OCM_AGENT is unset). An
// agent built before the operator was built with it fails t.
func OCMOperatorBinary(t testing.TB) string {
	t.Helper()
	path := filepath.Join(filepath.Dir(OCMAgentBinary(t)), "registration-operator")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("framework: no OCM operator beside %s=%s (its cache predates the operator: run hack/ocm-agent.sh again): %v",
			EnvOCMAgent, os.Getenv(EnvOCMAgent), err)
	}
	return path
}

// ocmCRDDir is the folder of the CRDs of one kind ("klusterlet",
// "cluster-manager") that hack/ocm-agent.sh puts beside the operator.
func ocmCRDDir(operator, kind string) string {
	return filepath.Join(filepath.Dir(filepath.Dir(operator)), "crds", kind)
}

// KlusterletOptions says what StartKlusterletOperator sets up.
type KlusterletOptions struct {
	// ClusterName is the Klusterlet's spec.clusterName (default cluster1).
	ClusterName string
	// WorkImage is the Klusterlet's spec.workImagePullSpec.
	WorkImage string
}

// Klusterlet is OCM's operator running for a Klusterlet on a managed
// cluster.
type Klusterlet struct {
	// Operator is the operator's process; it is stopped when the test ends.
	Operator *Process
	// Managed is the cluster the Klusterlet is on.
	Managed *Cluster
	// ClusterName is the name the hub knows the cluster by.
	ClusterName string
	// HubKubeconfig is what Secret hub-kubeconfig-secret holds under
	// "kubeconfig": a token of the cluster's agent identity on the hub (see
	// OCMAgentHubKubeconfig).
	HubKubeconfig []byte
}

// StartKlusterletOperator sets up what a user of OCM has on a managed cluster
// and starts OCM's operator (binary, see OCMOperatorBinary) for it:
//
//   - the Klusterlet CRD of the release;
//   - namespace open-cluster-management, where the operator runs;
//   - namespace open-cluster-management-agent with Secret
//     bootstrap-hub-kubeconfig, as a user makes them before joining a hub;
//   - Secret hub-kubeconfig-secret there, as the registration agent writes
//     it once the hub accepted the cluster (keys kubeconfig, cluster-name,
//     agent-name). On kwok no registration agent runs: the operator renders
//     its Deployment, and the test writes its Secret instead. Without it the
//     operator keeps the work agent at 0 replicas;
//   - Klusterlet "klusterlet": Default mode, opts.ClusterName, opts.WorkImage;
//   - the operator, `registration-operator klusterlet` with the managed
//     cluster's admin kubeconfig, without leader election, its HTTPS /healthz
//     on a free port (--listen).
//
// It returns once the operator has rendered Deployment klusterlet-work-agent
// with one replica, that is once it found the hub connection working. The
// hub credential is OCMAgentHubKubeconfig's. The operator stops when t ends.
func (e *E2E) StartKlusterletOperator(t testing.TB, binary string, hub, managed *Cluster, opts KlusterletOptions) *Klusterlet {
	t.Helper()
	if opts.ClusterName == "" {
		opts.ClusterName = "cluster1"
	}
	ctx := t.Context()
	installOCMCRD(t, binary, "klusterlet", managed)
	if err := managed.EnsureNamespaces(ctx, OCMOperatorNamespace, KlusterletAgentNamespace); err != nil {
		t.Fatal(err)
	}
	hubKubeconfig, err := e.OCMAgentHubKubeconfig(hub, opts.ClusterName)
	if err != nil {
		t.Fatal(err)
	}
	k := &Klusterlet{Managed: managed, ClusterName: opts.ClusterName, HubKubeconfig: hubKubeconfig}
	secrets := map[string]map[string][]byte{
		KlusterletBootstrapSecret: {"kubeconfig": hubKubeconfig},
		KlusterletHubSecret: {
			"kubeconfig":   hubKubeconfig,
			"cluster-name": []byte(opts.ClusterName),
			"agent-name":   []byte(opts.ClusterName + "-agent"),
		},
	}
	for name, data := range secrets {
		s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: KlusterletAgentNamespace}, Data: data}
		if _, err := managed.Kube.CoreV1().Secrets(KlusterletAgentNamespace).Create(ctx, s, metav1.CreateOptions{}); err != nil {
			t.Fatalf("framework: Secret %s on %s: %v", name, managed.Name, err)
		}
	}
	klusterlet := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "operator.open-cluster-management.io/v1",
		"kind":       "Klusterlet",
		"metadata":   map[string]any{"name": KlusterletName},
		"spec": map[string]any{
			"deployOption":              map[string]any{"mode": "Default"},
			"clusterName":               opts.ClusterName,
			"namespace":                 KlusterletAgentNamespace,
			"registrationImagePullSpec": OCMRegistrationImage,
			"workImagePullSpec":         opts.WorkImage,
		},
	}}
	if _, err := managed.Dynamic.Resource(KlusterletGVR).Create(ctx, klusterlet, metav1.CreateOptions{}); err != nil {
		t.Fatalf("framework: Klusterlet on %s: %v", managed.Name, err)
	}

	k.Operator = e.startOCMOperator(t, binary, "klusterlet", managed)
	if err := k.waitWorkAgent(ctx, 2*time.Minute); err != nil {
		t.Fatalf("%v\n%s", err, k.Operator.Tail(40))
	}
	return k
}

// installOCMCRD installs the CRD of OCM's release of one kind
// ("klusterlet", "cluster-manager") on c.
func installOCMCRD(t testing.TB, binary, kind string, c *Cluster) {
	t.Helper()
	crds, err := c.InstallCRDs(ocmCRDDir(binary, kind))
	if err != nil {
		t.Fatalf("framework: %s CRD on %s: %v", kind, c.Name, err)
	}
	if err := c.WaitCRDsEstablished(t.Context(), time.Minute, crds...); err != nil {
		t.Fatal(err)
	}
}

// startOCMOperator runs `registration-operator <command>` (klusterlet or
// hub) against c with its admin kubeconfig, in OCM's operator namespace,
// without leader election, and waits for its HTTPS /healthz on a free port
// (--listen). It is stopped when t ends.
func (e *E2E) startOCMOperator(t testing.TB, binary, command string, c *Cluster) *Process {
	t.Helper()
	p := e.newProcess(command+"-operator-"+c.Name, nil, []string{
		command,
		"--kubeconfig=" + c.Kubeconfig,
		"--namespace=" + OCMOperatorNamespace,
		"--disable-leader-election",
	})
	p.binary, p.httpsOnly = binary, true
	t.Cleanup(func() {
		if p.Running() {
			if _, err := p.Stop(30 * time.Second); err != nil {
				t.Errorf("framework: %v", err)
			}
		}
	})
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitReady(e.Options.ReadyTimeout); err != nil {
		t.Fatal(err)
	}
	return p
}

// waitWorkAgent waits until Deployment klusterlet-work-agent exists with at
// least one replica.
func (k *Klusterlet) waitWorkAgent(ctx context.Context, timeout time.Duration) error {
	last := "no Deployment"
	err := poll(ctx, timeout, func(ctx context.Context) (bool, error) {
		d, err := k.WorkAgent(ctx)
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if d.Spec.Replicas != nil && *d.Spec.Replicas == 0 {
			last = "0 replicas"
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("framework: OCM's operator on %s renders no %s/%s with a replica (%s; Klusterlet conditions %s): %w",
			k.Managed.Name, KlusterletAgentNamespace, KlusterletWorkAgent, last, k.Conditions(ctx), err)
	}
	return nil
}

// WorkAgent returns the work agent's Deployment the operator rendered.
func (k *Klusterlet) WorkAgent(ctx context.Context) (*appsv1.Deployment, error) {
	return k.Managed.Kube.AppsV1().Deployments(KlusterletAgentNamespace).Get(ctx, KlusterletWorkAgent, metav1.GetOptions{})
}

// Conditions describes the Klusterlet's status conditions, one
// "Type=Status (Reason: Message)" each, for messages.
func (k *Klusterlet) Conditions(ctx context.Context) string {
	return ocmConditions(ctx, k.Managed, KlusterletGVR, KlusterletName)
}

// Condition returns the status and reason of a condition of the Klusterlet,
// empty when it has none of that type.
func (k *Klusterlet) Condition(ctx context.Context, condType string) (status, reason string, err error) {
	return ocmCondition(ctx, k.Managed, KlusterletGVR, KlusterletName, condType)
}

func ocmConditions(ctx context.Context, c *Cluster, gvr schema.GroupVersionResource, name string) string {
	u, err := c.Dynamic.Resource(gvr).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err.Error()
	}
	return describeConditions(u)
}

func ocmCondition(ctx context.Context, c *Cluster, gvr schema.GroupVersionResource, name, condType string) (status, reason string, err error) {
	u, err := c.Dynamic.Resource(gvr).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", "", err
	}
	return conditionOf(u, condType)
}

func conditionOf(u *unstructured.Unstructured, condType string) (status, reason string, err error) {
	conds, _, err := unstructured.NestedSlice(u.Object, "status", "conditions")
	if err != nil {
		return "", "", err
	}
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if !ok || m["type"] != condType {
			continue
		}
		status, _ = m["status"].(string)
		reason, _ = m["reason"].(string)
		return status, reason, nil
	}
	return "", "", nil
}

func describeConditions(u *unstructured.Unstructured) string {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	var out []string
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok {
			out = append(out, fmt.Sprintf("%v=%v (%v: %v)", m["type"], m["status"], m["reason"], m["message"]))
		}
	}
	return fmt.Sprint(out)
}

// The names a Default-mode ClusterManager gives its objects.
const (
	// ClusterManagerName is the name of the ClusterManager (cluster-scoped).
	ClusterManagerName = "cluster-manager"
	// ClusterManagerNamespace holds the hub's Deployments.
	ClusterManagerNamespace = "open-cluster-management-hub"
	// ClusterManagerWorkWebhook is the Deployment of `work webhook-server`.
	ClusterManagerWorkWebhook = ClusterManagerName + "-work-webhook"
	// ClusterManagerWorkController is the Deployment of `work manager`;
	// OCM's release renders it only with the feature gate
	// ManifestWorkReplicaSet.
	ClusterManagerWorkController = ClusterManagerName + "-work-controller"
)

// ClusterManagerGVR is the resource of OCM's ClusterManager.
var ClusterManagerGVR = schema.GroupVersionResource{Group: "operator.open-cluster-management.io", Version: "v1", Resource: "clustermanagers"}

// ClusterManagerOptions says what StartClusterManagerOperator sets up.
type ClusterManagerOptions struct {
	// WorkImage is the ClusterManager's spec.workImagePullSpec.
	WorkImage string
	// WorkFeatureGates are the gates of spec.workConfiguration.featureGates
	// turned on (ManifestWorkReplicaSet: the work controller).
	WorkFeatureGates []string
}

// ClusterManager is OCM's operator running for a ClusterManager on a hub.
type ClusterManager struct {
	// Operator is the operator's process; it is stopped when the test ends.
	Operator *Process
	// Hub is the cluster the ClusterManager is on.
	Hub *Cluster
}

// StartClusterManagerOperator sets up what a user of OCM has on a hub and
// starts OCM's operator (binary, see OCMOperatorBinary) for it: the
// ClusterManager CRD of the release, namespace open-cluster-management,
// ClusterManager "cluster-manager" (Default mode, opts.WorkImage, the
// release's images for the rest, opts.WorkFeatureGates), and
// `registration-operator hub` with the hub's admin kubeconfig, without leader
// election, its HTTPS /healthz on a free port. It returns once the operator
// has rendered Deployment cluster-manager-work-webhook, and
// cluster-manager-work-controller when the gates make it render one. The
// operator stops when t ends.
func (e *E2E) StartClusterManagerOperator(t testing.TB, binary string, hub *Cluster, opts ClusterManagerOptions) *ClusterManager {
	t.Helper()
	ctx := t.Context()
	installOCMCRD(t, binary, "cluster-manager", hub)
	if err := hub.EnsureNamespaces(ctx, OCMOperatorNamespace); err != nil {
		t.Fatal(err)
	}
	spec := map[string]any{
		"deployOption":              map[string]any{"mode": "Default"},
		"registrationImagePullSpec": OCMRegistrationImage,
		"workImagePullSpec":         opts.WorkImage,
		"placementImagePullSpec":    "quay.io/open-cluster-management/placement:v1.0.0",
		"addOnManagerImagePullSpec": "quay.io/open-cluster-management/addon-manager:v1.0.0",
	}
	deployments := []string{ClusterManagerWorkWebhook}
	if len(opts.WorkFeatureGates) > 0 {
		var gates []any
		for _, g := range opts.WorkFeatureGates {
			gates = append(gates, map[string]any{"feature": g, "mode": "Enable"})
			if g == "ManifestWorkReplicaSet" {
				deployments = append(deployments, ClusterManagerWorkController)
			}
		}
		spec["workConfiguration"] = map[string]any{"featureGates": gates}
	}
	cm := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "operator.open-cluster-management.io/v1",
		"kind":       "ClusterManager",
		"metadata":   map[string]any{"name": ClusterManagerName},
		"spec":       spec,
	}}
	if _, err := hub.Dynamic.Resource(ClusterManagerGVR).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatalf("framework: ClusterManager on %s: %v", hub.Name, err)
	}
	m := &ClusterManager{Hub: hub, Operator: e.startOCMOperator(t, binary, "hub", hub)}
	for _, name := range deployments {
		err := poll(ctx, 2*time.Minute, func(ctx context.Context) (bool, error) {
			_, err := m.Deployment(ctx, name)
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return err == nil, err
		})
		if err != nil {
			t.Fatalf("framework: OCM's operator on %s renders no %s/%s (ClusterManager conditions %s): %v\n%s",
				hub.Name, ClusterManagerNamespace, name, m.Conditions(ctx), err, m.Operator.Tail(40))
		}
	}
	return m
}

// Deployment returns a Deployment of the hub's namespace the operator
// rendered.
func (m *ClusterManager) Deployment(ctx context.Context, name string) (*appsv1.Deployment, error) {
	return m.Hub.Kube.AppsV1().Deployments(ClusterManagerNamespace).Get(ctx, name, metav1.GetOptions{})
}

// Conditions describes the ClusterManager's status conditions.
func (m *ClusterManager) Conditions(ctx context.Context) string {
	return ocmConditions(ctx, m.Hub, ClusterManagerGVR, ClusterManagerName)
}

// OCMAgentServiceAccount is, on the hub, the ServiceAccount in a managed
// cluster's namespace that OCMAgentHubKubeconfig mints tokens of.
const OCMAgentServiceAccount = "klusterlet-agent"

// OCMAgentHubKubeconfig stands in for the identity OCM's registration agent
// obtains on the hub for cluster (a client certificate of
// system:open-cluster-management:<cluster>:<agent>, which the hub's
// registration controller grants its rights): it creates on the hub the
// cluster's namespace, ServiceAccount klusterlet-agent there, and RBAC with
// what OCM's operator checks the hub credential for (its
// SelfSubjectAccessReviews: the registration agent's rights on its
// ManagedCluster, CSRs and lease, the work agent's on ManifestWorks and
// Events), and returns a kubeconfig of the hub with a token of it.
func (e *E2E) OCMAgentHubKubeconfig(hub *Cluster, cluster string) ([]byte, error) {
	ctx := e.ctx
	if err := hub.EnsureNamespaces(ctx, cluster); err != nil {
		return nil, err
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: OCMAgentServiceAccount, Namespace: cluster}}
	if _, err := hub.Kube.CoreV1().ServiceAccounts(cluster).Create(ctx, sa, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, err
	}
	name := "e2e:ocm-agent:" + cluster
	subjects := []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: OCMAgentServiceAccount, Namespace: cluster}}
	clusterRole := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{"certificates.k8s.io"}, Resources: []string{"certificatesigningrequests"},
			Verbs: []string{"create", "get", "list", "watch"}},
		{APIGroups: []string{"cluster.open-cluster-management.io"}, Resources: []string{"managedclusters"},
			Verbs: []string{"create"}},
		{APIGroups: []string{"cluster.open-cluster-management.io"}, Resources: []string{"managedclusters"},
			ResourceNames: []string{cluster}, Verbs: []string{"get", "list", "update", "watch"}},
		{APIGroups: []string{"cluster.open-cluster-management.io"}, Resources: []string{"managedclusters/status"},
			ResourceNames: []string{cluster}, Verbs: []string{"patch", "update"}},
		{APIGroups: []string{"register.open-cluster-management.io"}, Resources: []string{"managedclusters/clientcertificates"},
			Verbs: []string{"renew"}},
	}}
	role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: cluster}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"},
			ResourceNames: []string{"managed-cluster-lease"}, Verbs: []string{"get", "update"}},
		{APIGroups: []string{"", "events.k8s.io"}, Resources: []string{"events"}, Verbs: []string{"create", "patch", "update"}},
		{APIGroups: []string{"work.open-cluster-management.io"}, Resources: []string{"manifestworks"},
			Verbs: []string{"get", "list", "watch", "update", "patch"}},
		{APIGroups: []string{"work.open-cluster-management.io"}, Resources: []string{"manifestworks/status"},
			Verbs: []string{"patch", "update"}},
	}}
	rbac := hub.Kube.RbacV1()
	_, err := rbac.ClusterRoles().Create(ctx, clusterRole, metav1.CreateOptions{})
	err = ignoreExists(err)
	if err == nil {
		_, err = rbac.ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: name}, Subjects: subjects,
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
		}, metav1.CreateOptions{})
		err = ignoreExists(err)
	}
	if err == nil {
		_, err = rbac.Roles(cluster).Create(ctx, role, metav1.CreateOptions{})
		err = ignoreExists(err)
	}
	if err == nil {
		_, err = rbac.RoleBindings(cluster).Create(ctx, &rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: cluster}, Subjects: subjects,
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
		}, metav1.CreateOptions{})
		err = ignoreExists(err)
	}
	if err != nil {
		return nil, fmt.Errorf("framework: hub RBAC of %s's agent: %w", cluster, err)
	}
	return e.TokenKubeconfig(hub, cluster, OCMAgentServiceAccount, nil)
}

func ignoreExists(err error) error {
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}
