{{/*
Helpers shared by the charts work-hub and work-agent: this file is the same in
both (test/e2e/helm_test.go checks it).

Labels of every object of the chart. The selector of a Deployment is
app.kubernetes.io/name alone, as in deploy/, so that a Deployment installed
from a kustomize base can be adopted by a release (selectors are immutable).
*/}}
{{- define "work.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/part-of: manifestwork
{{- end }}

{{- define "work.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}
{{- end }}

{{/* --name=value, unless value is null. */}}
{{- define "work.flag" -}}
{{- if not (kindIs "invalid" .value) }}
- {{ printf "--%s=%v" .name .value | quote }}
{{- end }}
{{- end }}

{{/* --name=value for an integer, which YAML may have read as a float. */}}
{{- define "work.intFlag" -}}
{{- if not (kindIs "invalid" .value) }}
- {{ printf "--%s=%d" .name (int64 .value) | quote }}
{{- end }}
{{- end }}

{{/* --feature-gates=A=true,B=false from a map, unless it is empty. */}}
{{- define "work.featureGatesFlag" -}}
{{- $gates := list }}
{{- range $name, $on := . }}
{{- $gates = append $gates (printf "%s=%v" $name $on) }}
{{- end }}
{{- with $gates }}
- {{ printf "--feature-gates=%s" (join "," .) | quote }}
{{- end }}
{{- end }}

{{/*
The CRDs of files/crds (copies of manifests/, kept in step by
hack/update-codegen.sh), annotated helm.sh/resource-policy: keep: a release
installs and upgrades them, and `helm uninstall` leaves them, since deleting a
CRD deletes every object of its kind.
*/}}
{{- define "work.crds" -}}
{{- if .Values.crds.install }}
{{- range $path, $_ := .Files.Glob "files/crds/*.yaml" }}
{{- $crd := $.Files.Get $path | fromYaml }}
{{- $_ := set $crd.metadata "annotations" (merge (dict "helm.sh/resource-policy" "keep") ($crd.metadata.annotations | default dict)) }}
{{- $_ := set $crd.metadata "labels" (merge (include "work.labels" $ | fromYaml) ($crd.metadata.labels | default dict)) }}
---
{{ toYaml $crd }}
{{- end }}
{{- end }}
{{- end }}
