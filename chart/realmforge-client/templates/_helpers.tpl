{{/* The IdentityClient's name: values.name or the release name. */}}
{{- define "realmforge-client.name" -}}
{{ .Values.name | default .Release.Name }}
{{- end }}

{{/* Labels of every object of the chart. */}}
{{- define "realmforge-client.labels" -}}
app.kubernetes.io/name: realmforge-client
app.kubernetes.io/part-of: realmforge
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}
