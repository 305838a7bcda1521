// A real forward proxy on 127.0.0.1 for tests: HTTP CONNECT tunnels (for https://) and absolute-form requests (for
// http://), recording every target it was asked for; `deny` answers 403 to each, as a proxy with an ACL does.
import { createServer, request } from 'node:http';
import { connect } from 'node:net';

/** A running proxy: its URL, the targets it saw (`CONNECT host:port` or `GET http://...`), close(). */
export type TestProxy = { url: string; seen: string[]; close(): Promise<void> };

/** Starts the proxy on an ephemeral port. */
export async function startConnectProxy(options: { deny?: boolean } = {}): Promise<TestProxy> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (options.deny) return res.writeHead(403).end('denied by test proxy');
    const target = new URL(req.url ?? '');
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, client, head) => {
    seen.push(`CONNECT ${req.url}`);
    if (options.deny) return client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
