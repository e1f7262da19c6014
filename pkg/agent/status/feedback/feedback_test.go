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
			name:  "deployment well-known, in OCM's order",
			obj:   deploymentJSON,
			rules: []workv1.FeedbackRule{wellKnownRule},
			want: []workv1.FeedbackValue{
				val("ReadyReplicas", i(2)), val("Replicas", i(3)), val("AvailableReplicas", i(2)),
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
				val("NumberReady", i(4)), val("DesiredNumberScheduled", i(5)), val("NumberAvailable", i(4)),
			},
		},
		{
			name:     "statefulset has no well-known status, as in OCM",
			obj:      statefulSetJSON,
			rules:    []workv1.FeedbackRule{wellKnownRule},
			problems: []string{"cannot find the wellknown statuses for resource with gvk apps/v1, Kind=StatefulSet"},
		},
		{
			name:     "replicaset has no well-known status, as in OCM",
			obj:      replicaSetJSON,
			rules:    []workv1.FeedbackRule{wellKnownRule},
			problems: []string{"cannot find the wellknown statuses for resource with gvk apps/v1, Kind=ReplicaSet"},
		},
		{
			name:     "well-known table is keyed by version too",
			obj:      strings.Replace(deploymentJSON, `"apps/v1"`, `"apps/v1beta2"`, 1),
			rules:    []workv1.FeedbackRule{wellKnownRule},
			problems: []string{"cannot find the wellknown statuses for resource with gvk apps/v1beta2, Kind=Deployment"},
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
			want:  []workv1.FeedbackValue{val("PodReady", s("False")), val("PodPhase", s("Running"))},
		},
		{
			name:     "custom resource has no well-known status",
			obj:      widgetJSON,
			rules:    []workv1.FeedbackRule{wellKnownRule},
			problems: []string{"cannot find the wellknown statuses for resource with gvk example.com/v1alpha1, Kind=Widget"},
		},
		{
			name:     "well-known table is keyed by group, not only kind",
			obj:      lookalikeJSON,
			rules:    []workv1.FeedbackRule{wellKnownRule},
			problems: []string{"cannot find the wellknown statuses for resource with gvk example.com/v1, Kind=Deployment"},
		},
		{
			name:  "well-known values are typed as found, as in OCM",
			obj:   brokenDeploymentJSON,
			rules: []workv1.FeedbackRule{wellKnownRule},
			want:  []workv1.FeedbackValue{val("Replicas", s("three"))},
			problems: []string{
				"the type float64 of the value for ReadyReplicas is not found",
				"the type map[string]interface {} of the value for AvailableReplicas is not found",
			},
		},
		{
			name: "json paths of every scalar type, with and without braces, in rule order",
			obj:  deploymentJSON,
			rules: []workv1.FeedbackRule{paths(
				"isAvailable", `.status.conditions[?(@.type=="Available")].status`,
				"generation", "{.status.observedGeneration}",
				"paused", ".spec.paused",
				"app", ".metadata.labels.app",
			)},
			want: []workv1.FeedbackValue{
				val("isAvailable", s("True")), val("generation", i(2)),
				val("paused", b(false)), val("app", s("hello")),
			},
		},
		{
			name:  "custom resource scalars",
			obj:   widgetJSON,
			rules: []workv1.FeedbackRule{paths("healthy", ".status.healthy", "size", ".status.size", "phase", ".status.phase")},
			want:  []workv1.FeedbackValue{val("healthy", b(true)), val("size", i(12)), val("phase", s("Ready"))},
		},
		{
			name:  "json paths and well-known together keep rule order",
			obj:   podJSON,
			rules: []workv1.FeedbackRule{paths("restarts", `.status.containerStatuses[?(@.name=="web")].restartCount`), wellKnownRule},
			want: []workv1.FeedbackValue{
				val("restarts", i(4)), val("PodReady", s("False")), val("PodPhase", s("Running")),
			},
		},
		{
			name:     "map without the gate is a problem",
			obj:      widgetJSON,
			rules:    []workv1.FeedbackRule{paths("owner", ".status.owner")},
			problems: []string{"the type map[string]interface {} of the value for owner is not found"},
		},
		{
			name:  "without the gate several matches report the first as a scalar",
			obj:   widgetJSON,
			rules: []workv1.FeedbackRule{paths("each", ".status.endpoints[*]", "restarts", ".status.restarts[*]")},
			want:  []workv1.FeedbackValue{val("each", s("10.0.0.1"))},
		},
		{
			name:  "without the gate a list or a fraction is a problem",
			obj:   widgetJSON,
			rules: []workv1.FeedbackRule{paths("endpoints", ".status.endpoints", "score", ".status.score")},
			problems: []string{
				"the type []interface {} of the value for endpoints is not found",
				"the type float64 of the value for score is not found",
			},
		},
		{
			name: "non-scalars and several matches become compact JsonRaw with the gate",
			obj:  widgetJSON,
			rules: []workv1.FeedbackRule{paths("owner", ".status.owner", "endpoints", ".status.endpoints", "each", ".status.endpoints[*]",
				"score", ".status.score", "conditions", ".status.conditions")},
			opts: Options{RawJSON: true},
			want: []workv1.FeedbackValue{
				val("owner", raw(`{"contact":"ops@example.com","team":"blue"}`)),
				val("endpoints", raw(`["10.0.0.1","10.0.0.2"]`)),
				val("each", raw(`["10.0.0.1","10.0.0.2"]`)),
				val("score", raw(`0.75`)),
			},
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
			problems: []string{"the length of returned json raw string for name owner is larger than the maximum length 30"},
		},
		{
			name:     "default limit applies when MaxJSONRawLength is unset",
			obj:      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"k":"` + strings.Repeat("x", 1100) + `"}}`,
			rules:    []workv1.FeedbackRule{paths("data", ".data")},
			opts:     Options{RawJSON: true},
			problems: []string{"the length of returned json raw string for name data is larger than the maximum length 1024"},
		},
		{
			name:  "missing field, unmatched filter and null are skipped, not problems",
			obj:   widgetJSON,
			rules: []workv1.FeedbackRule{paths("x", ".status.x", "degraded", `.status.conditions[?(@.type=="Degraded")].status`, "note", ".status.note", "size", ".status.size")},
			want:  []workv1.FeedbackValue{val("size", i(12))},
		},
		{
			name:     "invalid path gives the parse error",
			obj:      deploymentJSON,
			rules:    []workv1.FeedbackRule{paths("bad", ".status.conditions[?(@.type==")},
			problems: []string{`failed to parse json path .status.conditions[?(@.type== of bad with error: unterminated filter`},
		},
		{
			name:     "unclosed brace gives the parse error",
			obj:      deploymentJSON,
			rules:    []workv1.FeedbackRule{paths("bad", "{.status.replicas")},
			problems: []string{`failed to parse json path {.status.replicas of bad with error: unclosed action`},
		},
		{
			name:     "path that cannot be evaluated on the object",
			obj:      deploymentJSON,
			rules:    []workv1.FeedbackRule{paths("bad", ".status.replicas[0]")},
			problems: []string{`failed to find value for bad with error: int64 is not array or slice`},
		},
		{
			name:  "unknown rule type",
			obj:   deploymentJSON,
			rules: []workv1.FeedbackRule{{Type: "Magic"}, wellKnownRule},
			want: []workv1.FeedbackValue{
				val("ReadyReplicas", i(2)), val("Replicas", i(3)), val("AvailableReplicas", i(2)),
			},
			problems: []string{`unknown feedback rule type "Magic"`},
		},
		{
			name:     "duplicate name keeps the first value",
			obj:      deploymentJSON,
			rules:    []workv1.FeedbackRule{wellKnownRule, paths("Replicas", ".spec.replicas")},
			want:     []workv1.FeedbackValue{val("ReadyReplicas", i(2)), val("Replicas", i(3)), val("AvailableReplicas", i(2))},
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
				`version set in the path old is not matched for the related resource`,
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
		val("ReadyReplicas", i(2)), val("Replicas", i(3)), val("AvailableReplicas", i(2)), val("score", i(3)),
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

// Every well-known path in the table must parse, and the kinds and names
// must stay OCM's.
func TestWellKnownTable(t *testing.T) {
	names := map[string][]string{}
	for gvk, entries := range wellKnownStatus {
		for _, wk := range entries {
			_, err := find(map[string]interface{}{}, wk.Path)
			assert.NoError(t, err, "%s %s", gvk, wk.Name)
			names[gvk.String()] = append(names[gvk.String()], wk.Name)
		}
	}
	assert.Equal(t, map[string][]string{
		"apps/v1, Kind=Deployment": {"ReadyReplicas", "Replicas", "AvailableReplicas"},
		"apps/v1, Kind=DaemonSet":  {"NumberReady", "DesiredNumberScheduled", "NumberAvailable"},
		"batch/v1, Kind=Job":       {"JobComplete", "JobSucceeded"},
		"/v1, Kind=Pod":            {"PodReady", "PodPhase"},
	}, names)
}
