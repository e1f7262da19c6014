package e2e

import (
	"testing"

	"github.com/manifestwork/work/test/framework"
)

// env is a hub and the managed clusters cluster1 and cluster2 on kwok, shared
// by the tests of this package.
var env = framework.NewE2E(framework.E2EOptions{})

func TestMain(m *testing.M) {
	framework.Main(m, env)
}

// setup returns the shared environment, or skips t without a test bed. A
// failing test logs the end of every work process log.
func setup(t *testing.T) *framework.E2E {
	t.Helper()
	framework.SkipWithoutTestbed(t)
	env.DumpOnFailure(t)
	return env
}
