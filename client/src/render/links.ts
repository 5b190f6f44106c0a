// Links as a site renders them: a link field's value (or a rich-text link mark's attrs) to an href. Entry links
// resolve through the answer's `included.links` (with the client's `localePrefixes`, paths are already the site's).

import type { Link } from '../values.js';
import { isRecord, safeUrl } from './escape.js';

/** An entry of `included.links` (`{ id, type, name, path }`): what an entry link points at; `path` is enough. */
export interface LinkTarget {
  path: string;
  id?: string;
  type?: string;
  name?: string;
}

/** `included` of an answer, as far as links need it. */
export interface LinkIncluded {
  links?: Readonly<Record<string, LinkTarget>>;
}

/** A link value, checked; null when it is none (any JSON is accepted). */
export function parseLink(value: unknown): Link | null {
  if (!isRecord(value)) return null;
  const { kind } = value;
  if (kind === 'url' && typeof value.url === 'string') return { kind, url: value.url };
  if (kind === 'entry' && typeof value.entry === 'string') return { kind, entry: value.entry };
  if (kind === 'email' && typeof value.email === 'string') return { kind, email: value.email };
  if (kind === 'asset' && typeof value.asset === 'string' && typeof value.url === 'string')
    return { kind, asset: value.asset, url: value.url };
  return null;
}

/**
 * The href `renderRichText` gives a link unless `linkHref` says otherwise: an entry's path (`target.path`),
 * `mailto:` for emails, the URL of url and asset links; null for an entry link without a target (unpublished).
 * A custom `linkHref` returns this for the kinds it does not handle.
 */
export function defaultLinkHref(link: Link, target: LinkTarget | undefined): string | null {
  switch (link.kind) {
    case 'url':
    case 'asset':
      return link.url;
    case 'email':
      return `mailto:${link.email}`;
    case 'entry':
      return target?.path ?? null;
  }
}

/**
 * The href of a link field's value (`{ kind, … }`) in an answer: `resolveLink(fields.cta, included)`. Entry
 * links resolve through `included.links`; null when the value is no link, the entry is not published, or the URL
 * is not one a page may link (only http(s), `mailto:`, `tel:`, site paths and fragments pass).
 */
export function resolveLink(link: unknown, included?: LinkIncluded | null): string | null {
  const parsed = parseLink(link);
  if (parsed === null) return null;
  const links = included?.links;
  const target =
    parsed.kind === 'entry' && links !== undefined && Object.hasOwn(links, parsed.entry)
      ? links[parsed.entry]
      : undefined;
  return safeUrl(defaultLinkHref(parsed, target));
}
