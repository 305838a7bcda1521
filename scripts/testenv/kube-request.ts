// Raw requests to the API server with a kubeconfig's credentials. Used where the typed client would get in the
// way: it drops CRD schema keys such as x-kubernetes-int-or-string when serialising, and lacks fieldValidation.
import { request } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

/** An API response: the status code and the body, JSON-decoded when it is JSON. */
export type KubeResponse = { status: number; body: any };

/** Sends one request; `body` is sent as JSON text unless it is already a string. */
export async function kubeRequest(
  kubeconfig: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<KubeResponse> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error(`${kubeconfig} has no current cluster`);
  const options: Parameters<typeof request>[1] = { method, headers: {} };
  await kc.applyToHTTPSOptions(options);
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  if (payload) options.headers = { ...options.headers, 'content-type': contentType };
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, cluster.server), options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Server-side applies one object at its REST path (strict field validation, forced, one field manager). */
export async function applyAt(
  kubeconfig: string,
  path: string,
  object: unknown,
  fieldManager: string,
): Promise<KubeResponse> {
  const query = `fieldManager=${encodeURIComponent(fieldManager)}&fieldValidation=Strict&force=true`;
  return kubeRequest(kubeconfig, 'PATCH', `${path}?${query}`, object, 'application/apply-patch+yaml');
}

const resources = new Map<string, Promise<{ kind: string; name: string; namespaced: boolean }[]>>();

/** The REST path of an object (`/apis/<group>/<version>/namespaces/<ns>/<plural>/<name>`), found by discovery. */
export async function restPath(
  kubeconfig: string,
  object: { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } },
): Promise<string> {
  const groupVersion = object.apiVersion ?? '';
  const prefix = groupVersion.includes('/') ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
  let list = resources.get(prefix);
  if (!list) {
    list = kubeRequest(kubeconfig, 'GET', prefix).then((r) => (r.status === 200 ? r.body.resources : []));
    resources.set(prefix, list);
  }
  const resource = (await list).find((r) => r.kind === object.kind && !r.name.includes('/'));
  if (!resource) {
    resources.delete(prefix);
    throw new Error(`the API server serves no ${object.kind} in ${groupVersion}`);
  }
  const ns = resource.namespaced ? `/namespaces/${object.metadata?.namespace ?? 'default'}` : '';
  return `${prefix}${ns}/${resource.name}/${object.metadata?.name}`;
}
