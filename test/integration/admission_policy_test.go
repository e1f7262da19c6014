package integration

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	workadmission "github.com/manifestwork/work/pkg/admission"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/test/framework"
)

const (
	policyNamespace = "admission-policy"
	// policyLabel marks the namespaces the test binds the policy to, so that
	// the other tests of the package, sharing the API server, are unaffected.
	policyLabel = "manifestwork.test/admission-policy"
	policyUser  = "policy-user"
	executorSA  = "system:serviceaccount:default:executor1"
)

// loadPolicy reads a ValidatingAdmissionPolicy and its binding from the
// file of manifests/hub-policy.
func loadPolicy(t *testing.T, file string) (*admissionv1.ValidatingAdmissionPolicy, *admissionv1.ValidatingAdmissionPolicyBinding) {
	t.Helper()
	data, err := os.ReadFile(framework.RepoPath("manifests", "hub-policy", file))
	require.NoError(t, err)
	var policy *admissionv1.ValidatingAdmissionPolicy
	var binding *admissionv1.ValidatingAdmissionPolicyBinding
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		var meta metav1.TypeMeta
		require.NoError(t, yaml.Unmarshal(doc, &meta))
		switch meta.Kind {
		case "ValidatingAdmissionPolicy":
			policy = &admissionv1.ValidatingAdmissionPolicy{}
			require.NoError(t, yaml.UnmarshalStrict(doc, policy))
		case "ValidatingAdmissionPolicyBinding":
			binding = &admissionv1.ValidatingAdmissionPolicyBinding{}
			require.NoError(t, yaml.UnmarshalStrict(doc, binding))
		case "":
			// An empty document, e.g. comments only.
		default:
			t.Fatalf("unexpected kind %q in the policy YAML", meta.Kind)
		}
	}
	require.NotNil(t, policy, "no ValidatingAdmissionPolicy in the YAML")
	require.NotNil(t, binding, "no ValidatingAdmissionPolicyBinding in the YAML")
	require.Equal(t, policy.Name, binding.Spec.PolicyName)
	require.Equal(t, []admissionv1.ValidationAction{admissionv1.Deny}, binding.Spec.ValidationActions)
	return policy, binding
}

func rawManifest(t *testing.T, obj map[string]any) workv1.Manifest {
	t.Helper()
	raw, err := yaml.Marshal(obj)
	require.NoError(t, err)
	raw, err = yaml.YAMLToJSON(raw)
	require.NoError(t, err)
	return workv1.Manifest{RawExtension: runtime.RawExtension{Raw: raw}}
}

func policyConfigMap(t *testing.T, name string) workv1.Manifest {
	return rawManifest(t, map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"namespace": "default", "name": name},
		"data":     map[string]any{"a": "b"},
	})
}

func policyWork(name string, manifests ...workv1.Manifest) *workv1.ManifestWork {
	return &workv1.ManifestWork{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: policyNamespace},
		Spec:       workv1.ManifestWorkSpec{Workload: workv1.ManifestsTemplate{Manifests: manifests}},
	}
}

func withExecutor(w *workv1.ManifestWork) *workv1.ManifestWork {
	w.Spec.Executor = &workv1.ManifestWorkExecutor{Subject: workv1.ManifestWorkExecutorSubject{
		Type:           workv1.ExecutorSubjectTypeServiceAccount,
		ServiceAccount: &workv1.ManifestWorkSubjectServiceAccount{Namespace: "default", Name: "executor1"},
	}}
	return w
}

// refused checks err is an admission denial whose message holds each of parts.
func refused(err error, parts ...string) error {
	if err == nil {
		return errors.New("the work was admitted")
	}
	if !apierrors.IsInvalid(err) && !apierrors.IsForbidden(err) {
		return fmt.Errorf("not a denial: %w", err)
	}
	for _, p := range parts {
		if !bytes.Contains([]byte(err.Error()), []byte(p)) {
			return fmt.Errorf("message lacks %q: %w", p, err)
		}
	}
	return nil
}

