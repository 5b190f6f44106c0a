import { DefinitionError, parseDeliveredForm } from '../forms/definition.js';
import { isObject, objectWith } from '../parse.js';
import { type CallOptions, type LocaleOptions, type PinOptions, Query, segment } from '../query.js';
import type { FormResponse, SubmissionValue, SubmitResult, Upload } from '../types.js';
import type { ClientContext } from './context.js';

export interface FormReadOptions extends CallOptions, PinOptions, LocaleOptions {}

export interface SubmitOptions extends CallOptions {
  /** The challenge token (`cf-turnstile-response`): required when `form.turnstile`; single use. */
  turnstileToken?: string;
  /** The visitor's language (`_locale`): the success message, the consent wording kept, the confirmation. */
  locale?: string;
  /** The page the form was sent from (`_page`). */
  page?: string;
  /**
   * What the form's spam-trap input holds (`name` is `form.honeypot`, default `website`). Pass it on as the
   * page got it: a filled trap is answered like a success and the submission dropped (spec 3.2).
   */
  honeypot?: { name: string; value: string };
}

export interface UploadOptions extends CallOptions {
  /** The challenge token: only forms with Turnstile take files (spec 4.4 rule 5). */
  turnstileToken?: string;
}

export interface FormsResource {
  /** A form in a locale, its status evaluated now: `{ form, cv }` (closed, scheduled and full forms too). */
  get(key: string, options?: FormReadOptions): Promise<FormResponse>;
  /**
   * Submits values by field key as JSON (spec 4.4): file fields carry upload ids. Fails with 422
   * `validation_failed` (`error.fields`), 409 `form_closed`/`form_full`/…, 422 `turnstile_failed`, 429.
   */
  submit(
    key: string,
    values: Readonly<Record<string, SubmissionValue>>,
    options?: SubmitOptions,
  ): Promise<SubmitResult>;
  /**
   * Uploads one file for a file field (multipart: `field`, the token, `file`): `{ id, name, size, type }`. Name
   * the `id` (`fup_…`) as the field's value when submitting, within a day.
   */
  upload(key: string, field: string, file: Blob, filename?: string, options?: UploadOptions): Promise<Upload>;
}

/** The form parsed as the renderer takes it (a form the renderer could not show is an invalid answer). */
function readFormResponse(body: unknown): FormResponse | null {
  if (!isObject(body) || typeof body.cv !== 'number') return null;
  try {
    return { form: parseDeliveredForm(body.form), cv: body.cv };
  } catch (err) {
    if (err instanceof DefinitionError) return null;
    throw err;
  }
}

function readSubmitResult(body: unknown): SubmitResult | null {
  const result = objectWith<SubmitResult>(body, ['ok', 'successMessage']);
  return result?.ok === true ? result : null;
}

const readUpload = (body: unknown) => objectWith<Upload>(body, ['id', 'name', 'size', 'type']);

export function formsResource(ctx: ClientContext): FormsResource {
  const path = (key: string) => `/forms/${segment(key)}`;
  return {
    get: (key, options = {}) =>
      ctx.transport.send({
        method: 'GET',
        path: path(key),
        query: new Query().locale(options, ctx.pinnedCv).params,
        signal: options.signal,
        read: readFormResponse,
      }),

    submit(key, values, options = {}) {
      // Control keys of spec 4.4, after the values so a value cannot replace them. Submissions are never
      // versioned: a pinned client sends no cv here (the route takes no query parameters).
      const json: Record<string, unknown> = { ...values };
      if (options.locale !== undefined) json._locale = options.locale;
      if (options.page !== undefined) json._page = options.page;
      if (options.turnstileToken !== undefined) json['cf-turnstile-response'] = options.turnstileToken;
      if (options.honeypot !== undefined) json[options.honeypot.name] = options.honeypot.value;
      return ctx.transport.send({
        method: 'POST',
        path: `${path(key)}/submissions`,
        body: { json },
        signal: options.signal,
        read: readSubmitResult,
      });
    },

    upload(key, field, file, filename, options = {}) {
      // docs/api.md "POST /forms/<key>/uploads": `field` before `file`; the token anywhere.
      const form = new FormData();
      form.append('field', field);
      if (options.turnstileToken !== undefined) form.append('cf-turnstile-response', options.turnstileToken);
      if (filename === undefined) form.append('file', file);
      else form.append('file', file, filename);
      return ctx.transport.send({
        method: 'POST',
        path: `${path(key)}/uploads`,
        body: { form },
        signal: options.signal,
        read: readUpload,
      });
    },
  };
}
