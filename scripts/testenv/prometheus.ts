// Prometheus and promtool for the alert tests and the monitoring e2e suite: built once from their Go module at the
// version pinned in versions.ts (`testenv build` builds them; a suite that needs them first builds them too).
// `startPrometheus` runs a server on 127.0.0.1 for one suite, scraping the targets it is given with its rules.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockedGoBuild } from './go-build.ts';
import { freePort } from './ports.ts';
import { startDaemon, stopDaemon, waitReady } from './proc.ts';
import { prometheus } from './versions.ts';

/** The paths of the prometheus and promtool binaries, building them into the cache on first use. */
export async function prometheusBinaries(
  log: (line: string) => void = (line) => console.error(line),
): Promise<{ prometheus: string; promtool: string }> {
  const bins = await lockedGoBuild(prometheus, 'promtool', log);
  return { prometheus: bins.prometheus as string, promtool: bins.promtool as string };
}

/** One sample of an instant query: its labels and value. */
export type Sample = { metric: Record<string, string>; value: [number, string] };
/** An alert as /api/v1/alerts lists it. */
export type Alert = {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
  annotations: Record<string, string>;
};

export type RunningPrometheus = {
  readonly url: string;
  query(expr: string): Promise<Sample[]>;
  alerts(): Promise<Alert[]>;
  stop(): Promise<void>;
};

/**
 * Starts Prometheus scraping `targets` (host:port of /metrics, job `job`) every `interval`, evaluating `rules` (a
 * rule file's text) as often; its data lives in a temporary directory removed by stop().
 */
export async function startPrometheus(options: {
  targets: string[];
  rules: string;
  job?: string;
  interval?: string;
}): Promise<RunningPrometheus> {
  const { prometheus: bin } = await prometheusBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'realmforge-prometheus-'));
  const interval = options.interval ?? '2s';
  writeFileSync(join(dir, 'rules.yaml'), options.rules);
  writeFileSync(
    join(dir, 'prometheus.yaml'),
    JSON.stringify({
      global: { scrape_interval: interval, evaluation_interval: interval },
      rule_files: [join(dir, 'rules.yaml')],
      scrape_configs: [
        {
          job_name: options.job ?? 'realmforge-operator',
          honor_labels: true,
          static_configs: [{ targets: options.targets }],
        },
      ],
    }),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const daemon = startDaemon(
    'prometheus',
    bin,
    [
      `--config.file=${join(dir, 'prometheus.yaml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { logFile: join(dir, 'prometheus.log') },
  );
  await waitReady(daemon, async () => (await fetch(`${url}/-/ready`)).ok, 60_000);
  const api = async (path: string) => {
    const res = await fetch(`${url}/api/v1/${path}`);
    const body = (await res.json()) as { status: string; data: any; error?: string };
    if (body.status !== 'success') throw new Error(`Prometheus ${path}: ${body.error ?? res.status}`);
    return body.data;
  };
  return {
    url,
    query: async (expr) => (await api(`query?query=${encodeURIComponent(expr)}`)).result,
    alerts: async () => (await api('alerts')).alerts,
    stop: async () => {
      await stopDaemon(daemon.pid);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (import.meta.main) {
  const started = Date.now();
  console.log(await prometheusBinaries());
  console.error(`prometheus ready in ${Math.round((Date.now() - started) / 1000)} s`);
}
