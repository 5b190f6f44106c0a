// The two export formats, one row at a time (pure). The stream (export-stream.ts) batches their output per
// page of rows.

import { cellOf, type FieldColumn, LEADING_COLUMNS } from './columns.js';
import { csvRecord, UTF8_BOM } from './csv.js';

export type ExportFormat = 'csv' | 'ndjson';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'ndjson'];

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
};

/** One submission as an export reads it: the stored row, its JSON columns checked to be objects. */
export interface ExportRow {
  id: string;
  createdAt: string;
  folder: string;
  status: string;
  assignee: string | null;
  page: string | null;
  locale: string;
  /** As stored: field key → string | number | boolean | string[] (spam keeps the raw values). */
  values: Record<string, unknown>;
  /** As stored: consent field key → `{ label, link? }` agreed to. */
  consent: Record<string, unknown>;
}

/** The BOM and the header row: leading columns, then one per field column. */
export function csvHeader(columns: readonly FieldColumn[]): string {
  return UTF8_BOM + csvRecord([...LEADING_COLUMNS, ...columns.map((c) => c.header)]);
}

export function csvLine(row: ExportRow, columns: readonly FieldColumn[]): string {
  return csvRecord([
    row.id,
    row.createdAt,
    row.folder,
    row.status,
    row.assignee ?? '',
    row.page ?? '',
    row.locale,
    // Own keys only: a field named `constructor` must not read Object.prototype's.
    ...columns.map((c) => cellOf(Object.hasOwn(row.values, c.key) ? row.values[c.key] : undefined)),
  ]);
}

/**
 * One JSON object per line (JSON escapes CR and LF inside strings, so a line is always one record). Values are
 * as stored, every key included: NDJSON is the lossless export, CSV the spreadsheet one.
 */
export function ndjsonLine(row: ExportRow): string {
  const { id, createdAt, folder, status, assignee, page, locale, values, consent } = row;
  return JSON.stringify({ id, createdAt, folder, status, assignee, page, locale, values, consent }) + '\n';
}
