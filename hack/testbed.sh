#!/usr/bin/env bash
# Builds the test bed once into a cache folder outside the checkout and prints
# the folder holding the binaries. Later runs, and fresh clones, reuse it.
#
#   kube-apiserver, kube-controller-manager, kube-scheduler, kubectl  (k8s.io/kubernetes)
#   etcd                                                               (go.etcd.io/etcd/server/v3)
#   controller-gen                                                     (sigs.k8s.io/controller-tools)
#   kwok, kwokctl                                                      (sigs.k8s.io/kwok)
#
# The cache root is $WORK_TESTBED_CACHE, else $XDG_CACHE_HOME/manifestwork-testbed,
# else ~/.cache/manifestwork-testbed. The folder name carries every version, and a
# short hash of hack/tools/go.sum and TESTBED_REVISION, so a version bump or a
# change to how the binaries are built (bump TESTBED_REVISION) builds anew.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools="$root/hack/tools"

mod_version() { awk -v m="$1" '$1 == m { print $2; exit }' "$tools/go.mod"; }
K8S_VERSION=$(mod_version k8s.io/kubernetes)
ETCD_VERSION=$(mod_version go.etcd.io/etcd/server/v3)
CONTROLLER_TOOLS_VERSION=$(mod_version sigs.k8s.io/controller-tools)
KWOK_VERSION=v0.8.0
TESTBED_REVISION=1

hash=$( (cat "$tools/go.sum"; echo "$TESTBED_REVISION") | sha256sum | cut -c1-10)
cache_root=${WORK_TESTBED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/manifestwork-testbed}
dir="$cache_root/k8s-$K8S_VERSION-etcd-$ETCD_VERSION-kwok-$KWOK_VERSION-$hash"

if [[ -f "$dir/.complete" ]]; then
  echo "$dir/bin"
  exit 0
fi

log() { echo "testbed: $*" >&2; }
mkdir -p "$cache_root"
# One build at a time: a second caller waits for the first and reuses its result.
exec 9>"$cache_root/.lock"
flock 9
if [[ -f "$dir/.complete" ]]; then
  echo "$dir/bin"
  exit 0
fi
log "building into $dir (a first build takes several minutes)"
rm -rf "$cache_root"/.build.* # left by an interrupted build; we hold the lock
tmp=$(mktemp -d "$cache_root/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"

minor=$(echo "$K8S_VERSION" | cut -d. -f2)
build_date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$build_date"
done

cd "$tools"
export CGO_ENABLED=0 GOFLAGS=-mod=mod
for cmd in kube-apiserver kube-controller-manager kube-scheduler kubectl; do
  log "go build $cmd $K8S_VERSION"
  go build -trimpath -ldflags "$ldflags" -o "$tmp/bin/$cmd" "k8s.io/kubernetes/cmd/$cmd"
done
log "go build etcd $ETCD_VERSION"
go build -trimpath -ldflags "-s -w" -o "$tmp/bin/etcd" go.etcd.io/etcd/server/v3
log "go build controller-gen $CONTROLLER_TOOLS_VERSION"
go build -trimpath -ldflags "-s -w" -o "$tmp/bin/controller-gen" sigs.k8s.io/controller-tools/cmd/controller-gen
log "go install kwok, kwokctl $KWOK_VERSION"
(cd "$tmp" && GOFLAGS= GOBIN="$tmp/bin" go install -trimpath -ldflags "-s -w" \
  "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION" "sigs.k8s.io/kwok/cmd/kwokctl@$KWOK_VERSION")

"$tmp/bin/kubectl" version --client >&2
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
touch "$dir/.complete"
echo "$dir/bin"
