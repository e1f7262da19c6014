//go:build linux

package bench

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// ceSourceID is the source of the works over MQTT, as Maestro names itself.
const ceSourceID = "bench-source"

// ceDriver is our agent on one workload source driver, and how the bench
// gives it works and sees their status come back.
type ceDriver struct {
	name    string
	command string
	// proxy is between the agent and its hub (kube) or broker (MQTT).
	proxy *wireProxy
	// brokerPID is the MQTT broker's process, 0 for the kube driver.
	brokerPID int
	warmup    func(ctx context.Context, exited <-chan struct{}) error
	apply     func(ctx context.Context, works []*workv1.ManifestWork) error
	// done counts the cold works whose status, for the spec last sent, is
	// Applied and Available where the source reads it: the hub's API
	// server, or the MQTT source.
	done func() int
	// wait evaluates cond at once and after every status that arrives.
	wait func(ctx context.Context, exited <-chan struct{}, cond func() bool) error
	stop func()
}

// ceResult is what was measured of one driver.
type ceResult struct {
	Driver  string `json:"driver"`
	Command string `json:"command"`
	Log     string `json:"log"`
	// Background is what the clusters did per second without agent, taken
	// out of every window.
	Background map[string]map[string]float64 `json:"backgroundPerSecond"`
	Cold       *cePhase                      `json:"cold,omitempty"`
	Idle       *ceIdle                       `json:"idle,omitempty"`
	Drift      *cePhase                      `json:"drift,omitempty"`
	Process    *procStats                    `json:"process,omitempty"`
	Errors     []string                      `json:"errors,omitempty"`
}

// cePhase is cold apply or the repair of drift on every object.
type cePhase struct {
	Objects int     `json:"objects"`
	Seconds float64 `json:"seconds"`
	// ChangesSeconds is, for drift, how long the bench took to modify
	// every object (the agent repairs meanwhile).
	ChangesSeconds float64 `json:"changesSeconds,omitempty"`
	CPU            cpuUse  `json:"cpuSeconds"` // Agents is the agent measured
	BrokerCPU      float64 `json:"brokerCpuSeconds,omitempty"`
	// Wire is what went between the agent and its hub or broker, TLS
	// included for the kube driver (the MQTT broker of the bench is plain).
	Wire               wireCount `json:"wire"`
	WireBytesPerObject float64   `json:"wireBytesPerObject"`
	// HubBodyBytesPerObject is the request bodies the hub's kube-apiserver
	// read from the agent (kube driver), as TestBench counts them.
	HubBodyBytesPerObject float64        `json:"hubRequestBodyBytesPerObject"`
	Managed               map[string]int `json:"managedRequests"`
	Hub                   map[string]int `json:"hubRequests"`
	managed, hub          counts
}

// ceIdle is the idle window: the requests both clusters counted and what
// went between the agent and its hub or broker.
type ceIdle struct {
	Requests *idleResult `json:"requests"`
	Wire     wireCount   `json:"wire"`
}

// beyondKeepAlive is what went between the agent and its hub or broker
// while idle, apart from the keep-alive: MQTT packets other than PINGREQ
// and PINGRESP, or for the kube driver its GET, LIST and writes on the hub.
func (i *ceIdle) beyondKeepAlive(driver string) int {
	if driver != "mqtt" {
		return i.Requests.hub.writes() + i.Requests.hub.reads()
	}
	n := 0
	for _, packets := range []map[string]int{i.Wire.UpPackets, i.Wire.DownPackets} {
		for name, c := range packets {
			if !isKeepAlive(name) {
				n += c
			}
		}
	}
	return n
}

// ceReport is the JSON of TestCloudEvents.
type ceReport struct {
	Started   time.Time  `json:"started"`
	Works     int        `json:"works"`
	Manifests int        `json:"manifests"`
	Objects   int        `json:"objects"`
	Idle      string     `json:"idle"`
	Machine   machine    `json:"machine"`
	Drivers   []ceResult `json:"drivers"`
	Table     []row      `json:"table"`
}

