import type { ContentTypeDef, FieldValues, LocaleDef } from '../content/model.js';
import type { Scope } from '../auth/scopes.js';
import type { MenuItemDoc } from '../menus/menu-model.js';
import type { RedirectDoc } from '../redirects/redirect-model.js';
import type { WebhookDoc } from '../webhooks/webhook-model.js';
import type { FormDefinition } from '../forms/rules/index.js';

/** The space bundle, `folio-bundle@1` (docs/bundle.md). */
export const BUNDLE_FORMAT = 'folio-bundle@1';

export interface BundleSpace {
  id: string;
  name: string;
  ai?: boolean;
  timeZone?: string;
  locales: LocaleDef[];
  imagePresets?: Record<string, { width: number; height: number }>;
}

export interface BundleToken {
  kind: 'public' | 'preview' | 'management';
  /** The token itself (imported and hashed), or `hash` as exported (`sha256:<hex>`), never both. */
  value?: string;
  hash?: string;
  name?: string;
  origins?: string[];
  /** Management tokens: the scopes it has (src/auth/scopes.ts); absent = every scope. */
  scopes?: Scope[];
  /** Public tokens without origins: made for a site's server, which may name its visitor (absent = false). */
  serverSide?: boolean;
}

export interface BundleEntry {
  id: string;
  type: string;
  name: string;
  slug: string;
  slugs?: Record<string, string>;
  parent: string | null;
  position: number;
  tags: string[];
  /** The published fields when `published` is set; otherwise the (only) draft. */
  fields: FieldValues;
  published: { at: string; firstAt: string } | null;
  /** Unpublished changes on top of a published entry. */
  draft?: { fields: FieldValues } | null;
}

export interface BundleAsset {
  id: string;
  /** Path of the file, relative to the bundle's folder. */
  file: string;
  filename?: string;
  alt?: Record<string, string>;
  title?: Record<string, string>;
  credit?: string | null;
  focal?: { x: number; y: number } | null;
}

export interface BundleList {
  key: string;
  name?: string;
  options: { value: string; label: Record<string, string> }[];
}

/** A menu item as authored: items without an `id` get one at import (spec 2.5). */
export interface BundleMenuItem extends Omit<MenuItemDoc, 'id' | 'children'> {
  id?: string;
  children: BundleMenuItem[];
}

export interface BundleMenu {
  key: string;
  name: string;
  items: BundleMenuItem[];
}

export interface BundleRelease {
  id: string;
  name: string;
  entries: { id: string; fields: FieldValues }[];
}

export interface Bundle {
  format: typeof BUNDLE_FORMAT;
  space: BundleSpace;
  tokens: BundleToken[];
  types: ContentTypeDef[];
  entries: BundleEntry[];
  assets: BundleAsset[];
  lists: BundleList[];
  releases: BundleRelease[];
  /** Menus as authored (spec 2.5), checked by `checkMenu`; published at import. */
  menus: BundleMenu[];
  /** Manual and automatic redirects (spec 2.6), checked by `checkRedirect`; in the published log at import. */
  redirects: RedirectDoc[];
  /** Form definitions as authored (spec 2.10–2.12), checked by validateFormDefinition and round-tripped as is. */
  forms: FormDefinition[];
  /** Webhook endpoints (spec 6) with their `whsec_` secrets (a bundle is a backup: keep it private). */
  webhooks: WebhookDoc[];
}

/** The space as `validateBundle` returns it: defaults applied. */
export interface CheckedSpace extends BundleSpace {
  ai: boolean;
  timeZone: string;
  imagePresets: Record<string, { width: number; height: number }>;
}

export interface CheckedEntry extends BundleEntry {
  slugs: Record<string, string>;
  draft: { fields: FieldValues } | null;
}

export interface CheckedAsset extends BundleAsset {
  filename: string;
  alt: Record<string, string>;
  title: Record<string, string>;
  credit: string | null;
  focal: { x: number; y: number } | null;
}

/**
 * A bundle as `validateBundle` returns it: built only from checked parts (new objects, never the input), every
 * optional list present and every default applied. This is what the import reads.
 */
export interface CheckedBundle extends Bundle {
  space: CheckedSpace;
  entries: CheckedEntry[];
  assets: CheckedAsset[];
}
