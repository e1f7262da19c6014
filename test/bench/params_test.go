//go:build linux

package bench

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// defaultAgent is our agent with its default client limits (QPS 50, burst
// 100). Leader election is off so that the agent touches no lease, and the
// health endpoints (plain and HTTPS) are off so that they cannot collide with
// other processes on the shared machine.
const defaultAgent = "ours={{.WorkBinary}} agent --spoke-cluster-name={{.ClusterName}}" +
	" --hub-kubeconfig={{.HubKubeconfig}} --kubeconfig={{.Kubeconfig}}" +
	" --disable-leader-election --health-probe-bind-address=0 --listen=0"

// params are the knobs of a run, all from the environment.
type params struct {
	Works             int           // BENCH_WORKS: works in cold apply
	Manifests         int           // BENCH_MANIFESTS: ConfigMaps per work
	Idle              time.Duration // BENCH_IDLE: idle window after convergence
	Baseline          time.Duration // BENCH_BASELINE: window measuring what the clusters do without an agent
	QPS               float64       // BENCH_QPS: the agent's managed-cluster client QPS, for the cold-apply target
	Out               string        // BENCH_OUT: folder for the JSON and the table
	FeedbackSamples   int           // BENCH_FEEDBACK_SAMPLES: scales per scrape type (and health samples)
	HealthDeployments int           // BENCH_HEALTH_DEPLOYMENTS: Deployments tracked for health
	PollInterval      time.Duration // BENCH_POLL_INTERVAL: the agent's status-sync interval, to spread Poll samples over its phase
	Timeout           time.Duration // BENCH_TIMEOUT: bound of each convergence wait
	Fleet             fleetParams   // BENCH_FLEET_*: the many-clusters phase (TestFleet)
	Rollout           rolloutParams // BENCH_ROLLOUT_*: a replica set's rollout to many clusters (TestRollout)
	CloudEvents       bool          // BENCH_CLOUDEVENTS: 0 skips TestCloudEvents (the kube and MQTT drivers side by side)
	Agents            []agentSpec   // BENCH_AGENTS: name=command;name=command
}

// fleetParams size the many-clusters phase (TestFleet): one agent process per
// simulated managed cluster, all against the one hub and sharing cluster1.
type fleetParams struct {
	Agents    int // BENCH_FLEET_AGENTS: simulated clusters, one agent each; 0 skips the phase
	Works     int // BENCH_FLEET_WORKS: works per cluster
	Manifests int // BENCH_FLEET_MANIFESTS: ConfigMaps per work
	Batch     int // BENCH_FLEET_BATCH: agents started together, each batch ready before the next
}

// rolloutParams size the rollout phase (TestRollout): one ManifestWorkReplicaSet
// rolled out to Clusters simulated clusters by each hub controller in turn.
type rolloutParams struct {
	Clusters    int         // BENCH_ROLLOUT_CLUSTERS: clusters the placement selects; 0 skips the phase
	Controllers []agentSpec // BENCH_ROLLOUT_CONTROLLERS: name=command;name=command
}

// agentSpec is one named agent command template.
type agentSpec struct {
	Name    string
	Command string
	tmpl    *template.Template
}

// agentVars are the placeholders an agent command may use.
type agentVars struct {
	HubKubeconfig string
	Kubeconfig    string
	ClusterName   string
	WorkBinary    string
}

// render fills the placeholders of the command from v (agentVars, or
// rolloutVars for a hub controller).
func (a agentSpec) render(v any) (string, error) {
	var b bytes.Buffer
	if err := a.tmpl.Execute(&b, v); err != nil {
		return "", fmt.Errorf("agent %s: %w", a.Name, err)
	}
	return b.String(), nil
}

