// Exporting a form's submissions: decide the columns, record the export, then stream the rows
// page by page. No Fastify here: routes.ts turns the result into a response.

import { Readable } from 'node:stream';
import { recordActivity } from '../../activity/activity-repo.js';
import type { Store } from '../../store/open-store.js';
import { getAuthoredForm, readListsAt } from '../authoring/forms-repo.js';
import { TimeSlicer } from '../../lib/time-slice.js';
import { getSpace } from '../../store/spaces-repo.js';
import { listPeople } from '../../store/tokens-repo.js';
import { planColumns, submittedFieldKeys } from './columns.js';
import {
  type ExportScope,
  measureExport,
  type PagePosition,
  readExportPage,
  readPublishedDefinitions,
  type RowKey,
  streamExportRows,
} from './export-repo.js';
import {
  csvHeader,
  csvLine,
  type ExportFormat,
  type ExportLayout,
  type ExportRow,
  headerRow,
  type HeaderMode,
  ndjsonLine,
  rowCells,
} from './formats.js';
import { EXPORT_WORDS, type ExportLang, fieldLabels, listKeysOf } from './labels.js';
import { createXlsxWriter } from './xlsx.js';

/** Rows per query: large enough that round trips do not dominate, small enough that a page is a few 100 KB. */
export const EXPORT_PAGE_SIZE = 500;

