import type { FastifyInstance } from 'fastify';
import { managementAuth } from '../../auth/management-auth.js';
import { declareScopes, routeScopes } from '../../auth/route-scopes.js';
import { single } from '../../delivery/params.js';
import type { AppServices } from '../../app/services.js';
import { invalidQuery, notFound, rateLimited } from '../../errors/errors.js';
import { attachmentDisposition } from '../../files/disposition.js';
import { applyInboxFilter, parseInboxFilter } from '../inbox/filter.js';
import { hasFormOrSubmissions } from '../authoring/management.js';
import { prepareExport } from './export-submissions.js';
import { CONTENT_TYPES, EXPORT_FORMATS, type ExportFormat, type HeaderMode } from './formats.js';
import { EXPORT_LANGS, type ExportLang, isExportLang } from './labels.js';
import { getSpace } from '../../store/spaces-repo.js';
import { defaultLocale } from '../../content/locales.js';
import { formChoiceKeys } from '../inbox/inbox.js';
import { RunningExports } from './running-exports.js';
import { media, Q, queryParams } from '../../lib/api-schema.js';
import { FIELD_FILTERS, INBOX_FILTERS, INBOX_PARAMS, inboxOperation } from '../inbox/schemas.js';

const exportSchema = inboxOperation(
  {
    summary: "Download a form's submissions as CSV, XLSX or NDJSON",
    description: `Filtered like the inbox list (default: the inbox folder), oldest first, streamed; recorded in the activity log before the first byte. At most 3 at once per instance (a 4th: 429 with \`Retry-After: 10\`). A failure after the headers closes the connection without the end of the body. ${FIELD_FILTERS}`,
    params: INBOX_PARAMS,
    querystring: queryParams({
      format: Q.oneOf(EXPORT_FORMATS, '`csv` (default), `xlsx` or `ndjson`.'),
      header: Q.oneOf(
        ['labels', 'keys'],
        "CSV and XLSX: `labels` (default: headings, options, statuses and Yes/No in words, times in the space's zone) or `keys` (field keys and stored values, times in UTC).",
      ),
      lang: Q.oneOf(
        EXPORT_LANGS,
        "The words' language: `en`, `de`, `fr`, `it` or `es` (default: the space's default locale's, else `en`).",
      ),
      ...INBOX_FILTERS,
    }),
    response: {
      200: media(
        'The file, as an attachment (`<key>-submissions-<YYYY-MM-DD>.<format>`), `Cache-Control: no-store`.',
        {
          'text/csv': {
            type: 'string',
            description:
              'RFC 4180 with a byte order mark and CRLF: ID, received, folder, status, assignee, page, language, then one column per field (labels or keys, `header`).',
          },
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
            type: 'string',
            format: 'binary',
            description: 'One sheet: a heading row (frozen), then one row per submission; times are dates.',
          },
          'application/x-ndjson': {
            type: 'string',
            description:
              'One object per line: `{ id, createdAt, folder, status, assignee, page, locale, values, consent }`.',
          },
        },
      ),
    },
  },
  'invalid_query',
  'rate_limited',
);

/** Seconds a client refused for too many running exports is told to wait. */
const EXPORT_RETRY_AFTER = 10;

type Params = { spaceId: string; key: string };

function parseFormat(query: Record<string, unknown>): ExportFormat {
  const raw = single(query, 'format') ?? 'csv';
  const format = EXPORT_FORMATS.find((f) => f === raw);
  if (format === undefined) throw invalidQuery('Parameter "format" must be csv, ndjson or xlsx.', 'format');
  return format;
}

function parseHeader(query: Record<string, unknown>): HeaderMode {
  const raw = single(query, 'header') ?? 'labels';
  if (raw !== 'labels' && raw !== 'keys')
    throw invalidQuery('Parameter "header" must be labels or keys.', 'header');
  return raw;
}

/** `lang`, else the space's default locale's language when the export speaks it, else English. */
function parseLang(query: Record<string, unknown>, fallback: string): ExportLang {
  const raw = single(query, 'lang');
  if (raw === undefined) {
    const base = fallback.split('-')[0];
    return isExportLang(base) ? base : 'en';
  }
  if (!isExportLang(raw))
    throw invalidQuery(`Parameter "lang" must be one of ${EXPORT_LANGS.join(', ')}.`, 'lang');
  return raw;
}

/**
 * `GET /v1/spaces/<id>/forms/<key>/submissions/export`: a form's submissions as CSV or NDJSON, filtered
 * like the inbox list, behind a management token with `forms.read`. The static `export` segment wins over the
 * inbox's `…/submissions/:id` in Fastify's router, and submission ids (`sub_…`) never spell it.
 */
export async function formExportRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const { store, tokens } = opts.services;
  const clock = opts.services.clock ?? (() => new Date());
  const running = new RunningExports();
  if (!app.hasRequestDecorator('managementToken')) app.decorateRequest('managementToken', null);
  declareScopes(app);
  app.addHook('onRequest', managementAuth(tokens));
  app.addHook('onRequest', routeScopes);

  app.get<{ Params: Params; Querystring: Record<string, unknown> }>(
    '/v1/spaces/:spaceId/forms/:key/submissions/export',
    // No automatic HEAD: it would run the export, and record it, for a body nobody reads.
    { config: { scopes: { all: ['forms.read'] } }, exposeHeadRoute: false, schema: exportSchema },
    async (request, reply) => {
      const { spaceId, key } = request.params;
      const { format: _format, header: _header, lang: _lang, ...filterQuery } = request.query;
      const format = parseFormat(request.query);
      const header = parseHeader(request.query);
      const space = await getSpace(store, spaceId);
      const lang = parseLang(request.query, space === null ? 'en' : defaultLocale(space.settings));
      // The list's filters, parsed by the list's parser: an export is what the inbox shows, in every row.
      const filter = parseInboxFilter(filterQuery);
      // A deleted form's submissions export until their retention ends, like the list (spec 3.2).
      if (!(await hasFormOrSubmissions(store, spaceId, key))) throw notFound(`Form "${key}" not found.`);
      if (!running.tryAcquire()) {
        reply.header('retry-after', String(EXPORT_RETRY_AFTER));
        throw rateLimited(`Too many exports are running on this instance; retry in ${EXPORT_RETRY_AFTER} s.`);
      }
      let prepared;
      try {
        const choiceKeys = await formChoiceKeys(store, { spaceId, formKey: key });
        prepared = await prepareExport({
          store,
          scope: {
            spaceId,
            formKey: key,
            narrow: (qb) => applyInboxFilter(qb, filter, store.dialect, choiceKeys),
          },
          format,
          header,
          lang,
          actor: request.managementToken?.id ?? '',
          log: request.log,
        });
      } catch (err) {
        running.release();
        throw err;
      }
      running.releaseWhenClosed(prepared.stream);
      const date = clock().toISOString().slice(0, 10);
      return reply
        .header('content-type', CONTENT_TYPES[format])
        .header('content-disposition', attachmentDisposition(`${key}-submissions-${date}.${format}`))
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(prepared.stream);
    },
  );
}
