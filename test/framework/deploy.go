package framework

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// The identities of deploy/. The e2e work processes run as these
// ServiceAccounts, with only the RBAC that deploy/ grants them, so that a
// permission missing from deploy/ fails a test.
const (
	// HubServiceAccount is work hub's ServiceAccount, in HubLeaseNamespace
	// on the hub (deploy/hub).
	HubServiceAccount = "work-hub"
	// AgentServiceAccount is work agent's ServiceAccount on its managed
	// cluster, in AgentLeaseNamespace (deploy/agent).
	AgentServiceAccount = "klusterlet-work-sa"
	// AgentHubServiceAccount is work agent's ServiceAccount on the hub, in
	// its cluster's namespace (deploy/cluster-namespace).
	AgentHubServiceAccount = "work-agent"
)

// tokenLifetime is how long the minted tokens are valid: longer than any run.
const tokenLifetime = 24 * time.Hour

// rbacTimeout bounds the wait for applied RBAC to take effect; aggregated
// ClusterRoles are filled in by kube-controller-manager.
const rbacTimeout = time.Minute

// DeployBase is the folder of a kustomize base under deploy/.
func DeployBase(name string) string { return RepoPath("deploy", name) }

// deploy applies the bases of deploy/ (through overlays in the run folder) to
// the hub and the managed clusters, waits until the RBAC is in force and
// writes a kubeconfig per identity, with a token of its ServiceAccount.
//
// The Deployments of the bases are applied too, scaled to 0: the tests run
// the work binary just built as local processes, and kwok would only fake
// the pods anyway.
func (e *E2E) deploy() error {
	if err := e.applyOverlay(e.Hub, "hub", "hub", "replicas:\n  - name: work-hub\n    count: 0\n"); err != nil {
		return err
	}
	hubUser := serviceAccountUser(HubLeaseNamespace, HubServiceAccount)
	if err := e.Hub.waitAllowed(e.ctx, hubUser, authorizationv1.ResourceAttributes{
		Verb: "delete", Group: "work.open-cluster-management.io", Resource: "manifestworks",
	}); err != nil {
		return err
	}
	var err error
	if e.Hub.WorkKubeconfig, err = e.tokenKubeconfig(e.Hub, HubLeaseNamespace, HubServiceAccount); err != nil {
		return err
	}
	for _, c := range e.Managed {
		if err := e.deployManaged(c); err != nil {
			return err
		}
	}
	return nil
}

// ClusterNamespace applies deploy/cluster-namespace for cluster on the hub,
// waits until its RBAC is in force and returns the path of a kubeconfig of
// the hub with a token of the cluster's agent identity there: what a real
// hub gives each managed cluster's agent.
func (e *E2E) ClusterNamespace(cluster string) (string, error) {
	if err := e.applyOverlay(e.Hub, "cluster-namespace-"+cluster, "cluster-namespace", "namespace: "+cluster+"\n"); err != nil {
		return "", err
	}
	onHub := serviceAccountUser(cluster, AgentHubServiceAccount)
	if err := e.Hub.waitAllowed(e.ctx, onHub, authorizationv1.ResourceAttributes{
		Namespace: cluster, Verb: "patch", Group: "work.open-cluster-management.io", Resource: "manifestworks", Subresource: "status",
	}); err != nil {
		return "", err
	}
	return e.tokenKubeconfig(e.Hub, cluster, AgentHubServiceAccount)
}

// deployManaged applies deploy/cluster-namespace for c on the hub and
// deploy/agent on c, and writes the agent's two kubeconfigs.
func (e *E2E) deployManaged(c *Cluster) error {
	var err error
	if c.AgentHubKubeconfig, err = e.ClusterNamespace(c.Name); err != nil {
		return err
	}
	// The Deployment names the cluster by the flag appended last, as the
	// comment of deploy/agent/kustomization.yaml tells users to.
	agent := "replicas:\n  - name: work-agent\n    count: 0\n" +
		"patches:\n  - target: {kind: Deployment, name: work-agent}\n    patch: |-\n" +
		"      - op: add\n        path: /spec/template/spec/containers/0/args/-\n" +
		"        value: --spoke-cluster-name=" + c.Name + "\n"
	if err := e.applyOverlay(c, "agent-"+c.Name, "agent", agent); err != nil {
		return err
	}
	// Granted through the aggregated ClusterRole, the last to take effect.
	onManaged := serviceAccountUser(AgentLeaseNamespace, AgentServiceAccount)
	if err := c.waitAllowed(e.ctx, onManaged, authorizationv1.ResourceAttributes{
		Verb: "create", Group: "work.open-cluster-management.io", Resource: "appliedmanifestworks",
	}); err != nil {
		return err
	}
	c.WorkKubeconfig, err = e.tokenKubeconfig(c, AgentLeaseNamespace, AgentServiceAccount)
	return err
}