/** The part of a Fastify/pino logger an export uses. */
export interface ExportLog {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface ExportRequest {
  store: Store;
  scope: ExportScope;
  format: ExportFormat;
  /** CSV and XLSX: headings and cells in words (`labels`, the default) or keys and stored values. */
  header?: HeaderMode;
  /** The language of the words (default English). */
  lang?: ExportLang;
  /** The management token id, for the activity log. */
  actor: string;
  log: ExportLog;
  pageSize?: number;
}

export interface PreparedExport {
  /** Rows matching when the export began: the rows the stream sends (less any deleted meanwhile). */
  count: number;
  /** The body, pulled page by page: a slow client slows the queries instead of filling memory. */
  stream: Readable;
}

/**
 * Every row of the scope up to `upTo`, oldest first, in batches of `limit`: streamed from one cursor where the
 * engine can, else in keyset pages (SQLite's one connection must not be held for as long as a client reads).
 */
async function* pages(
  store: Store,
  scope: ExportScope,
  upTo: RowKey,
  limit: number,
  slicer = new TimeSlicer(),
): AsyncGenerator<ExportRow[]> {
  if (store.dialect.streamsRows) {
    yield* streamExportRows(store, scope, upTo, limit);
    return;
  }
  // SQLite reads resolve without a turn of the event loop; pages are sliced so a large export never holds the loop
  // for long.
  let from: PagePosition = null;
  for (;;) {
    await slicer.tick();
    const { rows, next } = await readExportPage(store, scope, { from, upTo, limit });
    if (rows.length > 0) yield rows;
    if (next === 'end') return;
    from = next;
  }
}

/**
 * The layout of a CSV or XLSX export. Field columns from the definitions (the current one, then the published
 * history); only a form with neither (deleted, its history pruned) falls back to the keys its rows hold, which
 * costs one extra pass. Labels come from the same definitions, option lists as currently published.
 */
async function layoutOf(req: ExportRequest, upTo: RowKey | null, limit: number): Promise<ExportLayout> {
  const { store, scope } = req;
  const space = await getSpace(store, scope.spaceId);
  const authored = await getAuthoredForm(store, scope.spaceId, scope.formKey);
  const published = await readPublishedDefinitions(store, scope.spaceId, scope.formKey);
  const current = authored === null ? null : submittedFieldKeys(authored);
  const history = published.flatMap((doc) => {
    const keys = submittedFieldKeys(doc);
    return keys === null ? [] : [keys];
  });
  const rowKeys = new Set<string>();
  if (current === null && history.length === 0 && upTo !== null) {
    for await (const rows of pages(store, scope, upTo, limit))
      for (const row of rows) for (const key of Object.keys(row.values)) rowKeys.add(key);
  }
  const definitions = authored === null ? published : [authored, ...published];
  const lists =
    space === null ? {} : await readListsAt(store, scope.spaceId, listKeysOf(definitions), space.cv);
  return {
    header: req.header ?? 'labels',
    // Sorted: PostgreSQL's jsonb keeps no key order, so the order the keys were submitted in is not stored.
    columns: planColumns(current, history, [...rowKeys].sort()),
    labels: fieldLabels(definitions, req.lang ?? 'en', lists),
    words: EXPORT_WORDS[req.lang ?? 'en'],
    timeZone: space?.settings.timeZone ?? 'UTC',
    people: new Map((await listPeople(store.db, scope.spaceId)).map((p) => [p.id, p.name])),
  };
}

/**
 * Prepares an export: columns, count and the activity record (`submissions.exported`, `{ format, count }`, no
 * values) are settled before the first byte, so a store that fails here answers a proper error status and no
 * submission data leaves without its record. What fails later cannot change the status any more (it was sent
 * with the headers): the error is logged and the stream destroyed, which closes the connection without the
 * final chunk, so the client sees a failed download rather than a short file that looks complete.
 */
export async function prepareExport(req: ExportRequest): Promise<PreparedExport> {
  const { store, scope, format, log } = req;
  const limit = req.pageSize ?? EXPORT_PAGE_SIZE;
  const { count, last } = await measureExport(store, scope);
  const layout = format === 'ndjson' ? null : await layoutOf(req, last, limit);
  await recordActivity(store.db, {
    spaceId: scope.spaceId,
    actor: req.actor,
    action: 'submissions.exported',
    subject: scope.formKey,
    details: { format, count },
  });

  if (format === 'xlsx' && layout !== null)
    return { count, stream: xlsxBody(req, layout, last, limit, count) };
  const encode = layout !== null ? (row: ExportRow) => csvLine(row, layout) : ndjsonLine;
  async function* body(): AsyncGenerator<string> {
    let sent = 0;
    let settled = false;
    // One slicer for the reads and the encoding: a page of 500 rows took 25 ms to encode in one stretch.
    const slicer = new TimeSlicer();
    try {
      if (layout !== null) yield csvHeader(layout);
      if (last !== null) {
        for await (const rows of pages(store, scope, last, limit, slicer)) {
          sent += rows.length;
          const lines: string[] = [];
          for (const row of rows) {
            await slicer.tick();
            lines.push(encode(row));
          }
          // One chunk per page: while the socket drains, the generator holds the encoded chunk, not the rows.
          yield lines.join('');
        }
      }
      settled = true;
    } catch (err) {
      settled = true;
      log.error({ err, form: scope.formKey, format, sent }, 'submissions export stream failed');
      throw err;
    } finally {
      // Neither finished nor failed: the client went away and the response destroyed the stream. Nothing is
      // wrong, but say how far it got.
      if (!settled)
        log.info({ form: scope.formKey, format, sent, of: count }, 'submissions export ended early');
    }
  }
  // Not object mode: the stream's buffer is measured in bytes (16 KB), so the generator is pulled only when the
  // socket drains (backpressure), and memory stays one page however many rows there are.
  return { count, stream: Readable.from(body(), { objectMode: false }) };
}

/**
 * The XLSX body: the writer's stream, fed page by page as the client takes it. A failure destroys the stream (the
 * connection closes without the zip's end), as for CSV.
 */
function xlsxBody(
  req: ExportRequest,
  layout: ExportLayout,
  last: RowKey | null,
  limit: number,
  count: number,
): Readable {
  const { store, scope, log } = req;
  const writer = createXlsxWriter(scope.formKey, headerRow(layout));
  let sent = 0;
  let closed = false;
  writer.stream.once('close', () => (closed = true));
  const slicer = new TimeSlicer();
  void (async () => {
    try {
      if (last !== null)
        for await (const rows of pages(store, scope, last, limit, slicer)) {
          if (closed) break;
          await writer.addRows(
            rows.map((row) => rowCells(row, layout)),
            slicer,
          );
          sent += rows.length;
        }
      if (closed)
        log.info({ form: scope.formKey, format: 'xlsx', sent, of: count }, 'submissions export ended early');
      else await writer.finish();
    } catch (err) {
      log.error({ err, form: scope.formKey, format: 'xlsx', sent }, 'submissions export stream failed');
      writer.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  return writer.stream;
}
