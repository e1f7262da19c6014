{{/*
The hub's arguments, one flag a line; a value left null is not passed, so the
binary's default applies. A new flag is one more line here and one value.
*/}}
{{- define "work-hub.args" -}}
- hub
{{- if .Values.webhook.enabled }}
- --tls-cert-file=/etc/work/webhook/tls.crt
- --tls-private-key-file=/etc/work/webhook/tls.key
{{- include "work.intFlag" (dict "name" "manifest-limit" "value" .Values.webhook.manifestLimit) }}
{{- end }}
{{- include "work.featureGatesFlag" .Values.featureGates }}
{{- include "work.flag" (dict "name" "kube-api-qps" "value" .Values.kubeAPI.qps) }}
{{- include "work.intFlag" (dict "name" "kube-api-burst" "value" .Values.kubeAPI.burst) }}
{{- range .Values.extraArgs }}
- {{ . | quote }}
{{- end }}
{{- end }}

{{/* The DNS name of the webhook's Service, which its certificate is for. */}}
{{- define "work-hub.webhookHost" -}}
work-webhook.{{ .Release.Namespace }}.svc
{{- end }}