// TestCloudEvents measures our agent on the kube driver and on the MQTT
// driver, one after the other on the same clusters and the same works:
// cold apply, idle, and drift on every object. The MQTT broker is a process
// of its own and the source (a Maestro stand-in) runs in this process; a
// counting proxy sits between the agent and its hub or broker.
func TestCloudEvents(t *testing.T) {
	e := setup(t)
	p := paramsFromEnv(t)
	if !p.CloudEvents {
		t.Skip("BENCH_CLOUDEVENTS=0")
	}
	brokerBinary := framework.MQTTBrokerBinary(t)
	out := outDir(t, p)
	ctx := t.Context()
	r := &ceReport{Started: time.Now(), Works: p.Works, Manifests: p.Manifests, Objects: p.Works * p.Manifests,
		Idle: p.Idle.String(), Machine: thisMachine()}
	h, err := newHarness(ctx, e, p)
	if err != nil {
		t.Fatal(err)
	}
	defer h.close()
	dir := t.TempDir()
	drivers := []func() (*ceDriver, error){
		func() (*ceDriver, error) { return h.kubeDriver(e, dir) },
		func() (*ceDriver, error) { return h.mqttDriver(ctx, e, brokerBinary, dir) },
	}
	for _, newDriver := range drivers {
		d, err := newDriver()
		if err != nil {
			t.Fatal(err)
		}
		res := h.measureDriver(ctx, t, d, out)
		d.stop()
		r.Drivers = append(r.Drivers, res)
		for _, msg := range res.Errors {
			t.Errorf("%s: %s", d.name, msg)
		}
		if err := h.reset(ctx); err != nil {
			t.Fatalf("cleaning up after %s: %v", d.name, err)
		}
		// The applied objects are owned by the AppliedManifestWorks that
		// reset deleted: the managed cluster's garbage collector reads them
		// for a while after. The next driver's background window must not
		// take that in as the cluster's own steady traffic.
		if _, err := h.waitQuiet(ctx, nil); err != nil {
			t.Fatalf("waiting for the clusters to settle after %s: %v", d.name, err)
		}
	}
	r.Machine.LoadAfter = loadAvg()
	r.Table = tableOf(r.rows(), r.Drivers)
	path, err := writeReport(out, "cloudevents-"+r.Started.Format("20060102-150405"), r, r.text())
	if err != nil {
		t.Error(err)
	}
	fmt.Printf("\n%s\nbench: written %s (and .txt)\n", r.text(), path)
}

// agentFlags are the flags of every agent of TestCloudEvents but the
// source's: as defaultAgent, no lease and no listeners.
const agentFlags = " --disable-leader-election --health-probe-bind-address=0 --listen=0"

// kubeDriver is our agent reaching the hub's kube-apiserver through the
// proxy, with a copy of the hub kubeconfig that names the proxy.
func (h *harness) kubeDriver(e *framework.E2E, dir string) (*ceDriver, error) {
	server, err := url.Parse(e.Hub.Config.Host)
	if err != nil {
		return nil, err
	}
	proxy, err := startWireProxy(server.Host, false)
	if err != nil {
		return nil, err
	}
	kubeconfig, err := proxiedKubeconfig(e.Hub.Kubeconfig, "https://"+proxy.addr(), filepath.Join(dir, "hub-via-proxy.kubeconfig"))
	if err != nil {
		proxy.close()
		return nil, err
	}
	return &ceDriver{
		name: "kube",
		command: fmt.Sprintf("%s agent --spoke-cluster-name=%s --hub-kubeconfig=%s --kubeconfig=%s",
			e.WorkBinary, clusterName, kubeconfig, managedCluster(e).Kubeconfig) + agentFlags,
		proxy:  proxy,
		warmup: h.warmup,
		apply:  h.createWorks,
		done:   h.countConverged,
		wait: func(ctx context.Context, exited <-chan struct{}, cond func() bool) error {
			return waitUntil(ctx, h.params.Timeout, exited, cond, h.works)
		},
		stop: proxy.close,
	}, nil
}