// installPolicy creates the policy of file and its binding, bound to the
// namespaces labelled policyLabel, and namespace with that label; all go
// when t ends.
func installPolicy(t *testing.T, s *framework.APIServer, file, namespace string) {
	t.Helper()
	ctx := t.Context()
	policy, binding := loadPolicy(t, file)
	binding.Spec.MatchResources = &admissionv1.MatchResources{
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{policyLabel: "true"}},
	}

	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace, Labels: map[string]string{policyLabel: "true"}}}
	_, err := s.Kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = s.Kube.CoreV1().Namespaces().Delete(context.Background(), namespace, metav1.DeleteOptions{})
	})

	admission := s.Kube.AdmissionregistrationV1()
	_, err = admission.ValidatingAdmissionPolicies().Create(ctx, policy, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = admission.ValidatingAdmissionPolicies().Delete(context.Background(), policy.Name, metav1.DeleteOptions{})
	})
	_, err = admission.ValidatingAdmissionPolicyBindings().Create(ctx, binding, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = admission.ValidatingAdmissionPolicyBindings().Delete(context.Background(), binding.Name, metav1.DeleteOptions{})
	})
}

func TestAdmissionPolicy(t *testing.T) {
	s := server(t)
	ctx := t.Context()
	installPolicy(t, s, "manifestwork-policy.yaml", policyNamespace)

	adminWorks := s.Work.WorkV1().ManifestWorks(policyNamespace)
	const emptyMessage = "manifests should not be empty" // OCM's webhook's
	framework.Eventually(t, time.Minute, func() error {
		_, err := adminWorks.Create(ctx, policyWork("probe"), metav1.CreateOptions{})
		if err == nil {
			_ = adminWorks.Delete(ctx, "probe", metav1.DeleteOptions{})
		}
		return refused(err, emptyMessage)
	}, "the policy refuses an empty work")

	// The policy does not reach namespaces without the label.
	const unbound = policyNamespace + "-unbound"
	require.NoError(t, s.EnsureNamespaces(ctx, unbound))
	t.Cleanup(func() {
		_ = s.Kube.CoreV1().Namespaces().Delete(context.Background(), unbound, metav1.DeleteOptions{})
	})
	outside := policyWork("outside-policy")
	outside.Namespace = unbound
	_, err := s.Work.WorkV1().ManifestWorks(unbound).Create(ctx, outside, metav1.CreateOptions{})
	require.NoError(t, err, "a namespace without the label is not bound")
	require.NoError(t, s.Work.WorkV1().ManifestWorks(unbound).Delete(ctx, outside.Name, metav1.DeleteOptions{}))

	// A non-admin user that may write ManifestWorks in the namespace.
	rbac := s.Kube.RbacV1()
	_, err = rbac.Roles(policyNamespace).Create(ctx, &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: "work-editor"},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{workv1.GroupName}, Resources: []string{"manifestworks"},
			Verbs: []string{"get", "list", "create", "update", "delete"},
		}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	bindRole(t, s, "work-editor")
	_, config, err := s.UserKubeconfig(policyUser)
	require.NoError(t, err)
	userClient, err := workclient.NewForConfig(config)
	require.NoError(t, err)
	works := userClient.WorkV1().ManifestWorks(policyNamespace)

	// The API server's authorizer learns of the new binding from its
	// informers: until then the user is forbidden, not refused by the
	// policy.
	framework.Eventually(t, time.Minute, func() error {
		_, err := works.Create(ctx, policyWork("empty"), metav1.CreateOptions{})
		if apierrors.IsForbidden(err) && strings.Contains(err.Error(), "cannot create resource") {
			return err
		}
		return nil
	}, "the user may write works")
	_, err = works.Create(ctx, policyWork("empty"), metav1.CreateOptions{})
	require.NoError(t, refused(err, emptyMessage))

	_, err = works.Create(ctx, policyWork("duplicate", policyConfigMap(t, "a"), policyConfigMap(t, "b"), policyConfigMap(t, "a")), metav1.CreateOptions{})
	require.NoError(t, refused(err, "/ConfigMap/default/a", "more than once"))

	generated := rawManifest(t, map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"namespace": "default", "name": "x", "generateName": "x-"},
	})
	_, err = works.Create(ctx, policyWork("generated", policyConfigMap(t, "a"), generated), metav1.CreateOptions{})
	require.NoError(t, refused(err, "generateName must not be set in manifest"))

	unnamed := rawManifest(t, map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"namespace": "default"}})
	_, err = works.Create(ctx, policyWork("unnamed", policyConfigMap(t, "a"), unnamed), metav1.CreateOptions{})
	require.NoError(t, refused(err, "name must be set in manifest"))

	// The CRD refuses a manifest without kind (or apiVersion) before any
	// admission: manifests are embedded resources.
	kindless := rawManifest(t, map[string]any{"apiVersion": "v1", "metadata": map[string]any{"name": "k"}})
	_, err = works.Create(ctx, policyWork("kindless", policyConfigMap(t, "a"), kindless), metav1.CreateOptions{})
	require.NoError(t, refused(err, "spec.workload.manifests[1].kind: Required value"))

	noSA := withExecutor(policyWork("no-sa", policyConfigMap(t, "a")))
	noSA.Spec.Executor.Subject.ServiceAccount = nil
	_, err = works.Create(ctx, noSA, metav1.CreateOptions{})
	require.NoError(t, refused(err, "executor service account can not be nil"))

	_, err = works.Create(ctx, withExecutor(policyWork("executor", policyConfigMap(t, "a"))), metav1.CreateOptions{})
	require.NoError(t, refused(err, workadmission.ExecutorNotAllowed(policyUser, "default", "executor1", policyNamespace)),
		"the webhook's message: OCM's, and what to grant")

	// A valid work without executor is admitted; updating it to add the executor is refused too.
	plain, err := works.Create(ctx, policyWork("plain", policyConfigMap(t, "a")), metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = works.Update(ctx, withExecutor(plain), metav1.UpdateOptions{})
	require.NoError(t, refused(err, "cannot manipulate the Manifestwork with executor default/executor1"))

	_, err = rbac.Roles(policyNamespace).Create(ctx, &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: "execute-as-executor1"},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{workv1.GroupName}, Resources: []string{"manifestworks"},
			Verbs: []string{"execute-as"}, ResourceNames: []string{executorSA},
		}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	bindRole(t, s, "execute-as-executor1")
	framework.Eventually(t, time.Minute, func() error {
		_, err := works.Create(ctx, withExecutor(policyWork("executor", policyConfigMap(t, "a"))), metav1.CreateOptions{})
		return err
	}, "the user with execute-as may use the executor")

	// The grant is for executor1 only.
	other := withExecutor(policyWork("other-executor", policyConfigMap(t, "a")))
	other.Spec.Executor.Subject.ServiceAccount.Name = "executor2"
	_, err = works.Create(ctx, other, metav1.CreateOptions{})
	require.NoError(t, refused(err, "cannot manipulate the Manifestwork with executor default/executor2"))

	// An admin (system:masters) may use any executor.
	admin := withExecutor(policyWork("admin-executor", policyConfigMap(t, "a")))
	admin.Spec.Executor.Subject.ServiceAccount.Name = "executor2"
	_, err = adminWorks.Create(ctx, admin, metav1.CreateOptions{})
	require.NoError(t, err)

	// Changing the manifests of a work running as executor2 needs execute-as
	// on executor2; a metadata-only update needs none.
	got, err := adminWorks.Get(ctx, "admin-executor", metav1.GetOptions{})
	require.NoError(t, err)
	changed := got.DeepCopy()
	changed.Spec.Workload.Manifests = append(changed.Spec.Workload.Manifests, policyConfigMap(t, "b"))
	_, err = works.Update(ctx, changed, metav1.UpdateOptions{})
	require.NoError(t, refused(err, "cannot manipulate the Manifestwork with executor default/executor2"))
	got.Labels = map[string]string{"touched": "true"}
	_, err = works.Update(ctx, got, metav1.UpdateOptions{})
	assert.NoError(t, err, "a metadata-only update needs no execute-as")
}

// bindRole binds the Role in the policy namespace to the test user.
func bindRole(t *testing.T, s *framework.APIServer, role string) {
	t.Helper()
	_, err := s.Kube.RbacV1().RoleBindings(policyNamespace).Create(t.Context(), &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: role},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: role},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: policyUser}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
}
