/**
 * Who may read `/metrics` (docs/monitoring.md "Access"): a client whose socket address is in the
 * allowed ranges (METRICS_ALLOW; unset: loopback only), or any client with the METRICS_TOKEN
 * bearer. A request carrying forwarding headers came through a proxy, so its socket address says
 * nothing about the client and never admits it. Everyone else is answered 404, as for an unknown
 * route, so the endpoint's existence is not revealed.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import ipaddr from 'ipaddr.js';

export interface MetricsAccessConfig {
  allow: readonly string[];
  token: string | undefined;
}

const loopbackRanges = ['127.0.0.0/8', '::1/128'];

/** Forwarding headers a reverse proxy adds; the socket is then the proxy's, not the client's. */
const forwardingHeaders = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseRange(range: string): Range {
  if (range.includes('/')) return ipaddr.parseCIDR(range);
  const address = ipaddr.parse(range);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) as the IPv4 address it is. */
function plain(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
}

/** Compares through fixed-length digests, so neither the length nor the bytes of the token leak through timing. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The rule as a function of the request's socket address and headers. */
export function metricsAccess(config: MetricsAccessConfig): (remoteAddress: string | undefined, headers: Record<string, string | string[] | undefined>) => boolean {
  const ranges = (config.allow.length ? config.allow : loopbackRanges).map(parseRange);
  const token = config.token;
  return (remoteAddress, headers) => {
    if (token) {
      const authorization = headers.authorization;
      const match = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
      if (match && sameSecret(match[1]!, token)) return true;
    }
    if (forwardingHeaders.some((name) => headers[name] !== undefined)) return false;
    const address = remoteAddress ? plain(remoteAddress) : undefined;
    if (!address) return false;
    return ranges.some(([base, bits]) => address.kind() === base.kind() && address.match([base, bits] as never));
  };
}
