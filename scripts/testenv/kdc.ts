// An MIT Kerberos KDC (krb5kdc from Debian) for the Kerberos federation e2e: its own kdc.conf, krb5.conf and
// database in a temp dir, on a free 127.0.0.1 port (TCP and UDP), with user principals (pre-authentication
// required, as an Active Directory has it) and an HTTP service principal whose keys are exported to a keytab with
// kadmin.local. Started by the suite that needs it: only the federation suite pays for it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MissingToolError } from './errors.ts';
import { freePort } from './ports.ts';
import { type Daemon, run, startDaemon, stopDaemon, waitReady } from './proc.ts';

/** A running KDC. */
export type Kdc = {
  realm: string;
  /** host:port of the KDC. */
  address: string;
  /** A krb5.conf for clients of this KDC (the JVM's and kinit's). */
  krb5Conf: string;
  krb5ConfPath: string;
  /** The HTTP service principal and its keytab's bytes. */
  servicePrincipal: string;
  keytab: Buffer;
  /** A keytab with the users' keys (their passwords stay valid): `kinit` for a user without typing a password. */
  usersKeytabPath: string;
  daemon: Daemon;
  stop(): Promise<void>;
};

const krb5kdc = '/usr/sbin/krb5kdc';
const packages = ['krb5-kdc', 'krb5-admin-server', 'krb5-user'];

/** Installs the MIT KDC and its tools with apt when they are missing (as root; otherwise says how). */
export async function ensureKdc(log: (line: string) => void): Promise<void> {
  if (existsSync(krb5kdc) && existsSync('/usr/sbin/kadmin.local') && existsSync('/usr/bin/kinit')) return;
  if (process.getuid?.() !== 0)
    throw new MissingToolError(`the MIT KDC is missing: sudo apt-get install ${packages.join(' ')}`);
  log(`installing ${packages.join(', ')} with apt`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update'], { env }).catch(() => '');
  await run('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env });
}

/** The krb5.conf of a client of the KDC at `address` (no DNS: the service's host name is taken as written). */
export const clientKrb5Conf = (realm: string, address: string) =>
  [
    '[libdefaults]',
    `  default_realm = ${realm}`,
    '  dns_lookup_realm = false',
    '  dns_lookup_kdc = false',
    '  rdns = false',
    '  dns_canonicalize_hostname = false',
    '  udp_preference_limit = 1',
    '[realms]',
    `  ${realm} = {`,
    `    kdc = ${address}`,
    '  }',
    '[domain_realm]',
    `  127.0.0.1 = ${realm}`,
    '',
  ].join('\n');

/** Starts a KDC for `realm` in `dir` with `users` (name -> password) and the service principal HTTP/`host`. */
export async function startKdc(
  dir: string,
  realm: string,
  users: Record<string, string>,
  host: string,
  log: (line: string) => void = () => {},
): Promise<Kdc> {
  await ensureKdc(log);
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const kdcConf = join(dir, 'kdc.conf');
  const krb5ConfPath = join(dir, 'krb5.conf');
  const krb5Conf = clientKrb5Conf(realm, address);
  writeFileSync(krb5ConfPath, krb5Conf);
  writeFileSync(
    kdcConf,
    [
      '[kdcdefaults]',
      `  kdc_ports = ${port}`,
      `  kdc_tcp_ports = ${port}`,
      '[realms]',
      `  ${realm} = {`,
      `    database_name = ${join(dir, 'principal')}`,
      `    key_stash_file = ${join(dir, 'stash')}`,
      `    acl_file = ${join(dir, 'kadm5.acl')}`,
      '    supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal',
      '  }',
      '[logging]',
      `  kdc = FILE:${join(dir, 'kdc.log')}`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'kadm5.acl'), '');
  const env = { ...process.env, KRB5_CONFIG: krb5ConfPath, KRB5_KDC_PROFILE: kdcConf };
  await run('/usr/sbin/kdb5_util', ['create', '-s', '-r', realm, '-P', 'realmforge-master-key'], { env });
  const kadmin = (query: string) => run('/usr/sbin/kadmin.local', ['-r', realm, '-q', query], { env });
  for (const [user, password] of Object.entries(users))
    await kadmin(`addprinc +requires_preauth -pw ${password} ${user}`);
  const servicePrincipal = `HTTP/${host}@${realm}`;
  const keytabPath = join(dir, 'http.keytab');
  await kadmin(`addprinc -randkey ${servicePrincipal}`);
  await kadmin(`ktadd -k ${keytabPath} ${servicePrincipal}`);
  const usersKeytabPath = join(dir, 'users.keytab');
  for (const user of Object.keys(users)) await kadmin(`ktadd -norandkey -k ${usersKeytabPath} ${user}`);
  // -n: stay in the foreground (the daemon is stopped by its PID).
  const daemon = startDaemon('krb5kdc', krb5kdc, ['-n', '-r', realm], {
    env,
    logFile: join(dir, 'krb5kdc.log'),
  });
  await waitReady(
    daemon,
    async () => {
      await kinit(krb5ConfPath, join(dir, 'ready.cc'), servicePrincipal, keytabPath);
      return true;
    },
    20_000,
  );
  return {
    realm,
    address,
    krb5Conf,
    krb5ConfPath,
    servicePrincipal,
    keytab: readFileSync(keytabPath),
    usersKeytabPath,
    daemon,
    stop: () => stopDaemon(daemon.pid),
  };
}

/** Gets a ticket for `principal` from its keys in `keytab` into the credential cache `cache`. */
export async function kinit(krb5Conf: string, cache: string, principal: string, keytab: string) {
  const env = { ...process.env, KRB5_CONFIG: krb5Conf, KRB5CCNAME: `FILE:${cache}` };
  await run('/usr/bin/kinit', ['-k', '-t', keytab, principal], { env });
}
