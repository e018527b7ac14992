/**
 * The one way the server fetches an address a user gave it (link previews, webhook deliveries through
 * `send`; any fetched image or asset address later). docs/security.md "Outbound requests".
 *
 * - http and https only; no user name or password in the address.
 * - The host must be a public unicast address: loopback, private, link-local, unspecified, CGNAT,
 *   multicast, broadcast, reserved and documentation ranges, unique-local IPv6, IPv4-mapped,
 *   -compatible and -translated IPv6 are refused, and 6to4 or NAT64 addresses only pass when the
 *   IPv4 address inside them would (Teredo never). Every spelling of an IPv4 address (`2130706433`,
 *   `0x7f.1`, `127.1`, octal) is read as the WHATWG URL parser and ipaddr.js read it.
 * - Names are resolved once per connection through an injectable resolver; every address of the
 *   answer must pass, and the socket connects to exactly those addresses (the resolver's answer is
 *   handed to `net.connect` as its `lookup`), then the connected peer is checked once more: no second
 *   resolution, so no DNS-rebinding window.
 * - Redirects are followed by hand, each hop checked the same way, at most `maxRedirects`.
 * - One deadline for the whole chain; the body is read up to a byte cap (decompressed bytes count).
 * - Nothing of the caller's is sent: no cookies, no credentials, a fixed set of headers.
 *
 * `allowPrivate` (ranges in CIDR form) lets development and test set-ups reach their own machines;
 * empty by default.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { Socket } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { buildConnector, Client, Pool, errors as undiciErrors } from 'undici';

/** What a name resolves to. Tests pass their own, so a public-looking name can lead to loopback without a network. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Why an outbound request did not give an answer:
 * `refused` the address is not one the server may fetch (scheme, credentials, a non-public address, at any hop);
 * `unreachable` no connection, a broken answer, a non-2xx final status, too many redirects;
 * `timeout` the deadline passed; `too_large` the body is over the cap (when the caller asked for all of it).
 */
export type OutboundFailure = 'refused' | 'unreachable' | 'timeout' | 'too_large';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface UrlGuardOptions {
  resolve?: Resolver;
  /** Ranges (CIDR) allowed although not public: development and tests only. */
  allowPrivate?: readonly string[];
  /** Deadline of a whole fetch, redirects included (ms). */
  timeoutMs?: number;
  maxRedirects?: number;
  userAgent?: string;
}

export interface GuardedFetchOptions {
  /** Most bytes of body to read (after decompression). */
  maxBytes: number;
  /** Over the cap: keep the first `maxBytes` (`truncate`) or fail with `too_large`. */
  overflow: 'truncate' | 'fail';
  accept?: string;
  /** Read no body when this says so (e.g. the type is not one the caller wants). */
  wantBody?(contentType: string): boolean;
}

export interface GuardedResponse {
  /** The address that answered, after redirects. */
  url: URL;
  status: number;
  contentType: string;
  body: Buffer;
  truncated: boolean;
}

export interface GuardedSendOptions {
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string;
  /** Most bytes of the answer's body to keep. */
  maxBytes: number;
  timeoutMs?: number;
}

/** A request of any method (an API client's calls: GET, DELETE, PATCH as well as POST and PUT). */
export interface GuardedRequestOptions {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  /** Most bytes of the answer's body to keep. */
  maxBytes: number;
  timeoutMs?: number;
}

export interface GuardedSendResponse {
  status: number;
  body: Buffer;
  truncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** IPv4-compatible (`::a.b.c.d`, deprecated), NAT64 local-use and IPv4-translated ranges ipaddr.js calls unicast or names otherwise. */
const ipv4Compatible = ipaddr.parseCIDR('::/96');
const nat64LocalUse = ipaddr.parseCIDR('64:ff9b:1::/48');

type Address = ipaddr.IPv4 | ipaddr.IPv6;

function parseCidrs(ranges: readonly string[]): [Address, number][] {
  return ranges.map((range) => {
    const text = range.trim();
    if (!text.includes('/')) {
      const address = ipaddr.parse(text);
      return [address, address.kind() === 'ipv4' ? 32 : 128];
    }
    return ipaddr.parseCIDR(text);
  });
}

/** The IPv4 address inside a 6to4 (2002:AABB:CCDD::) or NAT64 (64:ff9b::AABB:CCDD) address. */
function embeddedIPv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  if (range === 'rfc6052') return new ipaddr.IPv4(bytes.slice(12, 16));
  return undefined;
}

