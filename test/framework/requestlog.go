package framework

import (
	"bufio"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// RequestKey is how kube-apiserver labels a request in
// apiserver_request_total: verb, resource and subresource.
type RequestKey struct {
	Verb        string
	Resource    string
	Subresource string
}

func (k RequestKey) String() string {
	if k.Subresource == "" {
		return k.Verb + " " + k.Resource
	}
	return k.Verb + " " + k.Resource + "/" + k.Subresource
}

// ClassifyRequest maps a request to the verb, resource and subresource that
// kube-apiserver reports for it; ok is false for non-resource paths.
func ClassifyRequest(method string, u *url.URL, contentType string) (RequestKey, bool) {
	resource, name, sub, ok := parseResourcePath(u.Path)
	if !ok {
		return RequestKey{}, false
	}
	verb := method
	switch method {
	case http.MethodGet:
		switch {
		case isTrue(u.Query().Get("watch")):
			verb = "WATCH"
		case name == "":
			verb = "LIST"
		}
	case http.MethodPatch:
		if strings.HasPrefix(contentType, "application/apply-patch") {
			verb = "APPLY"
		}
	case http.MethodDelete:
		if name == "" {
			verb = "DELETECOLLECTION"
		}
	}
	return RequestKey{Verb: verb, Resource: resource, Subresource: sub}, true
}

func isTrue(s string) bool { return s == "true" || s == "1" }

// parseResourcePath splits /api/v1/... and /apis/<group>/<version>/... into
// resource, name and subresource, with or without a namespace.
func parseResourcePath(path string) (resource, name, sub string, ok bool) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		parts = parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		parts = parts[3:]
	default:
		return "", "", "", false
	}
	// /namespaces/<ns>/<resource>/... is namespaced; /namespaces[/<ns>] is the namespace itself.
	if len(parts) >= 3 && parts[0] == "namespaces" {
		parts = parts[2:]
	}
	resource = parts[0]
	if len(parts) > 1 {
		name = parts[1]
	}
	if len(parts) > 2 {
		sub = parts[2]
	}
	return resource, name, sub, true
}

// responseLine is client-go's request log at -v=6 and above, with the klog
// header (whose time is local) and any contextual key-values:
// `I1121 18:19:39.337991 13092 round_trippers.go:632] "Response" manifestWork="…" verb="GET" url="https://…" status="200 OK"`.
// A request that got no answer has status="".
var responseLine = regexp.MustCompile(`^[IWE](\d{4} \d{2}:\d{2}:\d{2}\.\d{6}) .*\] "Response" (?:.* )?verb="(\w+)" url="([^"]+)"( status="")?`)

// legacyResponseLine is the same log line of client-go before v0.33 (OCM's
// work agent v1.0.0 is built with v0.32):
// `I1121 18:19:39.337991 13092 round_trippers.go:560] GET https://… 200 OK in 3 milliseconds`,
// with an empty status for a request that got no answer.
var legacyResponseLine = regexp.MustCompile(`^[IWE](\d{4} \d{2}:\d{2}:\d{2}\.\d{6}) .*\] ([A-Z]+) (https?://\S+) (.*)in \d+ milliseconds$`)

// matchResponse reads a request log line of either format: the klog time,
// the verb, the URL and whether the server answered; ok is false for any
// other line.
func matchResponse(line string) (stamp, verb, rawURL string, answered, ok bool) {
	if m := responseLine.FindStringSubmatch(line); m != nil {
		return m[1], m[2], m[3], m[4] == "", true
	}
	if m := legacyResponseLine.FindStringSubmatch(line); m != nil {
		return m[1], m[2], m[3], strings.TrimSpace(m[4]) != "", true
	}
	return "", "", "", false, false
}

// NoAnswer is the key under which ScanRequestLog counts the requests, of
// any kind, that got no answer from the server (connection refused, reset).
const NoAnswer = "no answer"

// DryRunSuffix ends the Key of a server-side dry run ("PUT deployments (dry
// run)"): a request, counted apart from the writes of the same verb, which
// it is not.
const DryRunSuffix = " (dry run)"

// LoggedRequest is one request a work process logged.
type LoggedRequest struct {
	// Cluster is the cluster's name (see ScanRequestLog), else host:port.
	Cluster string
	// Key is verb and resource ("PATCH deployments"), with DryRunSuffix for
	// a dry run, the path of a non-resource request, or NoAnswer.
	Key string
	// Path is the URL path, e.g. /apis/apps/v1/namespaces/ns/deployments/web.
	Path string
	// Method is the HTTP method.
	Method string
	// DryRun is set for a server-side dry run (?dryRun=All): the server
	// stores nothing.
	DryRun bool
}

// IsWrite tells whether the request is a write the server answered: a
// create, update, patch or delete, not a dry run (which stores nothing).
// One that got no answer is counted under NoAnswer, not as a write.
func (r LoggedRequest) IsWrite() bool {
	return !r.DryRun && r.Key != NoAnswer &&
		slices.Contains([]string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}, r.Method)
}

