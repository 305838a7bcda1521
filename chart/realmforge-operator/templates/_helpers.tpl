{{/* The operator's fixed name (docs/decisions.md): Deployment, ServiceAccount and pod label. */}}
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

{{/* Whether a Prometheus Operator kind is rendered: enabled true or false, or "auto" (when the cluster serves it). */}}
{{- define "realmforge-operator.monitoringKind" -}}
{{- $enabled := index . 0 -}}
{{- $root := index . 1 -}}
{{- if eq (toString $enabled) "auto" -}}
{{ $root.Capabilities.APIVersions.Has (printf "monitoring.coreos.com/v1/%s" (index . 2)) }}
{{- else -}}
{{ $enabled }}
{{- end -}}
{{- end }}

{{/* A Kubernetes memory quantity (256Mi, 1G, 134217728) in bytes. */}}
{{- define "realmforge-operator.bytes" -}}
{{- $q := toString . -}}
{{- $n := regexFind "^[0-9]+(\\.[0-9]+)?" $q -}}
{{- $units := dict "Ki" 1024 "Mi" 1048576 "Gi" 1073741824 "Ti" 1099511627776 "k" 1000 "M" 1000000 "G" 1000000000 "T" 1000000000000 -}}
{{- mulf (float64 $n) (get $units (trimPrefix $n $q) | default 1) | int64 -}}
{{- end }}
