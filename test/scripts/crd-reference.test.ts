// The CRD field reference is rendered from the schemas: every field with its constraints, the cross-field rules
// with their messages, and $refs into common.schema.json resolved.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderReference } from '../../scripts/crd-reference.ts';

test('the realm reference lists nested fields with constraints, refs resolved, and the CEL messages', () => {
  const page = renderReference('identityrealm');
  assert.match(page, '| `spec.passwordPolicy.length` | integer | min 1 | Minimum length. |');
  assert.match(page, '| `spec.securityDefenses.bruteForceDetection.failureFactor` | integer | min 1 |');
  assert.match(page, '| `spec.otpPolicy.digits` | integer | one of `6`, `8` |');
  assert.match(page, '| `spec.clientScopes[].protocolMappers[].name` | string | required; min length 1 |');
  assert.match(
    page,
    '| `spec.smtp.passwordSecretRef.key` | string | required',
    'a $ref into common.schema.json',
  );
  assert.match(page, '| `spec.attributes` | map of string | max entries 128 |');
  assert.match(
    page,
    '- `spec.tokens`: spec.tokens.refreshTokenMaxReuse needs spec.tokens.revokeRefreshToken: true',
  );
});

test.run();
