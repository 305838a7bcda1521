// Keycloak tags compare as semver: a pre-release sorts below its release, two-part tags are x.y.0.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  compareKeycloakVersions,
  higherVersion,
  imageTag,
} from '../../../src/operator/compile/keycloak-version.ts';

const cases: [string, string, number][] = [
  ['25.0.0-rc1', '25.0.0', -1],
  ['26.0', '26.0.0', 0],
  ['26.0-rc1', '25.0.6', 1],
  ['25.0.6', '26.0.7', -1],
  ['26.1.0', '26.0.10', 1],
  ['26.0.7', '26.0.7', 0],
];

for (const [a, b, sign] of cases) {
  test(`${a} vs ${b}: ${sign}`, () => {
    assert.is(Math.sign(compareKeycloakVersions(a, b)), sign);
  });
}

test('higherVersion keeps the highest tag; imageTag reads the tag of an image with a registry port', () => {
  assert.is(higherVersion('26.0.7', '25.0.6'), '26.0.7');
  assert.is(higherVersion(undefined, '25.0.6'), '25.0.6');
  assert.is(imageTag('quay.io/keycloak/keycloak:26.0.7'), '26.0.7');
  assert.is(imageTag('localhost:5000/keycloak'), 'latest');
});

test.run();
