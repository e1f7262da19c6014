package e2e

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/pkg/startup/startuptest"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// OCM's operator, started on a fresh managed cluster with a Klusterlet as a
// user has it, renders the work agent's Deployment from the Klusterlet; the
// replacement page's switch, a patch of the Klusterlet's image followed by
// `kubectl rollout status`, rolls that Deployment to our image and
// completes on kwok. The Deployment keeps every argument, volume and
// variable OCM renders: only the image changes.
func TestOCMKlusterletOperatorRendersWorkAgent(t *testing.T) {
	e := setup(t)
	operator := framework.OCMOperatorBinary(t)
	hub := e.NewCluster(t, "ocmop-hub", 0)
	managed := e.NewCluster(t, "ocmop-cluster1", 1)
	const ocmImage = "quay.io/open-cluster-management/work:v1.0.0"
	k := e.StartKlusterletOperator(t, operator, hub, managed, framework.KlusterletOptions{WorkImage: ocmImage})

	status, reason, err := k.Condition(t.Context(), "HubConnectionDegraded")
	require.NoError(t, err)
	assert.Equal(t, "False", status, "the operator finds the hub credential working: %s", k.Conditions(t.Context()))
	assert.Equal(t, "HubConnectionFunctional", reason)

	klusterlet, err := managed.Dynamic.Resource(framework.KlusterletGVR).Get(t.Context(), framework.KlusterletName, metav1.GetOptions{})
	require.NoError(t, err)
	d, err := k.WorkAgent(t.Context())
	require.NoError(t, err)
	rendered := workAgentContainer(t, d)
	assert.Equal(t, ocmImage, rendered.Image)
	assert.Equal(t, []string{
		"/work", "agent",
		"--spoke-cluster-name=cluster1",
		"--workload-source-driver=kube",
		"--workload-source-config=/spoke/hub-kubeconfig/kubeconfig",
		"--agent-id=" + string(klusterlet.GetUID()),
		"--terminate-on-files=/spoke/hub-kubeconfig/kubeconfig",
		"--status-sync-interval=60s",
	}, rendered.Args, "the arguments of a Default-mode Klusterlet with one replica")
	assert.Empty(t, rendered.Command)
	assert.Equal(t, "klusterlet-work-sa", d.Spec.Template.Spec.ServiceAccountName)
	assert.Equal(t, map[string]string{
		"hub-kubeconfig-secret": "Secret " + framework.KlusterletHubSecret,
		"tmpdir":                "emptyDir",
	}, volumeSources(d), "volumes")
	assert.Equal(t, map[string]string{
		"hub-kubeconfig-secret": "/spoke/hub-kubeconfig",
		"tmpdir":                "/tmp",
	}, volumeMounts(rendered), "mounts")
	require.Len(t, rendered.Env, 1)
	assert.Equal(t, "POD_NAME", rendered.Env[0].Name)
	require.NotNil(t, rendered.Env[0].ValueFrom)
	require.NotNil(t, rendered.Env[0].ValueFrom.FieldRef)
	assert.Equal(t, "metadata.name", rendered.Env[0].ValueFrom.FieldRef.FieldPath)
	kubectlOn(t, managed, "-n", framework.KlusterletAgentNamespace, "rollout", "status", "deploy/"+framework.KlusterletWorkAgent, "--timeout=2m")

	// docs/replace-ocm-work-agent.md, "Switch". The operator rewrites the
	// Deployment a moment after the patch: `rollout status` run at once may
	// still see the previous Deployment, rolled out, and succeed at once. So
	// the switch waits for the image first.
	const ourImage = "quay.io/manifestwork/work:v0.1.0"
	kubectlOn(t, managed, "patch", "klusterlet", "klusterlet", "--type", "merge",
		"-p", `{"spec":{"workImagePullSpec":"`+ourImage+`"}}`)
	kubectlOn(t, managed, "-n", framework.KlusterletAgentNamespace, "wait", "deploy/"+framework.KlusterletWorkAgent,
		"--for=jsonpath={.spec.template.spec.containers[0].image}="+ourImage, "--timeout=1m")
	kubectlOn(t, managed, "-n", framework.KlusterletAgentNamespace, "rollout", "status", "deploy/"+framework.KlusterletWorkAgent, "--timeout=2m")

	switched, err := k.WorkAgent(t.Context())
	require.NoError(t, err)
	ours := workAgentContainer(t, switched)
	assert.Equal(t, ourImage, ours.Image, "the Klusterlet rolled its Deployment to our image")
	assert.Greater(t, switched.Generation, d.Generation)
	assert.Equal(t, switched.Generation, switched.Status.ObservedGeneration, "rolled out")
	assert.Equal(t, int32(1), switched.Status.UpdatedReplicas)
	assert.Equal(t, int32(1), switched.Status.AvailableReplicas)
	assert.Equal(t, rendered.Args, ours.Args, "the arguments stay OCM's")
	assert.Equal(t, rendered.Env, ours.Env)
	assert.Equal(t, volumeSources(d), volumeSources(switched))
	pods, err := managed.Kube.CoreV1().Pods(framework.KlusterletAgentNamespace).List(t.Context(), metav1.ListOptions{
		LabelSelector: "app=klusterlet-manifestwork-agent",
	})
	require.NoError(t, err)
	var images []string
	for _, p := range pods.Items {
		if p.DeletionTimestamp == nil {
			images = append(images, p.Spec.Containers[0].Image)
		}
	}
	assert.Equal(t, []string{ourImage}, images, "one pod, of our image")
}

