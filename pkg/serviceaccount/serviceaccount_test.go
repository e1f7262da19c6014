package serviceaccount

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUser(t *testing.T) {
	user := User("default", "executor1")
	assert.Equal(t, "system:serviceaccount:default:executor1", user)

	namespace, name, ok := Split(user)
	assert.True(t, ok)
	assert.Equal(t, "default", namespace)
	assert.Equal(t, "executor1", name)
}

func TestSplitRefusesOtherUsers(t *testing.T) {
	for _, user := range []string{"alice", "system:serviceaccount:", "system:serviceaccount:default", "system:serviceaccount::name", "system:serviceaccount:default:"} {
		_, _, ok := Split(user)
		assert.False(t, ok, user)
	}
}

func TestGroups(t *testing.T) {
	assert.Equal(t, []string{"system:serviceaccounts", "system:authenticated", "system:serviceaccounts:default"},
		Groups("system:serviceaccount:default:executor1"))
	assert.Equal(t, []string{"system:serviceaccounts", "system:authenticated"}, Groups("alice"))
}

func TestIsGroup(t *testing.T) {
	for _, group := range Groups("system:serviceaccount:default:executor1") {
		assert.True(t, IsGroup(group), group)
	}
	for _, group := range []string{"system:masters", "admins", "system:serviceaccount:default:executor1"} {
		assert.False(t, IsGroup(group), group)
	}
}
