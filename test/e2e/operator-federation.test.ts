// The federation suite (test/e2e/helpers/federation-suite.ts) on the default Keycloak line (26, or 25 with
// REALMFORGE_KEYCLOAK=25).
import { test } from 'uvu';
import { keycloakVersion } from '../../scripts/testenv/identity-fixtures.ts';
import { federationSuite } from './helpers/federation-suite.ts';

federationSuite(keycloakVersion, 'op-fed');
test.run();
