#!/usr/bin/env bash
# Fails when go.mod, go.sum or vendor/ are not what `go mod tidy && go mod vendor` make,
# in the main module and in hack/tools/release (the release's image builder, vendored so
# that the release's dry run in make test needs no network).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for module in . hack/tools/release; do
  cd "$root/$module"
  GOFLAGS=-mod=mod go mod tidy -diff
  rm -rf "$tmp/vendor"
  go mod vendor -o "$tmp/vendor"
  diff -r vendor "$tmp/vendor" >/dev/null || { echo "$module/vendor/ is stale: run go mod vendor there" >&2; exit 1; }
done
