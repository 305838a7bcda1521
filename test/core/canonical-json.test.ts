import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalJson } from '../../src/core/canonical-json.ts';

test('keys are sorted at every level, arrays keep their order, undefined properties are left out', () => {
  const a = { b: 1, a: { d: [2, { z: 1, y: 2 }], c: 'x' }, u: undefined };
  assert.is(canonicalJson(a), '{"a":{"c":"x","d":[2,{"y":2,"z":1}]},"b":1}');
  assert.is(canonicalJson({ a: { c: 'x', d: [2, { y: 2, z: 1 }] }, b: 1 }), canonicalJson(a));
  assert.is.not(canonicalJson([1, 2]), canonicalJson([2, 1]));
});

test.run();
