package objectwatch

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// While a failure lasts, the error it reports is a list's over a watch's:
// a reflector using watch-list streams makes a watch request and then a
// list on every retry, and a failure read between the two must not change
// its words (each change costs the works a status write). A watch error
// still replaces a list error once a list has succeeded, and the time the
// failure began is kept throughout.
func TestWatchFailureKeepsTheListError(t *testing.T) {
	listErr, watchErr, otherListErr := errors.New("cannot list"), errors.New("cannot watch"), errors.New("connection refused")
	type step struct {
		err  error // nil: the request succeeded
		list bool
	}
	cases := []struct {
		name  string
		steps []step
		want  error // nil: no failure
	}{
		{"watch, then list refused", []step{{watchErr, false}, {listErr, true}}, listErr},
		{"list refused, then the next watch", []step{{watchErr, false}, {listErr, true}, {watchErr, false}}, listErr},
		{"a later list error replaces a list error", []step{{listErr, true}, {otherListErr, true}}, otherListErr},
		{"only watch refused", []step{{nil, true}, {watchErr, false}, {nil, true}, {watchErr, false}}, watchErr},
		{"list allowed again, watch still refused", []step{{listErr, true}, {nil, true}, {watchErr, false}}, watchErr},
		{"a watch established clears it", []step{{listErr, true}, {nil, true}, {nil, false}}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			i := &gvrInformer{}
			var since time.Time // of the first failure
			for _, s := range tc.steps {
				switch {
				case s.err != nil:
					i.failed(context.Background(), s.err, s.list)
				case s.list:
					i.listed()
				default:
					i.watching()
				}
				if f := i.failure.Load(); f != nil && since.IsZero() {
					since = f.Since
				}
			}
			got := i.failure.Load()
			if tc.want == nil {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tc.want, got.Err)
			assert.Equal(t, since, got.Since, "since when is kept")
		})
	}
}
