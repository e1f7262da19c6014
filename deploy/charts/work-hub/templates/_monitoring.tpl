{{/*
Monitoring helpers shared by the charts work-hub and work-agent: this file is
the same in both (test/e2e/helm_test.go checks it). Each takes a dict:
root (the chart's top context) and name (work-hub or work-agent), and renders
nothing unless its value under monitoring is enabled. docs/monitoring.md
describes what they make.
*/}}

{{/*
The Service of the metrics port (8443, /metrics to a token allowed to get it)
and the ServiceMonitor that scrapes it over HTTPS with the token of
Prometheus's ServiceAccount; the ClusterRoleBinding that allows that
ServiceAccount to get /metrics.
*/}}
{{- define "work.scraping" -}}
{{- $root := .root }}
{{- $m := $root.Values.monitoring }}
{{- if $m.serviceMonitor.enabled }}
---
# The pods' metrics port; the ServiceMonitor finds it by its labels.
apiVersion: v1
kind: Service
metadata:
  name: {{ .name }}-metrics
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "work.labels" $root | nindent 4 }}
    app.kubernetes.io/name: {{ .name }}
    app.kubernetes.io/component: metrics
spec:
  selector:
    app.kubernetes.io/name: {{ .name }}
  ports:
    - name: metrics
      port: 8443
      targetPort: metrics
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ .name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "work.labels" $root | nindent 4 }}
    {{- with $m.serviceMonitor.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  selector:
    matchLabels:
      app.kubernetes.io/name: {{ .name }}
      app.kubernetes.io/component: metrics
  namespaceSelector:
    matchNames: [{{ $root.Release.Namespace }}]
  endpoints:
    - port: metrics
      scheme: https
      path: /metrics
      interval: {{ $m.serviceMonitor.interval }}
      {{- with $m.serviceMonitor.authorization }}
      authorization:
        {{- toYaml . | nindent 8 }}
      {{- else }}
      # The token of Prometheus's own ServiceAccount, which the process
      # reviews (TokenReview) and authorizes (get /metrics).
      bearerTokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token
      {{- end }}
      tlsConfig:
        {{- with $m.serviceMonitor.tlsConfig }}
        {{- toYaml . | nindent 8 }}
        {{- else }}
        # The serving certificate of :8443 is made in memory at each start.
        insecureSkipVerify: true
        {{- end }}
{{- with $m.prometheus.serviceAccount.name }}
---
# Prometheus's ServiceAccount may get /metrics.
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: open-cluster-management:{{ $.name }}:metrics-reader:prometheus
  labels:
    {{- include "work.labels" $root | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: open-cluster-management:{{ $.name }}:metrics-reader
subjects:
  - kind: ServiceAccount
    name: {{ . }}
    namespace: {{ required "monitoring.prometheus.serviceAccount.namespace is required with its name" $m.prometheus.serviceAccount.namespace }}
{{- end }}
{{- end }}
{{- end }}

{{/*
A PrometheusRule of the alerts in .rules, a YAML list of rules.
*/}}
{{- define "work.prometheusRule" -}}
{{- $root := .root }}
{{- if $root.Values.monitoring.prometheusRule.enabled }}
---
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: {{ .name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "work.labels" $root | nindent 4 }}
    {{- with $root.Values.monitoring.prometheusRule.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  groups:
    - name: {{ .name }}
      rules:
        {{- .rules | trim | nindent 8 }}
{{- end }}
{{- end }}

{{/*
A Grafana dashboard in a ConfigMap labelled grafana_dashboard: "1" (what
Grafana's dashboard sidecar looks for): .title, and .panels, a YAML list of
panels, each {title, description, unit, targets: [{expr, legend}]}, laid out
two a row.
*/}}
{{- define "work.dashboard" -}}
{{- $root := .root }}
{{- $d := $root.Values.monitoring.dashboard }}
{{- if $d.enabled }}
{{- $datasource := dict "type" "prometheus" "uid" "${datasource}" }}
{{- $panels := list }}
{{- range $i, $p := .panels | fromYamlArray }}
{{- $targets := list }}
{{- range $j, $t := $p.targets }}
{{- $targets = append $targets (dict "refId" (substr $j (add1 $j | int) "ABCDEFGH") "expr" $t.expr "legendFormat" $t.legend "datasource" $datasource) }}
{{- end }}
{{- $panels = append $panels (dict
    "id" (add1 $i) "type" "timeseries" "title" $p.title "description" $p.description
    "datasource" $datasource "targets" $targets
    "gridPos" (dict "x" (mul (mod $i 2) 12) "y" (mul (div $i 2) 8) "w" 12 "h" 8)
    "fieldConfig" (dict "defaults" (dict "unit" $p.unit) "overrides" list)) }}
{{- end }}
{{- $dashboard := dict
    "uid" .name "title" .title "tags" (list "manifestwork") "editable" false
    "schemaVersion" 39 "refresh" "1m" "time" (dict "from" "now-6h" "to" "now")
    "templating" (dict "list" (list (dict "name" "datasource" "label" "Data source" "type" "datasource" "query" "prometheus")))
    "panels" $panels }}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .name }}-dashboard
  namespace: {{ $d.namespace | default $root.Release.Namespace }}
  labels:
    {{- include "work.labels" $root | nindent 4 }}
    grafana_dashboard: "1"
    {{- with $d.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
data:
  {{ .name }}.json: |-
    {{- toPrettyJson $dashboard | nindent 4 }}
{{- end }}
{{- end }}

{{/* The alert of a credential that expires within 30 days, in both charts. */}}
{{- define "work.credentialExpiryRule" -}}
- alert: WorkCredentialExpiringSoon
  expr: min by (namespace, pod, credential) (work_credential_expiry_timestamp_seconds) - time() < 30 * 24 * 3600
  for: 1h
  labels:
    severity: warning
  annotations:
    summary: The credential {{`{{ $labels.credential }}`}} expires within 30 days.
    description: >-
      {{`{{ $labels.credential }}`}} of {{`{{ $labels.namespace }}/{{ $labels.pod }}`}}
      expires in {{`{{ $value | humanizeDuration }}`}}. Renew it (docs/security.md,
      Credentials): the process follows its files without a restart.
{{- end }}

{{/* The panel of the credentials' expiry, in both dashboards. */}}
{{- define "work.credentialExpiryPanel" -}}
- title: Credential expiry
  description: Time left until each credential the processes hold expires.
  unit: s
  targets:
    - expr: min by (credential) (work_credential_expiry_timestamp_seconds) - time()
      legend: "{{`{{credential}}`}}"
{{- end }}