// workAgentContainer is the one container of the work agent's Deployment.
func workAgentContainer(t *testing.T, d *appsv1.Deployment) corev1.Container {
	t.Helper()
	require.Len(t, d.Spec.Template.Spec.Containers, 1)
	return d.Spec.Template.Spec.Containers[0]
}

// volumeSources names the source of each volume of a Deployment's pod:
// "Secret <name>", "emptyDir" or "other".
func volumeSources(d *appsv1.Deployment) map[string]string {
	out := map[string]string{}
	for _, v := range d.Spec.Template.Spec.Volumes {
		switch {
		case v.Secret != nil:
			out[v.Name] = "Secret " + v.Secret.SecretName
		case v.EmptyDir != nil:
			out[v.Name] = "emptyDir"
		default:
			out[v.Name] = "other"
		}
	}
	return out
}

// volumeMounts maps each volume a container mounts to its path.
func volumeMounts(c corev1.Container) map[string]string {
	out := map[string]string{}
	for _, m := range c.VolumeMounts {
		out[m.Name] = m.MountPath
	}
	return out
}

// kubectlOn runs the test bed's kubectl against a cluster of the test's own,
// as a user would, and fails t if it fails.
func kubectlOn(t *testing.T, c *framework.Cluster, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(env.Bin, "kubectl"), args...)
	cmd.Env = []string{"KUBECONFIG=" + c.Kubeconfig, "HOME=" + t.TempDir()}
	began := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("kubectl %s (%s):\n%s", strings.Join(args, " "), time.Since(began).Round(time.Millisecond), out)
	require.NoError(t, err, "kubectl %s", strings.Join(args, " "))
	return string(out)
}

// ocmWorkWebhookConfig is the ValidatingWebhookConfiguration of OCM's work
// webhook.
const ocmWorkWebhookConfig = "manifestworkvalidators.admission.work.open-cluster-management.io"

