/**
 * A strict RFC 4180 reader for the export tests: records end with CRLF; a field is either bare (no `"`, CR or LF)
 * or quoted with inner quotes doubled; anything else throws, so a sloppy writer cannot pass by accident.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`CSV: ${why} at offset ${i}: ${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))}`);
  };
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) fail('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i];
        i++;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') fail('quote in a bare field');
        field += text[i];
        i++;
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      i += 2;
      records.push(record);
      record = [];
      continue;
    }
    fail(i >= text.length ? 'last record without CRLF' : 'bare CR or LF, or text after a closing quote');
  }
  if (record.length > 0) fail('unfinished record');
  return records;
}
