package agent

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func TestDropManagedFields(t *testing.T) {
	work := &workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{Name: "w", ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "work-agent"}}}}
	out, err := dropManagedFields(work)
	require.NoError(t, err)
	assert.Nil(t, out.(*workv1.ManifestWork).ManagedFields)
	assert.Equal(t, "w", out.(*workv1.ManifestWork).Name)

	tombstone := cache.DeletedFinalStateUnknown{Key: "ns/w", Obj: work}
	out, err = dropManagedFields(tombstone)
	require.NoError(t, err)
	assert.Equal(t, tombstone, out, "passed on as it is")
}
