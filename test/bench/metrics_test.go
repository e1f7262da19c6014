//go:build linux

package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/kubernetes"
)

// Only the agent touches these resources (besides the bench, whose own
// requests are counted and taken out, and the clusters' background, see
// background).
var (
	managedResources = []string{"configmaps", "appliedmanifestworks", "subjectaccessreviews", "leases"}
	hubResources     = []string{"manifestworks", "events"}
)

var labelPair = regexp.MustCompile(`(\w+)="((?:[^"\\]|\\.)*)"`)

// parseRequestTotals sums apiserver_request_total by verb, resource and
// subresource (over code, group, version, scope…), keeping only resources.
func parseRequestTotals(raw []byte, resources []string) (counts, error) {
	sums, err := parseSeries(raw, "apiserver_request_total", resources)
	out := counts{}
	for k, v := range sums {
		out[k] = int(v)
	}
	return out, err
}

// parseSeries sums the samples of one metric of a kube-apiserver by verb,
// resource and subresource, keeping only resources.
func parseSeries(raw []byte, metric string, resources []string) (map[reqKey]float64, error) {
	out := map[reqKey]float64{}
	scanner := bufio.NewScanner(bytes.NewReader(raw))
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		line := scanner.Text()
		if !strings.HasPrefix(line, metric+"{") {
			continue
		}
		end := strings.LastIndexByte(line, '}')
		if end < 0 {
			return nil, fmt.Errorf("metrics: no closing brace: %q", line)
		}
		labels := map[string]string{}
		for _, m := range labelPair.FindAllStringSubmatch(line[:end], -1) {
			labels[m[1]] = m[2]
		}
		if !slices.Contains(resources, labels["resource"]) {
			continue
		}
		value, err := strconv.ParseFloat(strings.TrimSpace(line[end+1:]), 64)
		if err != nil {
			return nil, fmt.Errorf("metrics: %q: %w", line, err)
		}
		out[reqKey{Verb: labels["verb"], Resource: labels["resource"], Subresource: labels["subresource"]}] += value
	}
	return out, scanner.Err()
}

// serverTime is the time a kube-apiserver spent answering requests so far,
// from apiserver_request_duration_seconds: the sum of the durations and the
// number of requests, by key.
type serverTime struct {
	seconds map[reqKey]float64
	count   map[reqKey]float64
}

// scrapeServerTime reads the request durations of one kube-apiserver.
func scrapeServerTime(ctx context.Context, kube kubernetes.Interface, resources []string) (serverTime, error) {
	raw, err := kube.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return serverTime{}, fmt.Errorf("metrics: %w", err)
	}
	var t serverTime
	if t.seconds, err = parseSeries(raw, "apiserver_request_duration_seconds_sum", resources); err != nil {
		return t, err
	}
	t.count, err = parseSeries(raw, "apiserver_request_duration_seconds_count", resources)
	return t, err
}

// meanSince is the mean duration of the requests of key since start.
func (t serverTime) meanSince(start serverTime, key reqKey) (seconds float64, n int) {
	c := t.count[key] - start.count[key]
	if c <= 0 {
		return 0, 0
	}
	return (t.seconds[key] - start.seconds[key]) / c, int(c)
}

// scrape reads the request totals and the request bodies of one
// kube-apiserver. GET /metrics is not a resource request, so it does not
// count itself.
func scrape(ctx context.Context, kube kubernetes.Interface, resources []string) (counts, bodySizes, error) {
	raw, err := kube.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("metrics: %w", err)
	}
	total, err := parseRequestTotals(raw, resources)
	if err != nil {
		return nil, nil, err
	}
	sent, err := parseBodySizes(raw, resources)
	return total, sent, err
}

// bodySize is request bodies a kube-apiserver read: their bytes and number.
type bodySize struct {
	Bytes float64 `json:"bytes"`
	N     float64 `json:"n"`
}

// bodySizes are request bodies by key as apiserver_request_body_size_bytes
// labels them: verb create, update, patch, delete or delete_collection, and
// the resource (a subresource counts as its resource).
type bodySizes map[reqKey]bodySize

func (b bodySizes) add(o bodySizes, sign float64) {
	for k, v := range o {
		cur := b[k]
		cur.Bytes += sign * v.Bytes
		cur.N += sign * v.N
		b[k] = cur
	}
}

// total is the bytes of every body.
func (b bodySizes) total() float64 {
	n := 0.0
	for _, v := range b {
		n += v.Bytes
	}
	return n
}

// byKey is the breakdown: "patch manifestworks" → bytes and number.
func (b bodySizes) byKey() map[string]bodySize {
	out := map[string]bodySize{}
	for k, v := range b {
		out[k.String()] = v
	}
	return out
}

