import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseId } from '../../src/bbdc/api/ids.ts';
import { filePath, restPath, segment } from '../../src/bbdc/api/path.ts';
import { parseJson, stringifyJson } from '../../src/core/exact-json.ts';
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

test('ids are checked as decimal text: outside the server range refused; above 2^53 - 1 kept exact as a BigInt', async () => {
  assert.is(parseId('pull request id', '#42', 'int64', ''), 42);
  assert.is(parseId('pull request id', '9007199254740991', 'int64', ''), 9007199254740991);
  assert.is(parseId('pull request id', '9007199254740993', 'int64', ''), 9007199254740993n);
  assert.is(parseId('pull request id', '9223372036854775807', 'int64', ''), 9223372036854775807n);
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
});

test('answers keep long integers exact: parsed as BigInt beyond 2^53 - 1 and written back as the same digits', () => {
  const text = '{"id":9007199254740993,"max":9223372036854775807,"small":42,"ratio":1.5,"big":1e300}';
  const value = parseJson(text) as Record<string, unknown>;
  assert.is(value.id, 9007199254740993n);
  assert.is(value.small, 42);
  assert.is(value.ratio, 1.5);
  assert.is(value.big, 1e300, 'a number written with an exponent is not an integer id');
  assert.is(stringifyJson(value), text.replace('1e300', '1e+300'));
});

test('long integers stay exact wherever they are, and text without one parses and prints as JSON does', () => {
  const cases: [string, unknown][] = [
    [
      '{"values":[{"id":1},{"id":12345678901234567890}]}',
      { values: [{ id: 1 }, { id: 12345678901234567890n }] },
    ],
    ['[-9007199254740993]', [-9007199254740993n]],
    [
      '{"hash":"1234567890123456789a","id":9007199254740991}',
      { hash: '1234567890123456789a', id: 9007199254740991 },
    ],
    ['{"at":1732500000000,"n":123456789012345}', { at: 1732500000000, n: 123456789012345 }],
    ['{"x":12345678901234567.5}', { x: 12345678901234568 }], // a float: rounded, as JSON.parse does
  ];
  for (const [text, want] of cases) {
    const value = parseJson(text);
    assert.equal(value, want, text);
    assert.is(stringifyJson(value), text.includes('.5') ? JSON.stringify(want) : text, text);
  }
  // A BigInt deep in a value, or returned by toJSON, is written as its digits; pretty-printing keeps its spaces.
  const nested = { a: [{ b: { c: 9223372036854775807n } }], d: { toJSON: () => 18014398509481985n } };
  assert.is(stringifyJson(nested), '{"a":[{"b":{"c":9223372036854775807}}],"d":18014398509481985}');
  assert.is(stringifyJson({ id: 9007199254740993n }, 2), '{\n  "id": 9007199254740993\n}');
  // Digits in a string (a commit id) are no integer: such text is parsed as JSON.parse parses it, with no reviver.
  const parse = JSON.parse;
  const revivers: unknown[] = [];
  JSON.parse = ((text: string, reviver?: unknown) => {
    revivers.push(reviver);
    return parse(text, reviver as undefined);
  }) as typeof JSON.parse;
  try {
    const commit = { latestCommit: '0202020202020202020202020202020202020202', at: 1700000000000 };
    assert.equal(parseJson(JSON.stringify(commit)), commit);
    assert.equal(parseJson('[ 9007199254740993 ]'), [9007199254740993n]);
    assert.equal(parseJson('9007199254740993'), 9007199254740993n);
  } finally {
    JSON.parse = parse;
  }
  assert.equal(
    revivers.map((r) => typeof r),
    ['undefined', 'function', 'function'],
  );
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  assert.throws(() => stringifyJson(circular), TypeError);
});

test('a pull request id above 2^53 - 1 goes to the path and back to --json and human output as the same digits', async () => {
  const big = '9007199254740993';
  const seen: string[] = [];
  const one = await fetch(`${fake.url}/rest/api/latest/projects/PROJ/repos/api/pull-requests/1`, {
    headers: { authorization: `Bearer ${credentials.alice.token}` },
  });
  const answer = (await one.text()).replace(/^\{"id":1,/, `{"id":${big},`);
  assert.ok(answer.startsWith(`{"id":${big},`), 'the fake answers a pull request whose id comes first');
  // In front of the fake: the long id's pull request is answered here, every other request goes to the fake.
  const front = createServer(async (req, res) => {
    seen.push(req.url ?? '');
    if (req.url?.endsWith(`/pull-requests/${big}`)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      return;
    }
    const upstream = await fetch(`${fake.url}${req.url}`, {
      method: req.method,
      headers: { authorization: String(req.headers.authorization ?? '') },
    });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' });
    res.end(await upstream.text());
  });
  await new Promise<void>((done) => front.listen(0, '127.0.0.1', done));
  const { port } = front.address() as AddressInfo;
  try {
    const w = createWorld({
      env: { BBDC_URL: `http://127.0.0.1:${port}`, BBDC_TOKEN: credentials.alice.token },
    });
    const r = await w.run(['pr', 'get', big, '-R', 'PROJ/api', '--json']);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, `"id":${big},`);
    assert.ok(
      seen.some((u) => u.endsWith(`/pull-requests/${big}`)),
      seen.join(' '),
    );
    const human = await w.run(['pr', 'get', big, '-R', 'PROJ/api']);
    assert.is(human.code, 0, human.stderr);
    assert.match(human.stdout, `#${big}`);
    w.dispose();
  } finally {
    front.close();
  }
});

test.run();
