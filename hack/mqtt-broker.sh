#!/usr/bin/env bash
# Builds an MQTT broker once into a cache folder outside the checkout and
# prints the path of the binary. The CloudEvents end-to-end tests
# (test/e2e/cloudevents_test.go) and the bench run it as a real process,
# stopped and restarted by the tests; users may run it for the local
# walkthrough of docs/deliver-over-cloudevents.md:
#   $(hack/mqtt-broker.sh) -tcp 127.0.0.1:1883 -ws 127.0.0.1:1882 -info 127.0.0.1:8088
# It is mochi-mqtt's broker command (MQTT 3.1.1 and 5, anonymous clients
# allowed), from its Go module, pinned by hack/tools/mqtt-broker. It lands
# beside the test bed, in
# <cache root>/mqtt-broker-<version>-<hash of hack/tools/mqtt-broker/go.sum>/bin/mqtt-broker
# (see hack/lib/cached-binary.sh).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
module="$root/hack/tools/mqtt-broker"
MQTT_BROKER_REVISION=1 # bump when the way the broker is built changes
# shellcheck source=hack/lib/cached-binary.sh
source "$root/hack/lib/cached-binary.sh"

VERSION=$(awk '$1 == "github.com/mochi-mqtt/server/v2" { print $2; exit }' "$module/go.mod")

build() {
  (cd "$module" && CGO_ENABLED=0 GOFLAGS=-mod=mod \
    timeout 1800 go build -trimpath -ldflags "-s -w" -o "$1/bin/mqtt-broker" github.com/mochi-mqtt/server/v2/cmd)
  test -x "$1/bin/mqtt-broker"
}

cached_binary mqtt-broker "$VERSION" "$module" "$MQTT_BROKER_REVISION" mqtt-broker build
