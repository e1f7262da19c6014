package mqtt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolveAgentTopics(t *testing.T) {
	cases := []struct {
		name    string
		topics  Topics
		cluster string
		want    AgentTopics
		wantErr string
	}{
		{
			name: "Maestro's topics, no broadcast",
			topics: Topics{
				SourceEvents: "sources/maestro/consumers/+/sourceevents",
				AgentEvents:  "sources/maestro/consumers/+/agentevents",
			},
			cluster: "cluster1",
			want: AgentTopics{
				Spec:   "sources/maestro/consumers/cluster1/sourceevents",
				Status: "sources/maestro/consumers/cluster1/agentevents",
				Resync: "sources/maestro/consumers/cluster1/agentevents",
			},
		},
		{
			name: "every topic: broadcasts as written and with the cluster",
			topics: Topics{
				SourceEvents:    "sources/+/consumers/+/sourceevents",
				AgentEvents:     "sources/maestro/consumers/+/agentevents",
				SourceBroadcast: "sources/+/sourcebroadcast",
				AgentBroadcast:  "clusters/+/agentbroadcast",
			},
			cluster: "cluster-2",
			want: AgentTopics{
				Spec:      "sources/+/consumers/cluster-2/sourceevents",
				Broadcast: "sources/+/sourcebroadcast",
				Status:    "sources/maestro/consumers/cluster-2/agentevents",
				Resync:    "clusters/cluster-2/agentbroadcast",
			},
		},
		{
			name: "shared subscriptions stay on subscriptions and leave published topics",
			topics: Topics{
				SourceEvents:    "$share/agents/sources/maestro/consumers/+/sourceevents",
				AgentEvents:     "$share/sources/sources/maestro/consumers/+/agentevents",
				SourceBroadcast: "$share/agents/sources/+/sourcebroadcast",
				AgentBroadcast:  "$share/sources/clusters/+/agentbroadcast",
			},
			cluster: "c1",
			want: AgentTopics{
				Spec:      "$share/agents/sources/maestro/consumers/c1/sourceevents",
				Broadcast: "$share/agents/sources/+/sourcebroadcast",
				Status:    "sources/maestro/consumers/c1/agentevents",
				Resync:    "clusters/c1/agentbroadcast",
			},
		},
		{
			name: "topics that already name a cluster are kept",
			topics: Topics{
				SourceEvents:   "sources/maestro/consumers/cluster1/sourceevents",
				AgentEvents:    "sources/maestro/consumers/cluster1/agentevents",
				AgentBroadcast: "clusters/cluster1/agentbroadcast",
			},
			cluster: "cluster1",
			want: AgentTopics{
				Spec:   "sources/maestro/consumers/cluster1/sourceevents",
				Status: "sources/maestro/consumers/cluster1/agentevents",
				Resync: "clusters/cluster1/agentbroadcast",
			},
		},
		{
			name:    "a status topic left with the source's wildcard is refused",
			topics:  Topics{SourceEvents: "sources/+/consumers/+/sourceevents", AgentEvents: "sources/+/consumers/+/agentevents"},
			cluster: "cluster1",
			wantErr: `topics.agentEvents: the agent would publish to "sources/+/consumers/cluster1/agentevents", which holds a wildcard`,
		},
		{
			name: "a multi-level wildcard in the resync topic is refused",
			topics: Topics{
				SourceEvents:   "sources/maestro/consumers/+/sourceevents",
				AgentEvents:    "sources/maestro/consumers/+/agentevents",
				AgentBroadcast: "clusters/#",
			},
			cluster: "cluster1",
			wantErr: "topics.agentBroadcast",
		},
		{
			name:    "no status topic",
			topics:  Topics{SourceEvents: "sources/maestro/consumers/+/sourceevents"},
			cluster: "cluster1",
			wantErr: "topics.agentEvents: required",
		},
		{
			name:    "no cluster name",
			topics:  Topics{SourceEvents: "sources/maestro/consumers/+/sourceevents", AgentEvents: "sources/maestro/consumers/+/agentevents"},
			wantErr: "cluster name: required",
		},
		{
			name:    "a cluster name that would change the topic's levels",
			topics:  Topics{SourceEvents: "sources/maestro/consumers/+/sourceevents", AgentEvents: "sources/maestro/consumers/+/agentevents"},
			cluster: "a/b",
			wantErr: `cluster name "a/b"`,
		},
		{
			name:    "a cluster name that is a wildcard",
			topics:  Topics{SourceEvents: "sources/maestro/consumers/+/sourceevents", AgentEvents: "sources/maestro/consumers/+/agentevents"},
			cluster: "#",
			wantErr: `cluster name "#"`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResolveAgentTopics(tc.topics, tc.cluster)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
