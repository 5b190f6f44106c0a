// Query keys typed by a generated model. `folio-types` writes, beside the field values of each type, the keys the
// server accepts (`SchemaMember` of `FolioTypes`); a model without it (hand-written, or the untyped default)
// takes any string, as before. Everything here is a type; nothing is bundled.

import type { FilterOps, FilterScalar } from './query.js';
import type { ContentModel, TypeKey } from './values.js';

/** The member of a generated model that carries its query keys: never a type key (those start with a letter). */
export type SchemaMember = '~schema';

/** How a filter or sort target compares (docs/api.md "GET /entries", filter members): its operators follow. */
export type FilterKind = 'text' | 'number' | 'date' | 'datetime' | 'boolean' | 'ref' | 'list';

/** What `folio-types` writes under `SchemaMember`: the keys the server accepts, by type key. */
export interface ModelSchema {
  /** Types read by path: pages and page collections (never folders, globals or non-page collections). */
  pages: string;
  /** Types `/entries` lists: pages and collections. */
  lists: string;
  /** Global types (`globals.get`, `globals.all({ keys })`). */
  globals: string;
  /** Menu keys (`menus.get`, `menus.all({ keys })`). */
  menus: string;
  /** `include` keys by type: the reference fields an entry of the type reaches (its own, its blocks', and those of what they include). */
  include: Record<string, string>;
  /** Field filter members by listed type (`fields.<key>` → kind), and `*` for lists without `type`. */
  filter: Record<string, Record<string, FilterKind>>;
  /** Field sort keys by listed type (`fields.<key>`), and `*` for lists without `type`. */
  sort: Record<string, string>;
}

type SchemaOf<M> = M extends { [P in SchemaMember]: infer S extends ModelSchema } ? S : never;
/** Whether `M` is a generated model (with query keys). */
export type HasSchema<M> = [SchemaOf<M>] extends [never] ? false : true;

/** Type keys read by path: the page types of a generated model, else every type key. */
export type PageKey<M extends ContentModel> =
  HasSchema<M> extends true ? SchemaOf<M>['pages'] & TypeKey<M> : TypeKey<M>;
/** Type keys `/entries` lists. */
export type ListKey<M extends ContentModel> =
  HasSchema<M> extends true ? SchemaOf<M>['lists'] & TypeKey<M> : TypeKey<M>;
/** Global keys. */
export type GlobalKey<M extends ContentModel> =
  HasSchema<M> extends true ? SchemaOf<M>['globals'] & TypeKey<M> : TypeKey<M>;
/** Menu keys (`string` without a generated model). */
export type MenuKey<M extends ContentModel> = HasSchema<M> extends true ? SchemaOf<M>['menus'] : string;

/** `include` keys of a read of type `K` (a union: of any of them). */
export type IncludeKey<M extends ContentModel, K extends string> =
  HasSchema<M> extends true
    ? K extends keyof SchemaOf<M>['include']
      ? SchemaOf<M>['include'][K]
      : never
    : string;

/** `fields` keys of a read of type `K`: its root fields. */
export type FieldKey<M extends ContentModel, K extends string> =
  HasSchema<M> extends true ? (K extends keyof M ? keyof M[K] & string : never) : string;

/** Entry members lists filter on, by kind (docs/api.md "GET /entries"). */
type MemberFilters = {
  id: 'ref';
  name: 'text';
  parentId: 'ref';
  position: 'number';
  publishedAt: 'datetime';
  firstPublishedAt: 'datetime';
  tags: 'list';
};
/** The operators of each kind (src/delivery/list/list-params.ts `OPS_OF`). */
type OpsOf = {
  text: keyof FilterOps;
  number: 'eq' | 'ne' | 'in' | 'nin' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists';
  date: 'eq' | 'ne' | 'in' | 'nin' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists';
  datetime: 'eq' | 'ne' | 'in' | 'nin' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists';
  boolean: 'eq' | 'ne' | 'exists';
  ref: 'eq' | 'ne' | 'in' | 'nin' | 'exists';
  list: 'eq' | 'ne' | 'in' | 'nin' | 'contains' | 'exists';
};

/** The schema's entry under `K`, or its `*` entry when `K` is every listed type (a list without `type`). */
type ByListType<M extends ContentModel, K extends string, T extends Record<string, unknown>> = [
  ListKey<M>,
] extends [K]
  ? T['*']
  : T[K & keyof T];

type FieldFilters<M extends ContentModel, K extends string> = ByListType<M, K, SchemaOf<M>['filter']>;

/** `filter` of a list of type `K`: members as the server takes them, each with its kind's operators. */
export type FilterOf<M extends ContentModel, K extends string> =
  HasSchema<M> extends true
    ? {
        readonly [P in keyof (MemberFilters & FieldFilters<M, K>)]?:
          FilterScalar | Pick<FilterOps, OpsOf[(MemberFilters & FieldFilters<M, K>)[P] & FilterKind]>;
      }
    : Readonly<Record<string, FilterScalar | FilterOps>>;

type SortTarget<M extends ContentModel, K extends string> =
  | 'publishedAt'
  | 'firstPublishedAt'
  | 'name'
  | 'path'
  | 'position'
  | (ByListType<M, K, SchemaOf<M>['sort']> & string);

/** A `sort` key of a list of type `K`; `-` descends. */
export type SortKey<M extends ContentModel, K extends string> =
  HasSchema<M> extends true ? SortTarget<M, K> | `-${SortTarget<M, K>}` : string;

/** One value or a list: what comma-separated parameters take. */
export type OneOrMany<T> = T | readonly T[];
