#!/usr/bin/env bash
# Builds OCM's work agent (the `work` binary of open-cluster-management.io/ocm,
# cmd/work) once into a cache folder outside the checkout and prints the path
# of the binary. The take-over test (test/e2e/adoption_test.go) runs it to hand
# a managed cluster from OCM's agent to ours and back; users may too:
#   $(hack/ocm-agent.sh) agent --spoke-cluster-name=cluster1 --hub-kubeconfig=...
# OCM's operator (cmd/registration-operator, which reconciles the Klusterlet
# and the ClusterManager) is built beside it, as bin/registration-operator:
#   "$(dirname "$(hack/ocm-agent.sh)")/registration-operator" klusterlet --help
# The CRDs of the objects the operator reconciles, as the release ships them,
# land in crds/klusterlet and crds/cluster-manager of the same folder.
#
# The release is pinned by hack/tools/ocm-agent. Its go.sum carries, besides
# what `go mod tidy` records, the two lines of OCM's own go.sum for
# sigs.k8s.io/about-api: the checksum database does not know that
# pseudo-version (its lookup answers 404), while the module proxy serves it
# with exactly those hashes.
# It lands beside the test bed, in
# <cache root>/ocm-agent-<version>-<hash of hack/tools/ocm-agent/go.sum>/bin/work
# (see hack/lib/cached-binary.sh).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
module="$root/hack/tools/ocm-agent"
OCM_AGENT_REVISION=2 # bump when the way the agent is built changes
# shellcheck source=hack/lib/cached-binary.sh
source "$root/hack/lib/cached-binary.sh"

OCM_VERSION=$(awk '$1 == "open-cluster-management.io/ocm" { print $2; exit }' "$module/go.mod")

build() {
  # OCM's release build stamps its version into pkg/version; so do we.
  local major minor ldflags="-s -w"
  major=${OCM_VERSION#v}; major=${major%%.*}
  minor=${OCM_VERSION#v*.}; minor=${minor%%.*}
  for kv in "versionFromGit=$OCM_VERSION" "majorFromGit=$major" "minorFromGit=$minor"; do
    ldflags+=" -X open-cluster-management.io/ocm/pkg/version.$kv"
  done
  local cmd
  for cmd in work registration-operator; do
    (cd "$module" && CGO_ENABLED=0 GOFLAGS=-mod=mod \
      timeout 1800 go build -trimpath -ldflags "$ldflags" -o "$1/bin/$cmd" "open-cluster-management.io/ocm/cmd/$cmd")
    "$1/bin/$cmd" --version >&2
  done
  local src kind
  src=$(cd "$module" && GOFLAGS=-mod=mod go list -m -f '{{.Dir}}' open-cluster-management.io/ocm)
  for kind in klusterlet cluster-manager; do
    mkdir -p "$1/crds/$kind"
    cp "$src/deploy/$kind/config/crds/"0000_*.crd.yaml "$1/crds/$kind/"
    chmod u+w "$1/crds/$kind/"*
  done
}

cached_binary ocm-agent "$OCM_VERSION" "$module" "$OCM_AGENT_REVISION" work build