// proxiedKubeconfig writes a copy of kubeconfig whose clusters are at
// server, and returns its path. The server's certificate still verifies:
// it is for 127.0.0.1, and so is the proxy.
func proxiedKubeconfig(kubeconfig, server, path string) (string, error) {
	config, err := clientcmd.LoadFromFile(kubeconfig)
	if err != nil {
		return "", err
	}
	for _, c := range config.Clusters {
		c.Server = server
	}
	return path, clientcmd.WriteToFile(*config, path)
}

// pokingLink is a source's link that pokes after each event the source
// has taken in, so that waits follow statuses as they arrive.
type pokingLink struct {
	framework.SourceLink
	poke chan struct{}
}

func (l pokingLink) Run(ctx context.Context, receive func(cloudevents.Event)) {
	l.SourceLink.Run(ctx, func(e cloudevents.Event) {
		receive(e)
		select {
		case l.poke <- struct{}{}:
		default:
		}
	})
}

// mqttDriver starts the broker, the source on it and the proxy in front of
// it, and is our agent with --workload-source-driver=mqtt through the proxy.
func (h *harness) mqttDriver(ctx context.Context, e *framework.E2E, brokerBinary, dir string) (*ceDriver, error) {
	broker, err := e.StartMQTTBroker(brokerBinary)
	if err != nil {
		return nil, err
	}
	proxy, err := startWireProxy(broker.Addr, true)
	if err != nil {
		_, _ = broker.Stop(10 * time.Second)
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := func() {
		cancel()
		proxy.close()
		_, _ = broker.Stop(10 * time.Second)
	}
	link, err := framework.NewMQTTSourceLink(ctx, broker.Addr, ceSourceID)
	if err != nil {
		stop()
		return nil, err
	}
	poke := make(chan struct{}, 1)
	source := framework.NewSource(ceSourceID, pokingLink{SourceLink: link, poke: poke})
	go source.Run(ctx)
	config, err := framework.WriteMQTTConfig(dir, proxy.addr(), ceSourceID)
	if err != nil {
		stop()
		return nil, err
	}
	s := &mqttSource{h: h, source: source, poke: poke, versions: map[string]int64{}}
	return &ceDriver{
		name: "mqtt",
		command: fmt.Sprintf("%s agent --spoke-cluster-name=%s --kubeconfig=%s --workload-source-driver=mqtt --workload-source-config=%s",
			e.WorkBinary, clusterName, managedCluster(e).Kubeconfig, config) + agentFlags,
		proxy:     proxy,
		brokerPID: broker.Pid(),
		warmup:    s.warmup,
		apply:     s.apply,
		done:      s.done,
		wait:      s.wait,
		stop:      stop,
	}, nil
}

// mqttSource is the bench's side of the MQTT driver: the source and the
// version it sent of each work.
type mqttSource struct {
	h      *harness
	source *framework.Source
	poke   chan struct{}

	mu       sync.Mutex
	versions map[string]int64 // by resource id
}

func (s *mqttSource) send(ctx context.Context, work *workv1.ManifestWork) error {
	version, err := s.source.Apply(ctx, work)
	if err != nil {
		return fmt.Errorf("send work %s: %w", work.Name, err)
	}
	s.mu.Lock()
	s.versions[fixture.ResourceID(work)] = version
	s.mu.Unlock()
	return nil
}

// apply sends the works' specs with a few parallel workers.
func (s *mqttSource) apply(ctx context.Context, works []*workv1.ManifestWork) error {
	return inParallel(len(works), createWorkers, func(i int) error { return s.send(ctx, works[i]) })
}

// converged tells whether the source holds the status of the version it
// sent last of the work, Applied and Available.
func (s *mqttSource) converged(id string) bool {
	s.mu.Lock()
	version, ok := s.versions[id]
	s.mu.Unlock()
	st, has := s.source.Status(id)
	return ok && has && statusConverged(st, version)
}

func (s *mqttSource) done() int {
	s.mu.Lock()
	ids := make([]string, 0, len(s.versions))
	for id := range s.versions {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	n := 0
	for _, id := range ids {
		if strings.HasPrefix(id, coldPrefix) && s.converged(id) {
			n++
		}
	}
	return n
}

func (s *mqttSource) wait(ctx context.Context, exited <-chan struct{}, cond func() bool) error {
	return waitFor(ctx, s.h.params.Timeout, exited, cond, s.poke)
}

// warmup is the harness's warm-up through the source: one small work
// applied, deleted, and gone from the source and the cluster. It starts
// once the agent has asked for the specs, which it does when it has
// subscribed: a spec sent before that would reach no subscriber.
func (s *mqttSource) warmup(ctx context.Context, exited <-chan struct{}) error {
	const name = "warmup"
	if err := s.wait(ctx, exited, func() bool { return s.source.Resyncs() > 0 }); err != nil {
		return fmt.Errorf("the agent did not ask for the specs: %w", err)
	}
	work := fixture.NewWork(clusterName, name).
		WithManifest(fixture.ConfigMap(benchNamespace, name, map[string]string{"v": "1"})).Build()
	if err := s.send(ctx, work); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	if err := s.wait(ctx, exited, func() bool { return s.converged(name) }); err != nil {
		return fmt.Errorf("warm-up work not applied: %w", err)
	}
	if err := s.source.Delete(ctx, clusterName, name); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	if err := s.wait(ctx, exited, func() bool { return !s.source.Has(name) }); err != nil {
		return fmt.Errorf("warm-up work not deleted: %w", err)
	}
	s.mu.Lock()
	delete(s.versions, name)
	s.mu.Unlock()
	return waitUntil(ctx, s.h.params.Timeout, exited, func() bool { return s.h.configMap(name) == nil }, s.h.configMaps)
}

// statusConverged tells whether a status is of the version and has
// Applied and Available true for it.
func statusConverged(st fixture.Status, version int64) bool {
	if st.Version != version {
		return false
	}
	for _, c := range []string{workv1.WorkApplied, workv1.WorkAvailable} {
		cond := apimeta.FindStatusCondition(st.Status.Conditions, c)
		if cond == nil || cond.Status != metav1.ConditionTrue || cond.ObservedGeneration != version {
			return false
		}
	}
	return true
}

// measureDriver runs the agent on the driver through warm-up, cold apply,
// idle and drift on every object. A failed phase ends the measurement.
func (h *harness) measureDriver(ctx context.Context, t *testing.T, d *ceDriver, out string) (res ceResult) {
	res = ceResult{Driver: d.name, Command: d.command, Log: filepath.Join(out, "cloudevents-"+d.name+"-agent.log")}
	t.Logf("%s: measuring the clusters' background for %s", d.name, h.params.Baseline)
	if err := h.measureBackground(ctx, h.params.Baseline); err != nil {
		res.Errors = append(res.Errors, err.Error())
		return res
	}
	res.Background = map[string]map[string]float64{"hub": rates(h.hub.background), "managed": rates(h.spoke.background)}
	_ = os.Remove(res.Log)
	agent, err := startAgentProcess(d.command, res.Log)
	if err != nil {
		res.Errors = append(res.Errors, err.Error())
		return res
	}
	defer func() {
		if err := agent.stop(agentStopTimeout); err != nil {
			res.Errors = append(res.Errors, err.Error())
		}
	}()
	exited, pid := agent.exited(), agent.pid()
	phases := []struct {
		name string
		run  func() error
	}{
		{"warm-up", func() error { return d.warmup(ctx, exited) }},
		{"cold apply", func() (err error) { res.Cold, err = h.ceCold(ctx, d, exited, pid); return err }},
		{"idle", func() (err error) { res.Idle, err = h.ceIdle(ctx, d, exited); return err }},
		{"drift on every object", func() (err error) { res.Drift, err = h.ceDrift(ctx, d, exited, pid); return err }},
	}
	for _, phase := range phases {
		began := time.Now()
		t.Logf("%s: %s", d.name, phase.name)
		if err := phase.run(); err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("%s: %v (agent log: %s)", phase.name, err, res.Log))
			break
		}
		t.Logf("%s: %s done in %s", d.name, phase.name, time.Since(began).Round(time.Millisecond))
	}
	if stats, err := readProcStats(pid); err != nil {
		res.Errors = append(res.Errors, "process stats: "+err.Error())
	} else {
		res.Process = &stats
	}
	return res
}

