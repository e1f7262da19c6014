#!/usr/bin/env bash
# Builds helm once into a cache folder outside the checkout and prints the path
# of the binary. The chart tests (test/e2e/helm_test.go) run it; users may too:
#   $(hack/helm.sh) lint deploy/charts/work-hub
#
# helm comes from its Go module, pinned by hack/tools/helm (a module of its own,
# so that moving the pin never rebuilds the rest of the test bed, whose cache
# is keyed by hack/tools/go.sum). It lands beside the test bed, in
# <cache root>/helm-<version>-<hash of hack/tools/helm/go.sum>/bin/helm; the
# cache root is the test bed's ($WORK_TESTBED_CACHE, else
# $XDG_CACHE_HOME/manifestwork-testbed, else ~/.cache/manifestwork-testbed).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
module="$root/hack/tools/helm"
HELM_REVISION=1 # bump when the way helm is built changes

mod_version() { awk -v m="$1" '$1 == m { print $2; exit }' "$module/go.mod"; }
HELM_VERSION=$(mod_version helm.sh/helm/v3)
K8S_MINOR=$(mod_version k8s.io/client-go | cut -d. -f2)

hash=$( (cat "$module/go.sum"; echo "$HELM_REVISION") | sha256sum | cut -c1-10)
cache_root=${WORK_TESTBED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/manifestwork-testbed}
dir="$cache_root/helm-$HELM_VERSION-$hash"

if [[ -f "$dir/.complete" ]]; then
  echo "$dir/bin/helm"
  exit 0
fi

log() { echo "helm: $*" >&2; }
mkdir -p "$cache_root"
# One build at a time; a second caller waits and reuses the result. The lock
# is not the test bed's, so both can build at once.
exec 9>"$cache_root/.helm.lock"
flock 9
if [[ -f "$dir/.complete" ]]; then
  echo "$dir/bin/helm"
  exit 0
fi
log "building helm $HELM_VERSION into $dir (a first build takes a few minutes)"
rm -rf "$cache_root"/.helm-build.* # left by an interrupted build; we hold the lock
tmp=$(mktemp -d "$cache_root/.helm-build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The flags of helm's own release build: its version, and the Kubernetes
# version that `helm template` and `helm lint` assume without a cluster.
ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION"
for pkg in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
  ldflags+=" -X $pkg.k8sVersionMajor=1 -X $pkg.k8sVersionMinor=$K8S_MINOR"
done
(cd "$module" && CGO_ENABLED=0 GOFLAGS=-mod=mod \
  timeout 1800 go build -trimpath -ldflags "$ldflags" -o "$tmp/bin/helm" helm.sh/helm/v3/cmd/helm)

"$tmp/bin/helm" version --short >&2
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
touch "$dir/.complete"
echo "$dir/bin/helm"
