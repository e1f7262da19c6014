// Package startuptest runs work processes in tests: parsing their flags,
// starting them until they are ready and reading their probes.
package startuptest

import (
	"context"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	logsapi "k8s.io/component-base/logs/api/v1"
)

// Main runs the tests of a package that calls a process's Run many times.
// Run applies the logging options, which are process-wide; the tests apply
// the same ones again and again.
func Main(m *testing.M) {
	logsapi.ReapplyHandling = logsapi.ReapplyHandlingIgnoreUnchanged
	os.Exit(m.Run())
}

// Parse registers the flags of o on a new flag set, parses args into o and
// returns o.
func Parse[O interface{ AddFlags(*pflag.FlagSet) }](t *testing.T, o O, args ...string) O {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	o.AddFlags(fs)
	require.NoError(t, fs.Parse(args))
	return o
}

// AssertDefaults checks that addFlags registers each flag of want, by name,
// with the default shown in --help.
func AssertDefaults(t *testing.T, addFlags func(*pflag.FlagSet), want map[string]string) *pflag.FlagSet {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	addFlags(fs)
	for name, def := range want {
		f := fs.Lookup(name)
		if assert.NotNil(t, f, "flag --%s", name) {
			assert.Equal(t, def, f.DefValue, "default of --%s", name)
		}
	}
	return fs
}

// RequireError requires err to be exactly want, or no error when want is "".
func RequireError(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		require.NoError(t, err)
		return
	}
	require.EqualError(t, err, want)
}

// FreeAddr returns a local address that was free a moment ago.
func FreeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, ln.Close())
	return ln.Addr().String()
}

// Status GETs url and returns the HTTP status, or 0 when nothing answers.
func Status(url string) int {
	resp, err := http.Get(url)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Start calls run in the background and returns once the process answers
// ready on its health probe address healthAddr. stop cancels run's context
// and returns what run returned.
func Start(t *testing.T, healthAddr string, run func(context.Context) error) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- run(ctx) }()
	t.Cleanup(cancel)
	require.Eventually(t, func() bool { return Status("http://"+healthAddr+"/readyz") == http.StatusOK },
		20*time.Second, 10*time.Millisecond, "the process becomes ready")
	return func() error { cancel(); return <-errc }
}