func loadParams(getenv func(string) string) (params, error) {
	p := params{
		Works: 100, Manifests: 20, Idle: 60 * time.Second, Baseline: 15 * time.Second,
		QPS: 50, Out: "", FeedbackSamples: 5, HealthDeployments: 1000, PollInterval: 10 * time.Second, Timeout: 10 * time.Minute,
		Fleet:   fleetParams{Agents: 50, Works: 10, Manifests: 10, Batch: 20},
		Rollout: rolloutParams{Clusters: 200}, CloudEvents: true,
	}
	var errs []string
	atLeast := func(least int) func(name string, dst *int) {
		return func(name string, dst *int) {
			if s := getenv(name); s != "" {
				n, err := strconv.Atoi(s)
				if err != nil || n < least {
					errs = append(errs, fmt.Sprintf("%s=%q: want an integer >= %d", name, s, least))
					return
				}
				*dst = n
			}
		}
	}
	intVar := atLeast(1)
	durVar := func(name string, dst *time.Duration) {
		if s := getenv(name); s != "" {
			d, err := time.ParseDuration(s)
			if err != nil || d < 0 {
				errs = append(errs, fmt.Sprintf("%s=%q: want a duration such as 60s", name, s))
				return
			}
			*dst = d
		}
	}
	intVar("BENCH_WORKS", &p.Works)
	intVar("BENCH_MANIFESTS", &p.Manifests)
	intVar("BENCH_FEEDBACK_SAMPLES", &p.FeedbackSamples)
	intVar("BENCH_HEALTH_DEPLOYMENTS", &p.HealthDeployments)
	atLeast(0)("BENCH_FLEET_AGENTS", &p.Fleet.Agents)
	intVar("BENCH_FLEET_WORKS", &p.Fleet.Works)
	intVar("BENCH_FLEET_MANIFESTS", &p.Fleet.Manifests)
	intVar("BENCH_FLEET_BATCH", &p.Fleet.Batch)
	atLeast(0)("BENCH_ROLLOUT_CLUSTERS", &p.Rollout.Clusters)
	durVar("BENCH_IDLE", &p.Idle)
	durVar("BENCH_BASELINE", &p.Baseline)
	durVar("BENCH_TIMEOUT", &p.Timeout)
	durVar("BENCH_POLL_INTERVAL", &p.PollInterval)
	switch s := getenv("BENCH_CLOUDEVENTS"); s {
	case "", "1":
	case "0":
		p.CloudEvents = false
	default:
		errs = append(errs, fmt.Sprintf("BENCH_CLOUDEVENTS=%q: want 0 or 1", s))
	}
	if p.PollInterval <= 0 {
		errs = append(errs, "BENCH_POLL_INTERVAL must be positive")
	}
	if s := getenv("BENCH_QPS"); s != "" {
		q, err := strconv.ParseFloat(s, 64)
		if err != nil || q <= 0 {
			errs = append(errs, fmt.Sprintf("BENCH_QPS=%q: want a positive number", s))
		}
		p.QPS = q
	}
	p.Out = getenv("BENCH_OUT")
	agents := getenv("BENCH_AGENTS")
	if agents == "" {
		agents = defaultAgent
	}
	var err error
	if p.Agents, err = parseAgents(agents); err != nil {
		errs = append(errs, err.Error())
	}
	controllers := getenv("BENCH_ROLLOUT_CONTROLLERS")
	if controllers == "" {
		controllers = defaultRolloutControllers(getenv(envOCMBinary))
	}
	if p.Rollout.Controllers, err = parseCommands("BENCH_ROLLOUT_CONTROLLERS", controllers); err != nil {
		errs = append(errs, err.Error())
	}
	if len(errs) > 0 {
		return p, fmt.Errorf("bench parameters: %s", strings.Join(errs, "; "))
	}
	return p, nil
}

// parseAgents reads BENCH_AGENTS.
func parseAgents(s string) ([]agentSpec, error) { return parseCommands("BENCH_AGENTS", s) }

