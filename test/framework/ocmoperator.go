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
	// KlusterletOperatorNamespace is where OCM's operator runs; it copies
	// the image pull Secret from there.
	KlusterletOperatorNamespace = "open-cluster-management"
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
	crds, err := managed.InstallCRDs(ocmCRDDir(binary, "klusterlet"))
	if err != nil {
		t.Fatalf("framework: Klusterlet CRD on %s: %v", managed.Name, err)
	}
	if err := managed.WaitCRDsEstablished(ctx, time.Minute, crds...); err != nil {
		t.Fatal(err)
	}
	if err := managed.EnsureNamespaces(ctx, KlusterletOperatorNamespace, KlusterletAgentNamespace); err != nil {
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

	p := e.newProcess("klusterlet-operator-"+managed.Name, nil, []string{
		"klusterlet",
		"--kubeconfig=" + managed.Kubeconfig,
		"--namespace=" + KlusterletOperatorNamespace,
		"--disable-leader-election",
	})
	p.binary, p.httpsOnly = binary, true
	k.Operator = p
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
	if err := k.waitWorkAgent(ctx, 2*time.Minute); err != nil {
		t.Fatalf("%v\n%s", err, p.Tail(40))
	}
	return k
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
	u, err := k.Managed.Dynamic.Resource(KlusterletGVR).Get(ctx, KlusterletName, metav1.GetOptions{})
	if err != nil {
		return err.Error()
	}
	return describeConditions(u)
}

// Condition returns the status and reason of a condition of the Klusterlet,
// empty when it has none of that type.
func (k *Klusterlet) Condition(ctx context.Context, condType string) (status, reason string, err error) {
	u, err := k.Managed.Dynamic.Resource(KlusterletGVR).Get(ctx, KlusterletName, metav1.GetOptions{})
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
