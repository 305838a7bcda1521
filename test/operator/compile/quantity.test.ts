// Quantities in the form the API server stores them: the same inputs are checked against kube-apiserver in
// test/e2e/crds.test.ts (what it stores after applying the left-hand side).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalQuantity } from '../../../src/operator/compile/quantity.ts';

const cases: [string, string][] = [
  ['1000m', '1'],
  ['1024Mi', '1Gi'],
  ['500m', '500m'],
  ['1.5', '1500m'],
  ['0.5Gi', '512Mi'],
  ['1.5Gi', '1536Mi'],
  ['1536Mi', '1536Mi'],
  ['2048Ki', '2Mi'],
  ['1000', '1k'],
  ['1200', '1200'],
  ['1e3', '1e3'],
  ['1.5e3', '1500'],
  ['12e6', '12e6'],
  ['1000M', '1G'],
  ['100M', '100M'],
  ['0.1', '100m'],
  ['1024', '1024'],
  ['512Ki', '512Ki'],
  ['0.3Ki', '307200m'],
  ['0', '0'],
  ['0Gi', '0'],
  ['2Gi', '2Gi'],
];

for (const [input, stored] of cases) {
  test(`${input} is stored as ${stored}`, () => {
    assert.is(canonicalQuantity(input), stored);
  });
}

test('a string that is not a quantity is left as it is', () => {
  assert.is(canonicalQuantity('lots'), 'lots');
});

test.run();
