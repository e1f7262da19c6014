package manifest

import (
	"errors"
	"strings"

	"github.com/itchyny/gojq"
)

// CompileJQPath checks and compiles a jqPathExpression of a server-side
// apply's ignoreFields, for the agent to evaluate and for admission to
// refuse one that does not parse. The expression must be one whole jq query:
// it is parsed alone before it is wrapped into path(...), which yields the
// concrete path of every field it picks. It sees no environment variables
// (env, $ENV are empty) and no input beyond the object.
func CompileJQPath(expression string) (*gojq.Code, error) {
	if strings.TrimSpace(expression) == "" {
		return nil, errors.New("expression is empty")
	}
	if _, err := gojq.Parse(expression); err != nil {
		return nil, err
	}
	query, err := gojq.Parse("path(" + expression + ")")
	if err != nil {
		return nil, err
	}
	return gojq.Compile(query, gojq.WithEnvironLoader(func() []string { return nil }))
}
