package appliedwork

import (
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func TestNames(t *testing.T) {
	// sha256("https://hub:6443"), computed independently with sha256sum.
	hash := HubHash("https://hub:6443")
	assert.Len(t, hash, 64)
	assert.Equal(t, hash, HubHash("https://hub:6443"))
	assert.NotEqual(t, hash, HubHash("https://other:6443"))

	name := Name(hash, "web")
	got, ok := WorkName(hash, name)
	assert.True(t, ok)
	assert.Equal(t, "web", got)

	_, ok = WorkName(HubHash("https://other:6443"), name)
	assert.False(t, ok, "an AppliedManifestWork of another hub")
	_, ok = WorkName(hash, hash+"-")
	assert.False(t, ok, "no work name")
}

func TestWorkKey(t *testing.T) {
	hash := HubHash("https://hub:6443")
	key, ok := WorkKey("cluster1", hash, Name(hash, "web"))
	assert.True(t, ok)
	assert.Equal(t, "cluster1/web", key)
	_, ok = WorkKey("cluster1", hash, "otherhub-web")
	assert.False(t, ok)
}

func TestAgent(t *testing.T) {
	hash := HubHash("https://hub:6443")
	a := Agent{ClusterName: "cluster1", HubHash: hash, AgentID: "agent-1"}
	other := Agent{ClusterName: "cluster1", HubHash: HubHash("https://other:6443"), AgentID: "agent-2"}
	tests := []struct {
		name       string
		applied    string
		agentID    string
		wantKey    string
		wantOK     bool
		workExists bool
		responds   bool
	}{
		{name: "its own record", applied: a.AppliedName("web"), agentID: "agent-1", wantKey: "cluster1/web", wantOK: true, responds: true},
		{name: "a record of its hub without an agent ID", applied: a.AppliedName("web"), wantKey: "cluster1/web", wantOK: true, responds: true},
		{name: "another agent's record of its hub, whose work is elsewhere", applied: a.AppliedName("web"), agentID: "agent-2", wantKey: "cluster1/web", wantOK: true},
		{name: "another agent's record of its hub, whose work is here", applied: a.AppliedName("web"), agentID: "agent-2", wantKey: "cluster1/web", wantOK: true, workExists: true, responds: true},
		{name: "another hub's record", applied: other.AppliedName("web"), agentID: "agent-2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, ok := a.WorkKey(tt.applied)
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.wantKey, key)
			if ok {
				name, _ := a.WorkName(tt.applied)
				assert.Equal(t, key, a.WorkRef(name).String())
			}
			applied := &workv1.AppliedManifestWork{ObjectMeta: metav1.ObjectMeta{Name: tt.applied}}
			applied.Spec.AgentID = tt.agentID
			assert.Equal(t, tt.responds, a.Responsible(applied, func(string) bool { return tt.workExists }))
		})
	}
}
