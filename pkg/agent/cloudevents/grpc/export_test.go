package grpc

// For the tests of package grpc_test: OCM's schema for the protobuf runtime,
// and an event built with it field by field.
var (
	SchemaFile   = schemaFile
	DynamicEvent = dynamicEvent
)
