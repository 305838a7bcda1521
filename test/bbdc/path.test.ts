import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseId } from '../../src/bbdc/api/ids.ts';
import { filePath, restPath, segment } from '../../src/bbdc/api/path.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc paths: one builder, dot segments refused');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const run = async (argv: string[]) => {
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};

test('segment: encodes everything but unreserved characters; refuses ".", ".." and empty, naming the argument', () => {
  assert.is(segment('tag', 'a/b c?#%'), 'a%2Fb%20c%3F%23%25');
  assert.is(segment('tag', '...'), '...');
  assert.is(segment('id', 42), '42');
  for (const bad of ['.', '..', '']) {
    assert.throws(
      () => segment('tag', bad),
      (e: Error) => e.message.startsWith('tag cannot be'),
    );
  }
  assert.is(filePath('path', '/src/a b/x.ts'), 'src/a%20b/x.ts');
  assert.throws(() => filePath('path', 'src/../secret'), /path cannot be "\.\."/);
  assert.is(
    restPath`/rest/api/latest/projects/${{ argument: 'project', value: 'P Q' }}/repos`,
    '/rest/api/latest/projects/P%20Q/repos',
  );
});

// Each of these would, after URL normalisation, address a parent resource (the project, the repository, the
// pull request): the command must refuse before it sends anything that changes the server.
const cases: [string[], RegExp][] = [
  [['repo', 'delete', 'PROJ/..', '--yes'], /repository cannot be "\.\."/],
  [['repo', 'delete', 'PROJ/.', '--yes'], /repository cannot be "\."/],
  [['tag', 'delete', '..', '-R', 'PROJ/web'], /tag cannot be "\.\."/],
  [['pr', 'reviewer', 'remove', '1', '..', '-R', 'PROJ/api'], /user cannot be "\.\."/],
  [['repo', 'delete', '../web', '--yes'], /project cannot be "\.\."/],
  [['repo', 'delete', 'PROJ/..', '--yes', '--dry-run'], /repository cannot be "\.\."/],
];
for (const [argv, message] of cases) {
  test(`bbdc ${argv.join(' ')}: usage error naming the argument, no write sent`, async () => {
    const n = fake.requests.length;
    const res = await run(argv);
    assert.is(res.code, 2, res.stderr);
    assert.match(res.stderr, message);
    assert.equal(
      fake.requests.slice(n).filter((r) => r.method !== 'GET'),
      [],
    );
  });
}

test('ids are checked as decimal text: outside the server range or above 2^53 - 1 refused, never rounded', async () => {
  assert.is(parseId('pull request id', '#42', 'int64', ''), 42);
  assert.is(parseId('pull request id', '9007199254740991', 'int64', ''), 9007199254740991);
  assert.throws(
    () => parseId('pull request id', '9007199254740993', 'int64', ''),
    /largest id bbdc can send exactly/,
  );
  assert.throws(
    () => parseId('pull request id', '9223372036854775808', 'int64', ''),
    /outside the server's range/,
  );
  assert.throws(
    () => parseId('webhook id', '2147483648', 'int32', ''),
    /outside the server's range \(1 to 2147483647\)/,
  );
  for (const bad of ['0', '-1', '1e3', '0x10', ''])
    assert.throws(() => parseId('id', bad, 'int64', ''), /whole number/);
  const n = fake.requests.length;
  const r = await run(['pr', 'get', '9007199254740993', '-R', 'PROJ/api']);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, 'pull request id 9007199254740993 is above 9007199254740991');
  assert.is(fake.requests.length, n, 'nothing was sent: the rounded id would be another pull request');
});

test.run();
