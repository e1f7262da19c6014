package revision

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
)

func input(manifests ...string) Input {
	var in Input
	for _, m := range manifests {
		var mf workv1.Manifest
		mf.Raw = []byte(m)
		in.ManifestWorkTemplate.Workload.Manifests = append(in.ManifestWorkTemplate.Workload.Manifests, mf)
	}
	return in
}

// A hash depends on the content only: key order, spacing and number
// spelling do not count; it is the same from one release to the next.
func TestHash(t *testing.T) {
	base := `{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"1"},"spec":{"n":10000000000000001}}`
	for _, tc := range []struct {
		name string
		in   Input
		same bool
	}{
		{name: "same bytes", in: input(base), same: true},
		{name: "keys reordered, spaced", in: input(`{ "kind": "ConfigMap", "spec":{"n":10000000000000001}, "data": {"a":"1"}, "apiVersion": "v1" }`), same: true},
		{name: "a value differs", in: input(`{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"2"},"spec":{"n":10000000000000001}}`)},
		{name: "a big number differs in its last digit", in: input(`{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"1"},"spec":{"n":10000000000000002}}`)},
		{name: "another manifest", in: input(base, base)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := Hash(input(base))
			require.NoError(t, err)
			got, err := Hash(tc.in)
			require.NoError(t, err)
			assert.Len(t, got, 10)
			if tc.same {
				assert.Equal(t, want, got)
			} else {
				assert.NotEqual(t, want, got)
			}
		})
	}
	h, err := Hash(input(base))
	require.NoError(t, err)
	assert.Equal(t, "4ecba807bc", h, "the hash of a given template never changes")
	_, err = Hash(input(`{not json`))
	assert.Error(t, err)
}

func TestName(t *testing.T) {
	assert.Equal(t, "web-0123456789", Name("web", "0123456789"))
	long := Name(strings.Repeat("a", 253), "0123456789")
	assert.Len(t, long, 253)
	assert.True(t, strings.HasSuffix(long, "a-0123456789"))
}

func TestHistoryLimit(t *testing.T) {
	for _, tc := range []struct {
		value   *string
		want    int
		wantErr bool
	}{
		{value: nil, want: DefaultHistoryLimit},
		{value: ptr("3"), want: 3},
		{value: ptr(" 1 "), want: 1},
		{value: ptr("0"), want: DefaultHistoryLimit, wantErr: true},
		{value: ptr("-2"), want: DefaultHistoryLimit, wantErr: true},
		{value: ptr("ten"), want: DefaultHistoryLimit, wantErr: true},
	} {
		rs := &workv1alpha1.ManifestWorkReplicaSet{}
		if tc.value != nil {
			rs.Annotations = map[string]string{HistoryLimitAnnotation: *tc.value}
		}
		got, err := HistoryLimit(rs)
		assert.Equal(t, tc.want, got)
		assert.Equal(t, tc.wantErr, err != nil, "%v: %v", tc.value, err)
	}
}

// Decode reads back what Canonical wrote, as a ControllerRevision keeps it.
func TestDecodeRoundTrip(t *testing.T) {
	in := input(`{"kind":"ConfigMap","apiVersion":"v1"}`)
	in.ManifestWorkTemplate.DeleteOption = &workv1.DeleteOption{PropagationPolicy: workv1.DeletePropagationPolicyTypeOrphan}
	data, err := Canonical(in)
	require.NoError(t, err)
	cr := &appsv1.ControllerRevision{Data: runtime.RawExtension{Raw: data}}
	got, err := Decode(cr)
	require.NoError(t, err)
	assert.Equal(t, in.ManifestWorkTemplate.DeleteOption, got.ManifestWorkTemplate.DeleteOption)
	assert.JSONEq(t, `{"kind":"ConfigMap","apiVersion":"v1"}`, string(got.ManifestWorkTemplate.Workload.Manifests[0].Raw))
	h1, _ := Hash(in)
	h2, _ := Hash(got)
	assert.Equal(t, h1, h2)
}

func ptr(s string) *string { return &s }