// loggedRequest is the request of a log line: its method, its URL and
// whether the server answered; hosts maps a server host:port to a cluster
// name.
func loggedRequest(method string, u *url.URL, answered bool, hosts map[string]string) LoggedRequest {
	r := LoggedRequest{Key: method + " " + u.Path, Path: u.Path, Method: method, DryRun: u.Query().Has("dryRun")}
	if k, ok := ClassifyRequest(method, u, ""); ok {
		r.Key = k.String()
		if r.DryRun {
			r.Key += DryRunSuffix
		}
	}
	if !answered {
		r.Key = NoAnswer
	}
	r.Cluster = hosts[u.Host]
	if r.Cluster == "" {
		r.Cluster = u.Host
	}
	return r
}

// ScanRequestLog counts the requests a work process logged (run it with
// -v=6), by cluster and verb/resource: what the process sends, without any
// other client's traffic. Dry runs are counted apart, under their key with
// DryRunSuffix; requests that got no answer under NoAnswer instead, and
// non-resource requests (such as /readyz) under their path. hosts maps a
// server host:port to a cluster name. Only lines from..to count (a zero bound
// is open). PATCH is not split from APPLY, as the log has no content type.
func ScanRequestLog(path string, hosts map[string]string, from, to time.Time) (map[string]map[string]int, error) {
	requests, err := ReadRequestLog(path, hosts, from, to)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]int{}
	for _, r := range requests {
		if out[r.Cluster] == nil {
			out[r.Cluster] = map[string]int{}
		}
		out[r.Cluster][r.Key]++
	}
	return out, nil
}

// ReadRequestLog is ScanRequestLog request by request, in the order of the log.
func ReadRequestLog(path string, hosts map[string]string, from, to time.Time) ([]LoggedRequest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var out []LoggedRequest
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		stamp, verb, rawURL, answered, ok := matchResponse(scanner.Text())
		if !ok || !inWindow(stamp, from, to) {
			continue
		}
		u, err := url.Parse(rawURL)
		if err != nil {
			continue
		}
		out = append(out, loggedRequest(verb, u, answered, hosts))
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

// HostOf is host:port of a server URL.
func HostOf(server string) string {
	u, err := url.Parse(server)
	if err != nil {
		return server
	}
	return u.Host
}

// TimedRequest is a LoggedRequest with the time of its log line.
type TimedRequest struct {
	LoggedRequest
	At time.Time
}

// RequestTail reads a work process's request log (-v=6) as it grows, once
// for every reader: for tests that ask, many times a second, what a process
// sent since some moment.
type RequestTail struct {
	path   string
	hosts  map[string]string
	mu     sync.Mutex
	offset int64
	rest   string
	seen   []TimedRequest
}

// NewRequestTail tails the request log at path; hosts maps a server
// host:port to a cluster name, as for ScanRequestLog.
func NewRequestTail(path string, hosts map[string]string) *RequestTail {
	return &RequestTail{path: path, hosts: hosts}
}

// Since returns the requests logged from the time on, in the order of the
// log, reading what the log gained since the last call.
func (r *RequestTail) Since(from time.Time) ([]TimedRequest, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.read(from); err != nil {
		return nil, err
	}
	i, _ := slices.BinarySearchFunc(r.seen, from, func(q TimedRequest, t time.Time) int { return q.At.Compare(t) })
	return slices.Clone(r.seen[i:]), nil
}

func (r *RequestTail) read(ref time.Time) error {
	f, err := os.Open(r.path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	if _, err := f.Seek(r.offset, io.SeekStart); err != nil {
		return err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	r.offset += int64(len(data))
	text := r.rest + string(data)
	end := strings.LastIndexByte(text, '\n')
	r.rest = text[end+1:]
	for line := range strings.SplitSeq(text[:end+1], "\n") {
		stamp, verb, rawURL, answered, ok := matchResponse(line)
		if !ok {
			continue
		}
		at, err := time.ParseInLocation("0102 15:04:05.000000", stamp, time.Local)
		u, uerr := url.Parse(rawURL)
		if err != nil || uerr != nil {
			continue
		}
		at = at.AddDate(ref.Year(), 0, 0)
		// The log is in time order but for lines of goroutines racing
		// within a few microseconds; keep the slice sorted anyway.
		q := TimedRequest{LoggedRequest: loggedRequest(verb, u, answered, r.hosts), At: at}
		i, _ := slices.BinarySearchFunc(r.seen, at, func(q TimedRequest, t time.Time) int { return q.At.Compare(t) })
		for i < len(r.seen) && !r.seen[i].At.After(at) {
			i++
		}
		r.seen = slices.Insert(r.seen, i, q)
	}
	return nil
}
