import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ValidationError } from '../../src/core/errors.ts';
import { assertValid, createAjv } from '../../src/core/schema.ts';

const validate = createAjv().compile({
  type: 'object',
  additionalProperties: false,
  required: ['spec'],
  properties: {
    spec: {
      type: 'object',
      additionalProperties: false,
      properties: { type: { enum: ['a', 'b'] }, count: { type: 'integer', default: 1 } },
    },
  },
});

test('unknown, missing and wrong fields are named with their path', () => {
  try {
    assertValid(validate, { spec: { type: 'c', extra: 1 } }, 'file x.yaml');
    assert.unreachable();
  } catch (e) {
    assert.instance(e, ValidationError);
    const details = (e as ValidationError).details.join('\n');
    assert.match(details, 'spec: unknown field "extra"');
    assert.match(details, 'spec.type: must be one of "a", "b"');
  }
  try {
    assertValid(validate, {}, 'file x.yaml');
    assert.unreachable();
  } catch (e) {
    assert.match((e as ValidationError).details.join('\n'), '(root): missing required field "spec"');
  }
});

test('defaults from the schema are filled in', () => {
  const data = { spec: {} } as { spec: { count?: number } };
  assertValid(validate, data, 'x');
  assert.is(data.spec.count, 1);
});

test.run();
