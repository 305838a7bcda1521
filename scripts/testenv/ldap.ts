// OpenLDAP (slapd from Debian) for the federation e2e: its own config file and database in a temp dir, on a free
// 127.0.0.1 port, seeded offline (slapadd) with people and groups. Started by the suite that needs it, not by
// every environment: only the federation suite pays for it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MissingToolError } from './errors.ts';
import { freePort } from './ports.ts';
import { type Daemon, run, startDaemon, stopDaemon, waitReady } from './proc.ts';

/** A person in the seeded directory. */
export type LdapPerson = { uid: string; password: string; givenName: string; sn: string; mail: string };
/** A running directory. */
export type Ldap = {
  url: string;
  suffix: string;
  bindDn: string;
  bindPassword: string;
  usersDn: string;
  groupsDn: string;
  daemon: Daemon;
  stop(): Promise<void>;
};

const suffix = 'dc=realmforge,dc=test';
const slapd = '/usr/sbin/slapd';

/** Installs slapd and ldap-utils with apt when they are missing (as root; otherwise says how). */
export async function ensureSlapd(log: (line: string) => void): Promise<void> {
  if (existsSync(slapd) && existsSync('/usr/sbin/slapadd')) return;
  if (process.getuid?.() !== 0)
    throw new MissingToolError('OpenLDAP is missing: sudo apt-get install slapd ldap-utils');
  log('installing slapd and ldap-utils with apt');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update'], { env }).catch(() => '');
  await run('apt-get', ['install', '-y', '--no-install-recommends', 'slapd', 'ldap-utils'], { env });
}

function seed(people: LdapPerson[], groups: Record<string, string[]>): string {
  const entries = [
    `dn: ${suffix}\nobjectClass: dcObject\nobjectClass: organization\ndc: realmforge\no: Realmforge test`,
    `dn: ou=people,${suffix}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${suffix}\nobjectClass: organizationalUnit\nou: groups`,
    ...people.map(
      (p) =>
        `dn: uid=${p.uid},ou=people,${suffix}\nobjectClass: inetOrgPerson\nobjectClass: organizationalPerson\nuid: ${p.uid}\ncn: ${p.givenName} ${p.sn}\ngivenName: ${p.givenName}\nsn: ${p.sn}\nmail: ${p.mail}\nuserPassword: ${p.password}`,
    ),
    ...Object.entries(groups).map(
      ([cn, members]) =>
        `dn: cn=${cn},ou=groups,${suffix}\nobjectClass: groupOfNames\ncn: ${cn}\n${members.map((m) => `member: uid=${m},ou=people,${suffix}`).join('\n')}`,
    ),
  ];
  return `${entries.join('\n\n')}\n`;
}

/** Starts slapd in `dir` seeded with `people` and `groups` (cn -> member uids). */
export async function startLdap(
  dir: string,
  people: LdapPerson[],
  groups: Record<string, string[]>,
  log: (line: string) => void = () => {},
): Promise<Ldap> {
  await ensureSlapd(log);
  const data = join(dir, 'data');
  mkdirSync(data, { recursive: true });
  const bindPassword = 'ldap-admin-secret';
  const bindDn = `cn=admin,${suffix}`;
  const conf = join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `pidfile ${join(dir, 'slapd.pid')}`,
      'database mdb',
      `suffix "${suffix}"`,
      `rootdn "${bindDn}"`,
      `rootpw ${bindPassword}`,
      `directory ${data}`,
      'maxsize 104857600',
      'access to attrs=userPassword by self write by anonymous auth by * none',
      'access to * by * read',
      '',
    ].join('\n'),
  );
  const ldif = join(dir, 'seed.ldif');
  writeFileSync(ldif, seed(people, groups));
  await run('/usr/sbin/slapadd', ['-f', conf, '-l', ldif]);
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  // -d 0: stay in the foreground (the daemon is stopped by its PID); as root, keep running as root.
  const daemon = startDaemon('slapd', slapd, ['-f', conf, '-h', `${url}/`, '-d', '0'], {
    logFile: join(dir, 'slapd.log'),
  });
  await waitReady(
    daemon,
    async () => {
      await run('ldapsearch', ['-x', '-H', url, '-b', suffix, '-s', 'base', 'dn']);
      return true;
    },
    20_000,
  );
  return {
    url,
    suffix,
    bindDn,
    bindPassword,
    usersDn: `ou=people,${suffix}`,
    groupsDn: `ou=groups,${suffix}`,
    daemon,
    stop: () => stopDaemon(daemon.pid),
  };
}
