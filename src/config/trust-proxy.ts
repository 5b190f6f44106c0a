import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';

const TRUST_PROXY_FORMS =
  'must be a hop count (e.g. 1: one proxy in front) or a comma-separated list of proxy addresses and CIDR ranges (e.g. 10.0.0.0/8, 192.0.2.7)';
/** The names proxy-addr knows for address ranges (loopback, link-local and unique-local addresses). */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(item: string): boolean {
  if (TRUST_PROXY_NAMES.has(item)) return true;
  const [address = '', bits, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset or off believes no X-Forwarded-For; a whole number is a hop count; otherwise a list of
 * addresses and ranges. `true` (Fastify's "trust every hop") is refused: it makes the left-most entry, which the
 * client writes (nginx's `$proxy_add_x_forwarded_for` appends the real address after it), the visitor.
 */
export function trustProxyConfig(raw: string | undefined): false | number | readonly string[] {
  if (raw === undefined || /^(false|no|off)$/i.test(raw.trim())) return false;
  const text = raw.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 100) throw new ConfigError('TRUST_PROXY', `${TRUST_PROXY_FORMS}, got ${hops} hops`);
    return hops === 0 ? false : hops;
  }
  if (/^(true|yes|on)$/i.test(text))
    throw new ConfigError('TRUST_PROXY', `${TRUST_PROXY_FORMS}; "${text}" would believe any X-Forwarded-For`);
  const items = text.split(',').map((s) => s.trim());
  const bad = items.find((s) => !isAddressOrRange(s));
  if (bad !== undefined) throw new ConfigError('TRUST_PROXY', `${TRUST_PROXY_FORMS}, got "${bad}"`);
  return Object.freeze(items);
}
