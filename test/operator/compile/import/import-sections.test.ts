// Golden tests of the importer, one small realm export per section (section-exports.ts): the IdentityRealm and
// IdentityClients it prints, the Secrets it refers to and what it reports it cannot express.
import { test } from 'uvu';
import { toYaml } from '../../../../src/core/yaml.ts';
import { importRealm } from '../../../../src/operator/compile/import/import-realm.ts';
import { createResourceValidator } from '../../../../src/operator/compile/resource-validator.ts';
import { loadCrdSchemas } from '../../../../src/operator/runtime/crd-schemas.ts';
import { assertGolden } from '../../../helpers/golden.ts';
import { sectionExports } from './section-exports.ts';

const golden = (name: string) => new URL(`golden/${name}.yaml`, import.meta.url).pathname;
const validate = createResourceValidator(loadCrdSchemas());
const options = {
  namespace: 'shop-apps',
  realmNamespace: 'identity',
  server: { name: 'keycloak' },
  source: 'export.json',
};

for (const [section, exp] of Object.entries(sectionExports)) {
  test(`section ${section}: golden, and valid against the CRD schemas`, () => {
    const result = importRealm(exp, options);
    for (const resource of [result.realm, ...result.clients]) validate(structuredClone(resource), section);
    assertGolden(toYaml(result), golden(section));
  });
}

test.run();