// bodyVerbs are the verbs of apiserver_request_body_size_bytes by the verb
// of apiserver_request_total; reads have no body.
var bodyVerbs = map[string]string{
	"POST": "create", "PUT": "update", "PATCH": "patch", "APPLY": "patch",
	"DELETE": "delete", "DELETECOLLECTION": "delete_collection",
}

// bodyKey is how kube-apiserver labels the body of a request of key k.
func bodyKey(k reqKey) (reqKey, bool) {
	verb, ok := bodyVerbs[k.Verb]
	return reqKey{Verb: verb, Resource: k.Resource}, ok
}

// parseBodySizes reads apiserver_request_body_size_bytes (sum and count)
// for resources.
func parseBodySizes(raw []byte, resources []string) (bodySizes, error) {
	sums, err := parseSeries(raw, "apiserver_request_body_size_bytes_sum", resources)
	if err != nil {
		return nil, err
	}
	counts, err := parseSeries(raw, "apiserver_request_body_size_bytes_count", resources)
	if err != nil {
		return nil, err
	}
	out := bodySizes{}
	for k, n := range counts {
		out[k] = bodySize{Bytes: sums[k], N: n}
	}
	return out, nil
}

// meter measures the agent's requests to one cluster over windows.
type meter struct {
	kube      kubernetes.Interface
	resources []string
	own       *counter
	// observed are other clients' writes seen in watch events (the clusters'
	// own leases), taken out exactly; nil when there is nothing to observe.
	observed *counter
	// background is what the cluster does by itself per second (kube-apiserver
	// identity lease, kwok node leases, controllers), measured without agent.
	background map[reqKey]float64
}

// mark is the state at the start of a window.
type mark struct {
	at       time.Time
	total    counts
	own      counts
	observed counts
	sent     bodySizes // request bodies the server read
	ownSent  bodySizes // the bench's own
}

func (m *meter) mark(ctx context.Context) (mark, error) {
	own, ownSent := m.own.snapshot(), m.own.sentSnapshot()
	observed := counts{}
	if m.observed != nil {
		observed = m.observed.snapshot()
	}
	total, sent, err := scrape(ctx, m.kube, m.resources)
	return mark{at: time.Now(), total: total, own: own, observed: observed, sent: sent, ownSent: ownSent}, err
}

// since returns the agent's requests since start: the server's totals minus
// the bench's own requests, minus the observed writes of other clients, minus
// the expected background.
func (m *meter) since(ctx context.Context, start mark) (counts, time.Duration, error) {
	end, err := m.mark(ctx)
	if err != nil {
		return nil, 0, err
	}
	delta, d := m.between(start, end)
	return delta, d, nil
}

// between is since for a window whose end is marked already.
func (m *meter) between(start, end mark) (counts, time.Duration) {
	d := end.at.Sub(start.at)
	delta := counts{}
	delta.add(end.total, 1)
	delta.add(start.total, -1)
	delta.add(end.own, -1)
	delta.add(start.own, 1)
	delta.add(end.observed, -1)
	delta.add(start.observed, 1)
	for k, rate := range m.background {
		delta[k] -= int(math.Round(rate * d.Seconds()))
	}
	for k, n := range delta {
		if n <= 0 {
			delete(delta, k) // a negative count is background that did not happen this time
		}
	}
	return delta, d
}

// sentBetween is the request bodies the agent sent between two marks: what
// the server read minus what the bench sent. Leases are left out: other
// clients of the cluster renew theirs all the time, and the body-size metric
// does not say whose they are.
func sentBetween(start, end mark) bodySizes {
	delta := bodySizes{}
	delta.add(end.sent, 1)
	delta.add(start.sent, -1)
	delta.add(end.ownSent, -1)
	delta.add(start.ownSent, 1)
	for k, v := range delta {
		if k.Resource == "leases" || v.N <= 0 {
			delete(delta, k)
		}
	}
	return delta
}

// measureBackground sets the background rate from a window without agent.
func (m *meter) measureBackground(ctx context.Context, window time.Duration) error {
	m.background = nil
	start, err := m.mark(ctx)
	if err != nil {
		return err
	}
	// A measurement window, not a wait for some state.
	select {
	case <-time.After(window):
	case <-ctx.Done():
		return ctx.Err()
	}
	delta, d, err := m.since(ctx, start)
	if err != nil {
		return err
	}
	m.background = map[reqKey]float64{}
	for k, n := range delta {
		m.background[k] = float64(n) / d.Seconds()
	}
	return nil
}

// measureBackground measures the background of both clusters at once.
func (m *meters) measureBackground(ctx context.Context, window time.Duration) error {
	hubErr := make(chan error, 1)
	go func() { hubErr <- m.hub.measureBackground(ctx, window) }()
	return errors.Join(m.spoke.measureBackground(ctx, window), <-hubErr)
}

