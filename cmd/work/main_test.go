package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/cli"
)

func execute(args ...string) (string, error) {
	root := newRootCommand("work")
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

func TestSubcommands(t *testing.T) {
	var names []string
	for _, c := range newRootCommand("work").Commands() {
		names = append(names, c.Name())
	}
	assert.ElementsMatch(t, []string{"agent", "hub", "manager", "webhook-server", "version", "fleet"}, names)
}

func TestErrors(t *testing.T) {
	tests := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"agent"}, "--spoke-cluster-name is required; --hub-kubeconfig is required"},
		{[]string{"agent", "--bogus"}, "unknown flag: --bogus (see 'work agent --help')"},
		{[]string{"hub", "extra"}, `unknown command "extra" for "work hub"`},
		{[]string{"hub", "--kube-api-qps=0", "--health-probe-bind-address=0"}, "--kube-api-qps must be positive, got 0"},
		{[]string{"agent", "--spoke-cluster-name=c1", "--workload-source-driver=grpc", "--workload-source-config=/spoke/hub-kubeconfig/config.yaml",
			"--cloudevents-client-id=c1-work-agent"},
			`--workload-source-config: gRPC config /spoke/hub-kubeconfig/config.yaml: open /spoke/hub-kubeconfig/config.yaml: no such file or directory`},
		{[]string{"agent", "--spoke-cluster-name=c1", "--workload-source-driver=kafka", "--workload-source-config=/spoke/kafka/config.yaml"},
			`--workload-source-driver "kafka" is not supported: the supported drivers are kube (ManifestWorks from the hub's API server), mqtt and grpc (ManifestWorks as CloudEvents)`},
		{[]string{"manager", "--work-driver=grpc", "--cloudevents-client-id=work-controller-x", "--work-driver-config=/var/run/secrets/work/config.yaml"},
			`--work-driver "grpc" is not supported: the only supported driver is kube (ManifestWorks on the hub's API server)`},
		{[]string{"webhook-server", "--port=0"}, "--port 0 is not a valid port"},
		{[]string{"webhook-server", "nonsense"}, `unknown argument "nonsense" for "work webhook-server"`},
		{[]string{"webhook-server", "port=x"}, `invalid argument "x" for "--port" flag: strconv.ParseInt: parsing "x": invalid syntax`},
		{[]string{"manager", "--feature-gates=NoSuchGate=true"},
			"invalid argument \"NoSuchGate=true\" for \"--feature-gates\" flag: unrecognized feature gate: NoSuchGate (see 'work manager --help')"},
	}
	for _, tt := range tests {
		t.Run(tt.wantErr, func(t *testing.T) {
			out, err := execute(tt.args...)
			require.EqualError(t, err, tt.wantErr)
			assert.Empty(t, out, "no usage dump on errors")
		})
	}
}

// OCM's operators run the image with args ["/work", "agent", ...] and no
// command: with the image's entrypoint, the binary's own path comes first.
func TestWithoutOwnPath(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	assert.Equal(t, []string{"agent", "--x"}, withoutOwnPath([]string{self, "agent", "--x"}))
	assert.Equal(t, []string{"agent"}, withoutOwnPath([]string{"agent"}))
	other := filepath.Join(t.TempDir(), "work")
	require.NoError(t, os.WriteFile(other, nil, 0o600))
	assert.Equal(t, []string{other, "agent"}, withoutOwnPath([]string{other, "agent"}), "another file is an argument")
	assert.Equal(t, []string{"/nonexistent/work", "agent"}, withoutOwnPath([]string{"/nonexistent/work", "agent"}))
	assert.Empty(t, withoutOwnPath(nil))
}

