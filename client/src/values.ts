// Field values as delivered (docs/api.md "Field values as delivered"), typed for sites: what the generated types
// of `folio-types` name, and what the rendering helpers take. Everything here is a type; nothing is bundled.

import type { HasSchema, SchemaMember } from './typed-keys.js';
import type { Entry, EntryPage, EntryResponse, FormDefinition, Included } from './types.js';

/** A signed crop of an asset usage (spec 2.3 rule 2): fractions (0–1) of the original. */
export interface AssetCrop {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An asset field's value (`asset`, each item of `assets`, `seo.image`). */
export interface Asset {
  /** The asset id, `ast_…`. */
  asset: string;
  /** The file's url; with a crop it carries `crop` and `sig`, which image urls keep. */
  url: string;
  filename: string;
  mime: string;
  size: number;
  /** Of the cropped image when there is a crop; null for files that are not images. */
  width: number | null;
  height: number | null;
  focal: { x: number; y: number } | null;
  crop: AssetCrop | null;
  alt: string | null;
  title: string | null;
  credit: string | null;
  /** A tiny WebP data URL. */
  placeholder: string | null;
  /** The average colour, `#rrggbb`. */
  color: string | null;
}

/** A link field's value; `entry` links resolve through `included.links` (its `path` in the locale). */
export type Link =
  | { kind: 'url'; url: string }
  | { kind: 'entry'; entry: string }
  | { kind: 'email'; email: string }
  | { kind: 'asset'; asset: string; url: string };

/** A mark on a text node. Known: `bold`, `italic`, `underline`, `strike`, `code`, `link` (attrs: a `Link`). */
export interface RichTextMark {
  type: string;
  attrs?: Record<string, unknown>;
}

/**
 * A rich-text node (docs/api.md "Rich text"). Known: `paragraph`, `heading` (`attrs.level` 1–6), `bulletList`,
 * `orderedList` (`attrs.start`), `listItem`, `blockquote`, `codeBlock`, `hardBreak`, `horizontalRule`, `text`.
 */
export interface RichTextNode {
  type: string;
  text?: string;
  marks?: RichTextMark[];
  attrs?: Record<string, unknown>;
  content?: RichTextNode[];
}

/** A rich-text field's value. */
export interface RichText {
  type: 'doc';
  content: RichTextNode[];
}

/** A dictionary field's value: text by key, each key resolved along the locale chain. */
export type Dictionary = Record<string, string>;

/** An SEO field's value. */
export interface Seo {
  title: string | null;
  description: string | null;
  image: Asset | null;
  noindex: boolean;
}

/** A form field's value: the form key and the form as `forms.get()` delivers it (null once deleted). */
export interface FormValue {
  form: string | null;
  definition: FormDefinition | null;
}

/** A block of a block-list field. */
export interface Block<K extends string = string, F = Record<string, unknown>> {
  id: string;
  type: K;
  fields: F;
}

// ---- Typed entries ----------------------------------------------------------------------------------------

/**
 * The content model as types: field values by type key (`{ post: PostFields; … }`), written by `folio-types`
 * with the query keys the server accepts (typed-keys.ts). Without one, every type is a string and fields are
 * `Record<string, unknown>`.
 */
export type ContentModel = object;
export type UntypedModel = Record<string, Record<string, unknown>>;

type Replace<T, K extends PropertyKey, V> = { [P in keyof T as P extends K ? never : P]: T[P] } & V;

/** The type keys of a model (`string` for an untyped client). */
export type TypeKey<M extends ContentModel> = Exclude<keyof M & string, SchemaMember>;

/** `T` without its index signatures: only the members it names, so a misspelt member fails to compile. */
type KnownMembers<T> = {
  [P in keyof T as string extends P ? never : number extends P ? never : P]: T[P];
};

/**
 * The entry members: of a generated model without the document's index signatures (a typo like `entry.titel`
 * fails to compile); of any other model as before, open to members a newer server adds.
 */
type EntryBase<M extends ContentModel> = HasSchema<M> extends true ? KnownMembers<Entry> : Entry;

/** An entry of type `K` (a union over `K`, discriminated by `type`). */
export type EntryOf<M extends ContentModel, K extends TypeKey<M> = TypeKey<M>> = K extends unknown
  ? Replace<EntryBase<M>, 'type' | 'content', { type: K; content: { id: string; type: K; fields: M[K] } }>
  : never;

/** `included` with typed entries. */
export type IncludedOf<M extends ContentModel> = Replace<Included, 'entries', { entries: EntryOf<M>[] }>;

/** `{ entry, included, cv }` of a typed entry. */
export type EntryResponseOf<M extends ContentModel, K extends TypeKey<M> = TypeKey<M>> = Replace<
  EntryResponse,
  'entry' | 'included',
  { entry: EntryOf<M, K>; included: IncludedOf<M> }
>;

/** One page of `/entries` with typed items. */
export type EntryPageOf<M extends ContentModel, K extends TypeKey<M> = TypeKey<M>> = Replace<
  EntryPage,
  'items' | 'included',
  { items: EntryOf<M, K>[]; included: IncludedOf<M> }
>;
