package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

var gadgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"}

// The health of a custom resource whose status another writer set right
// after the agent created it, before the first list of the watch of its
// type came back: that list holds the new status and no event will bring
// it, so the synced cache must have the work judged again. The order is
// issue 35's: a work delivers the Gadget CRD; once it is established, a
// ClusterRole aggregated to the agent grants gadgets; the work then adds
// Gadget g1 without status; its status is set to Ready=False right after
// the agent created it. The API server's priority and fairness holds the
// watch's first list back (429 with Retry-After, which client-go retries
// on its own, no error reaching the informer) until the status is set, as
// a busy API server did when the issue was found.
//
// It runs on cluster1: Gadgets are served there by this test only (the
// Gadget CRD of TestHealthOfCustomResources is cluster2's).
func TestHealthOfCustomResourceChangedBeforeFirstList(t *testing.T) {
	setup(t)
	runningAgent(t, "cluster1")
	c := env.Cluster("cluster1")
	ns := "e2e-health-gadget"

	crd := fixture.WidgetCRD()
	crd.Name = "gadgets.example.com"
	crd.Spec.Names = apiextensionsv1.CustomResourceDefinitionNames{Plural: "gadgets", Singular: "gadget", Kind: "Gadget", ListKind: "GadgetList"}
	g1 := fixture.Widget(ns, "g1", map[string]any{"size": int64(1)})
	g1.SetKind("Gadget")
	withG1 := fixture.NewWork("cluster1", "gadgets").WithManifest(fixture.Namespace(ns), crd, g1).Build()
	createWork(t, fixture.NewWork("cluster1", "gadgets").WithManifest(fixture.Namespace(ns), crd).Build())
	framework.Eventually(t, convergeTimeout, func() error {
		return c.WaitCRDsEstablished(t.Context(), time.Second, crd)
	}, "the work's Gadget CRD is established")

	grantAgent(t, "cluster1", "gadgets", "get", "list", "watch", "create", "update", "patch", "delete")
	// Runs before grantAgent's cleanup: the agent deletes g1 with the grant.
	t.Cleanup(func() { deleteWorkAndWait(t, "cluster1", "gadgets") })

	release := holdAgentLists(t, c, gadgets)
	updateWork(t, "cluster1", "gadgets", func(w *workv1.ManifestWork) { w.Spec.Workload = withG1.Spec.Workload })
	// The agent judged g1 from the API while its watch could not list it:
	// no status, nothing to judge.
	waitManifestHealth(t, "cluster1", "gadgets", 2, metav1.ConditionTrue, workv1.HealthyReasonNoHealthCheck, "Gadget exists")

	live := c.Dynamic.Resource(gadgets).Namespace(ns)
	obj, err := live.Get(t.Context(), "g1", metav1.GetOptions{})
	require.NoError(t, err)
	require.NoError(t, unstructured.SetNestedSlice(obj.Object, []any{map[string]any{
		"type": "Ready", "status": "False", "reason": "Broken", "message": "set by another writer",
		"lastTransitionTime": time.Now().UTC().Format(time.RFC3339),
	}}, "status", "conditions"))
	_, err = live.UpdateStatus(t.Context(), obj, metav1.UpdateOptions{})
	require.NoError(t, err)
	release()

	waitManifestHealth(t, "cluster1", "gadgets", 2, metav1.ConditionFalse, workv1.HealthyReasonDegraded,
		"Ready is False: Broken: set by another writer")
}

// holdAPF names the FlowSchema and priority level that hold the agent's
// lists back, and the user whose request occupies that level meanwhile.
const holdAPF = "e2e-hold-agent-lists"

