// The differential of test/e2e/import.test.ts, in that suite's environment (one harness Keycloak, the real
// operator, an IdentityServer `existing` on it): Keycloak imports a realm export as realm A; `realmforge import` of
// the same JSON, applied, makes the operator create realm B; the partial exports of A and B are compared after
// dropping ids and the operator's marks, and the differences Keycloak's own import makes (measured on a bare realm
// first) are left out.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import type { TestEnv } from '../../../scripts/testenv/harness.ts';
import { waitStatus } from '../../../scripts/testenv/identity-fixtures.ts';
import { grantSecretAccess } from '../../../scripts/testenv/operator-process.ts';
import { main } from '../../../src/operator/cli/main.ts';
import type { keycloakAdminApi } from './keycloak-admin.ts';
import { changeSignalDiff, comparable, realmDiff } from './realm-diff.ts';

export type ImportSuite = {
  env: TestEnv;
  admin: ReturnType<typeof keycloakAdminApi>;
  /** The namespace of the IdentityServer `existing` and of the realms. */
  ns: string;
  /** Where the export files (and the exports of A and B) are written. */
  dir: string;
  /** The realms to delete at the end. */
  made: string[];
  /** Keycloak's major version. */
  major: number;
};

/** Keycloak's import adds userinfo.token.claim "true" to every protocol mapper without it (the bare realm shows it
 * on the built-in scopes; on 25 it also reaches the mappers Keycloak gives a client with a service account). */
const addedByImport = /\.protocolMappers\[[^\]]+\]\.config\.userinfo\.token\.claim: A "true" B \(absent\)$/;
/** A difference's path; a client's name is generalised, since Keycloak's import treats every client alike (it adds
 * post.logout.redirect.uris "+" to a client that has none). */
const pathOfLine = (line: string) =>
  line.slice(0, line.indexOf(': A ')).replace(/^clients\[[^\]]+\]/, 'clients[*]');

/** A copy without Keycloak's ids (an import into the same Keycloak would collide with the source realm's). */
export const withoutIds = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(withoutIds)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => !['id', 'containerId', 'internalId'].includes(k))
            .map(([k, x]) => [k, withoutIds(x)]),
        )
      : v;

/** Runs a realmforge command in this process: its exit code, stdout and stderr. */
export async function run(argv: string[]) {
  const out = { stdout: '', stderr: '' };
  const code = await main(argv, {
    stdout: { write: (c: string) => (out.stdout += c) },
    stderr: { write: (c: string) => (out.stderr += c) },
  });
  return { code, ...out };
}

/** Runs `realmforge import` in this process. */
export const runImport = (args: string[]) => run(['import', ...args]);