// applyOverlay writes a kustomization into the run folder that takes the
// base deploy/<base> with extra (kustomization YAML), and applies it to c
// with the test-bed kubectl.
func (e *E2E) applyOverlay(c *Cluster, name, base, extra string) error {
	dir, err := e.Run.Mkdir("deploy", name)
	if err != nil {
		return err
	}
	// kustomize takes bases outside the overlay's folder only by a relative
	// path, which must hold for the folders the links point to.
	from, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	to, err := filepath.EvalSymlinks(DeployBase(base))
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(from, to)
	if err != nil {
		return err
	}
	kustomization := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n" +
		"resources:\n  - " + filepath.ToSlash(rel) + "\n" + extra
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(kustomization), 0o644); err != nil {
		return err
	}
	if _, err := e.Kubectl(c.Name, "apply", "-k", dir); err != nil {
		return fmt.Errorf("framework: apply deploy/%s to %s: %w", base, c.Name, err)
	}
	return nil
}

func serviceAccountUser(namespace, name string) string {
	return "system:serviceaccount:" + namespace + ":" + name
}

// waitAllowed waits until a SubjectAccessReview allows user the attributes.
func (c *Clients) waitAllowed(ctx context.Context, user string, attrs authorizationv1.ResourceAttributes) error {
	if err := c.WaitAccess(ctx, rbacTimeout, user, attrs, true); err != nil {
		return fmt.Errorf("framework: after applying deploy/: %w", err)
	}
	return nil
}

// WaitAccess waits, up to timeout, until a SubjectAccessReview on c of
// user and the attributes answers allowed: RBAC applied a moment ago takes
// effect once the API server's authorizer has seen it.
func (c *Clients) WaitAccess(ctx context.Context, timeout time.Duration, user string, attrs authorizationv1.ResourceAttributes, allowed bool) error {
	review := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
		User: user, ResourceAttributes: &attrs,
	}}
	var last string
	err := poll(ctx, timeout, func(ctx context.Context) (bool, error) {
		got, err := c.Kube.AuthorizationV1().SubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
		if err != nil {
			last = err.Error()
			return false, nil
		}
		last = fmt.Sprintf("allowed %v %s", got.Status.Allowed, got.Status.Reason)
		return got.Status.Allowed == allowed, nil
	})
	if err != nil {
		return fmt.Errorf("%s may %s %s in %q: want allowed %v, last answer %s: %w",
			user, attrs.Verb, strings.Trim(attrs.Resource+"/"+attrs.Subresource, "/"), attrs.Namespace, allowed, last, err)
	}
	return nil
}

// tokenKubeconfig writes a kubeconfig of c that authenticates with a fresh
// token of ServiceAccount namespace/name, and returns its path.
func (e *E2E) tokenKubeconfig(c *Cluster, namespace, name string) (string, error) {
	data, err := e.TokenKubeconfig(c, namespace, name, nil)
	if err != nil {
		return "", err
	}
	path := e.Run.Join(c.Name + "." + namespace + "-" + name + ".kubeconfig")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return "", err
	}
	return path, nil
}

// TokenKubeconfig returns a kubeconfig of c that authenticates with a new
// token of ServiceAccount namespace/name, valid for longer than any run. A
// token bound to an object (a Secret of the namespace, say) stops working when
// that object is deleted: a revoked credential.
func (e *E2E) TokenKubeconfig(c *Cluster, namespace, name string, bound *authenticationv1.BoundObjectReference) ([]byte, error) {
	expiry := int64(tokenLifetime / time.Second)
	token, err := c.Kube.CoreV1().ServiceAccounts(namespace).CreateToken(e.ctx, name,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &expiry, BoundObjectRef: bound}},
		metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("framework: token of %s/%s on %s: %w", namespace, name, c.Name, err)
	}
	cfg, err := clientcmd.LoadFromFile(c.Kubeconfig)
	if err != nil {
		return nil, err
	}
	user := namespace + "-" + name
	cfg.AuthInfos = map[string]*clientcmdapi.AuthInfo{user: {Token: token.Status.Token}}
	for _, ctx := range cfg.Contexts {
		ctx.AuthInfo = user
	}
	return clientcmd.Write(*cfg)
}
