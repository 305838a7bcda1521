{{/* The operator's fixed name (DECISIONS.md): Deployment, ServiceAccount and pod label. */}}
{{- define "realmforge-operator.name" -}}realmforge-operator{{- end }}

{{/* The labels of src/operator/compile/operator-deployment.ts. */}}
{{- define "realmforge-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "realmforge-operator.name" . }}
{{- end }}

{{/* Helm's own labels, added to every object on top of the generated manifests' labels. */}}
{{- define "realmforge-operator.helmLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}

{{/* Labels of the operator's own objects (ServiceAccount, Deployment, Service, PDB). */}}
{{- define "realmforge-operator.labels" -}}
{{ include "realmforge-operator.selectorLabels" . }}
app.kubernetes.io/part-of: realmforge
{{ include "realmforge-operator.helmLabels" . }}
{{- end }}

{{/* Labels of the RBAC objects (operator-rbac.ts labels them part-of only). */}}
{{- define "realmforge-operator.rbacLabels" -}}
app.kubernetes.io/part-of: realmforge
{{ include "realmforge-operator.helmLabels" . }}
{{- end }}

{{/* The image reference; the tag defaults to the chart's appVersion. */}}
{{- define "realmforge-operator.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{/* Leader election is on with more than one replica, or when forced by leaderElection.enabled. */}}
{{- define "realmforge-operator.leaderElect" -}}
{{ or .Values.leaderElection.enabled (gt (int .Values.replicas) 1) }}
{{- end }}