/** The suite's operations on its environment (`s()`, read when called). */
export function importDifferential(s: () => ImportSuite) {
  /** Paths where Keycloak's own import of a realm's export differs from the realm itself (no realmforge
   * involved): measured on a bare realm, left out of every comparison and listed in docs/import.md. */
  let keycloakImportNoise = new Set<string>();
  /** The bare realm's export: the sections Keycloak makes in every realm, as Keycloak made them. */
  let bare: Record<string, any> = {};

  /** A realm's partial export with its organizations (which that export leaves out, as kc.sh export does not). */
  async function exportOf(realm: string) {
    const { admin } = s();
    const exp = await admin('POST', `/${realm}/partial-export?exportClients=true&exportGroupsAndRoles=true`);
    if (exp.organizationsEnabled)
      exp.organizations = await admin('GET', `/${realm}/organizations?briefRepresentation=false&max=10000`);
    return exp;
  }

  /** Applies `objects` and waits for every realm and client among them to be Ready. */
  async function applyReady(objects: Record<string, any>[]) {
    const { env } = s();
    for (const o of objects) await env.apply(o as never);
    for (const o of objects) {
      if (o.kind !== 'IdentityRealm' && o.kind !== 'IdentityClient') continue;
      const plural = o.kind === 'IdentityRealm' ? 'identityrealms' : 'identityclients';
      await waitStatus(
        env,
        plural,
        o.metadata.namespace,
        o.metadata.name,
        180_000,
        (x) => x.phase === 'Ready',
        'Ready',
      );
    }
  }

  /** Measures what Keycloak's own import of a bare realm's export changes. */
  async function measureKeycloakImport() {
    const { admin, made } = s();
    made.push('kc-bare', 'kc-bare-imported');
    await admin('POST', '', { realm: 'kc-bare', enabled: true });
    bare = await exportOf('kc-bare');
    await admin(
      'POST',
      '',
      withoutIds(JSON.parse(JSON.stringify(bare).replaceAll('kc-bare', 'kc-bare-imported'))),
    );
    const noise = realmDiff(
      comparable(await exportOf('kc-bare-imported'), 'kc-bare-imported'),
      comparable(bare, 'kc-bare'),
    );
    console.log(
      `Keycloak's own import of a bare realm's export differs at ${noise.length} path(s):\n${noise.join('\n')}`,
    );
    keycloakImportNoise = new Set(noise.map(pathOfLine));
  }

  /** The differential of one export: realm A by Keycloak's import, realm B by import + the operator. `fill` gives
   * the value of a Secret key the export masked (default: any value). */
  async function differential(
    label: string,
    exp: Record<string, any>,
    fill: (secret: string, key: string) => string | undefined = () => undefined,
  ) {
    const { env, admin, ns, dir, made } = s();
    const text = JSON.stringify(exp);
    const named = (name: string) =>
      JSON.parse(
        text
          .replaceAll(`"${exp.realm}"`, `"${name}"`)
          .replaceAll(`${exp.realm}/`, `${name}/`)
          .replaceAll(`default-roles-${exp.realm}`, `default-roles-${name}`),
      );
    const [a, b] = [`a-${label}`, `b-${label}`];
    made.push(a, b);
    await admin('POST', '', withoutIds(named(a)));
    const file = join(dir, `${label}.json`);
    writeFileSync(file, JSON.stringify(named(b)));
    const clients = await env.namespace(`imp-${label}`);
    await grantSecretAccess(env, clients);
    const args = ['--namespace', clients, '--realm-namespace', ns, '--server', 'existing', '--secrets'];
    const result = await runImport([file, ...args]);
    assert.is(result.code, 0, result.stderr);
    const objects = parseAllDocuments(result.stdout).map((d) => d.toJSON());
    // The export masks secrets: the test fills in what a person would.
    for (const o of objects)
      if (o.kind === 'Secret')
        for (const k of Object.keys(o.stringData))
          o.stringData[k] ||= fill(o.metadata.name, k) ?? 'imported-secret';
    await applyReady(objects);
    const [ea, eb] = [await exportOf(a), await exportOf(b)];
    writeFileSync(join(dir, `${label}-A.json`), JSON.stringify(ea, null, 1));
    writeFileSync(join(dir, `${label}-B.json`), JSON.stringify(eb, null, 1));
    const spec = objects.find((o) => o.kind === 'IdentityRealm')?.spec ?? {};
    const all = [
      ...realmDiff(comparable(ea, a), comparable(eb, b)),
      ...realmDiff(keycloakOwn(eb, b, spec), keycloakOwn(bare, 'kc-bare', spec)).map((l) => `built-in ${l}`),
    ];
    const diff = all.filter(
      (line) =>
        !keycloakImportNoise.has(pathOfLine(line.replace(/^built-in /, ''))) &&
        !addedByImport.test(line) &&
        !changeSignalDiff.includes(line),
    );
    console.log(
      `\n== ${label}: ${objects.length} objects (exports A and B in ${dir}); import said:\n${result.stderr}== differences A/B beyond Keycloak's own import (${diff.length}):\n${diff.join('\n')}`,
    );
    return { diff, stderr: result.stderr, objects };
  }

  /** The sections Keycloak makes in every realm, of realm `name`'s export: only the items the bare realm has, less
   * the required actions and scope links `spec` declares. B made in one call (its built-ins sent with the declared
   * items, realm-template.ts) must have them as a realm Keycloak made itself, which A (an import of B's source,
   * itself made by the operator) cannot show. */
  function keycloakOwn(exp: Record<string, any>, name: string, spec: Record<string, any>) {
    const own = comparable(bare, 'kc-bare') as Record<string, any>;
    const c = comparable(exp, name) as Record<string, any>;
    const keyOf = (x: any) => String(typeof x === 'string' ? x : (x.alias ?? x.name ?? x.clientScope));
    const declared = new Set<string>([
      ...(spec.requiredActions ?? []).map((a: { alias: string }) => a.alias),
      ...(spec.realmDefaultClientScopes?.default ?? []),
      ...(spec.realmDefaultClientScopes?.optional ?? []),
    ]);
    const ownKeys = (k: string) =>
      new Set<string>([
        ...(own[k] ?? []).map(keyOf),
        // A scope Keycloak links as default may be linked as optional by the spec, and the other way round.
        ...(k.startsWith('defaultDefault') ? (own.defaultOptionalClientScopes ?? []) : []),
        ...(k.startsWith('defaultOptional') ? (own.defaultDefaultClientScopes ?? []) : []),
      ]);
    // Keycloak itself turns SPNEGO on in the browser flow when a Kerberos provider is added (the federation realm).
    const spnego = (x: any) =>
      x.authenticationExecutions
        ? {
            ...x,
            authenticationExecutions: x.authenticationExecutions.map((e: any) =>
              e.authenticator === 'auth-spnego'
                ? { ...e, requirement: '(Keycloak sets it with Kerberos)' }
                : e,
            ),
          }
        : x;
    return Object.fromEntries(
      [
        'authenticationFlows',
        'authenticatorConfig',
        'requiredActions',
        'clientScopes',
        'scopeMappings',
        'defaultDefaultClientScopes',
        'defaultOptionalClientScopes',
      ].map((k) => [
        k,
        (c[k] ?? []).filter((x: unknown) => ownKeys(k).has(keyOf(x)) && !declared.has(keyOf(x))).map(spnego),
      ]),
    );
  }

  return { exportOf, applyReady, measureKeycloakImport, differential };
}
