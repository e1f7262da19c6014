package workwriter

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

var long = strings.Repeat("m", 2000) // a long condition message

func cond(typ, message string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: "R", Message: message,
		LastTransitionTime: metav1.Unix(1000, 0).Rfc3339Copy()}
}

func raw(name string, n int) workv1.FeedbackValue {
	return workv1.FeedbackValue{Name: name, Value: workv1.FieldValue{Type: workv1.JsonRaw, JsonRaw: ptr.To(`"` + strings.Repeat("j", n) + `"`)}}
}

func str(name string, n int) workv1.FeedbackValue {
	return workv1.FeedbackValue{Name: name, Value: workv1.FieldValue{Type: workv1.String, String: ptr.To(strings.Repeat("s", n))}}
}

// big is a status of two manifests with feedback values and long messages,
// about 9 KB of JSON.
func big() workv1.ManifestWorkStatus {
	manifest := func(i int32, name string, values ...workv1.FeedbackValue) workv1.ManifestCondition {
		return workv1.ManifestCondition{
			ResourceMeta:    workv1.ManifestResourceMeta{Ordinal: i, Version: "v1", Resource: "configmaps", Name: name, Namespace: "ns"},
			StatusFeedbacks: workv1.StatusFeedbackResult{Values: values},
			Conditions: []metav1.Condition{
				cond(workv1.ManifestApplied, long), cond(workv1.ManifestAvailable, "ok"), cond("StatusFeedbackSynced", long),
			},
		}
	}
	return workv1.ManifestWorkStatus{
		Conditions: []metav1.Condition{cond(workv1.WorkApplied, long), cond("Progressing", long)},
		ResourceStatus: workv1.ManifestResourceStatus{Manifests: []workv1.ManifestCondition{
			manifest(0, "a", raw("small", 100), str("s", 300), raw("large", 1000)),
			manifest(1, "b", raw("middle", 500), workv1.FeedbackValue{Name: "n", Value: workv1.FieldValue{Type: workv1.Integer, Integer: ptr.To[int64](7)}}),
		}},
	}
}

func size(t *testing.T, s workv1.ManifestWorkStatus) int {
	t.Helper()
	data, err := json.Marshal(s)
	require.NoError(t, err)
	return len(data)
}

// cutValues lists, by manifest, the names of the feedback values that were
// cut to stubs; shortened lists the types of the conditions whose message
// was shortened ("work/T" or "<manifest>/T").
func cutValues(s workv1.ManifestWorkStatus) (stubs []string, shortened []string) {
	for _, c := range s.Conditions {
		if strings.HasSuffix(c.Message, TrimmedMarker) {
			shortened = append(shortened, "work/"+c.Type)
		}
	}
	for _, m := range s.ResourceStatus.Manifests {
		for _, v := range m.StatusFeedbacks.Values {
			if isStub(v.Value) {
				stubs = append(stubs, m.ResourceMeta.Name+"/"+v.Name)
			}
		}
		for _, c := range m.Conditions {
			if strings.HasSuffix(c.Message, TrimmedMarker) {
				shortened = append(shortened, m.ResourceMeta.Name+"/"+c.Type)
			}
		}
	}
	return stubs, shortened
}

// The status is cut in a fixed order (JsonRaw values largest first, then
// the other values, then messages) only as far as needed; resourceMeta and
// the Applied, Available and Healthy conditions are never cut.
func TestFitOrder(t *testing.T) {
	full := size(t, big())
	cases := []struct {
		name          string
		limit         int
		wantStubs     []string
		wantShortened []string
		wantCondition string // message of StatusTrimmed; "" for none
	}{{
		name: "a status that fits is kept", limit: full + 1000,
	}, {
		name: "the largest JsonRaw value goes first", limit: full - 500,
		wantStubs:     []string{"a/large"},
		wantCondition: "1 JsonRaw feedback values and 0 other feedback values removed, 0 condition messages shortened.",
	}, {
		name: "then the other JsonRaw values, largest first", limit: full - 1000,
		wantStubs:     []string{"a/large", "b/middle"},
		wantCondition: "2 JsonRaw feedback values and 0 other feedback values removed, 0 condition messages shortened.",
	}, {
		name: "then the other values, largest first", limit: full - 1500,
		wantStubs:     []string{"a/small", "a/s", "a/large", "b/middle"},
		wantCondition: "3 JsonRaw feedback values and 1 other feedback values removed, 0 condition messages shortened.",
	}, {
		name: "then long messages, but not those of Applied, Available and Healthy", limit: full - 3000,
		wantStubs:     []string{"a/small", "a/s", "a/large", "b/middle", "b/n"},
		wantShortened: []string{"work/Progressing"},
		wantCondition: "3 JsonRaw feedback values and 2 other feedback values removed, 1 condition messages shortened.",
	}, {
		name: "a status that cannot fit loses all it may, and says so", limit: 1000,
		wantStubs:     []string{"a/small", "a/s", "a/large", "b/middle", "b/n"},
		wantShortened: []string{"work/Progressing", "a/StatusFeedbackSynced", "b/StatusFeedbackSynced"},
		wantCondition: "3 JsonRaw feedback values and 2 other feedback values removed, 3 condition messages shortened. " +
			"It is still larger: resourceMeta and the Applied, Available and Healthy conditions are never cut.",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := big()
			got := Fit(in, nil, 3, tc.limit)
			assert.Equal(t, big(), in, "the input is not changed")

			stubs, shortened := cutValues(got)
			assert.Equal(t, tc.wantStubs, stubs, "feedback values cut")
			assert.Equal(t, tc.wantShortened, shortened, "messages shortened")
			c := meta.FindStatusCondition(got.Conditions, TrimmedConditionType)
			if tc.wantCondition == "" {
				assert.Nil(t, c)
				assert.Equal(t, big(), got, "unchanged")
				return
			}
			require.NotNil(t, c)
			assert.Equal(t, metav1.ConditionTrue, c.Status)
			assert.Equal(t, ReasonTooLarge, c.Reason)
			assert.Equal(t, int64(3), c.ObservedGeneration)
			assert.True(t, strings.HasSuffix(c.Message, tc.wantCondition), c.Message)
			if !strings.Contains(tc.wantCondition, "still larger") {
				assert.LessOrEqual(t, size(t, got), tc.limit, "fits")
			}

			// What is never cut.
			for i, m := range got.ResourceStatus.Manifests {
				assert.Equal(t, big().ResourceStatus.Manifests[i].ResourceMeta, m.ResourceMeta)
				assert.Equal(t, long, meta.FindStatusCondition(m.Conditions, workv1.ManifestApplied).Message)
				assert.Equal(t, "ok", meta.FindStatusCondition(m.Conditions, workv1.ManifestAvailable).Message)
				for j, v := range m.StatusFeedbacks.Values {
					want := big().ResourceStatus.Manifests[i].StatusFeedbacks.Values[j]
					assert.Equal(t, want.Name, v.Name)
					assert.Equal(t, want.Value.Type, v.Value.Type)
				}
			}
			assert.Equal(t, long, meta.FindStatusCondition(got.Conditions, workv1.WorkApplied).Message)
		})
	}
}

