import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Cell } from '../src/forms/export/formats.js';
import { createXlsxWriter } from '../src/forms/export/xlsx.js';

// The streaming XLSX writer holds a bounded amount of the file in memory: with a client that does not read, it
// stops taking rows (addRows stays pending) long before the sheet's XML piles up; with a client that reads, every
// row reaches the file.

/** 500 rows of about 600 bytes of sheet XML each. */
function batch(from: number): Cell[][] {
  return Array.from({ length: 500 }, (_, i) => [
    `sub_${from + i}`,
    `Person ${from + i} ${'x'.repeat(400)}`,
    from + i,
    { text: '2026-01-02 03:04:05', parts: [2026, 1, 2, 3, 4, 5] },
  ]);
}

const settledWithin = (p: Promise<void>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('the XLSX writer', () => {
  it('stops taking rows while the client reads nothing', async () => {
    const writer = createXlsxWriter('Sheet', ['id', 'name', 'n', 'at']);
    let batches = 0;
    // 40 batches are about 12 MB of sheet XML; the writer must wait long before that.
    while (batches < 40 && (await settledWithin(writer.addRows(batch(batches * 500)), 500))) batches++;
    expect(batches).toBeLessThan(10);
    writer.destroy(new Error('client gone'));
  });

  it('writes every row for a client that reads, and the file opens with its values', async () => {
    const writer = createXlsxWriter('Sheet', ['id', 'name', 'n', 'at']);
    const chunks: Buffer[] = [];
    const done = pipeline(
      writer.stream,
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk);
          setImmediate(callback);
        },
      }),
    );
    for (let b = 0; b < 20; b++) await writer.addRows(batch(b * 500));
    await writer.finish();
    await done;
    const book = new ExcelJS.Workbook();
    await book.xlsx.read(Readable.from(chunks));
    const sheet = book.getWorksheet('Sheet');
    expect(sheet?.rowCount).toBe(10_001);
    expect(sheet?.getRow(10_001).getCell(1).value).toBe('sub_9999');
    expect(sheet?.getRow(2).getCell(4).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
  });
});
