// The XLSX export, written by exceljs's streaming workbook writer: rows are committed as they are
// written and the zip is streamed out, so memory stays flat however many rows there are (`npm run bench --
// inbox`). Times are real dates (wall-clock time in the space's zone, formatted `yyyy-mm-dd hh:mm:ss`), numbers
// numbers, everything else text: a cell holding `=…` is a string, never a formula, so no CSV-style quoting applies.

import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { TimeSlicer } from '../../lib/time-slice.js';
import type { Cell } from './formats.js';

const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** Excel's limit for a cell's text; a longer answer (never from a valid submission) is cut. */
const MAX_CELL_TEXT = 32_767;

export interface XlsxWriter {
  /** The file as it is written: hand it to the response. */
  stream: Readable;
  /**
   * Writes rows, entering `slicer` before each (a row's XML is the costly part of an export); resolves when the
   * client has taken enough that more may be written (backpressure).
   */
  addRows(rows: readonly Cell[][], slicer?: TimeSlicer): Promise<void>;
  /** Ends the sheet and the file. */
  finish(): Promise<void>;
  /** Ends the file without finishing it (a failure): the client sees a broken download, not a short one. */
  destroy(err: Error): void;
}

function value(cell: Cell): string | number | Date {
  if (typeof cell === 'number') return cell;
  if (typeof cell === 'string') return cell.length > MAX_CELL_TEXT ? cell.slice(0, MAX_CELL_TEXT) : cell;
  const p = cell.parts;
  // An XLSX date has no zone: the wall-clock parts written as UTC read back as that time.
  return p === null ? cell.text : new Date(Date.UTC(p[0] ?? 0, (p[1] ?? 1) - 1, p[2], p[3], p[4], p[5]));
}

/** Bytes of sheet XML the zip entry may hold before the writer waits for it. */
const MAX_BACKLOG = 1024 * 1024;

/**
 * The stream the sheet's XML is piped into (exceljs 4.4's WorksheetWriter keeps its output in `stream`, whose
 * `pipes` archiver fills when it takes the entry: a PassThrough of archiver-utils' `readable-stream` 2, which has
 * no `writableLength` getter, only its state object); null when it is not (yet) there, and then nothing waits.
 */
function entryBacklog(sheet: object): Backlog | null {
  const stream: unknown = Reflect.get(sheet, 'stream');
  if (typeof stream !== 'object' || stream === null) return null;
  const pipes: unknown = Reflect.get(stream, 'pipes');
  const target: unknown = Array.isArray(pipes) ? pipes[0] : undefined;
  if (!hasEvents(target)) return null;
  const buffered = (): number | null => {
    const length: unknown = Reflect.get(target, 'writableLength');
    if (typeof length === 'number') return length;
    const state: unknown = Reflect.get(target, '_writableState');
    const stateLength: unknown =
      typeof state === 'object' && state !== null ? Reflect.get(state, 'length') : null;
    return typeof stateLength === 'number' ? stateLength : null;
  };
  if (buffered() === null) return null;
  return { buffered: () => buffered() ?? 0, events: target };
}

interface Events {
  on(event: string, listener: () => void): unknown;
  off(event: string, listener: () => void): unknown;
}

function hasEvents(value: unknown): value is Events {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof Reflect.get(value, 'on') === 'function' &&
    typeof Reflect.get(value, 'off') === 'function'
  );
}

/** How much of the sheet's XML waits before the compressor, and the stream that says when it drained. */
interface Backlog {
  buffered(): number;
  events: Events;
}

/** Resolves at the first of `events` on any of the emitters, or at once when `ready()` already holds. */
function firstOf(pairs: [Events, string][], ready: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      for (const [emitter, event] of pairs) emitter.off(event, done);
      resolve();
    };
    for (const [emitter, event] of pairs) emitter.on(event, done);
    if (ready()) done();
  });
}

export function createXlsxWriter(sheetName: string, header: readonly string[]): XlsxWriter {
  const out = new PassThrough();
  // No shared strings table: it would hold every distinct text of the file in memory until the end.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31) || 'Submissions', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const headerRow = sheet.addRow([...header]);
  headerRow.font = { bold: true };
  headerRow.commit();
  return {
    stream: out,
    async addRows(rows, slicer) {
      for (const cells of rows) {
        await slicer?.tick();
        const row = sheet.addRow(cells.map(value));
        cells.forEach((c, i) => {
          if (typeof c === 'object' && c.parts !== null) row.getCell(i + 1).numFmt = DATE_FORMAT;
        });
        row.commit();
      }
      // Wait for the compressor, then for the client: the sheet's XML goes into the zip entry's deflate stream
      // without backpressure (exceljs writes and forgets), so rows written faster than they are compressed pile up
      // there (100k rows: 145 MB of RSS); the zip is piped into `out`, which the client drains.
      // Until archiver takes the entry, the XML waits in the entry's PassThrough: the wait also gives archiver's
      // queue (which starts on a later turn of the event loop) the turn it needs.
      for (let backlog = entryBacklog(sheet); backlog !== null && backlog.buffered() > MAX_BACKLOG;) {
        if (out.destroyed) return;
        const entry = backlog;
        await firstOf(
          [
            [entry.events, 'drain'],
            [entry.events, 'close'],
            [out, 'close'],
          ],
          () => entry.buffered() <= MAX_BACKLOG || out.destroyed,
        );
      }
      while (out.writableNeedDrain && !out.destroyed)
        await firstOf(
          [
            [out, 'drain'],
            [out, 'close'],
          ],
          () => !out.writableNeedDrain || out.destroyed,
        );
    },
    async finish() {
      await sheet.commit();
      await workbook.commit();
    },
    destroy(err) {
      out.destroy(err);
    },
  };
}
