// PostgreSQL from Debian: its own cluster (initdb) in a temp dir on a free loopback port, with a keycloak role.
import {
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { ComponentError, MissingToolError } from './errors.ts';
import { freePort, portWasBusy, withPortRetry } from './ports.ts';
import { type Daemon, run, startDaemon, stopDaemon, waitReady } from './proc.ts';
import { postgresMajor } from './versions.ts';

/** How clients reach the environment's PostgreSQL. */
export type Postgres = {
  host: '127.0.0.1';
  port: number;
  superuser: string;
  superuserPassword: string;
  /** The role and database an operator-managed Keycloak uses (as CNPG would create them). */
  user: string;
  password: string;
  database: string;
  /** The database of the harness's own Keycloak, so it never shares one with an operator-managed Keycloak. */
  harnessDatabase: string;
  /** The server's bin directory and Unix socket directory, for psql, pg_dump and pg_restore. */
  bin: string;
  socketDir: string;
  daemon: Daemon;
};

/** The bin directory of the newest Debian PostgreSQL, installing `postgresql-<major>` with apt when none is present. */
export async function postgresBin(log: (line: string) => void): Promise<string> {
  const find = () =>
    existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .filter((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'initdb')))
          .sort((a, b) => Number(b) - Number(a))
      : [];
  if (find().length === 0) {
    if (process.getuid?.() !== 0) {
      throw new MissingToolError(
        `PostgreSQL is missing: sudo apt-get install postgresql-${postgresMajor} (or postgresql)`,
      );
    }
    log(`installing PostgreSQL ${postgresMajor} with apt`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    await run('apt-get', ['update'], { env }).catch(() => '');
    await run('apt-get', ['install', '-y', '--no-install-recommends', `postgresql-${postgresMajor}`], {
      env,
    }).catch(() => run('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], { env }));
  }
  const [major] = find();
  if (!major) throw new MissingToolError('PostgreSQL is missing: apt-get install postgresql');
  return join('/usr/lib/postgresql', major, 'bin');
}

/** initdb refuses to run as root: run PostgreSQL as the Debian `postgres` user when we are root. */
async function runAs(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const out = await run('id', ['postgres']).catch(() => '');
  const uid = /uid=(\d+)/.exec(out)?.[1];
  const gid = /gid=(\d+)/.exec(out)?.[1];
  if (!uid || !gid)
    throw new MissingToolError(
      'running as root needs the `postgres` user (created by apt-get install postgresql)',
    );
  return { uid: Number(uid), gid: Number(gid) };
}

/** Creates and starts a PostgreSQL cluster in `runDir/postgres`; resolves when it accepts connections. */
export async function startPostgres(runDir: string, log: (line: string) => void): Promise<Postgres> {
  const bin = await postgresBin(log);
  const owner = await runAs();
  const dir = join(runDir, 'postgres');
  const data = join(dir, 'data');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (owner.uid !== undefined) chownSync(dir, owner.uid, owner.gid!);
  const superuserPassword = 'postgres-testenv';
  writeFileSync(join(dir, 'pwfile'), `${superuserPassword}\n`, { mode: 0o600 });
  if (owner.uid !== undefined) chownSync(join(dir, 'pwfile'), owner.uid, owner.gid!);
  await run(
    join(bin, 'initdb'),
    [
      '-D',
      data,
      '-U',
      'postgres',
      `--pwfile=${join(dir, 'pwfile')}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
    ],
    { ...owner, cwd: dir },
  );
  const logFile = join(dir, 'postgres.log');
  let port = 0;
  const daemon = await withPortRetry(
    'postgres',
    async () => {
      port = await freePort();
      const args = [
        '-D',
        data,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${dir}`,
      ];
      args.push('-c', 'fsync=off', '-c', 'max_connections=200');
      const d = startDaemon('postgres', join(bin, 'postgres'), args, {
        ...owner,
        cwd: dir,
        logFile,
        stopSignal: 'SIGINT',
      });
      const ready = async () => {
        await run(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q']);
        return true;
      };
      try {
        await waitReady(d, ready, 60_000);
      } catch (e) {
        await stopDaemon(d.pid, 2000, 'SIGINT');
        throw portWasBusy(logFile)
          ? new ComponentError('postgres port already in use', ['address already in use'])
          : e;
      }
      return d;
    },
    (e) => e instanceof ComponentError && e.details.includes('address already in use'),
  );
  const sql = [
    "CREATE ROLE keycloak LOGIN PASSWORD 'keycloak'",
    'CREATE DATABASE keycloak OWNER keycloak',
    'CREATE DATABASE keycloak_testenv OWNER keycloak',
  ].flatMap((s) => ['-c', s]);
  await run(
    join(bin, 'psql'),
    ['-h', dir, '-p', String(port), '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', ...sql],
    owner,
  );
  log(`postgres ready at 127.0.0.1:${port}`);
  return {
    host: '127.0.0.1',
    port,
    superuser: 'postgres',
    superuserPassword,
    user: 'keycloak',
    password: 'keycloak',
    database: 'keycloak',
    harnessDatabase: 'keycloak_testenv',
    bin,
    socketDir: dir,
    daemon,
  };
}

/** Runs a PostgreSQL client tool as the superuser over the Unix socket (as the postgres user when root). */
export async function pgTool(
  pg: Pick<Postgres, 'bin' | 'socketDir' | 'port'>,
  tool: string,
  args: string[],
): Promise<string> {
  const owner = await runAs();
  return run(
    join(pg.bin, tool),
    ['-h', pg.socketDir, '-p', String(pg.port), '-U', 'postgres', ...args],
    owner,
  );
}

/** Saves a database to `file` (pg_dump custom format), via a file in the server's directory it may write. */
export async function dumpDatabase(pg: Postgres, database: string, file: string): Promise<void> {
  const tmp = join(pg.socketDir, 'snapshot.dump');
  await pgTool(pg, 'pg_dump', ['-Fc', '-f', tmp, database]);
  mkdirSync(dirname(file), { recursive: true });
  copyFileSync(tmp, `${file}.tmp`);
  renameSync(`${file}.tmp`, file);
  rmSync(tmp, { force: true });
}

/** Restores a dump into an existing, empty database; on failure the database is recreated empty. */
export async function restoreDatabase(
  pg: Postgres,
  database: string,
  file: string,
  log: (l: string) => void,
): Promise<boolean> {
  const tmp = join(pg.socketDir, 'snapshot.dump');
  copyFileSync(file, tmp);
  const owner = await runAs();
  if (owner.uid !== undefined) chownSync(tmp, owner.uid, owner.gid!);
  try {
    await pgTool(pg, 'pg_restore', ['--no-owner', '--role=keycloak', '-d', database, tmp]);
    return true;
  } catch (e) {
    log(`could not restore ${file}, starting from an empty database: ${(e as Error).message}`);
    await pgTool(pg, 'psql', [
      '-c',
      `DROP DATABASE ${database}`,
      '-c',
      `CREATE DATABASE ${database} OWNER keycloak`,
    ]);
    return false;
  } finally {
    rmSync(tmp, { force: true });
  }
}
