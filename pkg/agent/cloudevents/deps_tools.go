//go:build tools

// Package cloudevents: this file only pins the modules the drivers are being
// built on, so that vendor/ holds them while the code lands. It goes away
// once the drivers import them.
package cloudevents

import (
	_ "github.com/cloudevents/sdk-go/protocol/mqtt_paho/v2"
	_ "github.com/cloudevents/sdk-go/v2"
	_ "github.com/cloudevents/sdk-go/v2/binding"
	_ "github.com/eclipse/paho.golang/autopaho"
	_ "github.com/eclipse/paho.golang/paho"
	_ "github.com/mochi-mqtt/server/v2"
	_ "github.com/mochi-mqtt/server/v2/hooks/auth"
	_ "github.com/mochi-mqtt/server/v2/listeners"
	_ "google.golang.org/grpc"
	_ "google.golang.org/grpc/credentials"
	_ "google.golang.org/grpc/keepalive"
	_ "google.golang.org/protobuf/encoding/protowire"
	_ "google.golang.org/protobuf/types/known/emptypb"
)
