package manifestwork

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/manifestwork/work/pkg/agent/apply/records"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

// strayNamespace is the Namespace team given a metadata.namespace, which a
// cluster-scoped kind does not have: the API server drops it.
func strayNamespace() runtime.Object {
	ns := fixture.Namespace("team")
	ns.Namespace = "stray"
	return ns
}

// Every identity of a manifest's object (its resourceMeta in the status, its
// record, the AppliedManifestWork entry, the watched scope, the
// manifestConfigs entry that applies) names it as the managed cluster does,
// as OCM's agent does: a cluster-scoped kind without the namespace its
// manifest gives it.
func TestPrepareNamesTheObjectAsTheClusterDoes(t *testing.T) {
	cases := []struct {
		name     string
		manifest runtime.Object
		config   workv1.ManifestConfigOption // matches the object
		wantMeta workv1.ManifestResourceMeta // but for group, version, kind
		wantErr  string
	}{{
		name:     "a namespaced manifest keeps its namespace",
		manifest: fixture.ConfigMap("team", "a", nil),
		config:   fixture.Config("", "configmaps", "team", "a"),
		wantMeta: workv1.ManifestResourceMeta{Resource: "configmaps", Namespace: "team", Name: "a"},
	}, {
		name:     "a cluster-scoped manifest has no namespace",
		manifest: fixture.Namespace("team"),
		config:   fixture.Config("", "namespaces", "", "team"),
		wantMeta: workv1.ManifestResourceMeta{Resource: "namespaces", Name: "team"},
	}, {
		name:     "a cluster-scoped manifest loses the namespace it carries, as OCM's agent names it",
		manifest: strayNamespace(),
		config:   fixture.Config("", "namespaces", "", "team"),
		wantMeta: workv1.ManifestResourceMeta{Resource: "namespaces", Name: "team"},
	}, {
		name:     "a namespaced manifest without namespace fails, its resource named",
		manifest: fixture.ConfigMap("", "a", nil),
		wantMeta: workv1.ManifestResourceMeta{Resource: "configmaps", Name: "a"},
		wantErr:  `ConfigMap "a" is namespaced but the manifest has no metadata.namespace`,
	}, {
		name:     "a manifest of an unknown kind keeps its namespace, as OCM's agent names it",
		manifest: fixture.Widget("team", "w", nil),
		wantMeta: workv1.ManifestResourceMeta{Namespace: "team", Name: "w"},
		wantErr:  `the server doesn't have a resource type "Widget"`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			work := fixture.NewWork(fixture.Cluster, "w").WithManifest(tc.manifest).WithConfig(tc.config).Build()
			e := newEnv(t, work)
			var meta workv1.ManifestResourceMeta
			p, err := e.c.prepare(work, work.Spec.Workload.Manifests[0], &meta)
			meta.Group, meta.Version, meta.Kind = "", "", ""
			assert.Equal(t, tc.wantMeta, meta, "the manifest's resourceMeta in the status")
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			gvr := schema.GroupVersionResource{Version: "v1", Resource: meta.Resource}
			assert.Equal(t, workv1.ResourceIdentifier{Resource: meta.Resource, Namespace: meta.Namespace, Name: meta.Name}, p.identifier(),
				"the AppliedManifestWork's entry and deleteOption's")
			assert.Equal(t, objectwatch.Use{Resource: gvr, Namespace: meta.Namespace}, p.use, "the watched scope")
			assert.Equal(t, records.ObjectID(gvr, meta.Namespace, meta.Name), p.id, "the record")
			assert.Equal(t, meta.Namespace, p.obj.GetNamespace(), "the object sent to the API server")
			require.NotNil(t, p.config, "the manifestConfigs entry that names the object")
			assert.Equal(t, tc.config.ResourceIdentifier, p.config.ResourceIdentifier)
		})
	}
}

// A manifest of a cluster-scoped kind that carries a namespace is applied
// without it and reported, and recorded for the AppliedManifestWork, under
// one name: the one without namespace. Were the two to differ, the pruning
// would take the applied object for one dropped from the work.
func TestAClusterScopedManifestWithANamespaceIsReportedAndRecordedWithout(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().WithManifest(strayNamespace()).Build()
	e := newEnv(t, work)

	require.NoError(t, e.c.reconcile(context.Background(), work))

	created, err := e.dynamic.Tracker().Get(ct.Namespaces, "", "team")
	require.NoError(t, err, "created at cluster scope")
	assert.NotEmpty(t, created)
	status := e.work(t).Status.ResourceStatus.Manifests
	require.Len(t, status, 1)
	meta := status[0].ResourceMeta
	assert.Equal(t, workv1.ManifestResourceMeta{Version: "v1", Kind: "Namespace", Resource: "namespaces", Name: "team"}, meta,
		"the status names it without namespace, as OCM's agent does")
	unrecorded := e.c.Records.Unrecorded(fixture.Cluster + "/w")
	require.Len(t, unrecorded, 1)
	assert.Equal(t, workv1.ResourceIdentifier{Resource: meta.Resource, Namespace: meta.Namespace, Name: meta.Name}, unrecorded[0].ResourceIdentifier,
		"recorded for the AppliedManifestWork as the status names it")
}
