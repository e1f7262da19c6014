package objectwatch

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/metrics"
)

func restarts(t *testing.T) float64 {
	return ct.CounterValue(t, metrics.WatchRestarts)
}

// A watch the API server refused (Forbidden) is restarted at once by
// RetryRefused, as after an RBAC change that grants it: counted in the
// metric, and its users are told once it works. Watches that work, or fail
// for another reason, are left alone; a refusal that goes on stays one
// failure, with the time it began, and its users are not told again.
func TestRetryRefusedRestartsForbiddenWatches(t *testing.T) {
	metrics.Register()
	client := newFakeClient()
	client.create(configMaps, object("ns1", "cm1"))
	client.fail(configMaps, apierrors.NewForbidden(configMaps.GroupResource(), "", fmt.Errorf("no RBAC")))
	client.fail(secrets, apierrors.NewNotFound(secrets.GroupResource(), ""))
	told := &ct.Calls{}
	e := startWith(t, client, Deps{OnWatchFailure: told.Add})
	e.tracker.SetUses("ns/uses-configmaps", everywhere(configMaps))
	e.tracker.SetUses("ns/uses-secrets", everywhere(secrets))
	e.tracker.SetUses("ns/uses-deployments", everywhere(deployments))
	e.waitSynced(t, deployments)
	require.Eventually(t, func() bool { return len(told.List()) == 2 }, timeout, tick, "both failing types' users are told")
	refused, failing := e.tracker.WatchFailure(Use{Resource: configMaps})
	require.True(t, failing)

	// Still refused: restarted, and the same failure goes on.
	before := restarts(t)
	assert.Equal(t, 1, e.tracker.RetryRefused(), "only the Forbidden one")
	assert.Equal(t, before+1, restarts(t))
	again, failing := e.tracker.WatchFailure(Use{Resource: configMaps})
	require.True(t, failing)
	assert.Equal(t, refused.Since, again.Since, "one failure, since when it began")
	assert.Len(t, told.List(), 2, "not told again")

	// Granted: the restarted watch lists and watches, its users hear of it.
	client.fail(configMaps, nil)
	assert.Equal(t, 1, e.tracker.RetryRefused())
	assert.Equal(t, before+2, restarts(t))
	e.waitSynced(t, configMaps)
	require.Eventually(t, func() bool { return len(told.List()) == 3 }, timeout, tick, "told that it works")
	assert.Equal(t, "ns/uses-configmaps", told.List()[2])
	_, failing = e.tracker.WatchFailure(Use{Resource: configMaps})
	assert.False(t, failing)

	assert.Equal(t, 0, e.tracker.RetryRefused(), "nothing is refused any more")
	assert.Equal(t, before+2, restarts(t))
	_, failing = e.tracker.WatchFailure(Use{Resource: secrets})
	assert.True(t, failing, "NotFound is not a matter of rights")
}
