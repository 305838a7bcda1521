import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deviations } from './deviations.ts';
import { documentPath } from './openapi.ts';
import { startFakeBitbucket } from './server.ts';
import { credentials } from './state.ts';

const test = suite('fake Bitbucket server');

/** Runs `body` against a fake of its own, closed however it ends: a failed assertion must not leave it listening. */
async function withFake(
  body: (fake: Awaited<ReturnType<typeof startFakeBitbucket>>) => Promise<void>,
  options?: Parameters<typeof startFakeBitbucket>[0],
): Promise<void> {
  const fake = await startFakeBitbucket(options);
  try {
    await body(fake);
  } finally {
    await fake.close();
  }
}

test('the OpenAPI document is the 9.4 one, byte for byte the copy in ../shared/reference when that is there', () => {
  const copy = readFileSync(documentPath);
  assert.is(JSON.parse(copy.toString('utf8')).info.version, '9.4');
  const shared = join(
    import.meta.dirname,
    '..',
    '..',
    '..',
    'shared',
    'reference',
    'bitbucket-dc-9.4-openapi.json',
  );
  if (existsSync(shared))
    assert.ok(copy.equals(readFileSync(shared)), `${documentPath} differs from ${shared}`);
});

test('an operation the OpenAPI document lacks is a named violation', async () => {
  await withFake(async (fake) => {
    const r = await fetch(`${fake.url}/rest/api/latest/myself`);
    assert.is(r.status, 404);
    assert.equal(fake.violations.length, 1);
    assert.match(fake.violations[0], 'GET /rest/api/latest/myself: no such operation');
  });
});

test('a documented operation the fake lacks is reported, not silently answered', async () => {
  await withFake(async (fake) => {
    const r = await fetch(`${fake.url}/rest/api/latest/admin/groups`, {
      headers: { authorization: `Bearer ${credentials.alice.token}` },
    });
    assert.is(r.status, 501);
    assert.match(fake.violations[0], 'does not implement');
  });
});

test('auth: Bearer and basic set X-AUSERNAME, wrong credentials get 401 with a Bitbucket error body', async () => {
  await withFake(async (fake) => {
    const path = `${fake.url}/rest/api/latest/application-properties`;
    const bearer = await fetch(path, { headers: { authorization: `Bearer ${credentials.bob.token}` } });
    assert.is(bearer.headers.get('x-ausername'), 'bob');
    const basic = await fetch(path, {
      headers: { authorization: `Basic ${Buffer.from('alice:alice-password').toString('base64')}` },
    });
    assert.is(basic.headers.get('x-ausername'), 'alice');
    const anon = await fetch(path);
    assert.is(anon.headers.get('x-ausername'), null);
    const wrong = await fetch(path, { headers: { authorization: 'Bearer nope' } });
    assert.is(wrong.status, 401);
    const body = (await wrong.json()) as { errors: { message: string; exceptionName: string }[] };
    assert.match(body.errors[0].exceptionName, 'IncorrectPasswordAuthenticationException');
    assert.equal(fake.violations, []);
  });
});

test('mutating calls without X-Atlassian-Token: no-check fail the XSRF check', async () => {
  await withFake(async (fake) => {
    const init = {
      method: 'POST',
      body: JSON.stringify({ name: 'x' }),
      headers: { authorization: `Bearer ${credentials.alice.token}`, 'content-type': 'application/json' },
    };
    const denied = await fetch(`${fake.url}/rest/api/latest/projects/PROJ/repos`, init);
    assert.is(denied.status, 403);
    assert.match(await denied.text(), 'XSRF check failed');
    const ok = await fetch(`${fake.url}/rest/api/latest/projects/PROJ/repos`, {
      ...init,
      headers: { ...init.headers, 'x-atlassian-token': 'no-check' },
    });
    assert.is(ok.status, 201);
  });
});

test('paging follows start/limit with isLastPage and nextPageStart, limit capped at 1000', async () => {
  await withFake(
    async (fake) => {
      const auth = { headers: { authorization: `Bearer ${credentials.alice.token}` } };
      const first = (await (
        await fetch(`${fake.url}/rest/api/latest/projects/BIG/repos?limit=5000`, auth)
      ).json()) as Record<string, unknown>;
      assert.equal(
        [first.size, first.limit, first.isLastPage, first.nextPageStart, first.start],
        [1000, 1000, false, 1000, 0],
      );
      const last = (await (
        await fetch(`${fake.url}/rest/api/latest/projects/BIG/repos?start=4990`, auth)
      ).json()) as Record<string, unknown>;
      assert.equal([last.size, last.isLastPage, last.nextPageStart], [10, true, undefined]);
    },
    { dataset: 'large' },
  );
});

test('rate limiting on demand answers 429 with Retry-After', async () => {
  await withFake(async (fake) => {
    fake.rateLimit(1, 3);
    const limited = await fetch(`${fake.url}/rest/api/latest/application-properties`);
    assert.is(limited.status, 429);
    assert.is(limited.headers.get('retry-after'), '3');
    const next = await fetch(`${fake.url}/rest/api/latest/application-properties`);
    assert.is(next.status, 200);
  });
});

test('a read under a missing repository or project is its 404, as Bitbucket answers, not an empty page', async () => {
  await withFake(async (fake) => {
    const get = async (path: string, token?: string) => {
      const r = await fetch(`${fake.url}/rest/api/latest${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      return { status: r.status, body: (await r.json()) as { errors?: { message: string }[] } };
    };
    const alice = credentials.alice.token;
    const missingRepo = await get('/projects/PROJ/repos/nope/pull-requests', alice);
    assert.is(missingRepo.status, 404);
    assert.is(missingRepo.body.errors?.[0].message, 'Repository PROJ/nope does not exist.');
    const missingProject = await get('/projects/NOPE/repos/api/branches', alice);
    assert.is(missingProject.status, 404);
    assert.is((await get('/projects/NOPE/repos', alice)).status, 404);
    assert.is((await get('/projects/PROJ/repos/api/pull-requests', alice)).status, 200);
    assert.is(
      (await get('/projects/~alice/repos/dotfiles/branches', alice)).status,
      200,
      'a personal repository',
    );
    assert.is(
      (await get('/projects/PROJ/repos/api/pull-requests')).status,
      404,
      'a private one, anonymously',
    );
    assert.equal(fake.violations, []);
  });
});

test('every deviation carries evidence (links)', () => {
  for (const d of deviations) {
    assert.ok(d.evidence.length > 0, `${d.name} has no evidence`);
    for (const link of d.evidence) assert.match(link, /^https:\/\//, `${d.name}: ${link}`);
  }
});

test('an undeclared query parameter is a violation unless a deviation allows it', async () => {
  await withFake(async (fake) => {
    const auth = { authorization: `Bearer ${credentials.alice.token}` };
    await fetch(`${fake.url}/rest/api/latest/projects/PROJ/repos/api/webhooks?start=0&limit=5`, {
      headers: auth,
    });
    assert.equal(fake.violations, []);
    await fetch(`${fake.url}/rest/api/latest/projects/PROJ/repos/api/settings/hooks?bogus=1`, {
      headers: auth,
    });
    assert.equal(fake.violations.length, 1);
    assert.match(fake.violations[0], 'query parameter bogus is not declared');
  });
});

test.run();
