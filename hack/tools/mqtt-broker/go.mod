// Module pinning the MQTT broker of the CloudEvents end-to-end tests and
// bench: mochi-mqtt's own broker command (github.com/mochi-mqtt/server/v2/cmd),
// which hack/mqtt-broker.sh builds. It is a module of its own so that moving
// the pin never touches hack/tools/go.sum, the key of the test-bed cache.
module github.com/manifestwork/work/hack/tools/mqtt-broker

go 1.26.0

tool github.com/mochi-mqtt/server/v2/cmd

require (
	github.com/gorilla/websocket v1.5.0 // indirect
	github.com/mochi-mqtt/server/v2 v2.7.9 // indirect
	github.com/rs/xid v1.4.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
