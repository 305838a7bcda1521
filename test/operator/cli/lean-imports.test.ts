// The operator process stays small: `realmforge run` (and `realmforge doctor`, which reads the cluster with the
// operator's own kube client) must not load @kubernetes/client-node at run time (importing
// it alone took a bare Node process from 43 to 132 MB RSS). Type-only imports are erased and allowed.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = join(import.meta.dirname, '..', '..', '..');

for (const [command, file, sample] of [
  ['run', 'run-command.ts', '/src/operator/runtime/watch-source.ts'],
  ['doctor', 'doctor-command.ts', '/src/operator/doctor/read-snapshot.ts'],
] as const)
  test(`loading the ${command} command resolves no module of @kubernetes/client-node`, () => {
    const script = `
    import { registerHooks } from 'node:module';
    const seen = [];
    registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r; } });
    await import(${JSON.stringify(join(root, 'src/operator/cli', file))});
    console.log(JSON.stringify(seen));`;
    const seen = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }),
    ) as string[];
    assert.ok(
      seen.some((u) => u.includes(sample)),
      'the hook saw the imports',
    );
    assert.ok(
      seen.some((u) => u.includes('/node_modules/undici/')),
      'the hook saw package imports',
    );
    assert.equal(
      seen.filter((u) => u.includes('@kubernetes/client-node')),
      [],
    );
  });

test.run();
