// `realmforge doctor`: wiring only. Finds the API server as `run` does, reads the cluster with the operator's own
// kube client (src/operator/doctor/read-snapshot.ts), runs the checks and prints them (text, or --json as
// schemas/operator/doctor-report.schema.json). It only reads; the exit code is 1 when any check FAILs.
import { readFileSync } from 'node:fs';
import { fetch as undiciFetch } from 'undici';
import { systemClock } from '../../core/clock.ts';
import { UsageError } from '../../core/errors.ts';
import type { Io } from '../../core/io.ts';
import { operatorName } from '../compile/operator-deployment.ts';
import { devRecordName, readDevRecord } from '../doctor/dev-record.ts';
import { readSnapshot } from '../doctor/read-snapshot.ts';
import { diagnose, renderReport, reportExitCode } from '../doctor/report.ts';
import { endpointMapVariable, loadEndpointMap } from '../runtime/endpoint-map.ts';
import { loadKubeAccess } from '../runtime/kube-config.ts';
import { kubeResources } from '../runtime/kube-resources.ts';
import { restKubeClient } from '../runtime/kube-rest-client.ts';
import { kubeTransport } from '../runtime/kube-transport.ts';

export type DoctorFlags = {
  kubeconfig?: string;
  namespace?: string;
  operatorNamespace?: string;
  operatorUrl?: string;
  json?: boolean;
};

const namePattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function checkFlags(flags: DoctorFlags): void {
  for (const [flag, value] of [
    ['--namespace', flags.namespace],
    ['--operator-namespace', flags.operatorNamespace],
  ] as const) {
    if (value !== undefined && !namePattern.test(value))
      throw new UsageError(`${flag} "${value}" is not a namespace name (lower-case letters, digits and '-')`);
  }
  if (flags.operatorUrl !== undefined && !/^https?:\/\/[^/]+/.test(flags.operatorUrl))
    throw new UsageError(`--operator-url "${flags.operatorUrl}" is not a URL such as http://127.0.0.1:8081`);
}

/** Runs every check against the cluster; resolves with the exit code (1 on any FAIL). */
export async function runDoctor(
  io: Io,
  flags: DoctorFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  checkFlags(flags);
  const access = loadKubeAccess(
    { kubeconfig: flags.kubeconfig, env },
    (file) => readFileSync(file, 'utf8'),
    systemClock,
  );
  // A one-shot command: its retry waits (the API server's 503 for a service without endpoints) must keep Node
  // running, or it ends silently with exit code 0 before the report (the operator's own timers are unref'd).
  const clock = {
    ...systemClock,
    setTimer: (ms: number, fn: () => void) => systemClock.setTimer(ms, fn, { keepAlive: true }),
  };
  const transport = kubeTransport(access, { timeoutMs: 15_000, clock });
  try {
    const fetchText = async (url: string, signal?: AbortSignal) => {
      const timeout = AbortSignal.timeout(5000);
      const res = await undiciFetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      return { status: res.status, text: await res.text() };
    };
    const kube = restKubeClient(transport, kubeResources(transport, systemClock), systemClock);
    const namespace = flags.operatorNamespace ?? 'realmforge-system';
    // The environment npm start made says where its operator and services are, unless the flags say otherwise.
    const dev = flags.operatorUrl ? undefined : await readDevRecord(kube, namespace);
    const deps = {
      kube,
      transport,
      fetchText,
      endpoints: loadEndpointMap(env[endpointMapVariable] ?? dev?.endpointMap),
      inCluster: Boolean(env.KUBERNETES_SERVICE_HOST) && !flags.kubeconfig && !env.KUBECONFIG,
      server: access.server,
    };
    const operator = {
      namespace,
      deployment: operatorName,
      serviceAccount: operatorName,
      url: flags.operatorUrl ?? dev?.operatorUrl,
      recordedBy: dev ? `realmforge dev (ConfigMap ${namespace}/${devRecordName})` : undefined,
    };
    const report = diagnose(await readSnapshot(deps, operator, flags.namespace));
    io.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : renderReport(report));
    return reportExitCode(report);
  } finally {
    await transport.close();
  }
}
