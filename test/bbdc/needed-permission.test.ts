import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { errorFromResponse } from '../../src/bbdc/api/errors.ts';
import { neededPermission } from '../../src/bbdc/api/needed-permission.ts';
import { sentences, tidyMessage } from '../../src/core/errors.ts';

const test = suite('bbdc 403 hints and message sentences');

test('a refused request names the permission it needed', () => {
  const cases: [string, string, string | undefined][] = [
    ['GET', '/rest/api/latest/projects/PROJ/repos/api/pull-requests/1', 'REPO_READ on repository PROJ/api'],
    ['GET', '/rest/api/latest/projects/PROJ/repos/api/webhooks', 'REPO_ADMIN on repository PROJ/api'],
    [
      'POST',
      '/rest/api/latest/projects/PROJ/repos/api/pull-requests/1/merge?version=0',
      'REPO_WRITE on repository PROJ/api',
    ],
    [
      'POST',
      '/rest/api/latest/projects/PROJ/repos/api/pull-requests/1/comments',
      'REPO_READ on repository PROJ/api',
    ],
    [
      'PUT',
      '/rest/api/latest/projects/PROJ/repos/api/permissions/users',
      'REPO_ADMIN on repository PROJ/api',
    ],
    ['DELETE', '/rest/api/latest/projects/PROJ/repos/api', 'REPO_ADMIN on repository PROJ/api'],
    [
      'POST',
      '/rest/branch-utils/latest/projects/PROJ/repos/api/branches',
      'REPO_WRITE on repository PROJ/api',
    ],
    ['POST', '/rest/api/latest/projects/~alice/repos', 'PROJECT_ADMIN on project ~alice'],
    ['GET', '/rest/api/latest/projects/OPS', 'PROJECT_READ on project OPS'],
    ['POST', '/rest/api/latest/projects', 'PROJECT_CREATE'],
    ['GET', '/rest/api/latest/application-properties', undefined],
  ];
  for (const [method, path, expected] of cases)
    assert.is(neededPermission(method, path), expected, `${method} ${path}`);
});

test('a 401 AuthorisationException to a request with credentials names the permission; wrong credentials say log in', () => {
  const body = (exceptionName: string, message: string) =>
    JSON.stringify({ errors: [{ message, exceptionName }] });
  const path = '/rest/api/latest/projects/PROJ/repos/api/branches';
  const host = 'https://bb.example.com';
  const refused = body(
    'com.atlassian.bitbucket.AuthorisationException',
    'You are not permitted to access this resource',
  );
  const wrong = body(
    'com.atlassian.bitbucket.auth.IncorrectPasswordAuthenticationException',
    'Authentication failed.',
  );
  const permission = 'This needs REPO_WRITE on repository PROJ/api, which your account lacks';
  const login = `Check your credentials: run \`bbdc auth login ${host}\``;
  const message = (status: number, text: string, authenticated: boolean) =>
    errorFromResponse(status, text, 'POST', path, host, 1, authenticated).message;
  assert.match(message(401, refused, true), permission);
  assert.not.match(message(401, refused, true), 'auth login');
  assert.match(message(401, refused, false), login, 'no credentials sent: logging in is the answer');
  assert.match(message(401, wrong, true), login);
  assert.match(message(403, refused, true), permission);
  assert.is(errorFromResponse(401, refused, 'POST', path, host).kind, 'auth', 'exit 3 either way');
});

test('messages never end a sentence twice; an ellipsis and version numbers are left alone', () => {
  assert.is(
    sentences('failed (403): You are not permitted.', 'This needs X'),
    'failed (403): You are not permitted. This needs X',
  );
  assert.is(tidyMessage('Repository does not exist..'), 'Repository does not exist.');
  assert.is(tidyMessage('wait... then v1.2.3.'), 'wait... then v1.2.3.');
  assert.is(tidyMessage('slug cannot be "..": no.. Really'), 'slug cannot be "..": no. Really');
});

test.run();
