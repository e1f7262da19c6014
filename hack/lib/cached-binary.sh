# Sourced by hack/helm.sh and hack/ocm-agent.sh, which build a binary of a
# module pinned under hack/tools/<name> (a module of its own, so that moving
# the pin never rebuilds the rest of the test bed, whose cache is keyed by
# hack/tools/go.sum) once into a cache folder outside the checkout.
#
# The cache root is the test bed's: $WORK_TESTBED_CACHE, else
# $XDG_CACHE_HOME/manifestwork-testbed, else ~/.cache/manifestwork-testbed.
cache_root=${WORK_TESTBED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/manifestwork-testbed}

# cached_binary NAME VERSION MODULE REVISION BINARY BUILD prints
# <cache root>/<NAME>-<VERSION>-<hash>/bin/<BINARY>, where hash is that of
# MODULE/go.sum and REVISION (bumped when the way the binary is built
# changes). Unless an earlier run completed that folder, it first runs
# `BUILD <folder>`, which writes <folder>/bin/<BINARY> and checks it, in a
# temporary folder that becomes the cache folder once BUILD succeeds.
cached_binary() {
  local name=$1 version=$2 module=$3 revision=$4 binary=$5 build=$6
  local hash dir
  hash=$( (cat "$module/go.sum"; echo "$revision") | sha256sum | cut -c1-10)
  dir="$cache_root/$name-$version-$hash"
  if [[ ! -f "$dir/.complete" ]]; then
    mkdir -p "$cache_root"
    # One build at a time; a second caller waits and reuses the result. The
    # lock is NAME's own, so the test bed and the others can build at once.
    exec 9>"$cache_root/.$name.lock"
    flock 9
  fi
  if [[ ! -f "$dir/.complete" ]]; then
    echo "$name: building $name $version into $dir (a first build takes a few minutes)" >&2
    rm -rf "$cache_root/.$name-build."* # left by an interrupted build; we hold the lock
    cached_binary_tmp=$(mktemp -d "$cache_root/.$name-build.XXXXXX")
    trap 'rm -rf "$cached_binary_tmp"' EXIT
    "$build" "$cached_binary_tmp"
    rm -rf "$dir"
    mv "$cached_binary_tmp" "$dir"
    trap - EXIT
    touch "$dir/.complete"
  fi
  echo "$dir/bin/$binary"
}
