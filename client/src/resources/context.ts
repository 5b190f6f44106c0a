import type { Transport } from '../http.js';
import { type LocalePrefixes, prefixAnswer, type PrefixedAnswer } from '../locale-prefixes.js';

/** What every resource reads through: the transport, and the cv the client is pinned to (`client.at(cv)`). */
export interface ClientContext {
  transport: Transport;
  pinnedCv: number | undefined;
  /** The client's `localePrefixes`, written into the paths of answers; null: paths as Folio has them. */
  localePrefixes: LocalePrefixes | null;
}

/** A body check that first writes the site's URLs (`localePrefixes`) into the answer's paths. */
export function prefixed<T>(
  ctx: ClientContext,
  kind: PrefixedAnswer,
  locale: string | undefined,
  read: (body: unknown) => T | null,
): (body: unknown) => T | null {
  const prefixes = ctx.localePrefixes;
  if (prefixes === null) return read;
  return (body) => {
    prefixAnswer(prefixes, kind, body, locale);
    return read(body);
  };
}
