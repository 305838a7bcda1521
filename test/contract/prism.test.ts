// Every bbdc command that talks to the server, run against Prism serving the Bitbucket DC 9.4 OpenAPI document:
// once on its static examples and once on dynamic answers (fixed seed). Each command runs for real, with --json,
// and (when it changes something) with --dry-run. The suite fails on any request Prism finds outside the document
// (unless test/fake-bitbucket/deviations.ts declares it, with evidence) and on any crash on a document-valid answer.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registry } from '../../src/bbdc/registry.ts';
import { local, mutatingCases, offline, safeCases } from '../bbdc/helpers/command-cases.ts';
import { createWorld } from '../bbdc/helpers/world.ts';
import { type Checked, startPrism } from './prism-server.ts';

const test = suite('bbdc against Prism (Bitbucket DC 9.4 OpenAPI document)');
const commands = (await Promise.all(registry.map((e) => e.load()))).map((c) => c.name);

type Run = {
  command: string;
  argv: string[];
  code: number;
  crash?: string;
  error?: string;
  requests: Checked[];
};

/** The argv of every server command: reads once and --json once; writes also as a dry-run. */
function runs(): { command: string; argv: string[] }[] {
  const out: { command: string; argv: string[] }[] = [];
  for (const [command, argv] of Object.entries(safeCases)) {
    out.push({ command, argv }, { command, argv: [...argv, '--json'] });
  }
  for (const [command, c] of Object.entries(mutatingCases)) {
    const argv = Array.isArray(c) ? c : c.argv;
    out.push(
      { command, argv: [...argv, '--dry-run'] },
      { command, argv },
      { command, argv: [...argv, '--json'] },
    );
  }
  return out;
}

/**
 * A crash: bbdc's own failure (an error it did not expect, marked "unexpected"), not the server saying no nor bbdc
 * refusing an answer it cannot use (e.g. a page whose nextPageStart does not advance).
 */
function crashOf(code: number, stdout: string, stderr: string): string | undefined {
  if (code !== 1) return undefined;
  if (stderr.includes('(unexpected;')) return stderr.trim().split('\n')[0];
  try {
    const error = JSON.parse(stdout).error;
    if (error?.details?.some((d: string) => d.startsWith('unexpected:')))
      return `unexpected: ${error.message}`;
  } catch {}
  return undefined;
}

async function runAll(dynamic: boolean): Promise<Run[]> {
  const prism = await startPrism({ dynamic, seed: '1', username: 'alice' });
  const results: Run[] = [];
  try {
    for (const { command, argv } of runs()) {
      const w = createWorld({
        env: { BBDC_URL: prism.url, BBDC_TOKEN: 'contract-token', BBDC_PROJECT: 'PROJ', BBDC_REPO: 'api' },
      });
      const from = prism.checked.length;
      const r = await w.run(argv);
      w.dispose();
      results.push({
        command,
        argv,
        code: r.code,
        crash: crashOf(r.code, r.stdout, r.stderr),
        error: r.code ? (r.stderr.trim() || r.stdout.trim()).split('\n')[0].slice(0, 240) : undefined,
        requests: prism.checked.slice(from),
      });
    }
  } finally {
    await prism.close();
  }
  return results;
}

function report(mode: string, results: Run[]) {
  const requests = results.flatMap((r) => r.requests);
  const violations = results.flatMap((r) =>
    r.requests.flatMap((q) =>
      q.violations.map((v) => `bbdc ${r.argv.join(' ')}: ${q.method} ${q.path}: ${v}`),
    ),
  );
  const crashes = results.filter((r) => r.crash).map((r) => `bbdc ${r.argv.join(' ')}: ${r.crash}`);
  const unanswered = new Set(requests.filter((q) => q.unanswered).map((q) => `${q.method} ${q.path}`));
  const codes: Record<number, number> = {};
  for (const r of results) codes[r.code] = (codes[r.code] ?? 0) + 1;
  const clean = new Set(
    results.filter((r) => !r.crash && r.requests.every((q) => !q.violations.length)).map((r) => r.command),
  );
  const dirty = new Set(
    results.filter((r) => r.crash || r.requests.some((q) => q.violations.length)).map((r) => r.command),
  );
  const names = new Set(results.map((r) => r.command));
  console.log(
    `prism contract (${mode}): ${names.size} commands, ${results.length} runs, ${requests.length} requests checked against the document; ` +
      `${[...clean].filter((c) => !dirty.has(c)).length} commands clean, ${violations.length} request violations, ${crashes.length} crashes; ` +
      `exit codes ${JSON.stringify(codes)}; Prism could not answer ${unanswered.size} operations (no response schema in the document): ${[...unanswered].join(', ')}`,
  );
  for (const r of results.filter((x) => x.code !== 0 && !x.crash))
    console.log(
      `  exit ${r.code} (the server said no, or bbdc refused its answer): bbdc ${r.argv.join(' ')}: ${r.error}`,
    );
  for (const c of crashes) console.log(`  crash: ${c}`);
  for (const v of violations) console.log(`  violation: ${v}`);
  return { violations, crashes };
}

test('every command that talks to the server has a row (reads, writes), or is local or offline', () => {
  const covered = new Set([
    ...Object.keys(safeCases),
    ...Object.keys(mutatingCases),
    ...Object.keys(local),
    ...Object.keys(offline),
  ]);
  assert.equal(
    commands.filter((c) => !covered.has(c)),
    [],
    'add it to test/bbdc/helpers/command-cases.ts',
  );
});

for (const dynamic of [false, true]) {
  const mode = dynamic ? 'dynamic answers, seed 1' : 'static examples';
  test(`${mode}: no request outside the document, no crash on a document-valid answer`, async () => {
    const { violations, crashes } = report(mode, await runAll(dynamic));
    assert.equal({ violations, crashes }, { violations: [], crashes: [] });
  });
}

test('pr update --title alone sends the description Prism returned, byte for byte (static examples)', async () => {
  const prism = await startPrism({ dynamic: false, username: 'alice' });
  try {
    const w = createWorld({ env: { BBDC_URL: prism.url, BBDC_TOKEN: 'contract-token' } });
    const r = await w.run(['pr', 'update', '1', '--title', 'Better title', '-R', 'PROJ/api']);
    w.dispose();
    assert.is(r.code, 0, r.stderr);
    const read = prism.checked.find((q) => q.method === 'GET' && q.path.endsWith('/pull-requests/1'))!;
    const put = prism.checked.find((q) => q.method === 'PUT')!;
    const description = JSON.parse(read.answer).description;
    assert.type(description, 'string');
    assert.ok(description.length > 0, 'the example pull request has a description');
    assert.is(JSON.parse(put.sent).description, description);
    assert.equal(put.violations, []);
  } finally {
    await prism.close();
  }
});

test.run();
