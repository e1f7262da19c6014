package feedback

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

const deploymentJSON = `{
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "hello", "namespace": "default", "labels": {"app": "hello"}},
  "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "hello"}}, "paused": false},
  "status": {
    "observedGeneration": 2, "replicas": 3, "updatedReplicas": 3,
    "readyReplicas": 2, "availableReplicas": 2, "unavailableReplicas": 1,
    "conditions": [
      {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"},
      {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}
    ]
  }
}`

// A Deployment whose pods are not ready yet: no readyReplicas/availableReplicas.
const newDeploymentJSON = `{
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "fresh", "namespace": "default"},
  "status": {"replicas": 1, "unavailableReplicas": 1}
}`

const jobJSON = `{
  "apiVersion": "batch/v1", "kind": "Job",
  "metadata": {"name": "pi", "namespace": "default"},
  "status": {
    "succeeded": 1, "ready": 0,
    "conditions": [
      {"type": "SuccessCriteriaMet", "status": "True"},
      {"type": "Complete", "status": "True", "lastTransitionTime": "2024-01-01T00:00:00Z"}
    ]
  }
}`

const runningJobJSON = `{
  "apiVersion": "batch/v1", "kind": "Job",
  "metadata": {"name": "pi", "namespace": "default"},
  "status": {"active": 1, "ready": 1}
}`

const podJSON = `{
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "web-0", "namespace": "default"},
  "status": {
    "phase": "Running",
    "conditions": [
      {"type": "Initialized", "status": "True"},
      {"type": "Ready", "status": "False", "reason": "ContainersNotReady"},
      {"type": "PodScheduled", "status": "True"}
    ],
    "containerStatuses": [
      {"name": "web", "ready": false, "restartCount": 4},
      {"name": "sidecar", "ready": true, "restartCount": 0}
    ]
  }
}`

const statefulSetJSON = `{
  "apiVersion": "apps/v1", "kind": "StatefulSet",
  "metadata": {"name": "db", "namespace": "default"},
  "status": {"replicas": 3, "readyReplicas": 3, "availableReplicas": 3,
             "currentReplicas": 2, "updatedReplicas": 1, "currentRevision": "db-7d9"}
}`

const daemonSetJSON = `{
  "apiVersion": "apps/v1", "kind": "DaemonSet",
  "metadata": {"name": "agent", "namespace": "kube-system"},
  "status": {"desiredNumberScheduled": 5, "numberReady": 4, "numberAvailable": 4, "numberMisscheduled": 0}
}`

const replicaSetJSON = `{
  "apiVersion": "apps/v1", "kind": "ReplicaSet",
  "metadata": {"name": "hello-5d8", "namespace": "default"},
  "status": {"replicas": 2, "readyReplicas": 1, "availableReplicas": 1}
}`

const widgetJSON = `{
  "apiVersion": "example.com/v1alpha1", "kind": "Widget",
  "metadata": {"name": "w1", "namespace": "default"},
  "status": {
    "phase": "Ready", "healthy": true, "score": 0.75, "size": 12, "note": null,
    "endpoints": ["10.0.0.1", "10.0.0.2"],
    "owner": {"team": "blue", "contact": "ops@example.com"}
  }
}`

// A Widget of another group with a Deployment-looking status.
const lookalikeJSON = `{
  "apiVersion": "example.com/v1", "kind": "Deployment",
  "metadata": {"name": "not-apps"},
  "status": {"readyReplicas": 1}
}`

// A Deployment whose status has the wrong types (e.g. written by a broken controller).
const brokenDeploymentJSON = `{
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "broken"},
  "status": {"replicas": "three", "readyReplicas": 1.5, "availableReplicas": {"n": 1}}
}`

func object(t *testing.T, doc string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	require.NoError(t, u.UnmarshalJSON([]byte(doc)))
	return u
}

func i(n int64) workv1.FieldValue    { return workv1.FieldValue{Type: workv1.Integer, Integer: &n} }
func s(v string) workv1.FieldValue   { return workv1.FieldValue{Type: workv1.String, String: &v} }
func b(v bool) workv1.FieldValue     { return workv1.FieldValue{Type: workv1.Boolean, Boolean: &v} }
func raw(v string) workv1.FieldValue { return workv1.FieldValue{Type: workv1.JsonRaw, JsonRaw: &v} }

func val(name string, v workv1.FieldValue) workv1.FeedbackValue {
	return workv1.FeedbackValue{Name: name, Value: v}
}

var wellKnownRule = workv1.FeedbackRule{Type: workv1.WellKnownStatusType}

