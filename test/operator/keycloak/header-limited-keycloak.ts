// A Keycloak stand-in with a header limit (Quarkus refuses larger headers with 431; nginx in front with a 400),
// and admin-client deps without limits or waits, for the AdminTokenTooLarge tests.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { manualClock } from '../../../src/core/clock.ts';

/** A Keycloak stand-in whose token is `tokenBytes` long and which refuses headers over `limit` bytes. */
export async function headerLimitedKeycloak(opts: { tokenBytes: number; limit: number; answer?: number }) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/realms/master/')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'x'.repeat(opts.tokenBytes), expires_in: 60 }));
        return;
      }
      if ((req.headers.authorization?.length ?? 0) > opts.limit) {
        const status = opts.answer ?? 431;
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end(status === 400 ? '<h1>400 Request Header Or Cookie Too Large</h1>' : '');
        return;
      }
      if (req.url?.includes('bad')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errorMessage: 'invalid redirect uri' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"realm":"a"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export const plainDeps = () => {
  const clock = manualClock();
  return {
    http: (url: string, init?: Parameters<typeof fetch>[1]) => fetch(url, init as RequestInit),
    limiter: { acquire: async () => {}, stop: async () => {} },
    clock,
    random: () => 0.5,
    count: () => {},
    canWrite: () => true,
    sleep: async () => {},
  };
};
