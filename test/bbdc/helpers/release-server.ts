// A local release host on 127.0.0.1 with GitHub's releases layout: `latest/download/<file>` and
// `download/v<version>/<file>`. Tests put files in `files` and read `requests`.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create as createTar } from 'tar';

/** Starts the server; `files` maps a path (e.g. `/download/v1.3.0/sha256sums.txt`) to its bytes. */
export async function startReleaseServer() {
  const files = new Map<string, Buffer>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const body = files.get(path);
    if (!body) {
      res.writeHead(404).end('Not Found');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length })
      .end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/releases`,
    files,
    requests,
    /** Serves `name` as an asset of `version` (and of `latest` when asked). */
    put(version: string, name: string, body: Buffer | string) {
      files.set(`/releases/download/v${version}/${name}`, Buffer.from(body));
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A .tar.gz holding one executable file `name` with `content`, as the release build packs it. */
export async function tarGz(name: string, content: string): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-archive-'));
  try {
    writeFileSync(join(dir, name), content, { mode: 0o755 });
    await createTar({ gzip: true, cwd: dir, file: join(dir, 'out.tar.gz'), portable: true }, [name]);
    return readFileSync(join(dir, 'out.tar.gz'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
