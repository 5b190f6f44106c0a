// The export formats, one row at a time (pure). The stream (export-submissions.ts) batches their output per page
// of rows. CSV and XLSX share the cells (rowCells); NDJSON is the lossless format for programs.

import { cellOf, type FieldColumn, LEADING_COLUMNS } from './columns.js';
import { csvRecord, UTF8_BOM } from './csv.js';
import { isSubmissionStatus } from '../inbox/statuses.js';
import { type ExportWords, type FieldLabel, localDateTime, localParts } from './labels.js';

export type ExportFormat = 'csv' | 'ndjson' | 'xlsx';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'ndjson', 'xlsx'];

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** `labels`: headings and cells in words (the default); `keys`: field keys and stored values, times in UTC. */
export type HeaderMode = 'labels' | 'keys';

/** One submission as an export reads it: the stored row, its JSON columns checked to be objects. */
export interface ExportRow {
  id: string;
  createdAt: string;
  folder: string;
  status: string;
  /** The name given before people existed (migration 0027), when no person is assigned. */
  assignee: string | null;
  /** The person assigned (a management token id). */
  assigneeId: string | null;
  page: string | null;
  locale: string;
  /** As stored: field key → string | number | boolean | string[] (spam keeps the raw values). */
  values: Record<string, unknown>;
  /** As stored: consent field key → `{ label, link? }` agreed to. */
  consent: Record<string, unknown>;
}

/** What a CSV or XLSX export's rows are laid out with. */
export interface ExportLayout {
  header: HeaderMode;
  columns: readonly FieldColumn[];
  /** Field labels in the export's language (labels mode). */
  labels: ReadonlyMap<string, FieldLabel>;
  words: ExportWords;
  /** The space's time zone: times are its wall-clock times (labels mode). */
  timeZone: string;
  /** People's names by id (labels mode: who a submission is assigned to). */
  people: ReadonlyMap<string, string>;
}

/** A time: its text (CSV) and its wall-clock parts (an XLSX date). */
export interface TimeCell {
  text: string;
  parts: number[] | null;
}
export type Cell = string | number | TimeCell;

/** The heading row: leading columns, then one per field column; labels are made unique with their key. */
export function headerRow(layout: ExportLayout): string[] {
  if (layout.header === 'keys') return [...LEADING_COLUMNS, ...layout.columns.map((c) => c.header)];
  const w = layout.words;
  const leading = [
    w.id,
    `${w.createdAt} (${layout.timeZone})`,
    w.folder,
    w.status,
    w.assignee,
    w.page,
    w.locale,
  ];
  const fields = layout.columns.map((c) => layout.labels.get(c.key)?.label ?? c.key);
  const seen = new Map<string, number>();
  for (const h of [...leading, ...fields]) seen.set(h, (seen.get(h) ?? 0) + 1);
  return [
    ...leading,
    ...fields.map((h, i) => ((seen.get(h) ?? 0) > 1 ? `${h} (${layout.columns[i]?.key ?? ''})` : h)),
  ];
}

/** A stored value in words: option values as their labels, booleans as Yes/No, lists joined with `; `. */
function wordsOf(value: unknown, label: FieldLabel | undefined, words: ExportWords): string | number {
  const one = (v: unknown): string | number => {
    if (typeof v === 'boolean') return v ? words.yes : words.no;
    if (typeof v === 'string') return label?.options.get(v) ?? v;
    return cellOf(v);
  };
  if (Array.isArray(value)) return value.map((v) => String(one(v))).join('; ');
  return one(value);
}

export function rowCells(row: ExportRow, layout: ExportLayout): Cell[] {
  const own = (key: string) => (Object.hasOwn(row.values, key) ? row.values[key] : undefined);
  if (layout.header === 'keys')
    return [
      row.id,
      { text: row.createdAt, parts: localParts(row.createdAt, 'UTC') },
      row.folder,
      row.status,
      row.assigneeId ?? row.assignee ?? '',
      row.page ?? '',
      row.locale,
      // Own keys only: a field named `constructor` must not read Object.prototype's.
      ...layout.columns.map((c) => cellOf(own(c.key))),
    ];
  const w = layout.words;
  const parts = localParts(row.createdAt, layout.timeZone);
  return [
    row.id,
    { text: localDateTime(row.createdAt, parts), parts },
    row.folder === 'inbox' || row.folder === 'spam' ? w.folders[row.folder] : row.folder,
    isSubmissionStatus(row.status) ? w.statuses[row.status] : row.status,
    row.assigneeId === null ? (row.assignee ?? '') : (layout.people.get(row.assigneeId) ?? row.assigneeId),
    row.page ?? '',
    row.locale,
    ...layout.columns.map((c) => {
      const v = own(c.key);
      return v === undefined || v === null ? '' : wordsOf(v, layout.labels.get(c.key), w);
    }),
  ];
}

/** The BOM and the header row. */
export function csvHeader(layout: ExportLayout): string {
  return UTF8_BOM + csvRecord(headerRow(layout));
}

export function csvLine(row: ExportRow, layout: ExportLayout): string {
  return csvRecord(rowCells(row, layout).map((c) => (typeof c === 'object' ? c.text : c)));
}

/**
 * One JSON object per line (JSON escapes CR and LF inside strings, so a line is always one record). Values are
 * as stored, every key included: NDJSON is the lossless export, CSV the spreadsheet one.
 */
export function ndjsonLine(row: ExportRow): string {
  const { id, createdAt, folder, status, page, locale, values, consent } = row;
  const assignee = row.assigneeId ?? row.assignee;
  return JSON.stringify({ id, createdAt, folder, status, assignee, page, locale, values, consent }) + '\n';
}
