package integration

import (
	"testing"

	"github.com/manifestwork/work/test/framework"
)

// apiServer is a kube-apiserver and etcd with the hub and managed CRDs, shared
// by the tests of this package.
var apiServer = framework.NewAPIServer(framework.HubCRDDir(), framework.ManagedCRDDir())

func TestMain(m *testing.M) {
	framework.Main(m, apiServer)
}

// server returns the shared API server, or skips t without a test bed.
func server(t *testing.T) *framework.APIServer {
	t.Helper()
	framework.SkipWithoutTestbed(t)
	return apiServer
}
