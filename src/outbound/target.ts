import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Webhook targets and server-side request forgery: endpoints are http(s) URLs, and by default they must not
 * reach loopback, private, link-local or otherwise internal addresses (a management token must not turn the
 * server into a proxy into its own network). `WEBHOOK_ALLOW_PRIVATE=true` lifts that for self-hosted
 * receivers and tests. The check runs on the address actually connected to (after DNS), so a name that
 * resolves to an internal address is refused too.
 */
const INTERNAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv6');

export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    // An IPv4-mapped address reaches the IPv4 host it names.
    const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
    if (mapped?.[1]) return isInternalAddress(mapped[1]);
    return INTERNAL.check(address, 'ipv6');
  }
  return INTERNAL.check(address, 'ipv4');
}

/** A problem with a webhook URL, or null when it may be registered. */
export function webhookUrlProblem(url: unknown, allowPrivate: boolean): string | null {
  if (typeof url !== 'string' || url.length > 2048) return 'must be an http(s) URL (at most 2048 characters)';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'must be an http(s) URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'must be an http(s) URL';
  if (u.hostname === '') return 'must name a host';
  if (allowPrivate) return null;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 ? isInternalAddress(host) : host === 'localhost' || host.endsWith('.localhost'))
    return 'must not point to a private network address (set WEBHOOK_ALLOW_PRIVATE=true to allow it)';
  return null;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for http(s).request that refuses internal addresses unless allowed. */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isInternalAddress(a.address));
      const first = usable[0];
      if (!first) {
        const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to a private network address`);
        refused.code = 'EPRIVATE';
        return callback(refused, []);
      }
      if (options.all) callback(null, usable);
      else callback(null, first.address, first.family);
    });
  };
}
