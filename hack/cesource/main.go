// Command cesource is a work source for the walkthrough of
// docs/deliver-over-cloudevents.md. It plays the part a source such as
// Maestro plays: it sends ManifestWorks to agents as CloudEvents, over an
// MQTT broker or as the gRPC server the agents subscribe to, and it reads
// the status they send back. It is test tooling, built on test/framework's
// Source, not a product.
//
//	go run ./hack/cesource serve --driver mqtt --broker 127.0.0.1:1883
//	go run ./hack/cesource serve --driver grpc --listen 127.0.0.1:8090
//	go run ./hack/cesource apply -f work.yaml
//	go run ./hack/cesource status NAME [--wait Available [--feedback NAME=VALUE]]
//	go run ./hack/cesource delete NAME [--wait]
//
// `serve` runs until interrupted. It keeps its works in a state folder
// (--state, default _output/cesource), so that a restarted `serve` answers
// the agents' spec resync requests with the same works at the same
// resource versions, and asks the agents for their status again. The other
// commands reach the running `serve` over HTTP on 127.0.0.1, at the address
// it writes into the state folder.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	cetypes "github.com/cloudevents/sdk-go/v2/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/cloudevents/grpcserver"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

const usage = `cesource: a work source over MQTT or gRPC, for docs/deliver-over-cloudevents.md

  cesource serve [--driver mqtt --broker HOST:PORT | --driver grpc --listen HOST:PORT] [--source ID]
  cesource apply -f WORK.yaml
  cesource status NAME [--wait CONDITION [--feedback NAME=VALUE]] [--timeout 2m] [-o yaml]
  cesource delete NAME [--wait] [--timeout 2m]

Every command takes --state DIR (default _output/cesource): the folder where
serve keeps its works and the address the other commands reach it at.
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	commands := map[string]func([]string) error{"serve": serve, "apply": apply, "status": status, "delete": remove}
	run, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	if err := run(os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "cesource:", err)
		os.Exit(1)
	}
}

// record is one work as the state folder keeps it.
type record struct {
	Version  int64                `json:"version"`
	Deleting bool                 `json:"deleting,omitempty"`
	Work     *workv1.ManifestWork `json:"work"`
}

// source is a running `serve`: the framework's Source, the link it sends
// through, and the state folder.
type source struct {
	state string
	src   *framework.Source
	link  *link

	mu    sync.Mutex
	works map[string]*record // by name, which is also the resource id
}

// link passes the Source's events to the real link, except while muted:
// restoring the state folder replays the works into the Source without
// sending them. It prints what the agents send.
type link struct {
	inner framework.SourceLink
	muted atomic.Bool
	seen  func(cloudevents.Event)
}

func (l *link) Send(ctx context.Context, cluster string, e cloudevents.Event) error {
	if l.muted.Load() {
		return nil
	}
	return l.inner.Send(ctx, cluster, e)
}

func (l *link) Run(ctx context.Context, receive func(cloudevents.Event)) {
	l.inner.Run(ctx, func(e cloudevents.Event) {
		receive(e)
		l.seen(e)
	})
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	state := stateFlag(fs)
	driver := fs.String("driver", "mqtt", "mqtt (a broker between source and agents) or grpc (this source is the server the agents subscribe to)")
	broker := fs.String("broker", "127.0.0.1:1883", "with --driver mqtt: the broker's host:port")
	listen := fs.String("listen", "127.0.0.1:8090", "with --driver grpc: the host:port to serve gRPC on")
	id := fs.String("source", "maestro", "the source's id: the source of its events and, over MQTT, the second part of its topics")
	_ = fs.Parse(args)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := os.MkdirAll(filepath.Join(*state, "works"), 0o755); err != nil {
		return err
	}
	s := &source{state: *state, works: map[string]*record{}}
	s.link = &link{seen: s.seen}
	switch *driver {
	case "mqtt":
		l, err := framework.NewMQTTSourceLink(ctx, *broker, *id)
		if err != nil {
			return err
		}
		s.link.inner = l
		sourceEvents, agentEvents := framework.MQTTTopics(*id)
		fmt.Printf("source %s: MQTT broker %s, publishing to %s, reading %s\n", *id, *broker, sourceEvents, agentEvents)
	case "grpc":
		server := grpcserver.New()
		addr, err := server.Start(*listen)
		if err != nil {
			return err
		}
		defer server.Stop()
		s.link.inner = framework.GRPCSourceLink{Server: server}
		fmt.Printf("source %s: serving gRPC on %s\n", *id, addr)
	default:
		return fmt.Errorf("--driver %q: mqtt or grpc", *driver)
	}
	s.src = framework.NewSource(*id, s.link)
	if err := s.restore(); err != nil {
		return err
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*state, "serve.addr"), []byte(lis.Addr().String()), 0o600); err != nil {
		return err
	}
	httpServer := &http.Server{Handler: s.handler(ctx), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = httpServer.Serve(lis) }()
	defer httpServer.Close()
	go s.askForStatus(ctx)
	fmt.Printf("ready: apply, status and delete reach this source through %s\n", filepath.Join(*state, "serve.addr"))
	s.src.Run(ctx)
	return nil
}

// restore puts the works of the state folder back into the Source at their
// resource versions, without sending them: the agents hold them already, or
// get them when they ask for a resync.
func (s *source) restore() error {
	files, err := filepath.Glob(filepath.Join(s.state, "works", "*.json"))
	if err != nil {
		return err
	}
	s.link.muted.Store(true)
	defer s.link.muted.Store(false)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		r := &record{}
		if err := json.Unmarshal(data, r); err != nil || r.Work == nil {
			return fmt.Errorf("%s: not a work of cesource: %v", f, err)
		}
		for range r.Version {
			if _, err := s.src.Apply(context.Background(), r.Work); err != nil {
				return err
			}
		}
		if r.Deleting {
			if err := s.src.Delete(context.Background(), r.Work.Namespace, r.Work.Name); err != nil {
				return err
			}
		}
		s.works[r.Work.Name] = r
	}
	if len(files) > 0 {
		fmt.Printf("restored %d works from %s\n", len(files), filepath.Join(s.state, "works"))
	}
	return nil
}

// askForStatus asks the agents of every cluster the source has works for
// for the status the source lacks: after a restart, all of it.
func (s *source) askForStatus(ctx context.Context) {
	s.mu.Lock()
	clusters := map[string]bool{}
	for _, r := range s.works {
		clusters[r.Work.Namespace] = true
	}
	s.mu.Unlock()
	for cluster := range clusters {
		if err := s.src.RequestStatus(ctx, cluster, false); err != nil {
			fmt.Printf("could not ask the agents of %s for status (%v); they send it with their next change\n", cluster, err)
		}
	}
}

// seen prints an event an agent sent, after the Source took it, and drops
// the file of a work the Source forgot.
func (s *source) seen(e cloudevents.Event) {
	now := time.Now().UTC().Format(time.TimeOnly)
	if e.Type() == fixture.SpecResyncType {
		cluster, _ := cetypes.ToString(e.Extensions()["clustername"])
		fmt.Printf("%s %s: the agent %s asked for the specs it misses\n", now, cluster, e.Source())
		return
	}
	st, err := fixture.ReadStatus(e)
	if err != nil {
		fmt.Printf("%s an event of type %s that is not a status: %v\n", now, e.Type(), err)
		return
	}
	fmt.Printf("%s %s/%s: %s at resource version %d: %s\n", now, st.Cluster, st.ResourceID,
		strings.TrimPrefix(e.Type(), "io.open-cluster-management.works.v1alpha1.manifestbundles."), st.Version, conditions(st.Status))
	if e.Type() != fixture.StatusDeleteType || s.src.Has(st.ResourceID) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.works[st.ResourceID]; ok && r.Deleting {
		delete(s.works, st.ResourceID)
		_ = os.Remove(s.file(st.ResourceID))
		fmt.Printf("%s %s/%s: deleted from the cluster; the source forgets it\n", now, st.Cluster, st.ResourceID)
	}
}

func conditions(st workv1.ManifestWorkStatus) string {
	var out []string
	for _, c := range st.Conditions {
		out = append(out, c.Type+"="+string(c.Status))
	}
	if len(out) == 0 {
		return "no conditions yet"
	}
	return strings.Join(out, " ")
}

func (s *source) file(name string) string {
	return filepath.Join(s.state, "works", name+".json")
}

// save writes a work's record, through a temporary file so that a crash
// leaves the old one or the new one.
func (s *source) save(r *record) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp := s.file(r.Work.Name) + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, s.file(r.Work.Name))
}

func (s *source) handler(ctx context.Context) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /apply", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		msg, code := s.apply(ctx, body)
		w.WriteHeader(code)
		fmt.Fprintln(w, msg)
	})
	mux.HandleFunc("POST /delete", func(w http.ResponseWriter, r *http.Request) {
		msg, code := s.delete(ctx, r.URL.Query().Get("name"))
		w.WriteHeader(code)
		fmt.Fprintln(w, msg)
	})
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Query().Get("name")
		s.mu.Lock()
		rec, known := s.works[name]
		view := map[string]any{"known": known}
		if known {
			view["sourceVersion"] = rec.Version
		}
		s.mu.Unlock()
		st, ok := s.src.Status(name)
		if ok {
			view["resourceVersion"] = st.Version
			view["agent"] = st.Source
			view["statusHash"] = st.Hash
			view["status"] = st.Status
		}
		_ = json.NewEncoder(w).Encode(view)
	})
	return mux
}

func (s *source) apply(ctx context.Context, body []byte) (string, int) {
	work := &workv1.ManifestWork{}
	if err := yaml.UnmarshalStrict(body, work); err != nil {
		return "not a ManifestWork: " + err.Error(), http.StatusBadRequest
	}
	if work.Kind != "ManifestWork" {
		return fmt.Sprintf("kind %q: a ManifestWork is expected", work.Kind), http.StatusBadRequest
	}
	if errs := validation.IsDNS1123Label(work.Name); len(errs) > 0 {
		return fmt.Sprintf("metadata.name %q: %s", work.Name, strings.Join(errs, "; ")), http.StatusBadRequest
	}
	if work.Namespace == "" {
		return "metadata.namespace: required, it names the cluster the work is for", http.StatusBadRequest
	}
	// The name is the resource id: this source has one work of a name.
	work.UID = ""
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.works[work.Name]
	switch {
	case ok && r.Work.Namespace != work.Namespace:
		return fmt.Sprintf("this source has a work %s for cluster %s already", work.Name, r.Work.Namespace), http.StatusConflict
	case ok && r.Deleting:
		return fmt.Sprintf("work %s is being deleted; apply it again once it is gone", work.Name), http.StatusConflict
	case !ok:
		r = &record{}
	}
	version, err := s.src.Apply(ctx, work)
	r.Version, r.Work = version, work
	s.works[work.Name] = r
	if serr := s.save(r); serr != nil {
		return serr.Error(), http.StatusInternalServerError
	}
	msg := fmt.Sprintf("manifestwork %s/%s sent at resource version %d", work.Namespace, work.Name, version)
	if err != nil {
		msg = fmt.Sprintf("manifestwork %s/%s kept at resource version %d, not sent now (%v): the agent gets it when it asks for a resync",
			work.Namespace, work.Name, version, err)
	}
	return msg, http.StatusOK
}

func (s *source) delete(ctx context.Context, name string) (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.works[name]
	if !ok {
		return fmt.Sprintf("this source has no work %s", name), http.StatusNotFound
	}
	r.Deleting = true
	if err := s.save(r); err != nil {
		return err.Error(), http.StatusInternalServerError
	}
	if err := s.src.Delete(ctx, r.Work.Namespace, name); err != nil {
		return fmt.Sprintf("manifestwork %s/%s is being deleted, not sent now (%v): the agent gets it when it asks for a resync",
			r.Work.Namespace, name, err), http.StatusOK
	}
	return fmt.Sprintf("manifestwork %s/%s is being deleted", r.Work.Namespace, name), http.StatusOK
}

// The client commands.

func stateFlag(fs *flag.FlagSet) *string {
	return fs.String("state", filepath.Join("_output", "cesource"), "the state folder of serve")
}

// call sends a request to the running serve.
func call(state, method, path string, query url.Values, body []byte) ([]byte, error) {
	addr, err := os.ReadFile(filepath.Join(state, "serve.addr"))
	if err != nil {
		return nil, fmt.Errorf("no serve running with --state %s: %w", state, err)
	}
	u := url.URL{Scheme: "http", Host: strings.TrimSpace(string(addr)), Path: path, RawQuery: query.Encode()}
	req, err := http.NewRequest(method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("serve does not answer at %s: %w", u.Host, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, errors.New(strings.TrimSpace(string(out)))
	}
	return out, nil
}

// parse parses a command's flags, which may come before or after its one
// argument, and returns that argument.
func parse(fs *flag.FlagSet, args []string, argName string) (string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", err
		}
		if fs.NArg() == 0 {
			break
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if argName == "" {
		if len(rest) > 0 {
			return "", fmt.Errorf("unexpected arguments %v", rest)
		}
		return "", nil
	}
	if len(rest) != 1 {
		return "", fmt.Errorf("one %s is expected", argName)
	}
	return rest[0], nil
}

func apply(args []string) error {
	fs := flag.NewFlagSet("apply", flag.ExitOnError)
	state := stateFlag(fs)
	file := fs.String("f", "", "the ManifestWork to send, as YAML or JSON; - reads it from stdin")
	if _, err := parse(fs, args, ""); err != nil {
		return err
	}
	var data []byte
	var err error
	switch *file {
	case "":
		return errors.New("-f is required")
	case "-":
		data, err = io.ReadAll(os.Stdin)
	default:
		data, err = os.ReadFile(*file)
	}
	if err != nil {
		return err
	}
	out, err := call(*state, http.MethodPost, "/apply", nil, data)
	if err != nil {
		return err
	}
	fmt.Print(string(out))
	return nil
}

// statusView is what serve answers for a work's status.
type statusView struct {
	Known           bool                       `json:"known"`
	SourceVersion   int64                      `json:"sourceVersion,omitempty"`
	ResourceVersion *int64                     `json:"resourceVersion,omitempty"`
	Agent           string                     `json:"agent,omitempty"`
	StatusHash      string                     `json:"statusHash,omitempty"`
	Status          *workv1.ManifestWorkStatus `json:"status,omitempty"`
}

func getStatus(state, name string) (statusView, error) {
	var v statusView
	out, err := call(state, http.MethodGet, "/status", url.Values{"name": {name}}, nil)
	if err != nil {
		return v, err
	}
	return v, json.Unmarshal(out, &v)
}

// waitFor polls serve every half second until done says so, or timeout.
func waitFor(state, name string, timeout time.Duration, what string, done func(statusView) bool) (statusView, error) {
	deadline := time.Now().Add(timeout)
	for {
		v, err := getStatus(state, name)
		if err != nil {
			return v, err
		}
		if done(v) {
			return v, nil
		}
		if time.Now().After(deadline) {
			return v, fmt.Errorf("%s: not %s after %s", name, what, timeout)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func status(args []string) error {
	fs := flag.NewFlagSet("status", flag.ExitOnError)
	state := stateFlag(fs)
	wait := fs.String("wait", "", "wait until the agent reports this work condition True, such as Applied or Available, "+
		"for the source's latest resource version")
	timeout := fs.Duration("timeout", 2*time.Minute, "how long --wait waits")
	feedback := fs.String("feedback", "", "with --wait, wait also until a manifest reports this feedback value, as NAME=VALUE")
	output := fs.String("o", "", "yaml: print the whole status")
	name, err := parse(fs, args, "work name")
	if err != nil {
		return err
	}
	v, err := waitFor(*state, name, *timeout, strings.TrimSpace(*wait+" True "+*feedback), func(v statusView) bool {
		if !v.Known || *wait == "" {
			return true
		}
		if v.Status == nil {
			return false
		}
		return hasCondition(v, *wait) && (*feedback == "" || hasFeedback(v, *feedback))
	})
	if err != nil {
		return err
	}
	if !v.Known && v.Status == nil {
		return fmt.Errorf("this source has no work %s", name)
	}
	if v.Status == nil {
		fmt.Printf("work %s: no status from the agent yet\n", name)
		return nil
	}
	if *output == "yaml" {
		out, err := yaml.Marshal(map[string]any{
			"name": name, "agent": v.Agent, "resourceVersion": *v.ResourceVersion, "statusHash": v.StatusHash,
			"conditions": v.Status.Conditions, "resourceStatus": sortedManifests(v.Status.ResourceStatus.Manifests),
		})
		if err != nil {
			return err
		}
		fmt.Print(string(out))
		return nil
	}
	fmt.Printf("%s: status of resource version %d, from %s\n  %s\n", name, *v.ResourceVersion, v.Agent, conditions(*v.Status))
	for _, m := range sortedManifests(v.Status.ResourceStatus.Manifests) {
		line := []string{}
		for _, c := range m.Conditions {
			line = append(line, c.Type+"="+string(c.Status))
		}
		for _, f := range m.StatusFeedbacks.Values {
			line = append(line, f.Name+"="+feedbackValue(f.Value))
		}
		fmt.Printf("  %s %s/%s: %s\n", m.ResourceMeta.Kind, m.ResourceMeta.Namespace, m.ResourceMeta.Name, strings.Join(line, " "))
	}
	return nil
}

func feedbackValue(v workv1.FieldValue) string {
	switch {
	case v.String != nil:
		return *v.String
	case v.Integer != nil:
		return fmt.Sprint(*v.Integer)
	case v.Boolean != nil:
		return fmt.Sprint(*v.Boolean)
	case v.JsonRaw != nil:
		return *v.JsonRaw
	}
	return "?"
}

// hasCondition tells whether the status has the condition True for the
// source's latest resource version.
func hasCondition(v statusView, condition string) bool {
	for _, c := range v.Status.Conditions {
		if c.Type == condition && c.Status == "True" && c.ObservedGeneration == v.SourceVersion {
			return true
		}
	}
	return false
}

// hasFeedback tells whether a manifest reports the feedback value NAME=VALUE.
func hasFeedback(v statusView, want string) bool {
	for _, m := range v.Status.ResourceStatus.Manifests {
		for _, f := range m.StatusFeedbacks.Values {
			if f.Name+"="+feedbackValue(f.Value) == want {
				return true
			}
		}
	}
	return false
}

func sortedManifests(m []workv1.ManifestCondition) []workv1.ManifestCondition {
	sort.SliceStable(m, func(i, j int) bool { return m[i].ResourceMeta.Ordinal < m[j].ResourceMeta.Ordinal })
	return m
}

func remove(args []string) error {
	fs := flag.NewFlagSet("delete", flag.ExitOnError)
	state := stateFlag(fs)
	wait := fs.Bool("wait", false, "wait until the agent has deleted the work's objects and the source forgot the work")
	timeout := fs.Duration("timeout", 2*time.Minute, "how long --wait waits")
	name, err := parse(fs, args, "work name")
	if err != nil {
		return err
	}
	out, err := call(*state, http.MethodPost, "/delete", url.Values{"name": {name}}, nil)
	if err != nil {
		return err
	}
	fmt.Print(string(out))
	if !*wait {
		return nil
	}
	if _, err := waitFor(*state, name, *timeout, "deleted", func(v statusView) bool { return !v.Known }); err != nil {
		return err
	}
	fmt.Printf("manifestwork %s is deleted\n", name)
	return nil
}
