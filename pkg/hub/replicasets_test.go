package hub

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	"github.com/manifestwork/work/pkg/client/informers/externalversions"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
)

// fastBackoff checks again at once, so that tests do not wait.
var fastBackoff = wait.Backoff{Duration: time.Microsecond, Factor: 1, Steps: math.MaxInt32, Cap: time.Microsecond}

// logContext is a context whose logger writes Info lines into buf.
func logContext(t *testing.T, buf *bytes.Buffer) context.Context {
	return klog.NewContext(t.Context(), logr.FromSlogHandler(slog.NewTextHandler(buf, nil)))
}

// While the APIs are missing, the wait says once why, checks again, and
// ends when they are served.
func TestWaitForAPIsSaysOnceWhyItWaits(t *testing.T) {
	var buf bytes.Buffer
	calls := 0
	probe := func(context.Context) error {
		calls++
		if calls < 4 {
			return errors.New("the Placement CRD is not installed on the hub")
		}
		return nil
	}

	require.NoError(t, waitForAPIs(logContext(t, &buf), probe, fastBackoff))

	assert.Equal(t, 4, calls)
	logs := buf.String()
	assert.Equal(t, 1, strings.Count(logs, "ManifestWorkReplicaSets wait"), logs)
	assert.Contains(t, logs, "the Placement CRD is not installed on the hub")
	assert.Contains(t, logs, "starting the controller")
}

func TestWaitForAPIsServedAtOnceSaysNothing(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, waitForAPIs(logContext(t, &buf), func(context.Context) error { return nil }, fastBackoff))
	assert.Empty(t, buf.String())
}

func TestWaitForAPIsEndsWithItsContext(t *testing.T) {
	var buf bytes.Buffer
	ctx, cancel := context.WithCancel(logContext(t, &buf))
	calls := 0
	probe := func(context.Context) error {
		calls++
		if calls == 2 {
			cancel()
		}
		return errors.New("missing")
	}
	assert.ErrorIs(t, waitForAPIs(ctx, probe, fastBackoff), context.Canceled)
	assert.Equal(t, 2, calls)
}

// A hub that refuses the list of ControllerRevisions (OCM's ClusterManager)
// runs the controller without revisions, says why once in the log, without
// the word a refused request logs, and starts no informer for them; a hub
// that allows it gets the informer.
func TestWithRevisions(t *testing.T) {
	refusing := kubefake.NewClientset()
	refusing.PrependReactor("list", "controllerrevisions", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "controllerrevisions"}, "", errors.New("no"))
	})
	var buf bytes.Buffer
	var d replicaset.Deps
	assert.Nil(t, withRevisions(logContext(t, &buf), refusing, &d))
	assert.Nil(t, d.Revisions)
	assert.Contains(t, d.RevisionsOff, "may not list controllerrevisions (group apps)")
	assert.Equal(t, 1, strings.Count(buf.String(), "revisions are not recorded"))
	assert.NotContains(t, strings.ToLower(buf.String()), "forbidden")

	d = replicaset.Deps{}
	assert.NotNil(t, withRevisions(t.Context(), kubefake.NewClientset(), &d))
	assert.NotNil(t, d.Revisions)
	assert.Empty(t, d.RevisionsOff)
}

// A hub without the RolloutApproval CRD, or one that refuses the right to
// list approvals, leaves the controller without them and says why once;
// one that serves them gives it their informer.
func TestWithApprovals(t *testing.T) {
	for name, refusal := range map[string]struct {
		err  error
		says string
	}{
		"no CRD":    {apierrors.NewNotFound(schema.GroupResource{Group: "fleet.manifestwork.io", Resource: "rolloutapprovals"}, ""), "apply manifests/hub/fleet.manifestwork.io_rolloutapprovals.yaml"},
		"forbidden": {apierrors.NewForbidden(schema.GroupResource{Group: "fleet.manifestwork.io", Resource: "rolloutapprovals"}, "", errors.New("no")), "may not list rolloutapprovals"},
	} {
		t.Run(name, func(t *testing.T) {
			client := fake.NewSimpleClientset()
			client.PrependReactor("list", "rolloutapprovals", func(clienttesting.Action) (bool, runtime.Object, error) {
				return true, nil, refusal.err
			})
			var buf bytes.Buffer
			var d replicaset.Deps
			w := &wiring{client: client, informers: externalversions.NewSharedInformerFactory(client, 0)}
			assert.False(t, withApprovals(logContext(t, &buf), w, &d))
			assert.Nil(t, d.Approvals)
			assert.Contains(t, d.ApprovalsOff, refusal.says)
			assert.Equal(t, 1, strings.Count(buf.String(), "approval gates of replica sets stay closed"))
		})
	}
	client := fake.NewSimpleClientset()
	d := replicaset.Deps{}
	assert.True(t, withApprovals(t.Context(), &wiring{client: client, informers: externalversions.NewSharedInformerFactory(client, 0)}, &d))
	assert.NotNil(t, d.Approvals)
	assert.Empty(t, d.ApprovalsOff)
}

// A transient error is no answer: the probe asks again until the hub says
// whether it serves approvals.
func TestApprovalsProbeAsksUntilItGetsAnAnswer(t *testing.T) {
	for name, tc := range map[string]struct {
		last error
		says string
	}{
		"then served": {},
		"then no CRD": {apierrors.NewNotFound(schema.GroupResource{Group: "fleet.manifestwork.io", Resource: "rolloutapprovals"}, ""), "apply manifests/hub/"},
	} {
		t.Run(name, func(t *testing.T) {
			client := fake.NewSimpleClientset()
			calls := 0
			client.PrependReactor("list", "rolloutapprovals", func(clienttesting.Action) (bool, runtime.Object, error) {
				calls++
				if calls <= 2 {
					return true, nil, apierrors.NewServiceUnavailable("starting")
				}
				return tc.last != nil, nil, tc.last
			})
			got := approvalsOff(t.Context(), client, wait.Backoff{Duration: time.Millisecond, Factor: 1, Steps: 10})
			assert.Equal(t, 3, calls)
			if tc.says == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tc.says)
			}
		})
	}
}
