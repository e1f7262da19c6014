// Package framework runs the integration and e2e tests of this module against
// real Kubernetes components from the test bed (hack/testbed.sh, or the folder
// named by WORK_TESTBED_BIN).
//
// Integration tests use APIServer: kube-apiserver and etcd started by
// controller-runtime's envtest, with CRD folders installed, an admin
// kubeconfig file and clientsets.
//
// E2E tests use E2E: a hub and managed clusters (cluster1, cluster2) created
// by `kwokctl --runtime binary` with fake nodes, the hub CRDs on the hub, the
// managed CRDs on the managed clusters, the work binary built from this
// checkout, and StartHub / StartAgent to run it as real processes. The
// kustomize bases of deploy/ are applied to those clusters, and the processes
// run as the ServiceAccounts they define, with tokens, so that they hold
// exactly the permissions a real installation grants.
//
// Both are Suites, set up once per package by Main in TestMain, which also
// tears them down on SIGINT and SIGTERM. Every run keeps its files in a
// private folder under RunsRoot (default $TMPDIR/manifestwork-e2e); a reaper
// process, and failing that the next run, removes what a run that died
// without tearing down left behind (clusters, processes, files).
//
// Without a test bed (see SkipReason) the suites are not set up and tests
// that call SkipWithoutTestbed skip.
package framework
