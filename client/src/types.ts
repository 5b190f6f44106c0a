// The public types of the client: the answers of the delivery API as the generated OpenAPI types describe them
// (src/generated/api.ts), made precise where the document is loose on purpose (recursive trees and menus, form
// fields, field errors): there they follow docs/api.md.

import type { FieldErrorCode, FieldErrorParams } from '../../src/forms/rules/index.js';
import type { DeliveredField, DeliveredForm } from '../../src/forms/definition/deliver.js';
import type { components, paths } from './generated/api.js';

type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON body of a success answer of an operation of the document. */
type Answer<
  P extends keyof paths,
  M extends 'get' | 'post' = 'get',
  S extends number = 200,
> = paths[P][M] extends { responses: infer R } ? (S extends keyof R ? JsonBody<R[S]> : never) : never;

/**
 * `T` with the members `K` replaced by `V`. Not `Omit`: the generated objects carry an index signature (the
 * server may add members), and `Omit` over `keyof` of such a type keeps only the index signature.
 */
type Replace<T, K extends PropertyKey, V> = { [P in keyof T as P extends K ? never : P]: T[P] } & V;

type D = '/v1/{spaceId}';

// Content (spec 2.1–2.7, 4.2).

export type Entry = components['schemas']['DeliveredEntry'];
export type Included = components['schemas']['Included'];
export type SpaceStatus = Answer<`${D}/status`>;
/** `{ entry, included, cv }`: by path, by id, a global. */
export type EntryResponse = Answer<`${D}/entries/{id}`>;
/** One page of `/entries`: `{ items, included, nextCursor, total, cv }`. */
export type EntryPage = Answer<`${D}/entries`>;
export type GlobalsResponse = Answer<`${D}/globals`>;
export type SitemapResponse = Answer<`${D}/sitemap`>;
export type SitemapItem = SitemapResponse['items'][number];
export type RedirectsResponse = Answer<`${D}/redirects`>;
export type Redirect = RedirectsResponse['redirects'][number];
export type OptionListResponse = Answer<`${D}/lists/{key}`>;
export type OptionList = OptionListResponse['list'];
export type SearchResponse = Answer<`${D}/search`>;
/** `GET /types`: the content model (`{ types, cv }`), what `folio-types` generates TypeScript from. */
export type ContentModelResponse = Answer<`${D}/types`>;
export type ModelType = ContentModelResponse['types'][number];
export type ModelField = ModelType['fields'][number];
export type SearchHit = SearchResponse['items'][number];
/** `/sync` as the document describes it; the client's `SyncPage` types its items by `kind`. */
export type SyncAnswer = Answer<`${D}/sync`>;

type RawTree = Answer<`${D}/tree`>;
/** A node of `/tree`; the document leaves `children` open, docs/api.md says they are nodes of the same shape. */
export type TreeNode = Replace<RawTree['items'][number], 'children', { children: TreeNode[] }>;
export type TreeResponse = Replace<RawTree, 'items', { items: TreeNode[] }>;

type RawMenu = Answer<`${D}/menus/{key}`>['menu'];
/** A menu item (spec 2.5); `children` are items of the same shape, up to three levels. */
export type MenuItem = Replace<RawMenu['items'][number], 'children', { children: MenuItem[] }>;
export type Menu = Replace<RawMenu, 'items', { items: MenuItem[] }>;
export type MenuResponse = { menu: Menu; cv: number };
export type MenusResponse = { menus: Record<string, Menu>; cv: number };

// Forms (spec 2.9–2.11, 2.14, 4.4).

// Field types and conditions are the form rules' own (src/forms/rules, shared with the server; types only, so
// nothing of it is bundled here).
export type { FieldType as FormFieldType, Condition as FormCondition } from '../../src/forms/rules/index.js';

/**
 * A form as delivered (spec 2.9; docs/api.md "GET /forms/<key>"): what `forms.get()` gives and `renderForm()`
 * takes, unchanged. Texts are resolved in the form's locale, shared lists copied into `options`.
 */
export type FormDefinition = DeliveredForm;
/** A field of a delivered form (spec 2.10): every setting as authored; settings a type does not have are absent. */
export type FormField = DeliveredField;
export type FormResponse = { form: FormDefinition; cv: number };
/** `{ ok: true, successMessage }` in the visitor's language. */
export type SubmitResult = Answer<`${D}/forms/{key}/submissions`, 'post'>;
/** `{ id, name, size, type }`: name `id` (`fup_…`) as the file field's value in the submission. */
export type Upload = Answer<`${D}/forms/{key}/uploads`, 'post', 201>;

/** A submitted value: text, a number, a boolean, or a list (checkboxes, several upload ids). */
export type SubmissionValue = string | number | boolean | null | readonly (string | number)[];

// Errors (spec 7).

/** Codes of the error envelope the server answers (spec 7.3, docs/api.md "Errors"). */
export type ServerErrorCode = components['schemas']['FolioError']['error']['code'];
/** Codes the client raises itself: no answer, or an answer that is not the API's. */
export type ClientErrorCode =
  | 'network_error'
  | 'timeout'
  | 'aborted'
  | 'http_error'
  | 'invalid_response'
  /** `byPath`/`get` with `type`: the entry has another type. */
  | 'unexpected_type';
/** Every code a `FolioApiError` may carry; a newer server's codes pass through as strings. */
export type FolioErrorCode = ServerErrorCode | ClientErrorCode | (string & {});

/** Field error codes (spec 7.4), in `details.fields`: the form rules' own list. */
export type { FieldErrorCode, FieldErrorParams } from '../../src/forms/rules/index.js';

/**
 * A field's problem (spec 7.4): what `FolioApiError.fields` gives by field key, and what
 * `renderForm({ fieldErrors })` takes. One type from the answer to the form.
 */
export interface FieldError {
  code: FieldErrorCode | (string & {});
  /** English, from the server (translate by `code`); the renderer words errors by code and does not need it. */
  message?: string;
  /** E.g. `{ max }`, `{ min }`, `{ accept }`. */
  params?: FieldErrorParams;
}

/** The redirect an old path answers with its 404 (spec 7.3); `to` is null (status 410) when the page is gone. */
export interface PathRedirect {
  to: string | null;
  status: number;
}
