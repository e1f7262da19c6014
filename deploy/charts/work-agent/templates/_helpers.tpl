{{/*
The agent's arguments, one flag a line; a value left null is not passed, so
the binary's default applies. A new flag is one more line here and one value.
*/}}
{{- define "work-agent.args" -}}
- agent
- {{ printf "--spoke-cluster-name=%s" (required "clusterName is required: the managed cluster's name, its namespace on the hub" .Values.clusterName) | quote }}
- {{ printf "--hub-kubeconfig=/var/run/hub/%s" .Values.hubKubeconfig.key | quote }}
{{- with .Values.agentID }}
- {{ printf "--agent-id=%s" . | quote }}
{{- end }}
{{- include "work.featureGatesFlag" .Values.featureGates }}
{{- include "work.flag" (dict "name" "kube-api-qps" "value" .Values.kubeAPI.qps) }}
{{- include "work.intFlag" (dict "name" "kube-api-burst" "value" .Values.kubeAPI.burst) }}
{{- include "work.flag" (dict "name" "hub-kube-api-qps" "value" .Values.hubKubeAPI.qps) }}
{{- include "work.intFlag" (dict "name" "hub-kube-api-burst" "value" .Values.hubKubeAPI.burst) }}
{{- include "work.intFlag" (dict "name" "workload-agent-workers" "value" .Values.workers) }}
{{- range .Values.extraArgs }}
- {{ . | quote }}
{{- end }}
{{- end }}