/** Why an address may not be fetched (its range), or undefined when it is public unicast. */
export function refusalOf(address: Address): string | undefined {
  if (address.kind() === 'ipv4') {
    const range = address.range();
    return range === 'unicast' ? undefined : range;
  }
  const v6 = address as ipaddr.IPv6;
  // Local-use NAT64 translates into networks of the operator's choosing.
  if (v6.match(nat64LocalUse)) return 'nat64LocalUse';
  const range = v6.range();
  if (range === 'unicast') return v6.match(ipv4Compatible) ? 'ipv4Compatible' : undefined;
  const inner = embeddedIPv4(v6, range);
  if (inner) {
    const innerRefusal = refusalOf(inner);
    return innerRefusal ? `${range}(${innerRefusal})` : undefined;
  }
  return range;
}

/** An address of the URL's host, when the host is an IP literal (brackets removed). */
function literalAddress(hostname: string): Address | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? ipaddr.parse(bare) : undefined;
}

const refused = (detail: string) => new OutboundError('refused', detail);

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export class UrlGuard {
  private readonly resolve: Resolver;
  private readonly allowed: [Address, number][];
  readonly timeoutMs: number;
  private readonly maxRedirects: number;
  private readonly userAgent: string;

  constructor(private readonly options: UrlGuardOptions = {}) {
    this.resolve = options.resolve ?? systemResolver;
    this.allowed = parseCidrs(options.allowPrivate ?? []);
    this.timeoutMs = options.timeoutMs ?? 8000;
    this.maxRedirects = options.maxRedirects ?? 5;
    this.userAgent = options.userAgent ?? 'Larder link preview (+https://larder.dev)';
  }

  /**
   * The options a guard in another thread needs to act as this one (webhook deliveries are sent
   * from a worker thread); undefined when this guard resolves names its own way (tests), which
   * cannot cross threads.
   */
  threadOptions(): Omit<UrlGuardOptions, 'resolve'> | undefined {
    if (this.options.resolve) return undefined;
    const { allowPrivate, timeoutMs, maxRedirects, userAgent } = this.options;
    return { ...(allowPrivate ? { allowPrivate: [...allowPrivate] } : {}), ...(timeoutMs ? { timeoutMs } : {}), ...(maxRedirects ? { maxRedirects } : {}), ...(userAgent ? { userAgent } : {}) };
  }

  /** Whether the server may connect to this address. */
  isAllowedAddress(text: string): boolean {
    if (!ipaddr.isValid(text)) return false;
    const address = ipaddr.parse(text);
    if (this.allowed.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits))) return true;
    return refusalOf(address) === undefined;
  }

  /**
   * Checks what can be checked without the network: a parseable http(s) address without
   * credentials whose host, when an IP literal, is allowed. Returns the parsed URL.
   */
  check(input: string | URL): URL {
    let url: URL;
    try {
      url = typeof input === 'string' ? new URL(input) : new URL(input.href);
    } catch {
      throw refused('not an absolute address');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused(`scheme ${url.protocol} is not fetched`);
    if (url.username || url.password) throw refused('addresses with credentials are not fetched');
    if (!url.hostname) throw refused('no host');
    const literal = literalAddress(url.hostname);
    if (literal && !this.isAllowedAddress(literal.toString())) throw refused('the address is not public');
    url.hash = '';
    return url;
  }

  /**
   * `check`, and for a name, resolves it and refuses it when an address of the answer may not be
   * reached. A name that does not resolve now passes: every request checks it again.
   */
  async checkResolved(input: string | URL): Promise<URL> {
    const url = this.check(input);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new OutboundError('timeout', 'the name took too long to resolve')), Math.min(this.timeoutMs, 3000));
    try {
      await this.addressesOf(url.hostname, controller.signal);
    } catch (error) {
      if (error instanceof OutboundError && error.kind === 'refused') throw error;
    } finally {
      clearTimeout(timer);
    }
    return url;
  }

  /**
   * Resolves a host name (or takes an IP literal) and answers one address the server may connect
   * to, refusing when any address of the answer may not be reached. A client that connects to
   * this address rather than the name cannot be sent elsewhere by a second DNS answer.
   */
  async allowedAddress(hostname: string): Promise<string> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new OutboundError('timeout', 'the name took too long to resolve')), Math.min(this.timeoutMs, 3000));
    try {
      const [first] = await this.addressesOf(hostname.replace(/^\[|\]$/g, ''), controller.signal);
      return first!.address;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves a host name and checks every address of the answer. */
  private async addressesOf(hostname: string, signal: AbortSignal): Promise<LookupAddress[]> {
    const literal = literalAddress(hostname);
    if (literal) {
      const text = literal.toString();
      if (!this.isAllowedAddress(text)) throw refused('the address is not public');
      return [{ address: text, family: literal.kind() === 'ipv4' ? 4 : 6 }];
    }
    let answer: LookupAddress[];
    try {
      answer = await Promise.race([
        this.resolve(hostname.replace(/\.$/, '') || hostname),
        new Promise<never>((_resolve, reject) => {
          if (signal.aborted) reject(signal.reason);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
      ]);
    } catch (error) {
      if (signal.aborted) throw new OutboundError('timeout', 'the name took too long to resolve');
      throw new OutboundError('unreachable', `the name could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (answer.length === 0) throw new OutboundError('unreachable', 'the name has no address');
    // Every address must pass: an answer mixing a public and a private address is refused whole.
    for (const entry of answer) {
      if (!this.isAllowedAddress(entry.address)) throw refused('the name resolves to an address that is not public');
    }
    return answer.map((entry) => ({ address: ipaddr.parse(entry.address).toString(), family: entry.family }));
  }

  /**
   * A kept-alive pool for `send` (webhook deliveries: many to the same receiver) per origin and
   * checked address list. Its connections can only reach those addresses and check the peer once
   * connected, so a reused connection is one that was checked; the addresses themselves are still
   * resolved and checked at every send. Closed after 30 s unused.
   */
  private poolFor(url: URL, addresses: LookupAddress[], timeoutMs: number): Pool {
    const key = `${url.origin} ${timeoutMs} ${addresses.map((a) => a.address).join(',')}`;
    let entry = this.sendPools.get(key);
    if (!entry) {
      const pool = new Pool(url.origin, {
        connect: this.connector(addresses, timeoutMs),
        connections: 16,
        pipelining: 1,
        keepAliveTimeout: 10_000,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      entry = { pool, idle: undefined };
      this.sendPools.set(key, entry);
    }
    const current = entry;
    if (current.idle) clearTimeout(current.idle);
    current.idle = setTimeout(() => {
      if (this.sendPools.get(key) === current) this.sendPools.delete(key);
      current.pool.close().catch(() => undefined);
    }, 30_000);
    current.idle.unref();
    return current.pool;
  }

  private readonly sendPools = new Map<string, { pool: Pool; idle: NodeJS.Timeout | undefined }>();

  /** Closes the kept-alive connections of `send` (the app's close). */
  async close(): Promise<void> {
    const entries = [...this.sendPools.values()];
    this.sendPools.clear();
    await Promise.all(
      entries.map((entry) => {
        if (entry.idle) clearTimeout(entry.idle);
        return entry.pool.close().catch(() => undefined);
      }),
    );
  }

  /** A connector that can only reach the checked addresses, and checks the peer once connected. */
  private connector(addresses: LookupAddress[], timeoutMs: number): buildConnector.connector {
    const lookup = (_hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    };
    const base = buildConnector({ lookup, timeout: timeoutMs } as buildConnector.BuildOptions);
    return (options, callback) =>
      base(options, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('no socket'), null);
        const peer = (socket as Socket).remoteAddress;
        if (!peer || !this.isAllowedAddress(peer)) {
          socket.destroy();
          return callback(refused('the connected address is not public'), null);
        }
        return callback(null, socket);
      });
  }

  /** A one-connection client that can only reach the checked addresses, and checks the peer once connected. */
  private clientFor(url: URL, addresses: LookupAddress[], timeoutMs: number): Client {
    return new Client(url.origin, { connect: this.connector(addresses, timeoutMs), pipelining: 0, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  }

  /**
   * GET an address a user gave, following redirects by hand. Throws OutboundError; never
   * anything carrying more than a short reason (no internal addresses in messages).
   */
  async fetch(input: string | URL, options: GuardedFetchOptions): Promise<GuardedResponse> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new OutboundError('timeout', 'the address took too long to answer')), this.timeoutMs);
    const started = Date.now();
    try {
      let url = this.check(input);
      for (let hop = 0; ; hop++) {
        const addresses = await this.addressesOf(url.hostname, controller.signal);
        const remaining = Math.max(1, this.timeoutMs - (Date.now() - started));
        const client = this.clientFor(url, addresses, remaining);
        try {
          const response = await client.request({
            path: `${url.pathname}${url.search}`,
            method: 'GET',
            headers: {
              accept: options.accept ?? '*/*',
              'accept-encoding': 'identity',
              'user-agent': this.userAgent,
            },
            signal: controller.signal,
          });
          // Stopping a body early makes undici emit an abort error on it: expected, not a crash.
          response.body.on('error', () => undefined);
          const location = response.headers.location;
          if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
            response.body.destroy();
            if (hop >= this.maxRedirects) throw new OutboundError('unreachable', 'too many redirects');
            let next: URL;
            try {
              next = new URL(location, url);
            } catch {
              throw new OutboundError('unreachable', 'a redirect to an unreadable address');
            }
            url = this.check(next);
            continue;
          }
          if (response.statusCode < 200 || response.statusCode > 299) {
            response.body.destroy();
            throw new OutboundError('unreachable', `the address answered ${response.statusCode}`, response.statusCode);
          }
          const header = response.headers['content-type'];
          const contentType = (Array.isArray(header) ? header[0] : header) ?? '';
          if (options.wantBody && !options.wantBody(contentType)) {
            response.body.destroy();
            return { url, status: response.statusCode, contentType, body: Buffer.alloc(0), truncated: false };
          }
          const encoding = response.headers['content-encoding'];
          const { body, truncated } = await readCapped(response.body, typeof encoding === 'string' ? encoding : undefined, options);
          return { url, status: response.statusCode, contentType, body, truncated };
        } finally {
          client.destroy().catch(() => undefined);
        }
      }
    } catch (error) {
      throw this.classify(error, controller.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Sends a request with a body (webhooks): one hop, since a redirect is an answer here and is
   * never followed (a receiver that redirects forever costs one request). Any status is returned
   * with the body read up to `maxBytes` (the rest dropped). Throws OutboundError for a refusal, a
   * timeout (`timeoutMs`, default the guard's) or a connection that fails.
   */
  async send(input: string | URL, options: GuardedSendOptions): Promise<GuardedSendResponse> {
    return this.request(input, options);
  }

  /**
   * `send` for any method, with or without a body (an API's GET and DELETE calls): the same checks,
   * one hop, no redirect followed, the same deadline and cap.
   */
  async request(input: string | URL, options: GuardedRequestOptions): Promise<GuardedSendResponse> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new OutboundError('timeout', 'the address took too long to answer')), timeoutMs);
    const started = Date.now();
    try {
      const url = this.check(input);
      const addresses = await this.addressesOf(url.hostname, controller.signal);
      const pool = this.poolFor(url, addresses, timeoutMs);
      const response = await pool.request({
        path: `${url.pathname}${url.search}`,
        method: options.method,
        headers: { accept: '*/*', 'accept-encoding': 'identity', 'user-agent': this.userAgent, ...options.headers },
        ...(options.body === undefined ? {} : { body: options.body }),
        signal: controller.signal,
      });
      response.body.on('error', () => undefined);
      const encoding = response.headers['content-encoding'];
      // An answer read whole leaves its connection for the next send; one cut short closes it.
      const { body, truncated } = await readCapped(response.body, typeof encoding === 'string' ? encoding : undefined, { maxBytes: options.maxBytes, overflow: 'truncate' });
      return { status: response.statusCode, body, truncated };
    } catch (error) {
      throw this.classify(error, controller.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  private classify(error: unknown, signal: AbortSignal): OutboundError {
    if (error instanceof OutboundError) return error;
    if (signal.aborted) return signal.reason instanceof OutboundError ? signal.reason : new OutboundError('timeout', 'the address took too long to answer');
    if (error instanceof undiciErrors.ConnectTimeoutError || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
      return new OutboundError('timeout', 'the address took too long to answer');
    }
    // A refusal raised inside the connector may arrive wrapped.
    const cause = (error as { cause?: unknown })?.cause;
    if (cause instanceof OutboundError) return cause;
    return new OutboundError('unreachable', 'the address could not be reached');
  }
}

/** Reads a body up to `maxBytes` decoded bytes, decompressing what the server compressed anyway. */
async function readCapped(raw: Readable, encoding: string | undefined, options: GuardedFetchOptions): Promise<{ body: Buffer; truncated: boolean }> {
  const coding = (encoding ?? 'identity').trim().toLowerCase();
  let decoder: Transform | undefined;
  if (coding === 'gzip' || coding === 'x-gzip') decoder = createGunzip();
  else if (coding === 'deflate') decoder = createInflate();
  else if (coding === 'br') decoder = createBrotliDecompress();
  else if (coding !== 'identity' && coding !== '') {
    raw.destroy();
    throw new OutboundError('unreachable', 'an unknown content encoding');
  }
  const source: Readable = decoder ? raw.pipe(decoder) : raw;
  if (decoder) raw.on('error', (error) => decoder.destroy(error));
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source) {
      const buffer = chunk as Buffer;
      if (size + buffer.length > options.maxBytes) {
        if (options.overflow === 'fail') throw new OutboundError('too_large', 'the answer is too large');
        chunks.push(buffer.subarray(0, options.maxBytes - size));
        size = options.maxBytes;
        return { body: Buffer.concat(chunks, size), truncated: true };
      }
      chunks.push(buffer);
      size += buffer.length;
    }
  } catch (error) {
    if (error instanceof OutboundError) throw error;
    if ((error as NodeJS.ErrnoException).code?.startsWith('Z_') || (error as Error).message?.includes('incorrect header')) {
      throw new OutboundError('unreachable', 'a broken compressed answer');
    }
    throw error;
  } finally {
    raw.destroy();
    decoder?.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated: false };
}
