package apply

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func TestFor(t *testing.T) {
	tests := []struct {
		strategyType workv1.UpdateStrategyType
		want         Strategy
	}{
		{strategyType: "", want: updateStrategy{}},
		{strategyType: workv1.UpdateStrategyTypeUpdate, want: updateStrategy{}},
		{strategyType: workv1.UpdateStrategyTypeCreateOnly, want: createOnlyStrategy{}},
		{strategyType: workv1.UpdateStrategyTypeServerSideApply, want: serverSideApplyStrategy{}},
		{strategyType: workv1.UpdateStrategyTypeReadOnly, want: readOnlyStrategy{}},
	}
	for _, tt := range tests {
		t.Run(string(tt.strategyType), func(t *testing.T) {
			got, err := For(tt.strategyType)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}

	t.Run("unknown type", func(t *testing.T) {
		_, err := For("Replace")
		var applyErr *Error
		require.ErrorAs(t, err, &applyErr)
		assert.Equal(t, workv1.ManifestAppliedReasonFailed, applyErr.Reason)
		assert.Equal(t, `unknown update strategy type "Replace"`, applyErr.Message)
	})
}

func TestErrorUnwraps(t *testing.T) {
	cause := errors.New("boom")
	err := error(&Error{Reason: workv1.ManifestAppliedReasonFailed, Message: "it failed", Err: cause})
	assert.EqualError(t, err, "it failed")
	assert.ErrorIs(t, err, cause)
}
