#!/usr/bin/env bash
# Builds helm once into a cache folder outside the checkout and prints the path
# of the binary. The chart tests (test/e2e/helm_test.go) run it; users may too:
#   $(hack/helm.sh) lint deploy/charts/work-hub
#
# helm comes from its Go module, pinned by hack/tools/helm. It lands beside the
# test bed, in <cache root>/helm-<version>-<hash of hack/tools/helm/go.sum>/bin/helm
# (see hack/lib/cached-binary.sh).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
module="$root/hack/tools/helm"
HELM_REVISION=1 # bump when the way helm is built changes
# shellcheck source=hack/lib/cached-binary.sh
source "$root/hack/lib/cached-binary.sh"

mod_version() { awk -v m="$1" '$1 == m { print $2; exit }' "$module/go.mod"; }
HELM_VERSION=$(mod_version helm.sh/helm/v3)
K8S_MINOR=$(mod_version k8s.io/client-go | cut -d. -f2)

build() {
  # The flags of helm's own release build: its version, and the Kubernetes
  # version that `helm template` and `helm lint` assume without a cluster.
  local ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION"
  for pkg in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
    ldflags+=" -X $pkg.k8sVersionMajor=1 -X $pkg.k8sVersionMinor=$K8S_MINOR"
  done
  (cd "$module" && CGO_ENABLED=0 GOFLAGS=-mod=mod \
    timeout 1800 go build -trimpath -ldflags "$ldflags" -o "$1/bin/helm" helm.sh/helm/v3/cmd/helm)
  "$1/bin/helm" version --short >&2
}

cached_binary helm "$HELM_VERSION" "$module" "$HELM_REVISION" helm build
