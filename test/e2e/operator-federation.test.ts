// The federation suite (test/e2e/helpers/federation-suite.ts) on the default Keycloak line (26, or 25 with
// REALMFORGE_KEYCLOAK=25), with Kerberos against a real KDC.
import { test } from 'uvu';
import { keycloakVersion } from '../../scripts/testenv/identity-fixtures.ts';
import { federationSuite } from './helpers/federation-suite.ts';

federationSuite(keycloakVersion, 'op-fed', { kerberos: true });
test.run();
