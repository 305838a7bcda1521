// Finds the control-plane binaries: prebuilt ones named by envtest's variables first, else built from Go modules.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { goBinaries, goBuild } from './go-build.ts';
import { etcd, kubernetes } from './versions.ts';

/** Paths of the binaries the control plane runs; a missing controller manager or kubectl is undefined. */
export type Binaries = {
  etcd: string;
  kubeApiserver: string;
  kubeControllerManager?: string;
  kubectl?: string;
  source: string;
};

function asset(variable: string, file: string): string | undefined {
  const direct = process.env[variable];
  if (direct) return direct;
  const dir = process.env.KUBEBUILDER_ASSETS;
  return dir && existsSync(join(dir, file)) ? join(dir, file) : undefined;
}

/** Uses KUBEBUILDER_ASSETS / TEST_ASSET_* binaries when set (building nothing), else builds or reuses the cache. */
export async function resolveBinaries(log: (line: string) => void): Promise<Binaries> {
  const prebuiltEtcd = asset('TEST_ASSET_ETCD', 'etcd');
  const prebuiltApiserver = asset('TEST_ASSET_KUBE_APISERVER', 'kube-apiserver');
  if (prebuiltEtcd && prebuiltApiserver) {
    const kcm = asset('TEST_ASSET_KUBE_CONTROLLER_MANAGER', 'kube-controller-manager');
    const kubectl = asset('TEST_ASSET_KUBECTL', 'kubectl');
    if (!kcm) {
      log(
        'warning: no kube-controller-manager in KUBEBUILDER_ASSETS (setup-envtest ships none): garbage collection ' +
          'and the Deployment controller are off. Set TEST_ASSET_KUBE_CONTROLLER_MANAGER, or unset KUBEBUILDER_ASSETS to build it.',
      );
    }
    return {
      etcd: prebuiltEtcd,
      kubeApiserver: prebuiltApiserver,
      kubeControllerManager: kcm,
      kubectl,
      source: 'prebuilt',
    };
  }
  const e = await goBuild(etcd, log);
  const k = await goBuild(kubernetes, log);
  return {
    etcd: e.etcd,
    kubeApiserver: k['kube-apiserver'],
    kubeControllerManager: k['kube-controller-manager'],
    kubectl: k.kubectl,
    source: `built ${etcd.version}, ${kubernetes.version}`,
  };
}

/** Whether every binary is already in the cache (so `up` builds nothing). */
export function binariesCached(): boolean {
  return [etcd, kubernetes].every((c) => Object.values(goBinaries(c)).every((b) => existsSync(b)));
}
