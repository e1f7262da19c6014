#!/usr/bin/env bash
# Cuts a release, or rehearses one (docs/releasing.md):
#   hack/release.sh [--dry-run] [--push] VERSION      # make release VERSION=0.2.0
#
# Writes _output/release/<vVERSION>/: the work binary and kubectl-work for
# linux, darwin and windows on amd64 and arm64 in one archive each, the
# image for linux/amd64 and linux/arm64 as an OCI layout (image/), both
# charts packaged with that version (charts/), the CHANGELOG.md section of
# the version (CHANGELOG-<vVERSION>.md), SHA256SUMS, and PUSH-PLAN, the
# maintainer's steps that need credentials (push the tag, the image and the
# charts, sign, publish the GitHub release). Then it tags the commit
# v<VERSION> (annotated, with the changelog section as its message), and with
# --push runs PUSH-PLAN.
#
# --dry-run needs no network, no Docker engine and no root (make test runs it
# through make release-dry-run): it builds the host's platform and one linux
# architecture more, so that the image has both; for every other platform it
# proves that the build would resolve (go list -deps, in proof/); it makes no
# tag and pushes nothing, and says what it would do. test/release checks
# what it wrote.
#
# IMAGE_REPO (quay.io/manifestwork/work), CHART_REPO
# (oci://quay.io/manifestwork/charts), GITHUB_REPO (manifestwork/work) and
# OUTPUT (_output) name where things go.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

dry_run=false push=false version=""
for arg in "$@"; do
  case $arg in
    --dry-run) dry_run=true ;;
    --push) push=true ;;
    -*) echo "release: unknown flag $arg" >&2; exit 2 ;;
    *) version=$arg ;;
  esac
done
if $dry_run && $push; then
  echo "release: --push with --dry-run" >&2; exit 2
fi

IMAGE_REPO=${IMAGE_REPO:-quay.io/manifestwork/work}
CHART_REPO=${CHART_REPO:-oci://quay.io/manifestwork/charts}
GITHUB_REPO=${GITHUB_REPO:-manifestwork/work}
OUTPUT=${OUTPUT:-_output}
ALL_PLATFORMS=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64)
CHARTS=(work-hub work-agent)

