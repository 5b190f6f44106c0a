/** The content model of a space: locales, types and their fields, and the snapshots the published log keeps. */

export interface LocaleDef {
  code: string;
  default?: boolean;
  /** Tried in order after the locale itself; every chain ends at the default locale. */
  fallbacks?: string[];
}

export interface SpaceSettings {
  locales: LocaleDef[];
  timeZone: string;
  ai: boolean;
  imagePresets: Record<string, { width: number; height: number }>;
}

export const FIELD_TYPES = [
  'text',
  'textarea',
  'richtext',
  'number',
  'boolean',
  'date',
  'datetime',
  'link',
  'asset',
  'assets',
  'blocks',
  'reference',
  'dictionary',
  'seo',
  'option',
  'form',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface OptionDef {
  value: string;
  label: Record<string, string>;
}

export interface FieldDef {
  key: string;
  type: FieldType;
  /** Value is a map locale → value, resolved along the locale chain. */
  localized?: boolean;
  required?: boolean;
  /** blocks: the block types allowed. */
  blocks?: string[];
  /** reference: the entry types allowed, and whether it holds a list. */
  to?: string[];
  many?: boolean;
  /** option: inline options or a shared list key. */
  options?: OptionDef[];
  list?: string;
}

export const TYPE_KINDS = ['page', 'collection', 'global', 'folder', 'block'] as const;
export type TypeKind = (typeof TYPE_KINDS)[number];

export interface ContentTypeDef {
  key: string;
  kind: TypeKind;
  name?: string;
  /** collection: whether its items are pages (in /tree and /sitemap, with paths). Default true. */
  pages?: boolean;
  fields: FieldDef[];
}

export type TypeMap = ReadonlyMap<string, ContentTypeDef>;

/** Raw field values as authored: an object keyed by field key. */
export type FieldValues = Record<string, unknown>;

/** An entry as the published log keeps it (entry_versions.doc). */
export interface EntrySnapshot {
  id: string;
  type: string;
  name: string;
  slug: string;
  slugs: Record<string, string>;
  parentId: string | null;
  position: number;
  tags: string[];
  fields: FieldValues;
  publishedAt: string;
  firstPublishedAt: string;
  /** Path per locale; null for entries that are not pages (globals, non-page collections, blocks). */
  paths: Record<string, string> | null;
}

export interface AssetDoc {
  id: string;
  filename: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  focal: { x: number; y: number } | null;
  alt: Record<string, string>;
  title: Record<string, string>;
  credit: string | null;
  color: string | null;
  placeholder: string | null;
}

/** Kinds whose entries have paths. */
export function hasPaths(type: ContentTypeDef | undefined): boolean {
  if (!type) return false;
  if (type.kind === 'page' || type.kind === 'folder') return true;
  return type.kind === 'collection' && type.pages !== false;
}
