// What a Keycloak server offers (GET /admin/serverinfo): its version, protocol mapper types per protocol and its
// providers (client authenticators, policy types, ...). A spec naming something the server does not have is
// refused before anything is written, naming the field, instead of being reported Ready. Read once per server and
// kept for a while: it changes only when Keycloak is upgraded or restarted with other providers.

import type { Clock } from '../../core/clock.ts';
import { RealmforgeError } from '../../core/errors.ts';
import type { AdminClient } from './admin-client.ts';

/** The parts of Keycloak's ServerInfoRepresentation the operator reads. */
type ServerInfoRepresentation = {
  systemInfo?: { version?: string };
  protocolMapperTypes?: Record<string, { id: string }[]>;
  providers?: Record<string, { providers?: Record<string, unknown> }>;
  features?: { name?: string; enabled?: boolean }[];
};

/** What the server offers, kept small (the full answer is hundreds of kilobytes): ids by protocol and by SPI. */
export type ServerInfo = {
  /** False when the operator may not read the server info (its Keycloak identity lacks the role): nothing is
   * checked against it then, and Keycloak's own answer to the write is the check. */
  readonly known: boolean;
  readonly version?: string;
  readonly mapperTypes: ReadonlyMap<string, ReadonlySet<string>>;
  readonly providers: ReadonlyMap<string, ReadonlySet<string>>;
  /** The enabled features in kebab case (client-secret-rotation); undefined when the answer does not list them. */
  readonly features?: ReadonlySet<string>;
};

/** A feature's name as Keycloak's options spell it: CLIENT_SECRET_ROTATION -> client-secret-rotation. */
const featureId = (name: string) => name.toLowerCase().replaceAll('_', '-');

/** The compact form of a serverinfo answer. */
export function compactServerInfo(rep: ServerInfoRepresentation): ServerInfo {
  return {
    known: true,
    version: rep.systemInfo?.version,
    mapperTypes: new Map(
      Object.entries(rep.protocolMapperTypes ?? {}).map(([p, types]) => [p, new Set(types.map((t) => t.id))]),
    ),
    providers: new Map(
      Object.entries(rep.providers ?? {}).map(([spi, v]) => [spi, new Set(Object.keys(v.providers ?? {}))]),
    ),
    features: rep.features
      ? new Set(rep.features.filter((f) => f.enabled).map((f) => featureId(f.name ?? '')))
      : undefined,
  };
}

const unknownServerInfo: ServerInfo = { known: false, mapperTypes: new Map(), providers: new Map() };
const ttlMs = 10 * 60_000;
const cache = new WeakMap<AdminClient, { at: number; info: Promise<ServerInfo> }>();

/** The server info of the Keycloak behind `admin` (one read per server per ten minutes). */
export async function serverInfo(admin: AdminClient, namespace: string, clock: Clock): Promise<ServerInfo> {
  const hit = cache.get(admin);
  if (hit && clock.now() - hit.at < ttlMs) return hit.info;
  const info = admin
    .call<ServerInfoRepresentation>(namespace, 'GET', '../serverinfo')
    .then((res) => (res.status === 200 ? compactServerInfo(res.body ?? {}) : unknownServerInfo))
    .catch((error: unknown) => {
      if (error instanceof RealmforgeError && error.kind === 'auth') return unknownServerInfo;
      throw error;
    });
  cache.set(admin, { at: clock.now(), info });
  info.catch(() => cache.delete(admin));
  return info;
}

/** Whether the server has provider `id` of SPI `spi`, e.g. client-authenticator/client-jwt (true when unknown). */
export const hasProvider = (info: ServerInfo, spi: string, id: string) =>
  !info.known || (info.providers.get(spi)?.has(id) ?? false);

/** Whether the server offers protocol mapper type `id` for `protocol` (true when its info is unknown). */
export const hasMapperType = (info: ServerInfo, protocol: string, id: string) =>
  !info.known || (info.mapperTypes.get(protocol)?.has(id) ?? false);

/** Whether feature `id` (kebab case) is enabled (true when the server info or its feature list is unknown). */
export const hasFeature = (info: ServerInfo, id: string) =>
  !info.known || !info.features || info.features.has(id);