// OCM's operator, started on a fresh hub with a ClusterManager as a user has
// it (the work controller turned on by its gate ManifestWorkReplicaSet),
// renders the work webhook's and the work controller's Deployments; the hub
// page's switch, a patch of the ClusterManager's image followed by `kubectl
// rollout status` of both, rolls them to our image and completes on kwok,
// with OCM's arguments kept.
func TestOCMClusterManagerOperatorRendersWorkHub(t *testing.T) {
	e := setup(t)
	operator := framework.OCMOperatorBinary(t)
	hub := e.NewCluster(t, "ocmop-hub", 1)
	const ocmImage = "quay.io/open-cluster-management/work:v1.0.0"
	m := e.StartClusterManagerOperator(t, operator, hub, framework.ClusterManagerOptions{
		WorkImage: ocmImage, WorkFeatureGates: []string{"ManifestWorkReplicaSet"},
	})
	names := []string{framework.ClusterManagerWorkWebhook, framework.ClusterManagerWorkController}
	rendered := map[string]*appsv1.Deployment{}
	for _, name := range names {
		d, err := m.Deployment(t.Context(), name)
		require.NoError(t, err)
		rendered[name] = d
		c := workAgentContainer(t, d)
		assert.Equal(t, ocmImage, c.Image, name)
		assert.Empty(t, c.Command, name)
	}
	webhook := workAgentContainer(t, rendered[framework.ClusterManagerWorkWebhook])
	assert.Equal(t, []string{"/work", "webhook-server", "port=9443", "--feature-gates=ManifestWorkReplicaSet=true"}, webhook.Args,
		"the release passes the port without dashes")
	assert.Equal(t, map[string]string{"webhook-secret": "Secret work-webhook-serving-cert"},
		volumeSources(rendered[framework.ClusterManagerWorkWebhook]))
	assert.Equal(t, map[string]string{"webhook-secret": "/tmp/k8s-webhook-server/serving-certs"}, volumeMounts(webhook))
	assert.Empty(t, webhook.Env)
	controller := workAgentContainer(t, rendered[framework.ClusterManagerWorkController])
	assert.Equal(t, []string{"/work", "manager"}, controller.Args, "the gate is not passed on")
	assert.Equal(t, map[string]string{"tmpdir": "emptyDir"}, volumeSources(rendered[framework.ClusterManagerWorkController]))
	assert.Equal(t, map[string]string{"tmpdir": "/tmp"}, volumeMounts(controller))
	require.Len(t, controller.Env, 1)
	assert.Equal(t, "POD_NAME", controller.Env[0].Name)
	framework.Eventually(t, time.Minute, func() error {
		s, err := hub.Kube.CoreV1().Secrets(framework.ClusterManagerNamespace).Get(t.Context(), "work-webhook-serving-cert", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if len(s.Data["tls.crt"]) == 0 || len(s.Data["tls.key"]) == 0 {
			return fmt.Errorf("keys %v", maps.Keys(s.Data))
		}
		return nil
	}, "the operator issues the webhook's serving certificate")
	// Once the Deployments are ready, the operator registers the webhook
	// with the hub's API server: through the Service, which kwok's API
	// server cannot reach, and failing closed.
	framework.Eventually(t, time.Minute, func() error {
		_, err := hub.Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations().Get(t.Context(), ocmWorkWebhookConfig, metav1.GetOptions{})
		return err
	}, "the operator registers the work webhook")
	config, err := hub.Kube.AdmissionregistrationV1().ValidatingWebhookConfigurations().Get(t.Context(), ocmWorkWebhookConfig, metav1.GetOptions{})
	require.NoError(t, err)
	require.Len(t, config.Webhooks, 1)
	wh := config.Webhooks[0]
	require.NotNil(t, wh.ClientConfig.Service)
	assert.Equal(t, framework.ClusterManagerNamespace+"/"+framework.ClusterManagerWorkWebhook, wh.ClientConfig.Service.Namespace+"/"+wh.ClientConfig.Service.Name)
	assert.Equal(t, framework.OCMWebhookPath, *wh.ClientConfig.Service.Path)
	assert.Equal(t, admissionregistrationv1.Fail, *wh.FailurePolicy)

	for _, name := range names {
		kubectlOn(t, hub, "-n", framework.ClusterManagerNamespace, "rollout", "status", "deploy/"+name, "--timeout=2m")
	}

	const ourImage = "quay.io/manifestwork/work:v0.1.0"
	kubectlOn(t, hub, "patch", "clustermanager", "cluster-manager", "--type", "merge",
		"-p", `{"spec":{"workImagePullSpec":"`+ourImage+`"}}`)
	for _, name := range names {
		kubectlOn(t, hub, "-n", framework.ClusterManagerNamespace, "wait", "deploy/"+name,
			"--for=jsonpath={.spec.template.spec.containers[0].image}="+ourImage, "--timeout=1m")
		kubectlOn(t, hub, "-n", framework.ClusterManagerNamespace, "rollout", "status", "deploy/"+name, "--timeout=2m")
	}
	for _, name := range names {
		d, err := m.Deployment(t.Context(), name)
		require.NoError(t, err)
		c := workAgentContainer(t, d)
		assert.Equal(t, ourImage, c.Image, name)
		assert.Equal(t, workAgentContainer(t, rendered[name]).Args, c.Args, "%s: the arguments stay OCM's", name)
		assert.Equal(t, volumeSources(rendered[name]), volumeSources(d), name)
		assert.Equal(t, d.Generation, d.Status.ObservedGeneration, name)
		assert.Equal(t, *d.Spec.Replicas, d.Status.UpdatedReplicas, name)
		assert.Equal(t, *d.Spec.Replicas, d.Status.AvailableReplicas, name)
	}
}

// ocmWorkControllerBinding is the ClusterRoleBinding OCM's operator renders
// for the work controller; its ClusterRole has the same name.
const ocmWorkControllerBinding = "open-cluster-management:" + framework.ClusterManagerName + "-work:controller"

// Our `work manager` runs replica sets with the rights of OCM's
// ClusterManager and nothing more. OCM's operator, on a fresh hub with the
// gate ManifestWorkReplicaSet, installs the hub's CRDs (Placements and
// replica sets among them) and renders the work controller's Deployment,
// its ServiceAccount and the ClusterRole bound to it. kwok runs no pods, so
// the manager runs here, with the Deployment's arguments (leader election
// on, its Lease in the ClusterRole too) and a token of that ServiceAccount,
// with the gate turned on. It creates a replica set's work in the cluster's
// namespace, writes its status, deletes the work with it, and is never
// refused; its /metrics answers 401, as OCM's does under those rights.
func TestOCMClusterManagerRBACRunsReplicaSets(t *testing.T) {
	e := setup(t)
	operator := framework.OCMOperatorBinary(t)
	hub := e.NewCluster(t, "ocmrbac-hub", 0)
	m := e.StartClusterManagerOperator(t, operator, hub, framework.ClusterManagerOptions{
		WorkImage: "quay.io/manifestwork/work:v0.1.0", WorkFeatureGates: []string{"ManifestWorkReplicaSet"},
	})
	ctx := t.Context()
	d, err := m.Deployment(ctx, framework.ClusterManagerWorkController)
	require.NoError(t, err)
	sa := d.Spec.Template.Spec.ServiceAccountName
	args := workAgentContainer(t, d).Args
	require.Equal(t, []string{"/work", "manager"}, args, "the rendered command line")
	framework.Eventually(t, time.Minute, func() error {
		b, err := hub.Kube.RbacV1().ClusterRoleBindings().Get(ctx, ocmWorkControllerBinding, metav1.GetOptions{})
		if err != nil {
			return err
		}
		want := rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Namespace: framework.ClusterManagerNamespace, Name: sa}
		if !slices.Contains(b.Subjects, want) || b.RoleRef.Name != ocmWorkControllerBinding {
			return fmt.Errorf("binds %s to %v", b.RoleRef.Name, b.Subjects)
		}
		return nil
	}, "the operator binds the work controller's ClusterRole to ServiceAccount %s", sa)
	for _, crd := range []string{"manifestworks.work.open-cluster-management.io", "manifestworkreplicasets.work.open-cluster-management.io",
		"placements.cluster.open-cluster-management.io", "placementdecisions.cluster.open-cluster-management.io"} {
		framework.Eventually(t, time.Minute, func() error {
			ok, err := hub.CRDEstablished(ctx, crd)
			if err == nil && !ok {
				err = fmt.Errorf("not established")
			}
			return err
		}, "the operator installs CRD %s", crd)
	}

	kubeconfig, err := e.TokenKubeconfig(hub, framework.ClusterManagerNamespace, sa, nil)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, os.WriteFile(path, kubeconfig, 0o600))
	manager := startOCMProcess(t, "manager-cm-rbac", nil,
		append(slices.Clone(args[1:]), "--feature-gates=ManifestWorkReplicaSet=true", "--kubeconfig="+path))

	const ns, placement, rs = "e2e-mwrs-rbac", "fleet", "web"
	require.NoError(t, hub.EnsureNamespaces(ctx, ns, "cluster1"))
	applyPlacement(t, hub, ns, placement, placement+"-decision-1", "cluster1")
	sets := hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(ns)
	// createSet creates the replica set, rolled out with All, its ConfigMap of color.
	createSet := func(color string) {
		_, err := sets.Create(ctx, &workv1alpha1.ManifestWorkReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: rs},
			Spec: workv1alpha1.ManifestWorkReplicaSetSpec{
				ManifestWorkTemplate: fixture.NewWork("x", "x").WithManifest(
					fixture.ConfigMap("default", rs, map[string]string{"color": color})).Build().Spec,
				PlacementRefs: []workv1alpha1.LocalPlacementReference{{Name: placement,
					RolloutStrategy: workv1alpha1.RolloutStrategy{Type: workv1alpha1.All}}},
			},
		}, metav1.CreateOptions{})
		require.NoError(t, err)
	}
	createSet("blue")

	works := hub.Work.WorkV1().ManifestWorks("cluster1")
	framework.Eventually(t, convergeTimeout, func() error {
		w, err := works.Get(ctx, rs, metav1.GetOptions{})
		if err != nil {
			return err
		}
		// OCM's labels, and ours: the hash of the revision it runs.
		want := map[string]string{workv1alpha1.ReplicaSetLabel: ns + "." + rs, workv1alpha1.PlacementNameLabel: placement}
		got := maps.Clone(w.Labels)
		hash := got[revision.HashLabel]
		delete(got, revision.HashLabel)
		if !maps.Equal(got, want) || len(hash) != 10 {
			return fmt.Errorf("labels %v, want %v and %s", w.Labels, want, revision.HashLabel)
		}
		return nil
	}, "the manager creates cluster1's work with OCM's labels and its revision's hash")
	framework.Eventually(t, convergeTimeout, func() error {
		got, err := sets.Get(ctx, rs, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if !slices.Contains(got.Finalizers, workv1alpha1.ReplicaSetFinalizer) {
			return fmt.Errorf("finalizers %v", got.Finalizers)
		}
		if got.Status.Summary.Total != 1 {
			return fmt.Errorf("summary %+v", got.Status.Summary)
		}
		if !apimeta.IsStatusConditionTrue(got.Status.Conditions, workv1alpha1.ConditionPlacementVerified) {
			return fmt.Errorf("conditions %+v", got.Status.Conditions)
		}
		// OCM's ClusterRole grants no right on ControllerRevisions: the
		// replica set says that its revisions are not recorded, and why.
		recorded := apimeta.FindStatusCondition(got.Status.Conditions, replicaset.ConditionRevisionsRecorded)
		if recorded == nil || recorded.Status != metav1.ConditionFalse || recorded.Reason != replicaset.ReasonForbidden ||
			!strings.Contains(recorded.Message, "may not list controllerrevisions") {
			return fmt.Errorf("RevisionsRecorded %+v", recorded)
		}
		return nil
	}, "the manager writes the replica set's finalizer and status")

	require.NoError(t, sets.Delete(ctx, rs, metav1.DeleteOptions{}))
	framework.Eventually(t, convergeTimeout, func() error {
		if _, err := works.Get(ctx, rs, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("work still there (%v)", err)
		}
		if _, err := sets.Get(ctx, rs, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("replica set still there (%v)", err)
		}
		return nil
	}, "the work goes with the replica set")
	var refused []string
	for _, line := range strings.Split(manager.Tail(100000), "\n") {
		if strings.Contains(strings.ToLower(line), "forbidden") {
			refused = append(refused, line)
		}
	}
	assert.Empty(t, refused, "the manager is never refused")

	// The ClusterManager's ServiceAccount may not create TokenReviews: a
	// scrape of /metrics gets 401 even with a token of every right, as from
	// OCM's own manager, the probes answer, and the log says why, once.
	token := serviceAccountToken(t, hub, "e2e-scraper", "cluster-admin")
	for range 3 {
		code, _ := getMetrics(t, "https://"+manager.SecureAddr+"/metrics", token)
		assert.Equal(t, http.StatusUnauthorized, code, "the token cannot be reviewed")
	}
	assert.Equal(t, http.StatusOK, httpsProbe(manager.SecureAddr))
	assert.Equal(t, http.StatusOK, startuptest.Status("http://"+manager.HealthAddr+"/readyz"))
	assert.Equal(t, 1, strings.Count(manager.Tail(100000), "may not create tokenreviews"), "said once")

	// deploy/ocm-hub grants the ServiceAccount of OCM's work controller
	// what revisions, approval gates and overrides need, beside the
	// RolloutApproval CRD; restarted, the manager records revisions.
	require.Equal(t, "work-controller-sa", sa, "the subject of deploy/ocm-hub")
	kubectlOn(t, hub, "apply", "-f", framework.RepoPath("manifests", "hub", "fleet.manifestwork.io_rolloutapprovals.yaml"))
	kubectlOn(t, hub, "apply", "-k", framework.DeployBase("ocm-hub"))
	user := "system:serviceaccount:" + framework.ClusterManagerNamespace + ":" + sa
	for _, attrs := range []authorizationv1.ResourceAttributes{
		{Verb: "list", Group: "apps", Resource: "controllerrevisions"},
		{Verb: "list", Group: "fleet.manifestwork.io", Resource: "rolloutapprovals"},
		{Verb: "list", Group: "fleet.manifestwork.io", Resource: "workoverrides"},
		{Verb: "patch", Group: "fleet.manifestwork.io", Resource: "workoverrides", Subresource: "status"},
		{Verb: "watch", Group: "cluster.open-cluster-management.io", Resource: "managedclusters"},
		{Verb: "watch", Resource: "namespaces"},
	} {
		require.NoError(t, hub.WaitAccess(t.Context(), time.Minute, user, attrs, true))
	}
	const approvalsOff = "approval gates of replica sets stay closed"
	off := strings.Count(manager.Tail(100000), approvalsOff)
	assert.Equal(t, 1, off, "without the CRD, the manager says once that approval gates stay closed")
	require.NoError(t, manager.Restart(convergeTimeout))
	createSet("green")
	t.Cleanup(func() { _ = sets.Delete(context.Background(), rs, metav1.DeleteOptions{}) })
	framework.Eventually(t, convergeTimeout, func() error {
		got, err := sets.Get(ctx, rs, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if c := apimeta.FindStatusCondition(got.Status.Conditions, replicaset.ConditionRevisionsRecorded); c == nil || c.Status != metav1.ConditionTrue {
			return fmt.Errorf("RevisionsRecorded %+v", c)
		}
		return nil
	}, "with deploy/ocm-hub, the manager records revisions")
	assert.Equal(t, off, strings.Count(manager.Tail(100000), approvalsOff), "restarted, approvals are on")
}
