// `npm test` needs only Node: no suite of its tier may reach, through its imports, the code that builds Helm or
// Kubernetes from Go modules or fetches Keycloak with Maven and a JDK. Those suites belong to test:charts or
// test:e2e (scripts/test.ts). CI also runs `npm test` with go, java, mvn and helm hidden (.ci/run).
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { walkFiles } from '../../src/core/walk-files.ts';

const root = join(import.meta.dirname, '..', '..');
/** Modules that run Go, Helm, a JDK or Maven. */
const toolModules = ['go-build.ts', 'helm.ts', 'keycloak-dist.ts', 'build-all.ts', 'assets.ts'].map((f) =>
  join(root, 'scripts', 'testenv', f),
);

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+\.ts)'/g)].map((m) => m[1]);
  return specs.map((s) => resolve(dirname(file), s));
}

/** The import chain from `file` to a tool module, or undefined when none is reachable. */
function chainToTools(file: string, seen = new Set<string>()): string[] | undefined {
  if (toolModules.includes(file)) return [file];
  if (seen.has(file)) return undefined;
  seen.add(file);
  for (const next of relativeImports(file)) {
    const chain = chainToTools(next, seen);
    if (chain) return [file, ...chain];
  }
  return undefined;
}

const unitSuites = walkFiles(
  join(root, 'test'),
  (name) => name.endsWith('.test.ts'),
  (dir) => dir === 'golden' || dir === 'fixtures',
).filter((f) => !/^test\/(e2e|chart)\//.test(relative(root, f)));

test('npm test has suites, and none of them reaches Go, Helm, Maven or a JDK', () => {
  assert.ok(unitSuites.length > 20, `only ${unitSuites.length} unit suites found`);
  const offenders = unitSuites
    .map((f) => chainToTools(f))
    .filter((c): c is string[] => c !== undefined)
    .map((c) => c.map((f) => relative(root, f)).join(' -> '));
  assert.equal(offenders, [], `move these suites to test/chart or test/e2e:\n${offenders.join('\n')}`);
});

test('the chart suites do reach helm (the guard above would see them)', () => {
  const chart = join(root, 'test', 'chart', 'golden.test.ts');
  assert.ok(chainToTools(chart), 'test/chart/golden.test.ts no longer reaches scripts/testenv/helm.ts');
});

test.run();
