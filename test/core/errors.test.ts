import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  describeError,
  exitCodeOf,
  RealmforgeError,
  UsageError,
  ValidationError,
} from '../../src/core/errors.ts';

const cases: [unknown, number][] = [
  [new UsageError('x'), 2],
  [new ValidationError('x'), 2],
  [new RealmforgeError('auth', 'x'), 3],
  [new RealmforgeError('not_found', 'x'), 4],
  [new RealmforgeError('conflict', 'x'), 5],
  [new RealmforgeError('transient', 'x'), 10],
  [new RealmforgeError('not_implemented', 'x'), 11],
  [new Error('boom'), 1],
];

test('each error kind maps to its documented exit code', () => {
  for (const [error, code] of cases) assert.is(exitCodeOf(error), code);
});

test('a typed error renders its message and details without a stack', () => {
  const text = describeError(
    new ValidationError('file a.yaml: invalid', { details: ['spec.image.tag: too old'] }),
  );
  assert.is(text, 'file a.yaml: invalid\n  - spec.image.tag: too old');
  assert.not.match(text, /at /);
});

test.run();
