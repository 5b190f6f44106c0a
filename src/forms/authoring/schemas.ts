/**
 * Forms as delivered, submitted and authored (docs/api.md "GET /forms/<key>", "POST …/submissions", "…/uploads",
 * "Management API: forms"), for the OpenAPI document. Documentation only: submissions, uploads and definitions
 * are checked by the domain (422 per field or JSON path), never by these schemas (src/lib/api-schema.ts).
 */
import {
  DELIVERY_SECURITY,
  type ErrorCodes,
  object,
  operation,
  pathParams,
  type RouteDoc,
  S,
  SPACE_ID,
} from '../../lib/api-schema.js';

export const FORM_PARAMS = pathParams({ spaceId: SPACE_ID, key: "The form's key." });

/** Form posts (submissions, uploads): a public token, no query parameters but it, checks in docs/api.md's order. */
export const formPost = (doc: RouteDoc, ...codes: ErrorCodes) =>
  operation({
    tags: ['forms'],
    security: DELIVERY_SECURITY,
    errors: ['invalid_query', 'unauthorized', 'forbidden_origin', 'rate_limited', 'not_found', 'unavailable'],
  })(doc, 'form_not_open', 'form_closed', 'form_full', 'validation_failed', 'turnstile_failed', ...codes);

/** A field as delivered: as authored minus `translations` and `list`, texts resolved in the locale. */
const deliveredField = object(
  {
    key: S.string,
    type: S.describe(
      S.string,
      'text, textarea, email, tel, url, number, date, time, select, radio, checkboxes, …',
    ),
    label: S.string,
  },
  ['key', 'type'],
  'A field: every setting of spec 2.10 (`required`, bounds, `options`, `showIf`, `accept`, `maxFiles`, …).',
);

export const deliveredForm = object(
  {
    key: S.string,
    name: S.string,
    locale: S.string,
    fields: S.arrayOf(deliveredField),
    honeypot: S.describe(S.string, 'The spam trap field name (default `website`): leave it empty.'),
    turnstile: S.boolean,
    turnstileSiteKey: S.describe(S.nullableString, 'The public site key when the form uses Turnstile.'),
    successMessage: S.nullableString,
    status: { type: 'string', enum: ['scheduled', 'open', 'closed', 'full'], description: 'Evaluated now.' },
    closedMessage: S.nullableString,
    opensAt: S.nullableDateTime,
    closesAt: S.nullableDateTime,
  },
  ['key', 'name', 'locale', 'fields', 'status'],
  'A form in a locale (spec 2.9).',
);

export const formBody = object({ form: deliveredForm, cv: S.cv });

const submissionValues = {
  type: 'object',
  additionalProperties: true,
  description:
    'Values by field key (unknown keys are dropped); file fields carry upload ids (`fup_…`). Also `_locale`, `_page`, `_redirect`, `_redirect_error` and `cf-turnstile-response`. In form data a repeated name, or one ending in `[]`, is a list.',
};

/** The body of a submission: JSON, form data or multipart (file parts are ignored). */
export const submissionBody = {
  content: {
    'application/json': { schema: submissionValues },
    'application/x-www-form-urlencoded': { schema: submissionValues },
    'multipart/form-data': { schema: submissionValues },
  },
};

export const submitResult = object({ ok: { type: 'boolean', const: true }, successMessage: S.string });

/** The parts of an upload, in this order: `field`, the challenge token (anywhere), `file`. */
export const uploadBody = {
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['field', 'file'],
        properties: {
          field: S.describe(S.string, 'The key of a file field of the form (before `file`).'),
          'cf-turnstile-response': S.describe(S.string, 'The challenge token (single use).'),
          file: {
            type: 'string',
            contentMediaType: 'application/octet-stream',
            description: 'One file, with its name.',
          },
        },
      },
    },
  },
};

export const uploadResult = object({
  id: S.describe(S.string, 'The upload id (`fup_…`) to name in the submission.'),
  name: S.describe(S.string, 'The file name without any path, at most 200 characters.'),
  size: S.integer,
  type: S.describe(S.string, "The media type found in the file's content."),
});

/** A definition as authored (spec 2.10–2.12, the bundle's `forms[]`). */
export const authoredForm = object(
  {
    key: S.string,
    name: S.string,
    fields: S.arrayOf(S.anyObject, 'Fields with `translations` per locale.'),
    settings: S.describe(
      S.anyObject,
      '`active`, `successMessage`/`closedMessage` per locale, `opensAt`, `closesAt`, `maxSubmissions`, `uniqueField`, `retentionDays`, `notify`, `notifyRules`, `chatWebhookUrl` (only with `forms.write`), `confirmationEmail`, `turnstileSiteKey`, `turnstileSecret` (only with `forms.write`), …',
    ),
  },
  ['key', 'name', 'fields', 'settings'],
  'A form definition as authored.',
);

/** A definition sent to be saved: checked by the domain (422 with every problem by JSON path), not by a schema. */
export const definitionBody = {
  ...object(
    { key: S.string, name: S.string, fields: S.arrayOf(S.anyObject), settings: S.anyObject },
    ['name', 'fields'],
    'A definition (`key` optional on PUT, and then it must match the URL).',
  ),
};

export const savedForm = object({ form: authoredForm, cv: S.cv });
