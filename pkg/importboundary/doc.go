// Package importboundary holds the test that keeps the hub and the agent
// apart: no package of pkg/hub reaches a package of pkg/agent through its
// imports, its tests' imports included, and no package of pkg/agent reaches
// pkg/hub. Code both sides use lives in packages neither owns (pkg/manifest,
// pkg/serviceaccount, pkg/controllertest, test/fixture and the like).
package importboundary