func paths(kv ...string) workv1.FeedbackRule {
	r := workv1.FeedbackRule{Type: workv1.JSONPathsType}
	for n := 0; n+1 < len(kv); n += 2 {
		r.JsonPaths = append(r.JsonPaths, workv1.JsonPath{Name: kv[n], Path: kv[n+1]})
	}
	return r
}

func TestEvaluate(t *testing.T) {
	cases := []struct {
		name     string
		obj      string
		rules    []workv1.FeedbackRule
		opts     Options
		want     []workv1.FeedbackValue
		problems []string
	}{
		{
			name:  "deployment well-known",
			obj:   deploymentJSON,
			rules: []workv1.FeedbackRule{wellKnownRule},
			want: []workv1.FeedbackValue{
				val("AvailableReplicas", i(2)), val("ReadyReplicas", i(2)), val("Replicas", i(3)),
			},
		},
		{
			name:  "deployment without ready pods leaves absent well-known values out silently",
			obj:   newDeploymentJSON,
			rules: []workv1.FeedbackRule{wellKnownRule},
			want:  []workv1.FeedbackValue{val("Replicas", i(1))},
		},
		{
			name:  "daemonset well-known",
			obj:   daemonSetJSON,
			rules: []workv1.FeedbackRule{wellKnownRule},
			want: []workv1.FeedbackValue{
				val("DesiredNumberScheduled", i(5)), val("NumberAvailable", i(4)), val("NumberReady", i(4)),
			},
		},
		{
			name:  "statefulset well-known",
			obj:   statefulSetJSON,
			rules: []workv1.FeedbackRule{wellKnownRule},
			want: []workv1.FeedbackValue{
				val("AvailableReplicas", i(3)), val("CurrentReplicas", i(2)), val("ReadyReplicas", i(3)),
				val("Replicas", i(3)), val("UpdatedReplicas", i(1)),
			},
		},
		{
			name:  "replicaset well-known",
			obj:   replicaSetJSON,
			rules: []workv1.FeedbackRule{wellKnownRule},
			want: []workv1.FeedbackValue{
				val("AvailableReplicas", i(1)), val("ReadyReplicas", i(1)), val("Replicas", i(2)),
			},
		},
		{
			name:  "completed job well-known",
			obj:   jobJSON,
			rules: []workv1.FeedbackRule{wellKnownRule},
			want:  []workv1.FeedbackValue{val("JobComplete", s("True")), val("JobSucceeded", i(1))},
		},
		{
			name:  "running job has no well-known values yet",
			obj:   runningJobJSON,
			rules: []workv1.FeedbackRule{wellKnownRule},
			want:  nil,
		},
		{
			name:  "pod well-known",
			obj:   podJSON,
			rules: []workv1.FeedbackRule{wellKnownRule},
			want:  []workv1.FeedbackValue{val("PodPhase", s("Running")), val("PodReady", s("False"))},
		},
		{
			name:     "custom resource has no well-known status",
			obj:      widgetJSON,
			rules:    []workv1.FeedbackRule{wellKnownRule},
			problems: []string{"no well-known status for Widget (group example.com)"},
		},
		{
			name:     "well-known table is keyed by group, not only kind",
			obj:      lookalikeJSON,
			rules:    []workv1.FeedbackRule{wellKnownRule},
			problems: []string{"no well-known status for Deployment (group example.com)"},
		},
		{
			name:  "well-known values with the wrong type are problems",
			obj:   brokenDeploymentJSON,
			rules: []workv1.FeedbackRule{wellKnownRule},
			problems: []string{
				"well-known value ReadyReplicas of Deployment is a fractional number, want Integer",
				"well-known value Replicas of Deployment is a String, want Integer",
				"well-known value AvailableReplicas of Deployment is a map, want Integer",
			},
		},
		{
			name: "json paths of every scalar type, with and without braces",
			obj:  deploymentJSON,
			rules: []workv1.FeedbackRule{paths(
				"isAvailable", `.status.conditions[?(@.type=="Available")].status`,
				"generation", "{.status.observedGeneration}",
				"paused", ".spec.paused",
				"app", ".metadata.labels.app",
			)},
			want: []workv1.FeedbackValue{
				val("app", s("hello")), val("generation", i(2)),
				val("isAvailable", s("True")), val("paused", b(false)),
			},
		},
		{
			name:  "custom resource scalars",
			obj:   widgetJSON,
			rules: []workv1.FeedbackRule{paths("healthy", ".status.healthy", "size", ".status.size", "phase", ".status.phase")},
			want:  []workv1.FeedbackValue{val("healthy", b(true)), val("phase", s("Ready")), val("size", i(12))},
		},
		{
			name:  "well-known and json paths together are sorted by name",
			obj:   podJSON,
			rules: []workv1.FeedbackRule{paths("restarts", `.status.containerStatuses[?(@.name=="web")].restartCount`), wellKnownRule},
			want: []workv1.FeedbackValue{
				val("PodPhase", s("Running")), val("PodReady", s("False")), val("restarts", i(4)),
			},
		},
		{
			name:  "map without the gate is a problem",
			obj:   widgetJSON,
			rules: []workv1.FeedbackRule{paths("owner", ".status.owner")},
			problems: []string{
				`path .status.owner of "owner" selects a map, not a scalar; the RawFeedbackJsonString feature gate allows it as JsonRaw`,
			},
		},
		{
			name:  "list, several matches and fractions without the gate are problems",
			obj:   widgetJSON,
			rules: []workv1.FeedbackRule{paths("endpoints", ".status.endpoints", "each", ".status.endpoints[*]", "score", ".status.score")},
			problems: []string{
				`path .status.endpoints of "endpoints" selects a list, not a scalar; the RawFeedbackJsonString feature gate allows it as JsonRaw`,
				`path .status.endpoints[*] of "each" selects 2 values, not a scalar; the RawFeedbackJsonString feature gate allows it as JsonRaw`,
				`path .status.score of "score" selects a fractional number, not a scalar; the RawFeedbackJsonString feature gate allows it as JsonRaw`,
			},
		},
		{
			name:  "non-scalars become compact JsonRaw with the gate",
			obj:   widgetJSON,
			rules: []workv1.FeedbackRule{paths("owner", ".status.owner", "endpoints", ".status.endpoints", "each", ".status.endpoints[*]", "score", ".status.score", "conditions", ".status.conditions")},
			opts:  Options{RawJSON: true},
			want: []workv1.FeedbackValue{
				val("each", raw(`["10.0.0.1","10.0.0.2"]`)),
				val("endpoints", raw(`["10.0.0.1","10.0.0.2"]`)),
				val("owner", raw(`{"contact":"ops@example.com","team":"blue"}`)),
				val("score", raw(`0.75`)),
			},
			problems: []string{`path .status.conditions of "conditions" matched nothing`},
		},
		{
			name:  "scalars stay typed with the gate",
			obj:   widgetJSON,
			rules: []workv1.FeedbackRule{paths("size", ".status.size")},
			opts:  Options{RawJSON: true},
			want:  []workv1.FeedbackValue{val("size", i(12))},
		},
		{
			name:     "JsonRaw over the limit is a problem, not a cut",
			obj:      widgetJSON,
			rules:    []workv1.FeedbackRule{paths("owner", ".status.owner", "endpoints", ".status.endpoints")},
			opts:     Options{RawJSON: true, MaxJSONRawLength: 30},
			want:     []workv1.FeedbackValue{val("endpoints", raw(`["10.0.0.1","10.0.0.2"]`))},
			problems: []string{`JsonRaw value of "owner" is 43 bytes, over the limit of 30 (--max-json-raw-length)`},
		},
		{
			name:  "default limit applies when MaxJSONRawLength is unset",
			obj:   `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"k":"` + strings.Repeat("x", 1100) + `"}}`,
			rules: []workv1.FeedbackRule{paths("data", ".data")},
			opts:  Options{RawJSON: true},
			problems: []string{
				`JsonRaw value of "data" is 1108 bytes, over the limit of 1024 (--max-json-raw-length)`,
			},
		},
		{
			name:  "missing field, unmatched filter and null are problems",
			obj:   deploymentJSON,
			rules: []workv1.FeedbackRule{paths("x", ".status.x", "degraded", `.status.conditions[?(@.type=="Degraded")].status`)},
			problems: []string{
				`path .status.x of "x" matched nothing`,
				`path .status.conditions[?(@.type=="Degraded")].status of "degraded" matched nothing`,
			},
		},
		{
			name:     "null is a problem",
			obj:      widgetJSON,
			rules:    []workv1.FeedbackRule{paths("note", ".status.note")},
			problems: []string{`path .status.note of "note" is null`},
		},
		{
			name:     "invalid path gives the parse error",
			obj:      deploymentJSON,
			rules:    []workv1.FeedbackRule{paths("bad", ".status.conditions[?(@.type==")},
			problems: []string{`path .status.conditions[?(@.type== of "bad": invalid JSONPath: unterminated filter`},
		},
		{
			name:     "unclosed brace gives the parse error",
			obj:      deploymentJSON,
			rules:    []workv1.FeedbackRule{paths("bad", "{.status.replicas")},
			problems: []string{`path {.status.replicas of "bad": invalid JSONPath: unclosed action`},
		},
		{
			name:     "path that cannot be evaluated on the object",
			obj:      deploymentJSON,
			rules:    []workv1.FeedbackRule{paths("bad", ".status.replicas[0]")},
			problems: []string{`path .status.replicas[0] of "bad": cannot be evaluated: int64 is not array or slice`},
		},
		{
			name:  "unknown rule type",
			obj:   deploymentJSON,
			rules: []workv1.FeedbackRule{{Type: "Magic"}, wellKnownRule},
			want: []workv1.FeedbackValue{
				val("AvailableReplicas", i(2)), val("ReadyReplicas", i(2)), val("Replicas", i(3)),
			},
			problems: []string{`unknown feedback rule type "Magic"`},
		},
		{
			name:     "duplicate name keeps the first value",
			obj:      deploymentJSON,
			rules:    []workv1.FeedbackRule{wellKnownRule, paths("Replicas", ".spec.replicas")},
			want:     []workv1.FeedbackValue{val("AvailableReplicas", i(2)), val("ReadyReplicas", i(2)), val("Replicas", i(3))},
			problems: []string{`value "Replicas" is produced more than once; the first is kept`},
		},
		{
			name: "version mismatch and missing name are problems",
			obj:  deploymentJSON,
			rules: []workv1.FeedbackRule{{Type: workv1.JSONPathsType, JsonPaths: []workv1.JsonPath{
				{Name: "old", Version: "v1beta1", Path: ".status.replicas"},
				{Name: "same", Version: "v1", Path: ".status.replicas"},
				{Path: ".status.replicas"},
			}}},
			want: []workv1.FeedbackValue{val("same", i(3))},
			problems: []string{
				`path .status.replicas of "old" is for version v1beta1, but the object was read as v1`,
				`path .status.replicas has no name`,
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			values, problems := Evaluate(object(t, tc.obj), tc.rules, tc.opts)
			assert.Equal(t, tc.want, values)
			assert.Equal(t, tc.problems, problems)
		})
	}
}