// The arguments OCM's ClusterManager renders are accepted as they are; some
// versions render the webhook's port as "port=9443".
func TestClusterManagerArguments(t *testing.T) {
	for _, args := range [][]string{
		{"webhook-server", "--port=9443", "--health-probe-port=8000", "--metrics-port=8080",
			"--feature-gates=NilExecutorValidating=true", "--feature-gates=ManifestWorkReplicaSet=true",
			"--kubeconfig=/var/run/secrets/hub/kubeconfig", "--tls-min-version=VersionTLS12",
			"--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "--manifestLimit=1024"},
		{"webhook-server", "port=9443"},
		{"manager", "--feature-gates=CleanUpCompletedManifestWork=true", "--feature-gates=ManifestWorkReplicaSet=true",
			"--work-driver=kube", "--kubeconfig=/var/run/secrets/hub/kubeconfig", "--tls-min-version=VersionTLS12",
			"--leader-election-lease-duration=15s", "--leader-election-renew-deadline=10s", "--leader-election-retry-period=2s"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			root := newRootCommand("work")
			cmd, rest, err := root.Find(args)
			require.NoError(t, err)
			require.NoError(t, cmd.ParseFlags(rest))
			require.NoError(t, cmd.Args(cmd, cmd.Flags().Args()))
		})
	}
}

func TestFlagAssignments(t *testing.T) {
	cmd := newWebhookServerCommand()
	require.NoError(t, cmd.Args(cmd, []string{"port=9555", "metrics-port=0"}))
	assert.Equal(t, "9555", cmd.Flags().Lookup("port").Value.String())
	assert.Equal(t, "0", cmd.Flags().Lookup("metrics-port").Value.String())
}

func TestOneLine(t *testing.T) {
	assert.Equal(t, `unknown command "x"; Did you mean this?; y`, oneLine("unknown command \"x\"\n\nDid you mean this?\n\ty\n"))
}

// The fleet commands exit 2 on usage errors cobra finds, and as their
// cli.ExitError says otherwise; the other commands exit 1.
func TestExitCodes(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"fleet", "status"}, cli.ExitUsage},
		{[]string{"fleet", "status", "web", "--bogus"}, cli.ExitUsage},
		{[]string{"fleet", "bogus"}, cli.ExitUsage},
		{[]string{"fleet", "status", "web", "-o", "table"}, cli.ExitUsage},
		{[]string{"fleet", "wait", "web", "--for", "ready"}, cli.ExitUsage},
		{[]string{"fleet", "get", "works", "--kubeconfig", "/nonexistent/kubeconfig"}, cli.ExitUsage},
		{[]string{"fleet", "history"}, cli.ExitUsage},
		{[]string{"fleet", "history", "web", "--revision", "-1"}, cli.ExitUsage},
		{[]string{"fleet", "undo", "web", "--to-revision", "-1"}, cli.ExitUsage},
		{[]string{"fleet", "undo", "web", "--to-revision", "x"}, cli.ExitUsage},
		{[]string{"fleet", "undo", "web", "--kubeconfig", "/nonexistent/kubeconfig"}, cli.ExitUsage},
		{[]string{"fleet", "render"}, cli.ExitUsage},
		{[]string{"fleet", "render", "web", "--cluster", ""}, cli.ExitUsage},
		{[]string{"fleet", "diff", "web", "-f", ""}, cli.ExitUsage},
		{[]string{"fleet", "diff", "web", "--kubeconfig", "/nonexistent/kubeconfig"}, cli.ExitUsage},
		{[]string{"agent"}, 1},
		{[]string{"version"}, 0},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			root := newRootCommand("work")
			root.SetOut(io.Discard)
			root.SetErr(io.Discard)
			root.SetArgs(tt.args)
			cmd, err := root.ExecuteContextC(context.Background())
			assert.Equal(t, tt.code, exitCode(cmd, err), "%v", err)
		})
	}
}

// Run as kubectl-work, the binary's help reads `kubectl work`.
func TestPluginName(t *testing.T) {
	root := newRootCommand("/usr/local/bin/kubectl-work")
	cmd, _, err := root.Find([]string{"fleet", "status"})
	require.NoError(t, err)
	assert.Equal(t, "kubectl work fleet status NAME [flags]", cmd.UseLine())
	cmd, _, err = newRootCommand("/usr/local/bin/work").Find([]string{"fleet", "status"})
	require.NoError(t, err)
	assert.Equal(t, "work fleet status NAME [flags]", cmd.UseLine())
}
