// Local git remotes for clone tests: bare repositories, git's smart HTTP served by `git http-backend` (CGI) from the
// fake's /scm/ handler, and an ssh stand-in that serves the same repositories without a network.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git } from './world.ts';

const identity = [
  '-c',
  'user.name=Test',
  '-c',
  'user.email=test@example.test',
  '-c',
  'init.defaultBranch=main',
];

/** Creates `root/<path>` (e.g. `proj/api.git`) as a bare repository with one commit of `files`; returns the commit id. */
export function bareRepo(root: string, path: string, files: Record<string, string>): string {
  const work = mkdtempSync(join(tmpdir(), 'bbdc-work-'));
  git(work, ...identity, 'init', '-q');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(work, name), text);
  git(work, 'add', '.');
  git(work, ...identity, 'commit', '-q', '-m', 'Initial commit');
  mkdirSync(dirname(join(root, path)), { recursive: true });
  git(root, 'clone', '-q', '--bare', work, join(root, path));
  return git(work, 'rev-parse', 'HEAD').trim();
}

/** A /scm/ handler running `git http-backend` on `root`; answers 401 unless `authorize` accepts the header. */
export function gitHttpBackend(root: string, authorize: (header: string | undefined) => boolean) {
  const authorizations: (string | undefined)[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    authorizations.push(req.headers.authorization);
    if (!authorize(req.headers.authorization)) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="Bitbucket"' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        HOME: root,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname.replace(/^\/scm/, '')),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] && { CONTENT_LENGTH: req.headers['content-length'] }),
        ...(req.headers['content-encoding'] && { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }),
        ...(req.headers['git-protocol'] && { GIT_PROTOCOL: String(req.headers['git-protocol']) }),
        REMOTE_USER: 'alice',
        REMOTE_ADDR: '127.0.0.1',
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    req.pipe(child.stdin);
    // CGI output: header lines (Status: first if not 200), a blank line, then the body.
    let head = Buffer.alloc(0);
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (started) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      started = true;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.subarray(0, end).toString('utf8').split('\r\n')) {
        const [name, ...value] = line.split(':');
        if (name.toLowerCase() === 'status') status = Number.parseInt(value.join(':').trim(), 10);
        else headers[name.trim()] = value.join(':').trim();
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => res.end());
  };
  return { handler, authorizations };
}

/**
 * An executable that stands in for ssh: it logs its arguments to `<dir>/ssh.log`, ignores the host and runs the
 * requested git-upload-pack on `root`. Use with GIT_SSH_VARIANT=ssh so git passes `-p port`.
 */
export function fakeSsh(dir: string, root: string): { command: string; log: string } {
  const command = join(dir, 'fake-ssh.sh');
  const log = join(dir, 'ssh.log');
  writeFileSync(
    command,
    [
      '#!/bin/sh',
      `printf '%s\\n' "$*" >> '${log}'`,
      'for last; do :; done',
      `cmd=\${last%% *}`,
      `path=$(printf '%s' "\${last#* }" | sed "s/^'//; s/'$//; s#^/##")`,
      `exec git "\${cmd#git-}" '${root}'/"$path"`,
      '',
    ].join('\n'),
  );
  chmodSync(command, 0o755);
  return { command, log };
}