// Request classes of the targets.
func isWrite(verb string) bool {
	switch verb {
	case "POST", "PUT", "PATCH", "APPLY", "DELETE", "DELETECOLLECTION":
		return true
	}
	return false
}

func isRead(verb string) bool { return verb == "GET" || verb == "LIST" }

func (c counts) sum(keep func(reqKey) bool) int {
	n := 0
	for k, v := range c {
		if keep(k) {
			n += v
		}
	}
	return n
}

func (c counts) total() int  { return c.sum(func(reqKey) bool { return true }) }
func (c counts) writes() int { return c.sum(func(k reqKey) bool { return isWrite(k.Verb) }) }
func (c counts) reads() int  { return c.sum(func(k reqKey) bool { return isRead(k.Verb) }) }

// byVerb sums over resources: "POST=2100 PATCH=100".
func (c counts) byVerb() string {
	verbs := map[string]int{}
	for k, n := range c {
		verbs[k.Verb] += n
	}
	return formatCounts(verbs)
}

// byKey is the full breakdown: "POST configmaps=2000 PATCH manifestworks/status=100".
func (c counts) byKey() map[string]int {
	out := map[string]int{}
	for k, n := range c {
		out[k.String()] = n
	}
	return out
}

func formatCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

func TestParseRequestTotals(t *testing.T) {
	raw := []byte(`# HELP apiserver_request_total [STABLE] Counter of apiserver requests
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 20
apiserver_request_total{code="409",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 2
apiserver_request_total{code="200",component="apiserver",dry_run="",group="work.open-cluster-management.io",resource="appliedmanifestworks",scope="resource",subresource="status",verb="PATCH",version="v1"} 3
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="GET",version="v1"} 9
apiserver_request_total_other{resource="configmaps",verb="POST"} 7
`)
	got, err := parseRequestTotals(raw, managedResources)
	if err != nil {
		t.Fatal(err)
	}
	want := counts{
		{Verb: "POST", Resource: "configmaps"}:                                   22,
		{Verb: "PATCH", Resource: "appliedmanifestworks", Subresource: "status"}: 3,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	durations := []byte(`apiserver_request_duration_seconds_sum{component="apiserver",dry_run="",group="work.open-cluster-management.io",resource="manifestworks",scope="resource",subresource="status",verb="PATCH",version="v1"} 3
apiserver_request_duration_seconds_count{component="apiserver",dry_run="",group="work.open-cluster-management.io",resource="manifestworks",scope="resource",subresource="status",verb="PATCH",version="v1"} 4
apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="work.open-cluster-management.io",le="0.05",resource="manifestworks",scope="resource",subresource="status",verb="PATCH",version="v1"} 1
`)
	sum, err := parseSeries(durations, "apiserver_request_duration_seconds_sum", hubResources)
	if err != nil {
		t.Fatal(err)
	}
	count, _ := parseSeries(durations, "apiserver_request_duration_seconds_count", hubResources)
	status := reqKey{Verb: "PATCH", Resource: "manifestworks", Subresource: "status"}
	mean, n := serverTime{seconds: sum, count: count}.meanSince(serverTime{}, status)
	if mean != 0.75 || n != 4 {
		t.Errorf("mean %v over %d, want 0.75 over 4", mean, n)
	}
	if got.writes() != 25 || got.reads() != 0 || got.byVerb() != "PATCH=3 POST=22" {
		t.Errorf("writes %d reads %d byVerb %s", got.writes(), got.reads(), got.byVerb())
	}
}

// window holds the counters of both clusters at the start of a measurement.
type window struct{ hub, spoke mark }

// openWindow marks both clusters now: the start of a window, or the end of
// one (see between).
func (m *meters) openWindow(ctx context.Context) (window, error) {
	hub, err := m.hub.mark(ctx)
	if err != nil {
		return window{}, err
	}
	spoke, err := m.spoke.mark(ctx)
	return window{hub: hub, spoke: spoke}, err
}

// closeWindow returns the agent's requests to the hub and to the managed
// cluster since the window opened, and how long it was open.
func (m *meters) closeWindow(ctx context.Context, w window) (hub, managed counts, d time.Duration, err error) {
	end, err := m.openWindow(ctx)
	if err != nil {
		return nil, nil, 0, err
	}
	hub, managed, d = m.between(w, end)
	return hub, managed, d, nil
}

// between is the agent's requests to each cluster from the marks of start
// to those of end, and the time between them.
func (m *meters) between(start, end window) (hub, managed counts, d time.Duration) {
	hub, d = m.hub.between(start.hub, end.hub)
	managed, _ = m.spoke.between(start.spoke, end.spoke)
	return hub, managed, d
}

func TestParseBodySizes(t *testing.T) {
	raw := []byte(`apiserver_request_body_size_bytes_bucket{group="",resource="configmaps",verb="create",le="50000"} 20
apiserver_request_body_size_bytes_sum{group="",resource="configmaps",verb="create"} 8000
apiserver_request_body_size_bytes_count{group="",resource="configmaps",verb="create"} 20
apiserver_request_body_size_bytes_sum{group="work.open-cluster-management.io",resource="manifestworks",verb="patch"} 1500
apiserver_request_body_size_bytes_count{group="work.open-cluster-management.io",resource="manifestworks",verb="patch"} 3
apiserver_request_body_size_bytes_sum{group="",resource="pods",verb="create"} 99
apiserver_request_body_size_bytes_count{group="",resource="pods",verb="create"} 1
`)
	got, err := parseBodySizes(raw, slices.Concat(managedResources, hubResources))
	require.NoError(t, err)
	assert.Equal(t, bodySizes{
		{Verb: "create", Resource: "configmaps"}:   {Bytes: 8000, N: 20},
		{Verb: "patch", Resource: "manifestworks"}: {Bytes: 1500, N: 3},
	}, got)
}

func TestBodyKey(t *testing.T) {
	cases := []struct {
		in   reqKey
		want reqKey
		ok   bool
	}{
		{reqKey{Verb: "POST", Resource: "configmaps"}, reqKey{Verb: "create", Resource: "configmaps"}, true},
		{reqKey{Verb: "PUT", Resource: "configmaps"}, reqKey{Verb: "update", Resource: "configmaps"}, true},
		{reqKey{Verb: "PATCH", Resource: "manifestworks", Subresource: "status"}, reqKey{Verb: "patch", Resource: "manifestworks"}, true},
		{reqKey{Verb: "APPLY", Resource: "configmaps"}, reqKey{Verb: "patch", Resource: "configmaps"}, true},
		{reqKey{Verb: "DELETE", Resource: "configmaps"}, reqKey{Verb: "delete", Resource: "configmaps"}, true},
		{reqKey{Verb: "GET", Resource: "configmaps"}, reqKey{}, false},
		{reqKey{Verb: "WATCH", Resource: "configmaps"}, reqKey{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.in.String(), func(t *testing.T) {
			got, ok := bodyKey(tc.in)
			assert.Equal(t, tc.ok, ok)
			if tc.ok {
				assert.Equal(t, tc.want, got)
			}
		})
	}
}

func TestSentBetween(t *testing.T) {
	cm := reqKey{Verb: "create", Resource: "configmaps"}
	mw := reqKey{Verb: "create", Resource: "manifestworks"}
	status := reqKey{Verb: "patch", Resource: "manifestworks"}
	lease := reqKey{Verb: "update", Resource: "leases"}
	cases := []struct {
		name       string
		start, end mark
		want       bodySizes
	}{
		{name: "the server's delta is the agent's",
			start: mark{sent: bodySizes{cm: {Bytes: 100, N: 1}}},
			end:   mark{sent: bodySizes{cm: {Bytes: 900, N: 3}}},
			want:  bodySizes{cm: {Bytes: 800, N: 2}}},
		{name: "the bench's own bodies are taken out",
			start: mark{sent: bodySizes{mw: {Bytes: 50, N: 1}}, ownSent: bodySizes{mw: {Bytes: 50, N: 1}}},
			end: mark{sent: bodySizes{mw: {Bytes: 1050, N: 3}, status: {Bytes: 600, N: 2}},
				ownSent: bodySizes{mw: {Bytes: 1050, N: 3}}},
			want: bodySizes{status: {Bytes: 600, N: 2}}},
		{name: "leases are other clients' too, and left out",
			start: mark{sent: bodySizes{lease: {Bytes: 10, N: 1}}},
			end:   mark{sent: bodySizes{lease: {Bytes: 500, N: 9}, cm: {Bytes: 40, N: 1}}},
			want:  bodySizes{cm: {Bytes: 40, N: 1}}},
		{name: "nothing sent", want: bodySizes{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, sentBetween(tc.start, tc.end))
		})
	}
}

// The counting transport counts request bodies as the server labels them.
func TestCounterBody(t *testing.T) {
	c := newCounter()
	c.body(reqKey{Verb: "PATCH", Resource: "manifestworks", Subresource: "status"}, 300)
	c.body(reqKey{Verb: "PATCH", Resource: "manifestworks"}, 100)
	c.body(reqKey{Verb: "GET", Resource: "manifestworks"}, 0)
	c.body(reqKey{Verb: "POST", Resource: "configmaps"}, -1) // length unknown
	assert.Equal(t, bodySizes{{Verb: "patch", Resource: "manifestworks"}: {Bytes: 400, N: 2}}, c.sentSnapshot())
}