// ceMark is the state of the counters as a phase starts.
type ceMark struct {
	win    window
	cpu    cpuUse
	broker float64
	wire   wireCount
}

func (h *harness) ceMark(ctx context.Context, d *ceDriver, pid int) (ceMark, error) {
	var m ceMark
	var err error
	if m.win, err = h.openWindow(ctx); err != nil {
		return m, err
	}
	if m.cpu, err = h.cpu(pid); err != nil {
		return m, err
	}
	if d.brokerPID != 0 {
		if m.broker, err = cpuSeconds(d.brokerPID); err != nil {
			return m, err
		}
	}
	m.wire = d.proxy.snapshot()
	return m, nil
}

// ceClose is a phase of elapsed seconds over objects, from start to now.
func (h *harness) ceClose(ctx context.Context, d *ceDriver, pid int, start ceMark, elapsed time.Duration, objects int) (*cePhase, error) {
	end, err := h.ceMark(ctx, d, pid)
	if err != nil {
		return nil, err
	}
	ph := &cePhase{Objects: objects, Seconds: elapsed.Seconds(), CPU: end.cpu.minus(start.cpu),
		BrokerCPU: end.broker - start.broker, Wire: end.wire.minus(start.wire)}
	ph.hub, ph.managed, _ = h.between(start.win, end.win)
	ph.Hub, ph.Managed = ph.hub.byKey(), ph.managed.byKey()
	if objects > 0 {
		ph.WireBytesPerObject = float64(ph.Wire.total()) / float64(objects)
		ph.HubBodyBytesPerObject = sentBetween(start.win.hub, end.win.hub).total() / float64(objects)
	}
	return ph, nil
}

