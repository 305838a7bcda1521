// The import rule of docs/architecture.md, checked on every file of src/: src/core imports neither product, the
// two products do not import each other, every operator file sits in a layer folder, and a lower operator layer
// never imports a higher one (compile < runtime < keycloak < controllers < doctor < cli). Type-only and dynamic
// imports count: they tie the code together just the same.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { walkFiles } from '../src/core/walk-files.ts';

const root = join(import.meta.dirname, '..');
const layers = ['compile', 'runtime', 'keycloak', 'controllers', 'doctor', 'cli'];

/** The relative module paths a file imports or re-exports, statically or dynamically. */
function importsOf(source: string): string[] {
  const found = source.matchAll(/(?:\bfrom|\bimport|\bimport\s*\()\s*['"](\.[^'"]+)['"]/g);
  return [...found].map((m) => m[1]);
}

/** What `file` (a path from the repository root) may not import, as one line per broken rule. */
function violations(file: string, source: string): string[] {
  const [, product, layer] = file.split('/');
  const out: string[] = [];
  if (product === 'operator' && !layers.includes(layer)) out.push(`${file} is outside the layer folders`);
  for (const spec of importsOf(source)) {
    const target = relative(root, resolve(root, dirname(file), spec));
    const [top, other, otherLayer] = target.split('/');
    if (top !== 'src') continue;
    const why =
      product === 'core' && other !== 'core'
        ? 'src/core is shared by both products and imports neither'
        : product !== other && other !== 'core' && product !== 'core'
          ? `the ${product} product does not import the ${other} product`
          : product === 'operator' &&
              other === 'operator' &&
              layers.indexOf(otherLayer) > layers.indexOf(layer)
            ? `${layer} is below ${otherLayer} (${layers.join(' < ')})`
            : undefined;
    if (why) out.push(`${file} imports ${target}: ${why}`);
  }
  return out;
}

test('the rule finds an upward import, a crossing between products and a loose operator file', () => {
  const at = 'src/operator/compile/x.ts';
  assert.equal(violations(at, 'import { a } from "./y.ts";\nimport { c } from "../../core/errors.ts";'), []);
  assert.equal(violations(at, 'import type { K } from "../keycloak/admin-client.ts";'), [
    `${at} imports src/operator/keycloak/admin-client.ts: compile is below keycloak (${layers.join(' < ')})`,
  ]);
  assert.equal(violations('src/operator/cli/main.ts', 'await import("../runtime/manager.ts");'), []);
  assert.equal(
    violations('src/operator/runtime/m.ts', 'const c = await import("../cli/main.ts");').length,
    1,
  );
  assert.equal(violations('src/core/x.ts', 'export { y } from "../bbdc/y.ts";').length, 1);
  assert.equal(violations('src/bbdc/x.ts', 'import { y } from "../operator/compile/y.ts";').length, 1);
  assert.equal(violations('src/operator/loose.ts', ''), [
    'src/operator/loose.ts is outside the layer folders',
  ]);
});

test('no file of src/ breaks the rule', () => {
  const files = walkFiles(join(root, 'src'), (name) => name.endsWith('.ts'));
  assert.ok(files.length > 500, `read ${files.length} files`);
  const found = files.flatMap((f) => violations(relative(root, f), readFileSync(f, 'utf8')));
  assert.equal(found, []);
});

test.run();