// holdAgentLists has the API server of a managed cluster refuse, with 429
// and Retry-After, every list and watch of resource by the agent, until
// the returned release is called (or the test ends): a priority level of
// no concurrency, which priority and fairness still lets a request run in
// while none runs, is kept busy by a request of the test's whose body never
// comes (a SelfSubjectAccessReview, which any user may create). It waits
// until a list as the agent is refused.
func holdAgentLists(t *testing.T, c *framework.Cluster, resource schema.GroupVersionResource) (release func()) {
	t.Helper()
	fc := c.Kube.FlowcontrolV1()
	level := &flowcontrolv1.PriorityLevelConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: holdAPF},
		Spec: flowcontrolv1.PriorityLevelConfigurationSpec{
			Type: flowcontrolv1.PriorityLevelEnablementLimited,
			Limited: &flowcontrolv1.LimitedPriorityLevelConfiguration{
				NominalConcurrencyShares: ptr.To[int32](0), LendablePercent: ptr.To[int32](0), BorrowingLimitPercent: ptr.To[int32](0),
				LimitResponse: flowcontrolv1.LimitResponse{Type: flowcontrolv1.LimitResponseTypeReject},
			},
		},
	}
	_, err := fc.PriorityLevelConfigurations().Create(t.Context(), level, metav1.CreateOptions{})
	require.NoError(t, err)
	agentUser := "system:serviceaccount:" + framework.AgentLeaseNamespace + ":" + framework.AgentServiceAccount
	schema := &flowcontrolv1.FlowSchema{
		ObjectMeta: metav1.ObjectMeta{Name: holdAPF},
		Spec: flowcontrolv1.FlowSchemaSpec{
			PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: holdAPF},
			MatchingPrecedence:         10,
			Rules: []flowcontrolv1.PolicyRulesWithSubjects{{
				Subjects: []flowcontrolv1.Subject{{Kind: flowcontrolv1.SubjectKindServiceAccount, ServiceAccount: &flowcontrolv1.ServiceAccountSubject{
					Namespace: framework.AgentLeaseNamespace, Name: framework.AgentServiceAccount,
				}}},
				ResourceRules: []flowcontrolv1.ResourcePolicyRule{{
					Verbs: []string{"list", "watch"}, APIGroups: []string{resource.Group}, Resources: []string{resource.Resource},
					ClusterScope: true, Namespaces: []string{flowcontrolv1.NamespaceEvery},
				}},
			}, {
				Subjects: []flowcontrolv1.Subject{{Kind: flowcontrolv1.SubjectKindUser, User: &flowcontrolv1.UserSubject{Name: holdAPF}}},
				ResourceRules: []flowcontrolv1.ResourcePolicyRule{{
					Verbs: []string{"create"}, APIGroups: []string{"authorization.k8s.io"}, Resources: []string{"selfsubjectaccessreviews"},
					ClusterScope: true,
				}},
			}},
		},
	}
	_, err = fc.FlowSchemas().Create(t.Context(), schema, metav1.CreateOptions{})
	require.NoError(t, err)

	var busy *io.PipeWriter
	var done chan struct{}
	release = func() {
		if busy != nil {
			_ = busy.CloseWithError(errors.New("released"))
			<-done
			busy = nil
		}
		for _, err := range []error{
			fc.FlowSchemas().Delete(context.Background(), holdAPF, metav1.DeleteOptions{}),
			fc.PriorityLevelConfigurations().Delete(context.Background(), holdAPF, metav1.DeleteOptions{}),
		} {
			if !apierrors.IsNotFound(err) {
				require.NoError(t, err)
			}
		}
	}
	t.Cleanup(release)

	as := func(user string) *http.Client {
		cfg := rest.CopyConfig(c.Config)
		cfg.Impersonate = rest.ImpersonationConfig{UserName: user, Groups: []string{"system:authenticated"}}
		client, err := rest.HTTPClientFor(cfg)
		require.NoError(t, err)
		return client
	}
	holder, agent := as(holdAPF), as(agentUser)
	list := fmt.Sprintf("%s/apis/%s/%s/%s?limit=1", c.Config.Host, resource.Group, resource.Version, resource.Resource)
	review := c.Config.Host + "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"
	framework.Eventually(t, convergeTimeout, func() error {
		if busy == nil {
			body, w := io.Pipe()
			req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, review, body)
			if err != nil {
				return err
			}
			req.Header.Set("Content-Type", "application/json")
			busy, done = w, make(chan struct{})
			go func(done chan struct{}) {
				defer close(done)
				if resp, err := holder.Do(req); err == nil {
					_ = resp.Body.Close()
				}
			}(done)
		}
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, list, nil)
		if err != nil {
			return err
		}
		resp, err := agent.Do(req)
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests {
			// The API server may not have had the configuration when
			// the busy request came: send another.
			_ = busy.CloseWithError(errors.New("again"))
			<-done
			busy = nil
			return fmt.Errorf("a list as the agent answers %s", resp.Status)
		}
		return nil
	}, "the agent's lists of %s are held back", resource.Resource)
	return release
}
