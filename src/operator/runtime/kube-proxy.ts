// Which proxy a request to the API server goes through, as client-go decides it: the cluster's `proxy-url` when
// set, else HTTPS_PROXY (HTTP_PROXY for an http:// server) unless NO_PROXY names the host. NO_PROXY entries are
// host names (a leading dot or none: the domain and its subdomains), IP addresses, CIDR ranges, `host:port`, or
// `*` for every host, as in Go's net/http/httpproxy.
import { BlockList, isIP } from 'node:net';
import { UsageError } from '../../core/errors.ts';

/** The proxy schemes the transport can speak (client-go's too: HTTP CONNECT and SOCKS5). */
const schemes = ['http:', 'https:', 'socks5:'];

/** Checks a proxy URL named by `where`; returns it unchanged. */
export function checkProxyUrl(url: string, where: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(
      `${where}: "${url}" is not a URL: use http://host:port, https://host:port or socks5://host:port`,
    );
  }
  if (!schemes.includes(parsed.protocol)) {
    throw new UsageError(
      `${where}: the proxy scheme ${parsed.protocol.replace(/:$/, '')} is not supported: use http, https or socks5`,
    );
  }
  return url;
}

const bare = (host: string) => host.replace(/^\[|\]$/g, '').toLowerCase();

function excluded(server: URL, noProxy: string): boolean {
  const host = bare(server.hostname);
  const port = server.port || (server.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(',').map((e) => e.trim().toLowerCase())) {
    if (!raw) continue;
    if (raw === '*') return true;
    if (raw.includes('/')) {
      const [net, bits] = raw.split('/');
      const family = isIP(net) === 6 ? 'ipv6' : 'ipv4';
      if (!isIP(net) || !isIP(host)) continue;
      const list = new BlockList();
      try {
        list.addSubnet(net, Number(bits), family);
      } catch {
        continue;
      }
      if (list.check(host, isIP(host) === 6 ? 'ipv6' : 'ipv4')) return true;
      continue;
    }
    const portMatch = /^(.*):(\d+)$/.exec(raw);
    const [entryHost, entryPort] = portMatch && !isIP(raw) ? [portMatch[1], portMatch[2]] : [raw, undefined];
    if (entryPort && entryPort !== port) continue;
    const name = bare(entryHost).replace(/^\*?\./, '');
    if (host === name || (!isIP(host) && host.endsWith(`.${name}`))) return true;
  }
  return false;
}

/** The proxy for `server`: the kubeconfig's `proxy-url`, else the environment's, else none. */
export function proxyFor(
  server: string,
  proxyUrl: string | undefined,
  env: NodeJS.ProcessEnv,
  where: string,
): string | undefined {
  if (proxyUrl) return checkProxyUrl(proxyUrl, `${where}: proxy-url`);
  const url = new URL(server);
  const name = url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  const value = env[name] || env[name.toLowerCase()];
  if (!value || excluded(url, env.NO_PROXY ?? env.no_proxy ?? '')) return undefined;
  // Like Go, a proxy given without a scheme is an http:// proxy.
  return checkProxyUrl(/^[a-z0-9+.-]+:\/\//i.test(value) ? value : `http://${value}`, name);
}
