package eviction

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

func TestSyncRequeuesAtTheEndOfTheGracePeriod(t *testing.T) {
	applied := appliedWork(ourHub, agentID, ago(grace/4))
	f := newHarness(t, applied)
	syncCtx := ct.NewSyncContext(applied.Name)

	require.NoError(t, f.c.sync(t.Context(), syncCtx))

	next, ok := syncCtx.Q.Delay(applied.Name)
	require.True(t, ok, "no requeue")
	requeueAfter(t, grace-grace/4, next)
	assert.Empty(t, f.writes())
}

func TestSyncWithoutRequeue(t *testing.T) {
	applied := appliedWork(ourHub, agentID, nil)
	tests := map[string]struct {
		f   *harness
		key string
	}{
		"its work is on the hub":  {f: newHarness(t, applied, fixture.NewWork(fixture.Cluster, workName).Build()), key: applied.Name},
		"not in the cache (gone)": {f: newHarness(t, applied), key: "gone"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			syncCtx := ct.NewSyncContext(tt.key)

			require.NoError(t, tt.f.c.sync(t.Context(), syncCtx))

			assert.Empty(t, syncCtx.Q.Added)
			assert.Empty(t, tt.f.writes())
		})
	}
}

func TestSyncErrors(t *testing.T) {
	tests := map[string]struct {
		err         error
		wantErr     bool
		rateLimited bool
	}{
		"conflict: checked again":  {err: apierrors.NewConflict(workv1.Resource("appliedmanifestworks"), "x", errors.New("changed")), rateLimited: true},
		"not found: deleted":       {err: apierrors.NewNotFound(workv1.Resource("appliedmanifestworks"), "x")},
		"other errors: backed off": {err: errors.New("unreachable"), wantErr: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			applied := appliedWork(ourHub, agentID, nil)
			f := newHarness(t, applied)
			f.spoke.PrependReactor("patch", "appliedmanifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
				return true, nil, tt.err
			})
			syncCtx := ct.NewSyncContext(applied.Name)

			err := f.c.sync(t.Context(), syncCtx)

			assert.Equal(t, tt.wantErr, err != nil, "error: %v", err)
			if tt.rateLimited {
				assert.Equal(t, []any{applied.Name}, syncCtx.Q.RateLimited)
			} else {
				assert.Empty(t, syncCtx.Q.RateLimited)
			}
			assert.Empty(t, syncCtx.Q.Added)
		})
	}
}
