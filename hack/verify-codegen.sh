#!/usr/bin/env bash
# Fails when generated code or CRDs differ from what hack/update-codegen.sh makes.
# The working tree is left as it was.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
targets=(pkg/apis pkg/client manifests/hub manifests/managed manifests/placement deploy/charts/work-hub/files/crds deploy/charts/work-agent/files/crds)
saved=$(mktemp -d)
trap 'rm -rf "$saved"' EXIT

for t in "${targets[@]}"; do
  mkdir -p "$saved/$t"
  if [[ -d "$root/$t" ]]; then cp -a "$root/$t/." "$saved/$t/"; fi
done

"$root/hack/update-codegen.sh"

status=0
for t in "${targets[@]}"; do
  if ! diff -ru "$saved/$t" "$root/$t" >"$saved/diff" 2>&1; then
    echo "out of date: $t (run hack/update-codegen.sh)" >&2
    head -40 "$saved/diff" >&2
    status=1
  fi
  rm -rf "${root:?}/$t"
  mkdir -p "$root/$t"
  cp -a "$saved/$t/." "$root/$t/"
done
exit $status
