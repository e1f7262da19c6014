package conditionrules

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// TestEnvironmentFunctions: every function family OCM's agent offers to
// condition rules compiles and evaluates here, and so do the ones this agent
// offered before. Each expression must be true on the object.
func TestEnvironmentFunctions(t *testing.T) {
	obj := newObj("apps/v1", "Deployment", map[string]any{
		"replicas":      int64(3),
		"readyReplicas": int64(3),
		"image":         "registry.example.com/app:v1.2.3",
		"endpoint":      "https://api.example.com:8443/healthz?full=1",
		"podIP":         "10.0.0.12",
		"podCIDR":       "10.0.0.0/24",
		"memory":        "512Mi",
		"version":       "1.2.3",
		"name":          "my-app",
		"items":         []any{int64(3), int64(1), int64(2)},
		"conditions": []any{
			map[string]any{"type": "Available", "status": "True"},
			map[string]any{"type": "Progressing", "status": "True"},
		},
	})

	cases := []struct {
		family string
		expr   string
	}{
		// Optional types (cel.OptionalTypes).
		{"optional", "object.?status.?readyReplicas.orValue(0) == 3"},
		{"optional", "object.?status.?missing.orValue(0) == 0"},
		{"optional", "!object.?spec.?paused.hasValue()"},
		{"optional", "object.status.?conditions.orValue([]).size() == 2"},
		{"optional", "optional.of(1).value() == 1 && !optional.none().hasValue()"},
		{"optional", "object.status.items[?5].orValue(-1) == -1"},
		// Kubernetes lists library.
		{"lists", "object.status.items.sum() == 6"},
		{"lists", "object.status.items.min() == 1 && object.status.items.max() == 3"},
		{"lists", "!object.status.items.isSorted() && [1, 2, 3].isSorted()"},
		{"lists", "object.status.items.indexOf(1) == 1 && [1, 2, 1].lastIndexOf(1) == 2"},
		// Kubernetes regex library.
		{"regex", "object.status.image.find('v[0-9.]+') == 'v1.2.3'"},
		{"regex", "object.status.image.findAll('[0-9]').size() == 3"},
		{"regex", "object.status.name.matches('^[a-z-]+$')"},
		// Kubernetes quantity library.
		{"quantity", "quantity(object.status.memory).isGreaterThan(quantity('256Mi'))"},
		{"quantity", "quantity(object.status.memory).compareTo(quantity('0.5Gi')) == 0"},
		{"quantity", "isQuantity('1Gi') && !isQuantity('1 gallon')"},
		{"quantity", "quantity('1k').asInteger() == 1000 && quantity('1').add(2).asInteger() == 3"},
		// Kubernetes URL library.
		{"url", "url(object.status.endpoint).getScheme() == 'https'"},
		{"url", "url(object.status.endpoint).getHostname() == 'api.example.com' && url(object.status.endpoint).getPort() == '8443'"},
		{"url", "url(object.status.endpoint).getEscapedPath() == '/healthz' && url(object.status.endpoint).getQuery()['full'] == ['1']"},
		{"url", "isURL('https://example.com') && !isURL('not a url')"},
		// Kubernetes IP and CIDR libraries.
		{"ip", "ip(object.status.podIP).family() == 4 && isIP('::1') && !isIP('10.0.0.256')"},
		{"ip", "ip('127.0.0.1').isLoopback() && ip.isCanonical(object.status.podIP)"},
		{"cidr", "cidr(object.status.podCIDR).containsIP(object.status.podIP)"},
		{"cidr", "cidr('10.0.0.0/8').containsCIDR(object.status.podCIDR) && cidr(object.status.podCIDR).prefixLength() == 24"},
		{"cidr", "isCIDR('192.168.0.0/16') && cidr('192.168.0.1/16').masked() == cidr('192.168.0.0/16')"},
		// Kubernetes format library.
		{"format", "format.dns1123Label().validate(object.status.name) == optional.none()"},
		{"format", "format.named('dns1123Subdomain').value().validate('Not_Valid').hasValue()"},
		// Kubernetes semver library.
		{"semver", "semver(object.status.version).isGreaterThan(semver('1.2.0'))"},
		{"semver", "semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3"},
		{"semver", "isSemver('1.0.0') && !isSemver('one')"},
		// Extended strings (cel-go ext.Strings).
		{"strings", "object.status.name.upperAscii() == 'MY-APP' && object.status.name.split('-') == ['my', 'app']"},
		{"strings", "'%s has %d replicas'.format([object.status.name, object.status.replicas]) == 'my-app has 3 replicas'"},
		// OCM's helpers.
		{"ocm", "hasConditions(object.status) && object.status.conditions.exists(c, c.type == 'Available' && c.status == 'True')"},
		{"ocm", "!hasConditions({}) && !hasConditions('a') && !hasConditions({'conditions': []}) && !hasConditions({'conditions': null})"},
		// Offered beyond OCM: extended lists and sets, cross-type numbers.
		{"beyond", "object.status.items.sort() == [1, 2, 3] && [[1], [2]].flatten() == [1, 2]"},
		{"beyond", "sets.contains(object.status.items, [1, 2]) && sets.intersects([1], object.status.items)"},
		{"beyond", "object.status.replicas == 3.0 && object.status.readyReplicas > 2.5"},
	}
	e := NewEvaluator(0)
	for _, tc := range cases {
		t.Run(tc.family+": "+tc.expr, func(t *testing.T) {
			got := e.Evaluate(context.Background(), obj, []workv1.ConditionRule{celRule("Ready", tc.expr)}, 1)
			require.Len(t, got, 1)
			assert.Equal(t, metav1.ConditionTrue, got[0].Status, got[0].Message)
			assert.Equal(t, workv1.ConditionRuleEvaluated, got[0].Reason)
		})
	}
}

// TestEnvironmentMessageFunctions: messageExpressions see the same functions
// and `result`.
func TestEnvironmentMessageFunctions(t *testing.T) {
	obj := newObj("apps/v1", "Deployment", map[string]any{"replicas": int64(2)})
	rule := withMessage(celRule("Ready", "object.?status.?readyReplicas.orValue(0) == object.status.replicas"),
		"", `"%d of %d ready, %s".format([object.?status.?readyReplicas.orValue(0), object.status.replicas, string(result)])`)
	got := NewEvaluator(0).Evaluate(context.Background(), obj, []workv1.ConditionRule{rule}, 1)
	require.Len(t, got, 1)
	assert.Equal(t, metav1.ConditionFalse, got[0].Status)
	assert.Equal(t, "0 of 2 ready, false", got[0].Message)
}