// The condition is a function of the status Fit returns: trimming a trimmed
// status again, or writing back the trimmed status with another part
// changed, keeps it; a status that fits again clears it.
func TestFitCondition(t *testing.T) {
	limit := size(t, big()) - 1800
	trimmed := Fit(big(), nil, 3, limit)
	trimmedCondition := *meta.FindStatusCondition(trimmed.Conditions, TrimmedConditionType)
	small := big()
	for i := range small.ResourceStatus.Manifests {
		small.ResourceStatus.Manifests[i].StatusFeedbacks.Values = nil
	}

	cases := []struct {
		name     string
		status   workv1.ManifestWorkStatus
		previous *metav1.Condition // of the stored status
		want     *metav1.Condition // StatusTrimmed
	}{{
		name: "a trimmed status is kept as it is", status: trimmed, want: &trimmedCondition,
	}, {
		name: "the stored condition is kept when the status written lacks it",
		status: func() workv1.ManifestWorkStatus {
			s := *trimmed.DeepCopy()
			meta.RemoveStatusCondition(&s.Conditions, TrimmedConditionType)
			return s
		}(),
		previous: &trimmedCondition, want: &trimmedCondition,
	}, {
		name: "a status that fits again clears it",
		status: func() workv1.ManifestWorkStatus {
			s := *small.DeepCopy()
			old := trimmedCondition
			old.LastTransitionTime = metav1.Unix(1000, 0).Rfc3339Copy()
			s.Conditions = append(s.Conditions, old)
			return s
		}(),
		want: &metav1.Condition{Type: TrimmedConditionType, Status: metav1.ConditionFalse, Reason: ReasonFits,
			Message: "The status fits in the size limit (--max-status-size); nothing is trimmed.", ObservedGeneration: 3},
	}, {
		name: "a status that fits and never was trimmed has none", status: small,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Fit(tc.status, tc.previous, 3, limit)
			c := meta.FindStatusCondition(got.Conditions, TrimmedConditionType)
			if tc.want == nil {
				assert.Nil(t, c)
				return
			}
			require.NotNil(t, c)
			if tc.want.Status != trimmedCondition.Status {
				assert.NotEqual(t, metav1.Unix(1000, 0).Rfc3339Copy(), c.LastTransitionTime, "a transition")
				c.LastTransitionTime = metav1.Time{}
			}
			assert.Equal(t, *tc.want, *c)
			if tc.want.Status == metav1.ConditionTrue {
				assert.Equal(t, trimmed, got, "the same status, whoever writes it")
			}
		})
	}
}

func TestShorten(t *testing.T) {
	for _, s := range []string{strings.Repeat("a", 1000), strings.Repeat("é", 1000)} {
		got := workv1.Shorten(s, ShortMessageLength, TrimmedMarker)
		assert.LessOrEqual(t, len(got), ShortMessageLength)
		assert.True(t, strings.HasSuffix(got, TrimmedMarker))
		assert.True(t, strings.HasPrefix(s, strings.TrimSuffix(got, TrimmedMarker)), "a prefix, no rune split")
	}
}

// The cost Fit adds to every status write: of a status that fits, and of
// one that must be trimmed.
func BenchmarkFit(b *testing.B) {
	s := big()
	full := jsonSize(s)
	for _, bc := range []struct {
		name  string
		limit int
	}{{"fits", full + 1000}, {"trimmed", full - 3000}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Fit(s, nil, 1, bc.limit)
			}
		})
	}
}
