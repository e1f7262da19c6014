#!/usr/bin/env bash
# Regenerates deepcopy, the typed clientset (with its fake), listers, informers
# and apply configurations from pkg/apis with k8s.io/code-generator, and the
# CRDs in manifests/ with controller-gen, and their copies in the Helm charts
# (deploy/charts/*/files/crds). Versions come from hack/tools/go.mod.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
module=github.com/manifestwork/work
boilerplate="$root/hack/boilerplate.go.txt"

codegen_dir=$(cd "$root/hack/tools" && GOFLAGS=-mod=mod go list -m -f '{{.Dir}}' k8s.io/code-generator)
# kube_codegen.sh installs its generators into GOBIN; keep them out of the user's PATH.
export GOBIN="${GOBIN:-$(go env GOCACHE)/manifestwork-codegen}"
source "$codegen_dir/kube_codegen.sh"

cd "$root"
kube::codegen::gen_helpers --boilerplate "$boilerplate" "$root/pkg/apis"
kube::codegen::gen_client \
  --with-watch --with-applyconfig \
  --output-dir "$root/pkg/client" \
  --output-pkg "$module/pkg/client" \
  --boilerplate "$boilerplate" \
  "$root/pkg/apis"

bin=$("$root/hack/testbed.sh")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin/controller-gen" crd:crdVersions=v1 paths=./pkg/apis/... output:crd:dir="$out"
mkdir -p manifests/hub manifests/managed manifests/placement
mv "$out/work.open-cluster-management.io_manifestworks.yaml" manifests/hub/
mv "$out/work.open-cluster-management.io_appliedmanifestworks.yaml" manifests/managed/
# ManifestWorkReplicaSet is a hub CRD: the hub's install and its chart apply
# manifests/hub, and work hub runs its controller.
mv "$out/work.open-cluster-management.io_manifestworkreplicasets.yaml" manifests/hub/
# RolloutApproval, of our own group fleet.manifestwork.io, is a hub CRD too
# (approval gates); an OCM hub, whose ClusterManager installs OCM's CRDs,
# applies this file alone (deploy/ocm-hub).
mv "$out/fleet.manifestwork.io_rolloutapprovals.yaml" manifests/hub/
# WorkOverride, the per-cluster overrides of a replica set's works, likewise.
mv "$out/fleet.manifestwork.io_workoverrides.yaml" manifests/hub/
# Placement and PlacementDecision, for hubs without OCM only: where OCM runs,
# its ClusterManager owns these CRDs.
mv "$out/cluster.open-cluster-management.io_placements.yaml" manifests/placement/
mv "$out/cluster.open-cluster-management.io_placementdecisions.yaml" manifests/placement/
leftover=$(ls "$out")
if [[ -n "$leftover" ]]; then
  echo "controller-gen made CRDs that have no folder in manifests/: $leftover" >&2
  exit 1
fi
# The charts render the CRDs from copies inside them (a chart cannot read files
# outside its folder).
for chart in work-hub:hub work-agent:managed; do
  rm -rf "deploy/charts/${chart%%:*}/files/crds"
  mkdir -p "deploy/charts/${chart%%:*}/files/crds"
  cp "manifests/${chart#*:}"/*.yaml "deploy/charts/${chart%%:*}/files/crds/"
done
