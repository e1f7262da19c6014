#!/usr/bin/env bash
# Fails when go.mod, go.sum or vendor/ are not what `go mod tidy && go mod vendor` make.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GOFLAGS=-mod=mod go mod tidy -diff
go mod vendor -o "$tmp/vendor"
diff -r vendor "$tmp/vendor" >/dev/null || { echo "vendor/ is stale: run go mod vendor" >&2; exit 1; }
