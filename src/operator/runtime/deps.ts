// Everything a controller needs from the world, built once in the entry point (run-command.ts) and passed down.
// Tests build it from fakes: an in-memory KubeClient, a manual clock, a seeded random, an HTTP server on 127.0.0.1.
import type { Clock } from '../../core/clock.ts';
import type { EndpointMap } from './endpoint-map.ts';
import type { KubeClient } from './kube-client.ts';
import type { Logger } from './logger.ts';

/** A minimal HTTP client: the subset of fetch the operator uses to talk to Keycloak. */
export type HttpClient = (
  url: string,
  init?: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    signal?: AbortSignal;
    /** Checked again as the request is about to be written to its connection; throwing leaves it unsent. */
    fence?: () => void;
  },
) => Promise<{ status: number; text(): Promise<string>; headers?: { get(name: string): string | null } }>;

/** The dependencies of every controller. */
export type Deps = {
  readonly kube: KubeClient;
  readonly http: HttpClient;
  readonly endpoints: EndpointMap;
  readonly clock: Clock;
  /** Uniform in [0, 1): jitter only, never secrets. */
  readonly random: () => number;
  /** A new secret password (crypto-strong in production, fixed in tests). */
  readonly newPassword: () => string;
  readonly logger: Logger;
  /** How long a verified Ready is held while Keycloak cannot be reached (--ready-grace; default 10 minutes). */
  readonly readyGraceMs?: number;
};