// ceCold sends W works of M ConfigMaps and measures the time from the
// first until every work's status is back, Applied and Available.
func (h *harness) ceCold(ctx context.Context, d *ceDriver, exited <-chan struct{}, pid int) (*cePhase, error) {
	w, m := h.params.Works, h.params.Manifests
	works := make([]*workv1.ManifestWork, w)
	for i := range works {
		works[i] = coldWork(i, m)
	}
	start, err := h.ceMark(ctx, d, pid)
	if err != nil {
		return nil, err
	}
	began := time.Now()
	if err := d.apply(ctx, works); err != nil {
		return nil, err
	}
	err = d.wait(ctx, exited, func() bool { return d.done() == w })
	elapsed := time.Since(began)
	if err != nil {
		return nil, fmt.Errorf("%d of %d works converged: %w", d.done(), w, err)
	}
	return h.ceClose(ctx, d, pid, start, elapsed, w*m)
}

// ceIdle counts, over the idle window, the requests of both clusters and
// what went between the agent and its hub or broker.
func (h *harness) ceIdle(ctx context.Context, d *ceDriver, exited <-chan struct{}) (*ceIdle, error) {
	before := d.proxy.snapshot()
	requests, err := h.idle(ctx, exited, h.params.Idle)
	if err != nil {
		return nil, err
	}
	return &ceIdle{Requests: requests, Wire: d.proxy.snapshot().minus(before)}, nil
}

