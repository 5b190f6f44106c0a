import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { deriveKey } from '../store/secrets-repo.js';
import type { TokenRow } from '../store/tokens-repo.js';

/**
 * Who the visitor is, for every per-visitor control (submissions and uploads, a token's per-visitor share, image
 * derivations, Turnstile's `remoteip`): docs/api.md "Who the visitor is" says the same in words.
 *
 * 1. The connection's address, `request.ip`: the socket's peer, or with TRUST_PROXY the address the trusted
 *    proxies (a hop count, or their addresses) put in X-Forwarded-For, read from the right (Fastify's proxy-addr).
 * 2. Or, only where every condition holds, the address a site's server names in `Folio-Visitor-Ip` (a claim): the
 *    request's token is a public token made for a server (`serverSide`), sent in the `Authorization` header
 *    (never `?token=`: a URL is a page's), the request carries neither `Origin` nor `Referer` (a browser sends
 *    them; a server rendering a page does not), and the form trusts its site (`settings.trustVisitorIp`).
 *
 * Counters key on a network, not an address: an IPv6 address by its /64 (VISITOR_IPV6_PREFIX), since one host
 * holds a whole /64 and could rotate through it for fresh budgets; an IPv4-mapped IPv6 address as the IPv4
 * address. A claimed visitor is keyed apart from connection addresses and per server token, so a claim can never
 * spend the budget of a visitor who connects from the claimed address. Keys are keyed hashes (spec 2.13: the
 * address is never stored); the HMAC key comes from the installation's master key.
 */

/** The header a server-side site names its visitor's address in (docs/api.md). */
export const VISITOR_IP_HEADER = 'folio-visitor-ip';

export interface Visitor {
  /** What per-visitor counters key on: a keyed hash of the network, claims in their own namespace. */
  key: string;
  /** The visitor's address as given to Turnstile's siteverify (`remoteip`). */
  address: string;
  /** True when the address is a server-side token's claim. */
  claimed: boolean;
}

/** What a request offers to decide its visitor: its connection address, headers, query and token. */
export type VisitorRequest = Pick<FastifyRequest, 'ip' | 'headers' | 'query'> & {
  deliveryToken?: Pick<TokenRow, 'id' | 'serverSide' | 'origins'> | null;
};

/**
 * The network an address is counted as: IPv4 as is (an IPv4-mapped IPv6 address too), IPv6 as its network of
 * `ipv6Prefix` bits in CIDR notation. Anything else (not an address) is returned unchanged.
 */
export function visitorNetwork(ip: string, ipv6Prefix: number): string {
  const bare = ip.split('%', 1)[0] ?? ip;
  if (isIP(bare) === 0) return ip;
  // `process` turns an IPv4-mapped IPv6 address (::ffff:192.0.2.1) into the IPv4 address it carries.
  const addr = ipaddr.process(bare);
  if (addr.kind() === 'ipv4') return addr.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${addr.toString()}/${ipv6Prefix}`).toString()}/${ipv6Prefix}`;
}

const present = (v: unknown): boolean => typeof v === 'string' && v !== '';

/**
 * The address a server-side site claims for its visitor, when every condition above holds; else null. The header
 * must be exactly one address (brackets around IPv6 allowed).
 */
export function claimedAddress(request: VisitorRequest, formTrusts: boolean): string | null {
  const token = request.deliveryToken;
  if (!formTrusts || !token || !token.serverSide || token.origins.length > 0) return null;
  const query = request.query as Record<string, unknown> | undefined;
  if (query?.token !== undefined) return null;
  if (present(request.headers.origin) || present(request.headers.referer)) return null;
  const raw = request.headers[VISITOR_IP_HEADER];
  if (typeof raw !== 'string') return null;
  const ip = raw.trim().replace(/^\[|\]$/g, '');
  return isIP(ip) === 0 ? null : ip;
}

/** Caps one server token's distinct claimed visitors per minute (VISITOR_CLAIMS_PER_MINUTE). */
export interface ClaimCap {
  /** True while `network` is within the token's distinct claims of this minute (counting it when new). */
  allows(tokenId: string, networkKey: string): Promise<boolean>;
}

export class Visitors {
  private readonly key: Buffer;

  constructor(
    masterKey: Buffer,
    private readonly ipv6Prefix: number,
  ) {
    this.key = deriveKey(masterKey, 'visitor');
  }

  private hash(text: string): string {
    return createHmac('sha256', this.key).update(text, 'utf8').digest('base64url').slice(0, 22);
  }

  /** The visitor of a request that may not claim one (no token, or a control without claims): its connection. */
  connection(request: Pick<FastifyRequest, 'ip'>): Visitor {
    return {
      key: this.hash(visitorNetwork(request.ip, this.ipv6Prefix)),
      address: request.ip,
      claimed: false,
    };
  }

  /**
   * The visitor of a request: the claim where it may be honoured and the token is within its cap (`cap`),
   * else the connection. A claim past the cap counts as the server itself, which soon meets the per-visitor limit.
   */
  async of(request: VisitorRequest, formTrusts: boolean, cap: ClaimCap | null): Promise<Visitor> {
    const claim = claimedAddress(request, formTrusts);
    const token = request.deliveryToken;
    if (claim === null || !token) return this.connection(request);
    // Claims live in their own namespace, per token: never the counter of a visitor connecting from there.
    const key = this.hash(`claim:${token.id}:${visitorNetwork(claim, this.ipv6Prefix)}`);
    if (cap !== null && !(await cap.allows(token.id, key))) return this.connection(request);
    return { key, address: claim, claimed: true };
  }
}

const MINUTE_MS = 60_000;
/** Server tokens whose windows are kept; each holds at most `max` keys, so memory stays bounded. */
const MAX_TOKENS = 1000;

/**
 * The claim cap in this process: per server token, the distinct claimed networks of a one-minute window. Claims
 * already seen in the window pass; a new one past `max` does not (its request counts as the server's connection).
 * Each process counts its own (like the delivery limit without Redis): a pool of WORKERS allows that many times
 * `max`, still a bound on how many visitors one leaked server token can invent.
 */
export class ClaimWindow implements ClaimCap {
  private readonly windows = new Map<string, { resetAt: number; seen: Set<string> }>();

  constructor(
    private readonly max: number,
    private readonly now: () => number = Date.now,
  ) {}

  async allows(tokenId: string, networkKey: string): Promise<boolean> {
    const now = this.now();
    let w = this.windows.get(tokenId);
    if (w === undefined || w.resetAt <= now) {
      this.windows.delete(tokenId);
      if (this.windows.size >= MAX_TOKENS) {
        const oldest = this.windows.keys().next();
        if (oldest.done !== true) this.windows.delete(oldest.value);
      }
      w = { resetAt: now + MINUTE_MS, seen: new Set() };
      this.windows.set(tokenId, w);
    }
    if (w.seen.has(networkKey)) return true;
    if (w.seen.size >= this.max) return false;
    w.seen.add(networkKey);
    return true;
  }
}
