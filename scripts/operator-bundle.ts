// The operator bundled by esbuild into dist/operator/: realmforge.mjs (the command line) and chunks/ that load only
// when their command runs, so `realmforge run` loads the controllers, the kube and Keycloak clients and the metrics,
// and never synth's validators (ajv, CEL), doctor or dev: one bundle parses and holds less than hundreds of modules
// (docs/benchmarks.md, Operator memory).
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { splitNodeBundle } from './esbuild-split.ts';

const root = join(import.meta.dirname, '..');

/** The bundle's entry file in `outdir`. */
export const operatorBundleEntry = (outdir: string) => join(outdir, 'realmforge.mjs');

/** Bundles src/operator/cli/main.ts into `outdir` (default dist/operator); returns esbuild's metafile. */
export async function bundleOperator(outdir = join(root, 'dist', 'operator')): Promise<Metafile> {
  const result = await build({
    metafile: true,
    absWorkingDir: root,
    entryPoints: { realmforge: join(root, 'src', 'operator', 'cli', 'main.ts') },
    outdir,
    ...splitNodeBundle,
  });
  return result.metafile;
}

/** The inputs (source files and packages) that the output `chunk` loads, with every chunk it imports statically. */
export function inputsLoadedBy(metafile: Metafile, chunk: string): Set<string> {
  const inputs = new Set<string>();
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    const output = metafile.outputs[out];
    for (const input of Object.keys(output?.inputs ?? {})) inputs.add(input);
    for (const i of output?.imports ?? []) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(chunk);
  return inputs;
}