// parseCommands reads "name=command;name=command", the value of variable.
// A command runs through `sh -c 'exec …'`, so it may hold shell quoting, but
// no ';'.
func parseCommands(variable, s string) ([]agentSpec, error) {
	var agents []agentSpec
	seen := map[string]bool{}
	for part := range strings.SplitSeq(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, command, ok := strings.Cut(part, "=")
		name, command = strings.TrimSpace(name), strings.TrimSpace(command)
		if !ok || name == "" || command == "" || strings.ContainsAny(name, " /") {
			return nil, fmt.Errorf("%s: %q is not name=command", variable, part)
		}
		if seen[name] {
			return nil, fmt.Errorf("%s: %q appears twice", variable, name)
		}
		seen[name] = true
		tmpl, err := template.New(name).Option("missingkey=error").Parse(command)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", variable, name, err)
		}
		agents = append(agents, agentSpec{Name: name, Command: command, tmpl: tmpl})
	}
	if len(agents) == 0 {
		return nil, fmt.Errorf("%s: no command", variable)
	}
	return agents, nil
}

// The parameters are plain parsing, checked without clusters.
func TestParams(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		wantErr string
		check   func(t *testing.T, p params)
	}{
		{name: "defaults", check: func(t *testing.T, p params) {
			if p.Works != 100 || p.Manifests != 20 || p.Idle != time.Minute || p.QPS != 50 || len(p.Agents) != 1 || p.Agents[0].Name != "ours" {
				t.Errorf("defaults: %+v", p)
			}
		}},
		{name: "sizes", env: map[string]string{"BENCH_WORKS": "5", "BENCH_MANIFESTS": "4", "BENCH_IDLE": "10s", "BENCH_QPS": "20"},
			check: func(t *testing.T, p params) {
				if p.Works != 5 || p.Manifests != 4 || p.Idle != 10*time.Second || p.QPS != 20 {
					t.Errorf("sizes: %+v", p)
				}
			}},
		{name: "two agents", env: map[string]string{"BENCH_AGENTS": "ours={{.WorkBinary}} agent --x=1; other=/bin/agent --hub={{.HubKubeconfig}}"},
			check: func(t *testing.T, p params) {
				if len(p.Agents) != 2 || p.Agents[1].Name != "other" || p.Agents[0].Command != "{{.WorkBinary}} agent --x=1" {
					t.Errorf("agents: %+v", p.Agents)
				}
				got, err := p.Agents[1].render(agentVars{HubKubeconfig: "/h"})
				if err != nil || got != "/bin/agent --hub=/h" {
					t.Errorf("render: %q %v", got, err)
				}
			}},
		{name: "fleet defaults", check: func(t *testing.T, p params) {
			if p.Fleet != (fleetParams{Agents: 50, Works: 10, Manifests: 10, Batch: 20}) {
				t.Errorf("fleet defaults: %+v", p.Fleet)
			}
		}},
		{name: "fleet sizes", env: map[string]string{"BENCH_FLEET_AGENTS": "5", "BENCH_FLEET_WORKS": "3", "BENCH_FLEET_MANIFESTS": "2", "BENCH_FLEET_BATCH": "4"},
			check: func(t *testing.T, p params) {
				if p.Fleet != (fleetParams{Agents: 5, Works: 3, Manifests: 2, Batch: 4}) {
					t.Errorf("fleet sizes: %+v", p.Fleet)
				}
			}},
		{name: "fleet off", env: map[string]string{"BENCH_FLEET_AGENTS": "0"}, check: func(t *testing.T, p params) {
			if p.Fleet.Agents != 0 {
				t.Errorf("fleet agents: %d", p.Fleet.Agents)
			}
		}},
		{name: "rollout defaults", check: func(t *testing.T, p params) {
			assert.Equal(t, 200, p.Rollout.Clusters)
			require.Len(t, p.Rollout.Controllers, 1, "ours only, without an OCM binary")
			assert.Equal(t, "ours", p.Rollout.Controllers[0].Name)
		}},
		{name: "rollout with OCM's binary", env: map[string]string{envOCMBinary: "/bin/ocm-work"}, check: func(t *testing.T, p params) {
			require.Len(t, p.Rollout.Controllers, 2)
			assert.Equal(t, "ocm", p.Rollout.Controllers[1].Name)
			got, err := p.Rollout.Controllers[1].render(rolloutVars{OCMBinary: "/bin/ocm-work", AdminKubeconfig: "/a", Port: 8443})
			require.NoError(t, err)
			assert.Contains(t, got, "/bin/ocm-work manager ")
			assert.Contains(t, got, "--feature-gates=ManifestWorkReplicaSet=true")
			assert.Contains(t, got, "--kubeconfig=/a")
		}},
		{name: "rollout sizes", env: map[string]string{"BENCH_ROLLOUT_CLUSTERS": "10", "BENCH_ROLLOUT_CONTROLLERS": "a=x {{.HubKubeconfig}};b=y"},
			check: func(t *testing.T, p params) {
				assert.Equal(t, 10, p.Rollout.Clusters)
				require.Len(t, p.Rollout.Controllers, 2)
				got, err := p.Rollout.Controllers[0].render(rolloutVars{HubKubeconfig: "/h"})
				require.NoError(t, err)
				assert.Equal(t, "x /h", got)
			}},
		{name: "rollout off", env: map[string]string{"BENCH_ROLLOUT_CLUSTERS": "0"}, check: func(t *testing.T, p params) {
			assert.Zero(t, p.Rollout.Clusters)
		}},
		{name: "bad rollout size", env: map[string]string{"BENCH_ROLLOUT_CLUSTERS": "-1"}, wantErr: "BENCH_ROLLOUT_CLUSTERS"},
		{name: "rollout controller without name", env: map[string]string{"BENCH_ROLLOUT_CONTROLLERS": "/bin/work hub"}, wantErr: "BENCH_ROLLOUT_CONTROLLERS"},
		{name: "cloudevents by default", check: func(t *testing.T, p params) { assert.True(t, p.CloudEvents) }},
		{name: "cloudevents off", env: map[string]string{"BENCH_CLOUDEVENTS": "0"}, check: func(t *testing.T, p params) {
			assert.False(t, p.CloudEvents)
		}},
		{name: "bad cloudevents switch", env: map[string]string{"BENCH_CLOUDEVENTS": "yes"}, wantErr: "BENCH_CLOUDEVENTS"},
		{name: "bad fleet size", env: map[string]string{"BENCH_FLEET_AGENTS": "-1"}, wantErr: "BENCH_FLEET_AGENTS"},
		{name: "bad fleet works", env: map[string]string{"BENCH_FLEET_WORKS": "0"}, wantErr: "BENCH_FLEET_WORKS"},
		{name: "bad number", env: map[string]string{"BENCH_WORKS": "0"}, wantErr: "BENCH_WORKS"},
		{name: "bad duration", env: map[string]string{"BENCH_IDLE": "ten"}, wantErr: "BENCH_IDLE"},
		{name: "agent without name", env: map[string]string{"BENCH_AGENTS": "/bin/agent"}, wantErr: "not name=command"},
		{name: "duplicate agent", env: map[string]string{"BENCH_AGENTS": "a=x;a=y"}, wantErr: "twice"},
		{name: "unknown placeholder", env: map[string]string{"BENCH_AGENTS": "a={{.Nope}}"}, check: func(t *testing.T, p params) {
			if _, err := p.Agents[0].render(agentVars{}); err == nil {
				t.Error("an unknown placeholder renders")
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := loadParams(func(k string) string { return tc.env[k] })
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, p)
		})
	}
}

// paramsFromEnv reads the parameters of this process.
func paramsFromEnv(t *testing.T) params {
	t.Helper()
	p, err := loadParams(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWithLeaderElection(t *testing.T) {
	for command, want := range map[string]string{
		"work agent --spoke-cluster-name=c1 --disable-leader-election --listen=0": "work agent --spoke-cluster-name=c1 --listen=0",
		"work agent --disable-leader-election":                                    "work agent",
		"other-agent --kubeconfig=k":                                              "other-agent --kubeconfig=k",
	} {
		assert.Equal(t, want, withLeaderElection(command), command)
	}
}
