// The federation suite (test/e2e/helpers/federation-suite.ts) on Keycloak 25.0.x, the older supported line:
// hideOnLogin is a config entry there, its login pages are the older theme, and its LDAP and broker answers are
// checked against the same assertions as 26's.
import { test } from 'uvu';
import { keycloakVersions } from '../../scripts/testenv/versions.ts';
import { federationSuite } from './helpers/federation-suite.ts';

federationSuite(keycloakVersions['25'].version, 'op-fed25');
test.run();
