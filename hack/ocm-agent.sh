#!/usr/bin/env bash
# Builds OCM's work agent (the `work` binary of open-cluster-management.io/ocm,
# cmd/work) once into a cache folder outside the checkout and prints the path
# of the binary. The take-over tests (test/e2e/takeover_test.go) run it to hand
# a managed cluster from OCM's agent to ours and back; users may too:
#   $(hack/ocm-agent.sh) agent --spoke-cluster-name=cluster1 --hub-kubeconfig=...
#
# The release is pinned by hack/tools/ocm-agent (a module of its own, so that
# moving the pin never rebuilds the rest of the test bed, whose cache is keyed
# by hack/tools/go.sum). Its go.sum carries, besides what `go mod tidy` records,
# the two lines of OCM's own go.sum for sigs.k8s.io/about-api: the checksum
# database does not know that pseudo-version (its lookup answers 404), while
# the module proxy serves it with exactly those hashes.
# It lands beside the test bed, in
# <cache root>/ocm-agent-<version>-<hash of hack/tools/ocm-agent/go.sum>/bin/work;
# the cache root is the test bed's ($WORK_TESTBED_CACHE, else
# $XDG_CACHE_HOME/manifestwork-testbed, else ~/.cache/manifestwork-testbed).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
module="$root/hack/tools/ocm-agent"
OCM_AGENT_REVISION=1 # bump when the way the agent is built changes

OCM_VERSION=$(awk '$1 == "open-cluster-management.io/ocm" { print $2; exit }' "$module/go.mod")
hash=$( (cat "$module/go.sum"; echo "$OCM_AGENT_REVISION") | sha256sum | cut -c1-10)
cache_root=${WORK_TESTBED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/manifestwork-testbed}
dir="$cache_root/ocm-agent-$OCM_VERSION-$hash"

if [[ -f "$dir/.complete" ]]; then
  echo "$dir/bin/work"
  exit 0
fi

log() { echo "ocm-agent: $*" >&2; }
mkdir -p "$cache_root"
# One build at a time; a second caller waits and reuses the result. The lock
# is neither the test bed's nor helm's, so they can build at once.
exec 9>"$cache_root/.ocm-agent.lock"
flock 9
if [[ -f "$dir/.complete" ]]; then
  echo "$dir/bin/work"
  exit 0
fi
log "building OCM's work agent $OCM_VERSION into $dir (a first build takes a few minutes)"
rm -rf "$cache_root"/.ocm-agent-build.* # left by an interrupted build; we hold the lock
tmp=$(mktemp -d "$cache_root/.ocm-agent-build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# OCM's release build stamps its version into pkg/version; so do we.
major=${OCM_VERSION#v}; major=${major%%.*}
minor=${OCM_VERSION#v*.}; minor=${minor%%.*}
ldflags="-s -w"
for kv in "versionFromGit=$OCM_VERSION" "majorFromGit=$major" "minorFromGit=$minor"; do
  ldflags+=" -X open-cluster-management.io/ocm/pkg/version.$kv"
done
(cd "$module" && CGO_ENABLED=0 GOFLAGS=-mod=mod \
  timeout 1800 go build -trimpath -ldflags "$ldflags" -o "$tmp/bin/work" open-cluster-management.io/ocm/cmd/work)

"$tmp/bin/work" --version >&2
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
touch "$dir/.complete"
echo "$dir/bin/work"
