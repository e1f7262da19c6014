package framework

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClassifyRequest(t *testing.T) {
	cases := []struct {
		method, url, contentType string
		want                     string
	}{
		{"POST", "/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks", "application/json", "POST manifestworks"},
		{"GET", "/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks?limit=500", "", "LIST manifestworks"},
		{"GET", "/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks?watch=true&resourceVersion=1", "", "WATCH manifestworks"},
		{"GET", "/api/v1/namespaces/bench/configmaps/cm", "", "GET configmaps"},
		{"PATCH", "/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks/w/status", "application/merge-patch+json", "PATCH manifestworks/status"},
		{"PATCH", "/api/v1/namespaces/bench/configmaps/cm", "application/apply-patch+yaml", "APPLY configmaps"},
		{"PUT", "/apis/work.open-cluster-management.io/v1/appliedmanifestworks/a", "application/json", "PUT appliedmanifestworks"},
		{"DELETE", "/api/v1/namespaces/bench/configmaps", "", "DELETECOLLECTION configmaps"},
		{"POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", "application/json", "POST subjectaccessreviews"},
		{"GET", "/api/v1/namespaces/bench", "", "GET namespaces"},
		{"GET", "/api/v1/namespaces", "", "LIST namespaces"},
	}
	for _, tc := range cases {
		u, err := url.Parse(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		k, ok := ClassifyRequest(tc.method, u, tc.contentType)
		if !ok || k.String() != tc.want {
			t.Errorf("%s %s = %q %v, want %q", tc.method, tc.url, k, ok, tc.want)
		}
	}
	for _, path := range []string{"/metrics", "/readyz", "/apis", "/api", "/openapi/v2"} {
		if _, ok := ClassifyRequest("GET", &url.URL{Path: path}, ""); ok {
			t.Errorf("%s is not a resource request", path)
		}
	}
}

func TestScanRequestLog(t *testing.T) {
	path := t.TempDir() + "/agent.log"
	log := strings.Join([]string{
		`I1121 18:17:31.100000   13092 round_trippers.go:632] "Response" verb="POST" url="https://127.0.0.1:1/api/v1/namespaces/bench/configmaps" status="201 Created" milliseconds=3`,
		`I1121 18:17:31.200000   13092 round_trippers.go:632] "Response" manifestWork="cluster1/w" verb="PATCH" url="https://127.0.0.1:2/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks/w/status" status="200 OK" milliseconds=1`,
		`I1121 18:17:31.300000   13092 round_trippers.go:632] "Response" logger="x" gvr="/v1, Resource=configmaps" verb="GET" url="https://127.0.0.1:2/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks?watch=true" status="200 OK" milliseconds=1`,
		`I1121 18:17:32.300000   13092 round_trippers.go:632] "Response" verb="DELETE" url="https://127.0.0.1:1/api/v1/namespaces/bench/configmaps/a" status="200 OK" milliseconds=1`,
		`I1121 18:17:32.400000   13092 round_trippers.go:632] "Response" verb="GET" url="https://127.0.0.1:1/api/v1/namespaces/bench/configmaps?limit=500" status="" milliseconds=0`,
		`I1121 18:17:32.500000   13092 round_trippers.go:632] "Response" verb="GET" url="https://127.0.0.1:1/readyz" status="500 Internal Server Error" milliseconds=1`,
		`I1121 18:17:31.300000   13092 agent.go:80] "Ready"`,
	}, "\n")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	hosts := map[string]string{"127.0.0.1:1": "managed", "127.0.0.1:2": "hub"}
	got, err := ScanRequestLog(path, hosts, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if got["managed"]["POST configmaps"] != 1 || got["hub"]["PATCH manifestworks/status"] != 1 ||
		got["hub"]["WATCH manifestworks"] != 1 || got["managed"]["DELETE configmaps"] != 1 ||
		got["managed"][NoAnswer] != 1 || got["managed"]["GET /readyz"] != 1 {
		t.Errorf("got %v", got)
	}
	year := time.Now().Year()
	from := time.Date(year, 11, 21, 18, 17, 31, 150_000_000, time.Local)
	got, err = ScanRequestLog(path, hosts, from, from.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(got["managed"]) != 0 || len(got["hub"]) != 2 {
		t.Errorf("in the window: %v", got)
	}
}

// client-go before v0.33 (OCM's agent) logs requests in another format.
func TestReadRequestLogLegacyFormat(t *testing.T) {
	path := t.TempDir() + "/ocm-agent.log"
	log := strings.Join([]string{
		`I1121 18:17:31.100000   13092 round_trippers.go:560] GET https://127.0.0.1:1/api/v1/namespaces/ns/configmaps/cm 200 OK in 3 milliseconds`,
		`I1121 18:17:31.200000   13092 round_trippers.go:560] PATCH https://127.0.0.1:1/apis/apps/v1/namespaces/ns/deployments/web 200 OK in 1 milliseconds`,
		`I1121 18:17:31.300000   13092 round_trippers.go:560] PUT https://127.0.0.1:2/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks/w/status 409 Conflict in 1 milliseconds`,
		`E1121 18:17:31.400000   13092 round_trippers.go:560] GET https://127.0.0.1:1/api/v1/namespaces/ns/configmaps/cm  in 0 milliseconds`,
		`I1121 18:17:31.450000   13092 round_trippers.go:560] POST https://127.0.0.1:1/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles?dryRun=All 201 Created in 2 milliseconds`,
		`I1121 18:17:31.500000   13092 manifestwork_controller.go:1] Patching resource`,
	}, "\n")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRequestLog(path, map[string]string{"127.0.0.1:1": "managed", "127.0.0.1:2": "hub"}, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	want := []LoggedRequest{
		{Cluster: "managed", Key: "GET configmaps", Path: "/api/v1/namespaces/ns/configmaps/cm", Method: "GET"},
		{Cluster: "managed", Key: "PATCH deployments", Path: "/apis/apps/v1/namespaces/ns/deployments/web", Method: "PATCH"},
		{Cluster: "hub", Key: "PUT manifestworks/status", Path: "/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks/w/status", Method: "PUT"},
		{Cluster: "managed", Key: NoAnswer, Path: "/api/v1/namespaces/ns/configmaps/cm", Method: "GET"},
		{Cluster: "managed", Key: "POST roles" + DryRunSuffix, Path: "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles", Method: "POST", DryRun: true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("request %d: got %v, want %v", i, got[i], want[i])
		}
	}
}

// A server-side dry run is a request, counted apart from the writes of its
// verb, and no write.
func TestDryRunsAreRequestsNotWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent.log")
	log := strings.Join([]string{
		`I1128 18:17:31.100000   13092 round_trippers.go:632] "Response" verb="GET" url="https://127.0.0.1:1/apis/apps/v1/namespaces/ns/deployments/web" status="200 OK" milliseconds=1`,
		`I1128 18:17:31.200000   13092 round_trippers.go:632] "Response" verb="PUT" url="https://127.0.0.1:1/apis/apps/v1/namespaces/ns/deployments/web?dryRun=All&fieldManager=work-agent" status="200 OK" milliseconds=2`,
		`I1128 18:17:31.300000   13092 round_trippers.go:632] "Response" verb="PUT" url="https://127.0.0.1:1/apis/apps/v1/namespaces/ns/deployments/web?fieldManager=work-agent" status="200 OK" milliseconds=2`,
		`I1128 18:17:31.400000   13092 round_trippers.go:632] "Response" verb="PUT" url="https://127.0.0.1:1/apis/apps/v1/namespaces/ns/deployments/web?dryRun=All" status="" milliseconds=0`,
		`I1128 18:17:31.500000   13092 round_trippers.go:632] "Response" verb="PUT" url="https://127.0.0.1:1/apis/apps/v1/namespaces/ns/deployments/web" status="" milliseconds=0`,
	}, "\n") + "\n"
	require.NoError(t, os.WriteFile(path, []byte(log), 0o644))
	hosts := map[string]string{"127.0.0.1:1": "managed"}

	requests, err := ReadRequestLog(path, hosts, time.Time{}, time.Time{})
	require.NoError(t, err)
	var writes []bool
	for _, r := range requests {
		writes = append(writes, r.IsWrite())
	}
	assert.Equal(t, []bool{false, false, true, false, false}, writes,
		"a read, a dry run, an update, a dry run and an update that got no answer")

	counts, err := ScanRequestLog(path, hosts, time.Time{}, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"GET deployments": 1, "PUT deployments" + DryRunSuffix: 1, "PUT deployments": 1, NoAnswer: 2}, counts["managed"])

	tail := NewRequestTail(path, hosts)
	timed, err := tail.Since(time.Date(time.Now().Year(), 1, 1, 0, 0, 0, 0, time.Local))
	require.NoError(t, err)
	require.Len(t, timed, 5)
	assert.True(t, timed[1].DryRun)
	assert.False(t, timed[1].IsWrite(), "the tail tells dry runs too")
	assert.True(t, timed[2].IsWrite())
}
