// Every component of the test environment, pinned to an exact version. Change a version here and only here:
// the cache is keyed by these values, so the next `testenv up` builds or fetches the new one.

/** A Go program built from a module at an exact version (see go-build.ts). */
export type GoComponent = {
  /** Cache key prefix and wrapper name. */
  readonly name: string;
  /** The module required by the generated wrapper go.mod. */
  readonly module: string;
  readonly version: string;
  /** Main packages to build; each becomes a binary named after its last path element. */
  readonly packages: readonly string[];
  /** Wrapper sources copied next to the generated go.mod (a main package), relative to testenv/. */
  readonly wrapperDir?: string;
  /** Staging modules pinned as `replace M => M <stagingVersion>` for every `=> ./staging/...` upstream. */
  readonly stagingVersion?: string;
  /** Extra `-X` linker flags, such as the version a binary reports. */
  readonly ldflags?: readonly string[];
  /** Go build tags. */
  readonly tags?: readonly string[];
};

/** etcd's server, built through testenv/etcd (a main that calls etcdmain.Main). */
export const etcd: GoComponent = {
  name: 'etcd',
  module: 'go.etcd.io/etcd/server/v3',
  version: 'v3.6.16',
  packages: ['realmforge.dev/testenv/etcd'],
  wrapperDir: 'etcd',
};

/** kube-apiserver, kube-controller-manager and kubectl from one Kubernetes release. */
export const kubernetes: GoComponent = {
  name: 'kubernetes',
  module: 'k8s.io/kubernetes',
  version: 'v1.36.3',
  packages: [
    'k8s.io/kubernetes/cmd/kube-apiserver',
    'k8s.io/kubernetes/cmd/kube-controller-manager',
    'k8s.io/kubernetes/cmd/kubectl',
  ],
  stagingVersion: 'v0.36.3',
  ldflags: [
    '-X k8s.io/component-base/version.gitVersion=v1.36.3',
    '-X k8s.io/component-base/version.gitMajor=1',
    '-X k8s.io/component-base/version.gitMinor=36',
    '-X k8s.io/client-go/pkg/version.gitVersion=v1.36.3',
    '-X k8s.io/client-go/pkg/version.gitMajor=1',
    '-X k8s.io/client-go/pkg/version.gitMinor=36',
  ],
};

/** Helm's CLI, used by the chart tests (not part of `testenv up`). */
export const helm: GoComponent = {
  name: 'helm',
  module: 'helm.sh/helm/v3',
  version: 'v3.22.0',
  packages: ['helm.sh/helm/v3/cmd/helm'],
  // As helm's Makefile: the version it reports, and the Kubernetes version of its client-go (v0.37) as the
  // default for `helm template` and `helm lint` (otherwise 1.20).
  ldflags: [
    '-X helm.sh/helm/v3/internal/version.version=v3.22.0',
    '-X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1',
    '-X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=37',
    '-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1',
    '-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=37',
  ],
};

/** Prometheus and promtool, for the chart's alert tests and the monitoring e2e suite (not part of `testenv up`). */
export const prometheus: GoComponent = {
  name: 'prometheus',
  module: 'github.com/prometheus/prometheus',
  // The Go module's v0.316.0 is Prometheus v3.16.0.
  version: 'v0.316.0',
  packages: [
    'github.com/prometheus/prometheus/cmd/prometheus',
    'github.com/prometheus/prometheus/cmd/promtool',
  ],
  ldflags: ['-X github.com/prometheus/common/version.Version=3.16.0'],
  // Only static and file targets are scraped here: leaving out the cloud service discoveries (their SDKs are most
  // of Prometheus's dependencies) makes the cold build several times shorter.
  tags: ['remove_all_sd'],
};

/** The Go components in build order. */
export const goComponents: readonly GoComponent[] = [etcd, kubernetes];

/** The two selectable Keycloak lines: `REALMFORGE_KEYCLOAK=26` (default) or `25`. */
export const keycloakVersions = {
  '26': { version: '26.7.3', javaMajor: [25, 21, 17] },
  '25': { version: '25.0.6', javaMajor: [17] },
} as const;

/** Maven coordinates of the Keycloak distribution; `<version>` is filled from keycloakVersions. */
export const keycloakArtifact = 'org.keycloak:keycloak-quarkus-dist:<version>:zip';

/** PostgreSQL server major version installed from Debian when missing. */
export const postgresMajor = '15';

/** CloudNativePG CRDs (Cluster, Database, DatabaseRole) read from ../shared/reference. */
export const cnpg = { version: 'v1.30.0', referenceDir: 'cnpg-v1.30.0' } as const;
