// `npm run release:build [-- --targets all|host|linux-x64,... --out DIR]`: everything a bbdc release publishes,
// written to release/ (gitignored):
//   realmforge-bbdc-<version>.tgz   the npm package @realmforge/bbdc (bbdc bundled: nothing to fetch)
//   bbdc-<os>-<arch>.tar.gz        standalone executables (Node single-executable applications)
//   release.json                   what `bbdc update` reads first
//   sha256sums.txt                 the checksum of every file above (CI signs it with cosign: sha256sums.txt.sigstore.json)
//   provenance.intoto.json         in-toto Statement v1, SLSA provenance v1, every file as a subject
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { create as createTar } from 'tar';
import { bundleBbdc } from './bundle.ts';
import { chooseVersion, fetchNodeBinary, type NodeBinary, registryVersions } from './node-binaries.ts';
import { type Dependency, provenanceStatement } from './provenance.ts';
import { injectBlob, makeBlob } from './sea.ts';
import { allTargets, archiveFile, executableFile, hostTarget, parseTargets, targetId } from './targets.ts';

const root = join(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    targets: { type: 'string', default: 'all' },
    out: { type: 'string', default: join(root, 'release') },
    'allow-missing': { type: 'boolean', default: false },
  },
});
const out = values.out;
const work = join(out, '.work');
const cache = join(root, '.cache', 'release', 'node');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const version: string = pkg.version;
const startedOn = new Date();
const log = (text: string) => process.stderr.write(`release: ${text}\n`);
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

rmSync(out, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
mkdirSync(cache, { recursive: true });

// 1. The npm package.
const npmDir = join(work, 'npm');
await bundleBbdc(join(npmDir, 'dist'), version, 'npm');
writeFileSync(
  join(npmDir, 'package.json'),
  `${JSON.stringify(
    {
      name: '@realmforge/bbdc',
      version,
      description: 'bbdc: a command-line client for Bitbucket Data Center, in the spirit of gh',
      license: pkg.license,
      bin: { bbdc: 'dist/main.cjs' },
      files: ['dist'],
      engines: pkg.engines,
      // The OS keyring is a native addon; without it bbdc keeps the token in a 0600 file.
      optionalDependencies: { '@napi-rs/keyring': pkg.dependencies['@napi-rs/keyring'] },
    },
    null,
    2,
  )}\n`,
);
copyFileSync(join(import.meta.dirname, 'npm-readme.md'), join(npmDir, 'README.md'));
const packed = JSON.parse(
  execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: npmDir, encoding: 'utf8' }),
) as { filename: string }[];
log(`npm package ${packed[0].filename}`);

// 2. The executables.
const targets = parseTargets(values.targets);
const seaScripts = await bundleBbdc(join(work, 'sea'), version, 'sea');
const hostVersion = process.versions.node;
const host = hostTarget();
const generators = new Map<string, string>([[hostVersion, process.execPath]]);
const used: NodeBinary[] = [];
const missing: string[] = [];
for (const target of targets) {
  const id = targetId(target);
  const isHost = id === targetId(host);
  // The host's own binary is the registry package's (node@24 installs node-<host>), so it is used as is.
  const chosen = isHost ? hostVersion : chooseVersion(registryVersions(target, root), hostVersion);
  if (!chosen) {
    missing.push(`${id}: the npm registry has no node-${id} package of Node 22 or later`);
    log(`skipping ${id}: no usable node-${id} package in the registry`);
    continue;
  }
  const node: NodeBinary = isHost
    ? { target, version: hostVersion, path: process.execPath, source: `pkg:npm/node-${id}@${hostVersion}` }
    : await fetchNodeBinary(target, chosen, cache);
  if (!generators.has(chosen)) {
    generators.set(chosen, (await fetchNodeBinary(host, chosen, cache)).path);
  }
  const dir = join(work, id);
  mkdirSync(dir, { recursive: true });
  const blob = makeBlob(generators.get(chosen)!, seaScripts, dir, { codeCache: isHost });
  const exe = join(dir, executableFile(target));
  await injectBlob(node.path, blob, exe, target.os);
  await createTar({ gzip: true, portable: true, cwd: dir, file: join(out, archiveFile(target)) }, [
    executableFile(target),
  ]);
  used.push(node);
  log(`${archiveFile(target)} (Node ${chosen})`);
}
if (missing.length && !values['allow-missing']) {
  log(`not built: ${missing.join('; ')}`);
  log('pass --allow-missing to publish without them');
  process.exitCode = 1;
}

// 3. Metadata, checksums, provenance.
writeFileSync(join(out, 'release.json'), `${JSON.stringify({ name: 'bbdc', version }, null, 2)}\n`);
const published = readdirSync(out)
  .filter((f) => f !== '.work')
  .sort();
writeFileSync(join(out, 'sha256sums.txt'), published.map((f) => `${sha256(join(out, f))}  ${f}\n`).join(''));
const subjects = [...published, 'sha256sums.txt'].map((name) => ({
  name,
  digest: { sha256: sha256(join(out, name)) },
}));
const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const env = process.env;
const source: Dependency = {
  uri: env.GITHUB_REPOSITORY
    ? `git+https://github.com/${env.GITHUB_REPOSITORY}@${env.GITHUB_REF}`
    : `git+file://${root}`,
  digest: { gitCommit: commit },
};
const dependencies: Dependency[] = used.map((n) => ({
  uri: n.source,
  digest: { sha256: sha256(n.path) },
}));
const statement = provenanceStatement({
  subjects,
  version,
  targets: targets.map(targetId),
  source,
  dependencies,
  builderId: env.GITHUB_ACTIONS
    ? `https://github.com/${env.GITHUB_REPOSITORY}/.github/workflows/release.yml@${env.GITHUB_REF}`
    : 'https://realmforge.dev/bbdc/release-build/local',
  invocationId: env.GITHUB_RUN_ID
    ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
    : randomUUID(),
  startedOn,
  finishedOn: new Date(),
});
writeFileSync(join(out, 'provenance.intoto.json'), `${JSON.stringify(statement, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
log(`wrote ${published.length + 2} files to ${out}; built ${used.map((n) => targetId(n.target)).join(', ')}`);
if (allTargets.length !== targets.length)
  log(`targets: ${targets.map(targetId).join(', ')} (of ${allTargets.map(targetId).join(', ')})`);
