// A small HTTPS/HTTP GET for readiness checks against loopback endpoints.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** TLS material for an HTTPS check; `insecure` skips verification of a self-signed loopback server. */
export type Tls = { ca?: string | Buffer; cert?: string | Buffer; key?: string | Buffer; insecure?: boolean };

/** GETs a URL and resolves with the status code and body; rejects on a connection error or after `timeoutMs`. */
export function get(url: string, tls: Tls = {}, timeoutMs = 5000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      u,
      {
        method: 'GET',
        ca: tls.ca,
        cert: tls.cert,
        key: tls.key,
        rejectUnauthorized: !tls.insecure,
        timeout: timeoutMs,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
