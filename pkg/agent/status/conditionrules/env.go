package conditionrules

import (
	"slices"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
	ocmcel "open-cluster-management.io/sdk-go/pkg/cel/common"
	ocmcellib "open-cluster-management.io/sdk-go/pkg/cel/library"
)

const (
	objectVar = "object"
	resultVar = "result"

	// interruptCheckFrequency is how many comprehension iterations run
	// between two checks of the context, so a cancelled sync stops a long
	// evaluation (the Kubernetes CEL default).
	interruptCheckFrequency = 100
)

// envOptions is the CEL environment of condition rules. It is OCM's: the
// base of OCM's SDK (optional types, extended strings and the Kubernetes
// libraries: lists, regex, URLs, quantity, IP, CIDR, format, semver) plus
// its conditions library (hasConditions). Taking them from the SDK rather
// than listing them here keeps the function set the one OCM's agent offers.
//
// Beyond OCM we keep what this agent offered before: the extended lists and
// sets libraries and comparisons across numeric types (1 == 1.0), so rules
// written for earlier versions still compile.
func envOptions(vars ...cel.EnvOption) []cel.EnvOption {
	return slices.Concat(
		vars,
		ocmcel.BaseEnvOpts,
		[]cel.EnvOption{
			ocmcellib.ConditionsLib(),
			ext.Lists(),
			ext.Sets(),
			cel.CrossTypeNumericComparisons(true),
		},
	)
}

// newEnvs builds the environment of condition expressions, which see
// `object`, and that of message expressions, which also see `result`.
func newEnvs() (condEnv, msgEnv *cel.Env, err error) {
	object := cel.Variable(objectVar, cel.DynType)
	if condEnv, err = cel.NewEnv(envOptions(object)...); err != nil {
		return nil, nil, err
	}
	msgEnv, err = cel.NewEnv(envOptions(object, cel.Variable(resultVar, cel.BoolType))...)
	return condEnv, msgEnv, err
}
