// The plans of the sections Keycloak keeps as one map or one document, owned by ledgers of the realm (message
// overrides, client profiles and policies, the user profile): the ownership transitions of plan-table.ts,
// Keycloak's own items included, and each section's own comparisons, with no Keycloak at all.
import { test } from 'uvu';
import {
  clientPolicies,
  clientPolicyItem,
  clientProfileItem,
  clientProfiles,
} from '../../../src/operator/keycloak/collections/client-policies.ts';
import { localeMessages } from '../../../src/operator/keycloak/collections/messages.ts';
import {
  entry,
  userProfileAttributeItem,
  userProfileEntries,
  userProfileGroupItem,
} from '../../../src/operator/keycloak/collections/user-profile.ts';
import { planTable } from './plan-table.ts';

const text = (v: 0 | 1 = 0) => (v ? 'old' : 'new');

const message = (k: string, v: 0 | 1 = 0) => ({ key: k, value: text(v) });
planTable({ name: 'message overrides', c: localeMessages('apps', 'en'), want: message, have: message });

const profile = (k: string, v: 0 | 1 = 0) =>
  clientProfileItem({
    name: k,
    description: text(v),
    executors: [{ executor: 'pkce-enforcer', configuration: { auto: 'true' } }],
  });
planTable({ name: 'client profiles', c: clientProfiles('apps'), want: profile, have: profile });
const policy = (k: string, v: 0 | 1 = 0) =>
  clientPolicyItem({
    name: k,
    description: text(v),
    conditions: [{ condition: 'any-client' }],
    profiles: ['b', 'a'],
  });
planTable({ name: 'client policies', c: clientPolicies('apps'), want: policy, have: policy }, [
  {
    name: 'the profiles a policy applies are a set',
    desired: [policy('a')],
    live: [{ ...policy('a'), profiles: ['b', 'a'] }],
    managed: ['a'],
    expect: {},
  },
]);

// Keycloak's answer: what it fills in (empty validations and annotations, no group, single-valued).
const attribute = (k: string, v: 0 | 1 = 0) =>
  entry(
    'attribute',
    userProfileAttributeItem({ name: k, displayName: text(v), permissions: { view: ['admin'] } }),
  );
const liveAttribute = (k: string, v: 0 | 1 = 0) =>
  entry('attribute', {
    name: k,
    displayName: text(v),
    permissions: { view: ['admin'], edit: [] },
    validations: {},
    annotations: {},
    multivalued: false,
  });
const group = (k: string) => entry('group', userProfileGroupItem({ name: k, displayHeader: 'Work' }));
planTable({ name: 'user profile', c: userProfileEntries('apps', {}), want: attribute, have: liveAttribute }, [
  {
    name: 'a group and the policy are entries of the same document',
    desired: [group('work'), entry('policy', { value: 'ENABLED' })],
    live: [entry('group', { name: 'work', displayHeader: 'Work' }), entry('policy', { value: 'ADMIN_EDIT' })],
    managed: ['group work', 'unmanagedAttributePolicy'],
    expect: { update: ['unmanagedAttributePolicy'] },
  },
  {
    name: "Keycloak's built-in username, declared, is configured and claimed; email, not declared, is left",
    desired: [attribute('username')],
    live: [liveAttribute('username', 1), liveAttribute('email')],
    keycloak: ['attribute username', 'attribute email'],
    expect: { update: ['attribute username'], claim: ['attribute username'] },
  },
]);

test.run();