// Objects decoded with encoding/json carry whole numbers as float64.
func TestEvaluateWholeFloatIsInteger(t *testing.T) {
	var content map[string]interface{}
	require.NoError(t, json.Unmarshal([]byte(deploymentJSON), &content))
	obj := &unstructured.Unstructured{Object: content}

	values, problems := Evaluate(obj, []workv1.FeedbackRule{wellKnownRule, paths("score", ".spec.replicas")}, Options{})
	require.Empty(t, problems)
	assert.Equal(t, []workv1.FeedbackValue{
		val("AvailableReplicas", i(2)), val("ReadyReplicas", i(2)), val("Replicas", i(3)), val("score", i(3)),
	}, values)
}

func TestEvaluateNoObject(t *testing.T) {
	values, problems := Evaluate(nil, []workv1.FeedbackRule{wellKnownRule}, Options{})
	assert.Empty(t, values)
	assert.Equal(t, []string{"no object to read status feedback from"}, problems)

	values, problems = Evaluate(nil, nil, Options{})
	assert.Empty(t, values)
	assert.Empty(t, problems)
}

// Every well-known path in the table must parse, and the API names must stay.
func TestWellKnownTable(t *testing.T) {
	for gk, entries := range wellKnownStatus {
		for _, wk := range entries {
			_, err := find(map[string]interface{}{}, wk.path)
			assert.NoError(t, err, "%s %s", gk.kind, wk.name)
		}
	}
	names := func(group, kind string) []string {
		var out []string
		for _, wk := range wellKnownStatus[groupKind{group: group, kind: kind}] {
			out = append(out, wk.name)
		}
		return out
	}
	assert.Equal(t, []string{"ReadyReplicas", "Replicas", "AvailableReplicas"}, names("apps", "Deployment"))
	assert.Equal(t, []string{"NumberReady", "DesiredNumberScheduled", "NumberAvailable"}, names("apps", "DaemonSet"))
	assert.Equal(t, []string{"JobComplete", "JobSucceeded"}, names("batch", "Job"))
	assert.Equal(t, []string{"PodReady", "PodPhase"}, names("", "Pod"))
}
