// CSV encoding of submission exports: RFC 4180 records plus OWASP's CSV-injection defence. Pure: no Node, no
// SQL, so the rules are unit-tested on their own (csv.test.ts).

/**
 * Sent first: Excel opens a CSV without it in the machine's legacy code page, which garbles every non-ASCII
 * name. Other spreadsheets and CSV libraries skip it.
 */
export const UTF8_BOM = '\uFEFF';

/** RFC 4180 section 2 rule 1: "Each record is located on a separate line, delimited by a line break (CRLF)." */
export const CRLF = '\r\n';

/**
 * OWASP "CSV Injection": a cell starting with one of these is read as a formula (or, for tab and CR, shifted
 * into one) by Excel, LibreOffice and Google Sheets.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Makes a text cell inert: OWASP's advice is to prepend a single quote, which spreadsheets show as text and do
 * not evaluate. Only text is neutralised; see `csvField` for numbers.
 */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** RFC 4180 section 2 rule 6: fields containing line breaks, double quotes or commas are enclosed in quotes. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One field of a record. Text is neutralised, then quoted when it needs it, with inner quotes doubled (RFC 4180
 * rule 7: "a double-quote appearing inside a field must be escaped by preceding it with another double quote").
 * A number is a literal, never a formula: `-5` stays a negative number a spreadsheet can sum, not `'-5`.
 */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = neutralizeFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record: fields joined by commas, ended by CRLF (RFC 4180 rules 1 and 4). */
export function csvRecord(fields: readonly (string | number)[]): string {
  return fields.map(csvField).join(',') + CRLF;
}
