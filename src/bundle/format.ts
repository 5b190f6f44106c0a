import type { ContentTypeDef, FieldValues, LocaleDef } from '../content/model.js';

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
  /** Kept and round-tripped as authored; their delivery and checks arrive with the menus, redirects, forms and
   * webhooks work (issues 4 and 6). */
  menus: Record<string, unknown>[];
  redirects: Record<string, unknown>[];
  forms: Record<string, unknown>[];
  webhooks: Record<string, unknown>[];
}
