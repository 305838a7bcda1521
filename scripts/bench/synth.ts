// `npm run bench:synth`: 1,000 IdentityServers through validation, compilation and YAML, with time and peak RSS.
import { performance } from 'node:perf_hooks';
import type { IdentityServer } from '../../generated/types/crds/identityserver.ts';
import { toYamlDocuments } from '../../src/core/yaml.ts';
import { compileIdentityServer } from '../../src/operator/compile/identity-server.ts';
import { createResourceValidator } from '../../src/operator/compile/resource-validator.ts';
import { synth } from '../../src/operator/compile/synth.ts';
import { loadCrdSchemas } from '../../src/operator/runtime/crd-schemas.ts';

const count = 1000;
const goalMs = 2000;

function servers(): IdentityServer[] {
  return Array.from({ length: count }, (_, i) => ({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityServer',
    metadata: { name: `kc-${i}`, namespace: `team-${i % 50}`, uid: `uid-${i}` },
    spec: {
      image: { tag: i % 2 ? '26.0.7' : '25.0.6' },
      replicas: 1 + (i % 3),
      database: { cluster: `pg-${i % 10}`, namespace: 'databases' },
      ingress: i % 4 ? { enabled: true, host: `id-${i}.example.com`, tlsSecretName: 'tls' } : undefined,
    },
  }));
}

function measure(label: string, work: () => number): number {
  const start = performance.now();
  const objects = work();
  const ms = performance.now() - start;
  console.log(
    `${label.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms total  ${((ms / count) * 1000).toFixed(0).padStart(5)} µs/server  ${objects} objects`,
  );
  return ms;
}

/** Runs the synth benchmark and prints compile-only and full synth side by side against the 2 s goal. */
export async function run(): Promise<void> {
  const inputs = {
    admin: { username: 'admin', password: 'x' },
    database: { username: 'app', password: 'y' },
  };
  const validate = createResourceValidator(loadCrdSchemas());
  measure(
    'warm-up (100 compiles)',
    () =>
      servers()
        .slice(0, 100)
        .flatMap((s) => compileIdentityServer(s, inputs)).length,
  );
  const compileMs = measure(
    'compile only',
    () => servers().flatMap((s) => compileIdentityServer(s, inputs)).length,
  );
  const yamlMs = measure('compile + YAML', () => {
    const objects = servers().flatMap((s) => compileIdentityServer(s, inputs));
    return toYamlDocuments(objects).length > 0 ? objects.length : 0;
  });
  const synthMs = measure('synth (validate + compile + YAML)', () => {
    const docs = servers().map((data, i) => ({ source: `bench-${i}.yaml`, data }));
    return synth(docs, validate).objects;
  });
  const rssMb = process.resourceUsage().maxRSS / 1024;
  console.log(`peak RSS ${rssMb.toFixed(0)} MB`);
  console.log(
    `ratios: compile+YAML/compile ${(yamlMs / compileMs).toFixed(2)}x, synth/compile ${(synthMs / compileMs).toFixed(2)}x, synth/goal(${goalMs} ms) ${(synthMs / goalMs).toFixed(2)}x`,
  );
  console.log(
    synthMs < goalMs
      ? `goal met: ${count} servers in under ${goalMs} ms`
      : `goal MISSED: ${synthMs.toFixed(0)} ms`,
  );
}
