//go:build linux

package bench

import (
	"bufio"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// responseLine is client-go's request log at -v=6 and above, with the klog
// header (whose time is local) and any contextual key-values:
// `I1121 18:19:39.337991 13092 round_trippers.go:632] "Response" manifestWork="…" verb="GET" url="https://…" status="200 OK"`.
var responseLine = regexp.MustCompile(`^[IWE](\d{4} \d{2}:\d{2}:\d{2}\.\d{6}) .*\] "Response" (?:.* )?verb="(\w+)" url="([^"]+)"`)

// scanAgentLog counts the requests an agent logged (run it with -v=6), by
// cluster and verb/resource, when the log has them: what the agent sends,
// without any other client's traffic. hosts maps a server host:port to a
// cluster name. Only lines from..to count (a zero bound is open). PATCH is
// not split from APPLY, as the log has no content type.
func scanAgentLog(path string, hosts map[string]string, from, to time.Time) (map[string]map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	out := map[string]map[string]int{}
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		m := responseLine.FindStringSubmatch(scanner.Text())
		if m == nil {
			continue
		}
		if !inWindow(m[1], from, to) {
			continue
		}
		u, err := url.Parse(m[3])
		if err != nil {
			continue
		}
		key, ok := classify(m[2], u, "")
		if !ok {
			continue
		}
		cluster := hosts[u.Host]
		if cluster == "" {
			cluster = u.Host
		}
		if out[cluster] == nil {
			out[cluster] = map[string]int{}
		}
		out[cluster][key.String()]++
	}
	return out, scanner.Err()
}

// inWindow reads a klog time (local, without year) and checks it against the bounds.
func inWindow(stamp string, from, to time.Time) bool {
	if from.IsZero() && to.IsZero() {
		return true
	}
	ref := from
	if ref.IsZero() {
		ref = to
	}
	at, err := time.ParseInLocation("0102 15:04:05.000000", stamp, time.Local)
	if err != nil {
		return false
	}
	at = at.AddDate(ref.Year(), 0, 0)
	return (from.IsZero() || !at.Before(from)) && (to.IsZero() || !at.After(to))
}

// hostOf is host:port of a server URL.
func hostOf(server string) string {
	u, err := url.Parse(server)
	if err != nil {
		return server
	}
	return u.Host
}

func TestScanAgentLog(t *testing.T) {
	path := t.TempDir() + "/agent.log"
	log := strings.Join([]string{
		`I1121 18:17:31.100000   13092 round_trippers.go:632] "Response" verb="POST" url="https://127.0.0.1:1/api/v1/namespaces/bench/configmaps" status="201 Created" milliseconds=3`,
		`I1121 18:17:31.200000   13092 round_trippers.go:632] "Response" manifestWork="cluster1/w" verb="PATCH" url="https://127.0.0.1:2/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks/w/status" status="200 OK" milliseconds=1`,
		`I1121 18:17:31.300000   13092 round_trippers.go:632] "Response" logger="x" gvr="/v1, Resource=configmaps" verb="GET" url="https://127.0.0.1:2/apis/work.open-cluster-management.io/v1/namespaces/cluster1/manifestworks?watch=true" status="200 OK" milliseconds=1`,
		`I1121 18:17:32.300000   13092 round_trippers.go:632] "Response" verb="DELETE" url="https://127.0.0.1:1/api/v1/namespaces/bench/configmaps/a" status="200 OK" milliseconds=1`,
		`I1121 18:17:31.300000   13092 agent.go:80] "Ready"`,
	}, "\n")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	hosts := map[string]string{"127.0.0.1:1": "managed", "127.0.0.1:2": "hub"}
	got, err := scanAgentLog(path, hosts, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if got["managed"]["POST configmaps"] != 1 || got["hub"]["PATCH manifestworks/status"] != 1 ||
		got["hub"]["WATCH manifestworks"] != 1 || got["managed"]["DELETE configmaps"] != 1 {
		t.Errorf("got %v", got)
	}
	year := time.Now().Year()
	from := time.Date(year, 11, 21, 18, 17, 31, 150_000_000, time.Local)
	got, err = scanAgentLog(path, hosts, from, from.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(got["managed"]) != 0 || len(got["hub"]) != 2 {
		t.Errorf("in the window: %v", got)
	}
}
