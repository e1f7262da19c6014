package objectwatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestReadersAreToldOfChangesOfWhatTheyRead(t *testing.T) {
	cms := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	var told []string
	r := newReaders(func(user string) { told = append(told, user) })
	a := ObjectKey{Resource: cms, Namespace: "ns", Name: "a"}
	b := ObjectKey{Resource: cms, Namespace: "ns", Name: "b"}
	r.set("work1", []ObjectKey{a, b})
	r.set("work2", []ObjectKey{a})

	r.changed(cms, "ns", "a")
	assert.Equal(t, []string{"work1", "work2"}, told)
	told = nil
	r.changed(cms, "ns", "other")
	r.changed(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, "ns", "a")
	assert.Empty(t, told, "other objects, and the same name of another type, are nobody's")

	r.set("work1", []ObjectKey{b})
	r.set("work2", nil)
	r.changed(cms, "ns", "a")
	assert.Empty(t, told, "forgotten")
	assert.NotContains(t, r.byObj, a, "no empty entries left behind")
	r.changed(cms, "ns", "b")
	assert.Equal(t, []string{"work1"}, told)
}
