package apis_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/client/clientset/versioned/scheme"
)

// An object as OCM writes it decodes into our types, through the clientset's
// scheme, and encodes back to the same keys and values. Decoding is strict,
// so a key our types lack fails the test; so does a key they would add.
func TestOCMObjectsRoundTrip(t *testing.T) {
	t.Run("ManifestWorkReplicaSet", func(t *testing.T) {
		var mwrs workv1alpha1.ManifestWorkReplicaSet
		// metav1.Duration writes Go's form of a duration.
		roundTrip(t, "manifestworkreplicaset.yaml", &mwrs, map[string]any{
			"spec.placementRefs[0].rolloutStrategy.progressive.minSuccessTime":         "2m0s",
			"spec.placementRefs[1].rolloutStrategy.progressivePerGroup.minSuccessTime": "0s",
			"spec.placementRefs[2].rolloutStrategy.all.minSuccessTime":                 "0s",
		})

		progressive := mwrs.Spec.PlacementRefs[0].RolloutStrategy
		require.Equal(t, workv1alpha1.Progressive, progressive.Type)
		require.Equal(t, intstr.FromString("25%"), progressive.Progressive.MaxConcurrency)
		require.Equal(t, intstr.FromInt32(1), progressive.Progressive.MaxFailures)
		require.Equal(t, []workv1alpha1.MandatoryDecisionGroup{{GroupName: "canary"}, {GroupIndex: 1}},
			progressive.Progressive.MandatoryDecisionGroups.MandatoryDecisionGroups)
		require.Equal(t, intstr.FromString("10%"), mwrs.Spec.PlacementRefs[1].RolloutStrategy.ProgressivePerGroup.MaxFailures)
		require.Equal(t, workv1alpha1.Foreground, mwrs.Spec.CascadeDeletionPolicy)
		require.Equal(t, []string{workv1alpha1.ReplicaSetFinalizer}, mwrs.Finalizers)
		require.Equal(t, 6, mwrs.Status.Summary.Applied)
		require.Equal(t, "0/3", mwrs.Status.PlacementsSummary[1].AvailableDecisionGroups)
		for i, want := range []string{workv1alpha1.ConditionPlacementVerified, workv1alpha1.ConditionPlacementRolledOut, workv1alpha1.ConditionManifestworkApplied} {
			require.Equal(t, want, mwrs.Status.Conditions[i].Type)
		}
	})

	t.Run("PlacementDecision", func(t *testing.T) {
		var decision clusterv1beta1.PlacementDecision
		roundTrip(t, "placementdecision.yaml", &decision, nil)

		require.Equal(t, map[string]string{
			clusterv1beta1.PlacementLabel:          "production",
			clusterv1beta1.DecisionGroupIndexLabel: "1",
			clusterv1beta1.DecisionGroupNameLabel:  "eu",
		}, decision.Labels)
		require.Equal(t, []clusterv1beta1.ClusterDecision{
			{ClusterName: "eu-west-1"},
			{ClusterName: "eu-west-2", Score: 70},
		}, decision.Status.Decisions)
	})
}

// roundTrip decodes testdata/file into obj, encodes obj and compares the two
// documents. changed holds the values, by path, that encoding rewrites.
func roundTrip(t *testing.T, file string, obj runtime.Object, changed map[string]any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	require.NoError(t, err)

	// The clientset's scheme knows the kind.
	decoded, gvk, err := scheme.Codecs.UniversalDeserializer().Decode(data, nil, nil)
	require.NoError(t, err)
	require.IsType(t, obj, decoded, "%s decodes as %s", file, gvk)
	// Every key of the document has a field.
	require.NoError(t, yaml.UnmarshalStrict(data, obj))
	require.Equal(t, decoded, obj, "the scheme and a strict decode agree")

	var want map[string]any
	require.NoError(t, yaml.Unmarshal(data, &want))
	for path, value := range changed {
		setPath(t, want, path, value)
	}
	encoded, err := json.Marshal(obj)
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(encoded, &got))
	require.Equal(t, want, got)
}

// setPath sets a value at a path such as "spec.refs[0].name" in a decoded
// document, failing if the path does not lead to an existing value.
func setPath(t *testing.T, doc map[string]any, path string, value any) {
	t.Helper()
	var node any = doc
	var step string
	rest := path
	for rest != "" {
		step, rest = cutStep(rest)
		switch n := node.(type) {
		case map[string]any:
			require.Contains(t, n, step, path)
			if rest == "" {
				n[step] = value
				return
			}
			node = n[step]
		case []any:
			var i int
			require.NoError(t, json.Unmarshal([]byte(step), &i), path)
			require.Less(t, i, len(n), path)
			if rest == "" {
				n[i] = value
				return
			}
			node = n[i]
		default:
			t.Fatalf("%s: nothing to index at %q", path, step)
		}
	}
}

// cutStep splits the first key ("spec") or index ("[0]" gives "0") off a path.
func cutStep(path string) (step, rest string) {
	if path[0] == '[' {
		end := 1
		for path[end] != ']' {
			end++
		}
		step, rest = path[1:end], path[end+1:]
	} else {
		end := 0
		for end < len(path) && path[end] != '.' && path[end] != '[' {
			end++
		}
		step, rest = path[:end], path[end:]
	}
	if rest != "" && rest[0] == '.' {
		rest = rest[1:]
	}
	return step, rest
}
