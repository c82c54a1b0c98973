{{/*
burnrate's names and labels, the way `helm create` and most public charts spell them, so
operators' selectors, dashboards and policies find burnrate's objects like any other release's.
*/}}

{{/* The chart's name, or nameOverride. */}}
{{- define "burnrate.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The name of the release's objects: fullnameOverride, else the release name when it already holds
the chart's name (release "burnrate" -> "burnrate"), else "<release>-burnrate". 63 characters at
most: Kubernetes names and label values allow no more.
*/}}
{{- define "burnrate.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The recommended labels (kubernetes.io/docs/concepts/overview/working-with-objects/common-labels). */}}
{{- define "burnrate.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "burnrate.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: burnrate
{{- end }}

{{/* The labels that select the release's pods: never change them (a Deployment's selector is immutable). */}}
{{- define "burnrate.selectorLabels" -}}
app.kubernetes.io/name: {{ include "burnrate.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The service account the pods run as: the one the chart creates, or serviceAccount.name. */}}
{{- define "burnrate.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "burnrate.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name: name the existing service account burnrate runs as (serviceAccount.create is false)" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
Whether cloud and cluster actions run for real: `actions.enabled` or `config.actions.enabled`
(either switch turns them on), so the acting ClusterRole is bound exactly when burnrate.yml says
actions are on. "true" or "false", as include returns text.
*/}}
{{- define "burnrate.actionsEnabled" -}}
{{- $config := .Values.config | default dict }}
{{- $inConfig := (get (get $config "actions" | default dict) "enabled") | default false }}
{{- or .Values.actions.enabled $inConfig }}
{{- end }}

{{/*
burnrate.yml: the `config` map with the actions switch merged into its `actions` section (one
`actions:` key, whichever of the two places it was written in).
*/}}
{{- define "burnrate.config" -}}
{{- $config := deepCopy (.Values.config | default dict) }}
{{- $actions := deepCopy (get $config "actions" | default dict) }}
{{- $_ := set $actions "enabled" (eq (include "burnrate.actionsEnabled" .) "true") }}
{{- $_ := set $config "actions" $actions }}
{{- toYaml $config }}
{{- end }}
