package cloudevents

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// A watch from a version the history no longer holds is refused with 410
// Gone, so that the informer lists again.
func TestWatchHistory(t *testing.T) {
	s := newStore()
	for i := range historySize + 10 {
		s.put(&workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{Name: "w", Generation: int64(i)}})
	}
	_, err := s.watch("1", labels.Everything())
	assert.True(t, apierrors.IsResourceExpired(err), "got %v", err)

	from := s.version - 3
	w, err := s.watch(strconv.FormatUint(from, 10), labels.Everything())
	require.NoError(t, err)
	defer w.Stop()
	for range 3 {
		e := <-w.ResultChan()
		from++
		assert.Equal(t, strconv.FormatUint(from, 10), e.Object.(*workv1.ManifestWork).ResourceVersion)
	}
}