# The tag has a "v" (VERSION holds v0.1.0); the charts' version has none.
version=v${version#v}
if [[ ! $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "release: VERSION \"$version\" is not x.y.z or vx.y.z" >&2; exit 2
fi
chart_version=${version#v}
file_version=$(cat VERSION)

step() { echo "release: $*" >&2; }

if ! $dry_run; then
  # The tag must point at a commit whose files say the same version.
  if [[ $file_version != "$version" ]]; then
    echo "release: the file VERSION says $file_version, not $version: set it (and the charts' version and appVersion, CHANGELOG.md), commit, then release" >&2; exit 1
  fi
  if [[ -n $(git status --porcelain) ]]; then
    echo "release: the checkout has changes; release a commit" >&2; exit 1
  fi
  if git rev-parse -q --verify "refs/tags/$version" >/dev/null; then
    echo "release: tag $version exists" >&2; exit 1
  fi
elif [[ $file_version != "$version" ]]; then
  step "the file VERSION says $file_version; the full release of $version would refuse until it says $version"
fi

# Everything below is written under one absolute folder, whether OUTPUT is
# relative to the checkout or not.
mkdir -p "$OUTPUT/release"
release_dir=$(cd "$OUTPUT/release" && pwd)
out=$release_dir/$version
rm -rf "$out"
mkdir -p "$out"

# The changelog section: from "## [x.y.z]" (or [vx.y.z]) to the next "## ".
changelog=$out/CHANGELOG-$version.md
awk -v v="$chart_version" '
  /^## / { if (found) exit; h = $0; sub(/^## \[?v?/, "", h); if (index(h, v "]") == 1 || index(h, v " ") == 1 || h == v) found = 1 }
  found { print }
' CHANGELOG.md >"$changelog"
if [[ $(grep -cv '^\s*$' "$changelog") -lt 2 ]]; then
  echo "release: CHANGELOG.md has no section for $chart_version (\"## [$chart_version] - YYYY-MM-DD\" and what changed)" >&2
  rm -f "$changelog"; exit 1
fi
step "changelog: $changelog"

commit=$(git rev-parse HEAD)
created=$(git log -1 --format=%ct HEAD)
build_date=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ HEAD)
ldflags="-s -w -X github.com/manifestwork/work/pkg/version.gitVersion=$version \
-X github.com/manifestwork/work/pkg/version.gitCommit=$commit \
-X github.com/manifestwork/work/pkg/version.buildDate=$build_date"

host=$(go env GOHOSTOS)/$(go env GOHOSTARCH)
if $dry_run; then
  # The host's platform whole, and the other linux architecture for the
  # image (and as a real cross-build).
  other=linux/arm64
  [[ $host == linux/arm64 ]] && other=linux/amd64
  build=("$host" "$other")
else
  build=("${ALL_PLATFORMS[@]}")
fi

# The tool that writes the image and the archives (hack/tools/release,
# vendored: no network).
tool=$release_dir/.bin/release
(cd hack/tools/release && go build -mod=vendor -trimpath -o "$tool" .)

bins=$release_dir/.build/$version
rm -rf "$bins"
image_args=() archives=()
for p in "${build[@]}"; do
  os=${p%/*} arch=${p#*/} exe=""
  [[ $os == windows ]] && exe=.exe
  dir=$bins/${os}_$arch
  step "building $p"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -mod=vendor -trimpath -ldflags "$ldflags" -o "$dir/work$exe" ./cmd/work
  archive=$out/work_${version}_${os}_$arch.tar.gz
  [[ $os == windows ]] && archive=$out/work_${version}_${os}_$arch.zip
  # kubectl-work is the same file: the tool links it in a tar.
  "$tool" archive -out "$archive" -created "$created" \
    "work$exe=$dir/work$exe" "kubectl-work$exe=$dir/work$exe" \
    LICENSE=LICENSE README.md=README.md "CHANGELOG-$version.md=$changelog"
  archives+=("$archive")
  [[ $os == linux ]] && image_args+=("$p=$dir/work")
done

proved=()
if $dry_run; then
  mkdir -p "$out/proof"
  for p in "${ALL_PLATFORMS[@]}"; do
    [[ " ${build[*]} " == *" $p "* ]] && continue
    os=${p%/*} arch=${p#*/}
    step "proving $p would build (go list -deps)"
    CGO_ENABLED=0 GOOS=$os GOARCH=$arch go list -mod=vendor -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./cmd/work \
      >"$out/proof/${os}_$arch.deps"
    proved+=("$p")
  done
fi

step "image: ${image_args[*]%%=*}"
digest=$("$tool" image -out "$out/image" -version "$version" -revision "$commit" \
  -source "https://github.com/$GITHUB_REPO" -created "$created" "${image_args[@]}")
echo "$digest" >"$out/image/DIGEST"
# go-containerregistry writes some blobs 0600 and index.json 0755: readable by all, as the rest.
find "$out/image" -type f -exec chmod 0644 {} +

helm=$(hack/helm.sh)
helm_home=$(mktemp -d)
trap 'rm -rf "$helm_home"' EXIT
for c in "${CHARTS[@]}"; do
  step "chart $c $chart_version"
  HELM_CACHE_HOME=$helm_home/cache HELM_CONFIG_HOME=$helm_home/config HELM_DATA_HOME=$helm_home/data \
    "$helm" package "deploy/charts/$c" --version "$chart_version" --app-version "$version" -d "$out/charts" >&2
done

(cd "$out" && sha256sum work_"${version}"_* charts/*.tgz >SHA256SUMS)

# What needs credentials, in order: one command a line.
{
  echo "git push origin refs/tags/$version"
  echo "skopeo copy --all oci:$out/image:$version docker://$IMAGE_REPO:$version"
  echo "cosign sign --yes $IMAGE_REPO@$digest"
  for c in "${CHARTS[@]}"; do
    echo "$helm push $out/charts/$c-$chart_version.tgz $CHART_REPO"
  done
  echo "cosign sign-blob --yes --bundle $out/SHA256SUMS.sigstore.json $out/SHA256SUMS"
  echo "gh release create $version --repo $GITHUB_REPO --verify-tag --title $version --notes-file $changelog" \
    "${archives[*]} $out/charts/*.tgz $out/SHA256SUMS $out/SHA256SUMS.sigstore.json"
} >"$out/PUSH-PLAN"

if $dry_run; then
  {
    echo "version: $version"
    echo "built: ${build[*]}"
    echo "proved: ${proved[*]}"
  } >"$out/DRY-RUN"
  step "dry run: would tag $commit as $version (annotated, message $changelog)"
else
  git tag -a "$version" -F "$changelog" "$commit"
  step "tagged $commit as $version"
fi

echo
echo "Release $version in $out:"
(cd "$out" && find . -type f ! -path './image/blobs/*' | sort | xargs du -h --apparent-size)
echo "$(du -sh --apparent-size "$out/image" | cut -f1)	./image/blobs (one layer a platform)"
echo "image $IMAGE_REPO:$version, index $digest: ${image_args[*]%%=*}"
echo
if $push; then
  while read -r cmd; do
    step "$cmd"
    bash -c "$cmd"
  done <"$out/PUSH-PLAN"
else
  echo "$($dry_run && echo "A release" || echo "Next") pushes and signs with credentials (docs/releasing.md; hack/release.sh --push runs them):"
  sed 's/^/  /' "$out/PUSH-PLAN"
fi