// ceDrift modifies every applied ConfigMap, a few at a time, and measures
// the time from the first change until all are restored.
func (h *harness) ceDrift(ctx context.Context, d *ceDriver, exited <-chan struct{}, pid int) (*cePhase, error) {
	var targets []*driftTarget
	for i := range h.params.Works {
		for m := range h.params.Manifests {
			name := coldConfigMapName(i, m)
			cm := h.configMap(name)
			if cm == nil {
				return nil, fmt.Errorf("%s is not in the cache", name)
			}
			targets = append(targets, &driftTarget{name: name, uid: string(cm.UID), notRVs: []string{cm.ResourceVersion}})
		}
	}
	start, err := h.ceMark(ctx, d, pid)
	if err != nil {
		return nil, err
	}
	cms := h.spokeKube.CoreV1().ConfigMaps(benchNamespace)
	began := time.Now()
	err = inParallel(len(targets), createWorkers, func(i int) error {
		target := targets[i]
		cm := h.configMap(target.name).DeepCopy()
		cm.Data["value"] = "drifted"
		updated, err := cms.Update(ctx, cm, metav1.UpdateOptions{})
		if err != nil {
			return fmt.Errorf("modify %s: %w", target.name, err)
		}
		h.driftMu.Lock()
		target.notRVs = append(target.notRVs, updated.ResourceVersion)
		target.changed = time.Now()
		h.driftMu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	changes := time.Since(began)
	err = h.waitRestored(ctx, exited, targets)
	elapsed := time.Since(began)
	if err != nil {
		return nil, err
	}
	ph, err := h.ceClose(ctx, d, pid, start, elapsed, len(targets))
	if ph != nil {
		ph.ChangesSeconds = changes.Seconds()
	}
	return ph, err
}

// rows are the table of TestCloudEvents, one column per driver.
func (r *ceReport) rows() []rowOf[ceResult] {
	phase := func(of func(*ceResult) *cePhase, show func(*cePhase) string) func(*ceResult) (string, string) {
		return func(a *ceResult) (string, string) {
			if p := of(a); p != nil {
				return show(p), ""
			}
			return "-", ""
		}
	}
	cold := func(a *ceResult) *cePhase { return a.Cold }
	drift := func(a *ceResult) *cePhase { return a.Drift }
	idle := func(show func(a *ceResult, i *ceIdle) (string, string)) func(*ceResult) (string, string) {
		return func(a *ceResult) (string, string) {
			if a.Idle == nil {
				return "-", ""
			}
			return show(a, a.Idle)
		}
	}
	perPhase := func(name string, of func(*ceResult) *cePhase) []rowOf[ceResult] {
		return []rowOf[ceResult]{
			{name + ": agent CPU (per 1,000 objects)", "", "", phase(of, func(p *cePhase) string {
				return fmt.Sprintf("%.2f s (%.2f s)", p.CPU.Agents, p.CPU.Agents*1000/float64(p.Objects))
			})},
			{name + ": kube-apiserver CPU, managed + hub; MQTT broker CPU", "", "", phase(of, func(p *cePhase) string {
				return fmt.Sprintf("%.2f + %.2f s; %.2f s", p.CPU.ManagedAPIServer, p.CPU.HubAPIServer, p.BrokerCPU)
			})},
			{name + ": bytes between agent and hub or broker per object (sent + received)", "", "", phase(of, func(p *cePhase) string {
				return fmt.Sprintf("%.0f + %.0f B", float64(p.Wire.Up)/float64(p.Objects), float64(p.Wire.Down)/float64(p.Objects))
			})},
			{name + ": request bodies the hub's kube-apiserver read, per object", "", "", phase(of, func(p *cePhase) string {
				return fmt.Sprintf("%.0f B", p.HubBodyBytesPerObject)
			})},
			{name + ": MQTT packets agent -> broker | broker -> agent", "", "", phase(of, func(p *cePhase) string {
				return formatCounts(p.Wire.UpPackets) + " | " + formatCounts(p.Wire.DownPackets)
			})},
			{name + ": requests by verb (managed | hub)", "", "", phase(of, func(p *cePhase) string {
				return p.managed.byVerb() + " | " + p.hub.byVerb()
			})},
		}
	}
	rows := []rowOf[ceResult]{
		{fmt.Sprintf("cold apply, %d works x %d ConfigMaps: until every status is back, Applied and Available", r.Works, r.Manifests), "", "",
			phase(cold, func(p *cePhase) string { return sec(p.Seconds) })},
	}
	rows = append(rows, perPhase("cold", cold)...)
	rows = append(rows, []rowOf[ceResult]{
		{fmt.Sprintf("idle %s: messages to or from the hub or broker beyond the keep-alive (MQTT packets; kube: GET, LIST and writes)", r.Idle), "0", "0",
			idle(func(a *ceResult, i *ceIdle) (string, string) {
				n := i.beyondKeepAlive(a.Driver)
				return fmt.Sprint(n), met(n == 0)
			})},
		{"idle: keep-alive packets (PINGREQ + PINGRESP)", "", "", idle(func(a *ceResult, i *ceIdle) (string, string) {
			if a.Driver != "mqtt" {
				return "-", ""
			}
			return fmt.Sprintf("%d + %d", i.Wire.UpPackets["PINGREQ"], i.Wire.DownPackets["PINGRESP"]), ""
		})},
		{"idle: bytes between agent and hub or broker (sent + received)", "", "", idle(func(_ *ceResult, i *ceIdle) (string, string) {
			return fmt.Sprintf("%d + %d B", i.Wire.Up, i.Wire.Down), ""
		})},
		{"idle: requests by verb (managed | hub)", "", "", idle(func(_ *ceResult, i *ceIdle) (string, string) {
			return i.Requests.managed.byVerb() + " | " + i.Requests.hub.byVerb(), ""
		})},
		{fmt.Sprintf("drift, all %d ConfigMaps modified: until all restored; the bench's changes took", r.Objects), "", "",
			phase(drift, func(p *cePhase) string { return sec(p.Seconds) + "; " + sec(p.ChangesSeconds) })},
	}...)
	rows = append(rows, perPhase("drift", drift)...)
	return append(rows, []rowOf[ceResult]{
		{"peak RSS (VmHWM) / CPU seconds, whole run", "", "", func(a *ceResult) (string, string) {
			if a.Process == nil {
				return "-", ""
			}
			return fmt.Sprintf("%.1f MB / %.1f s", a.Process.PeakRSSMB, a.Process.CPUSeconds), ""
		}},
	}...)
}

// text renders the table, the drivers side by side, then the errors.
func (r *ceReport) text() string {
	header := fmt.Sprintf("cloudevents bench: %d works x %d ConfigMaps = %d objects, idle %s; %s",
		r.Works, r.Manifests, r.Objects, r.Idle, r.Machine)
	return renderReport(header, r.Table, r.Drivers, func(a *ceResult) (string, []string, string) {
		return a.Driver, a.Errors, "log " + a.Log
	})
}

func TestCEIdleBeyondKeepAlive(t *testing.T) {
	hub := counts{{Verb: "PATCH", Resource: "manifestworks", Subresource: "status"}: 1, {Verb: "GET", Resource: "manifestworks"}: 2, {Verb: "WATCH", Resource: "manifestworks"}: 1}
	managed := counts{{Verb: "PATCH", Resource: "appliedmanifestworks"}: 5}
	idle := &ceIdle{Requests: &idleResult{hub: hub, managed: managed},
		Wire: wireCount{UpPackets: map[string]int{"PINGREQ": 12, "PUBLISH": 1}, DownPackets: map[string]int{"PINGRESP": 12, "PUBACK": 1}}}
	if got := idle.beyondKeepAlive("mqtt"); got != 2 {
		t.Errorf("mqtt: %d, want the PUBLISH and its PUBACK", got)
	}
	if got := idle.beyondKeepAlive("kube"); got != 3 {
		t.Errorf("kube: %d, want the hub's writes and reads, not its watches nor the managed cluster's requests", got)
	}
}
