import { suite } from 'uvu';
import * as assert from 'uvu/assert';
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
