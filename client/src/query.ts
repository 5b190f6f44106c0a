// Query parameters of the delivery API (spec 4.1, 4.3; docs/api.md). The server answers 400 `invalid_query` to
// unknown and repeated parameters, so each method sends only the parameters its route takes.

/** What every call takes besides its parameters. */
export interface CallOptions {
  /** Ends the call (and any wait before a retry): it fails with `aborted`, or `timeout` for `AbortSignal.timeout`. */
  signal?: AbortSignal;
}

/** Pins one call to a cache version (spec 4.1); a client from `client.at(cv)` pins every read. */
export interface PinOptions {
  cv?: number;
}

/** Previews (preview tokens only; never combined with `cv`). */
export interface PreviewOptions {
  /** Drafts of every entry. */
  draft?: boolean;
  /** A release preview: `rel_…`. */
  release?: string;
}

export interface LocaleOptions {
  /** A locale of the space; default: its default locale. Fallbacks apply (spec 1.3). */
  locale?: string;
}

/** Common parameters of entry reads (spec 4.1). */
export interface EntryReadOptions extends CallOptions, PinOptions, PreviewOptions, LocaleOptions {
  /** Reference field keys whose entries go to `included.entries`. */
  include?: string | readonly string[];
  /** Only these root fields in `entry.content.fields`. */
  fields?: string | readonly string[];
}

export type FilterScalar = string | number | boolean;
/** Operators of `filter[<member>][<op>]` (spec 4.3); `in` and `nin` take lists. */
export type FilterOps = {
  eq?: FilterScalar;
  ne?: FilterScalar;
  in?: readonly FilterScalar[];
  nin?: readonly FilterScalar[];
  contains?: string;
  gt?: FilterScalar;
  gte?: FilterScalar;
  lt?: FilterScalar;
  lte?: FilterScalar;
  exists?: boolean;
};

/** `/entries` parameters (spec 4.3; docs/api.md "GET /entries"). */
export interface EntryListQuery extends EntryReadOptions {
  type?: string;
  /** A folder path in the locale: `/blog`. */
  under?: string;
  /** All must be on the entry. */
  tags?: string | readonly string[];
  /** Full text: every word must occur. */
  search?: string;
  /** `publishedAt`, `name`, `fields.<key>`, …; `-` descends. Default `-publishedAt`. */
  sort?: string | readonly string[];
  /**
   * By member: `{ 'fields.category': 'news' }` (eq), `{ 'fields.rating': { gte: 3 } }`, `{ tags: { in: ['a', 'b'] } }`.
   * Members: `fields.<key>`, `id`, `name`, `parentId`, `position`, `publishedAt`, `firstPublishedAt`, `tags`.
   */
  filter?: Readonly<Record<string, FilterScalar | FilterOps>>;
  /** Page size, 1 to 100 (server default 25). */
  limit?: number;
}

/** What `Query.entryList` reads: `EntryListQuery`, or a typed one (whose filter members are optional). */
type ListParams = Omit<EntryListQuery, 'filter'> & {
  filter?: Readonly<Record<string, FilterScalar | FilterOps | undefined>> | undefined;
};

type ParamValue = string | number | boolean | readonly (string | number | boolean)[] | undefined;

/** Builds a query: lists comma-separated, booleans `true`/`false`, undefined left out. */
export class Query {
  readonly params = new URLSearchParams();

  set(name: string, value: ParamValue): this {
    if (value === undefined) return this;
    this.params.set(name, Array.isArray(value) ? value.join(',') : String(value));
    return this;
  }

  /** `locale` and `cv`: the call's own cv, else the client's pinned one. */
  locale(options: LocaleOptions & PinOptions, pinnedCv: number | undefined): this {
    return this.set('locale', options.locale).set('cv', options.cv ?? pinnedCv);
  }

  preview(options: PreviewOptions): this {
    if (options.draft === true) this.params.set('draft', '1');
    return this.set('release', options.release);
  }

  /** The common parameters of entry reads. */
  entryRead(options: EntryReadOptions, pinnedCv: number | undefined): this {
    return this.locale(options, pinnedCv)
      .preview(options)
      .set('include', options.include)
      .set('fields', options.fields);
  }

  /** Members without a condition (`undefined`, an optional member of a typed filter) are left out. */
  filters(filter: ListParams['filter']): this {
    for (const [member, condition] of Object.entries(filter ?? {})) {
      if (condition === undefined) continue;
      if (typeof condition !== 'object') {
        this.set(`filter[${member}]`, condition);
        continue;
      }
      for (const [op, value] of Object.entries(condition)) this.set(`filter[${member}][${op}]`, value);
    }
    return this;
  }

  entryList(query: ListParams, pinnedCv: number | undefined): this {
    return this.entryRead(query, pinnedCv)
      .set('type', query.type)
      .set('under', query.under)
      .set('tags', query.tags)
      .set('search', query.search)
      .set('sort', query.sort)
      .filters(query.filter)
      .set('limit', query.limit);
  }
}

/** `/entries/by-path/<path>`: each segment percent-encoded, slashes kept; `/` (or ``) is the home page. */
export function byPathRoute(path: string): string {
  const segments = path.split('/').filter((s) => s !== '');
  return `/entries/by-path/${segments.map(encodeURIComponent).join('/')}`;
}

/** A path segment (an id or a key). */
export const segment = (value: string): string => encodeURIComponent(value);
