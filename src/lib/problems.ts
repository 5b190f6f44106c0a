/** Collects problems found in a document, each named by its JSON path (`entries[3].fields.title.de`). */
export interface Problem {
  path: string;
  message: string;
}

export class Problems {
  readonly list: Problem[] = [];
  private added = 0;
  add(path: string, message: string): void {
    this.added++;
    if (this.list.length < 100) this.list.push({ path, message });
  }
  /** Every problem added, those past the first 100 (not listed) included: compare counts, not list lengths. */
  get count(): number {
    return this.added;
  }
  get empty(): boolean {
    return this.list.length === 0;
  }
}

/** A short quotation of a value for a message: `"fr"`, `5`, `{}`. */
export const show = (v: unknown): string => String(JSON.stringify(v) ?? v).slice(0, 80);

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const at = (path: string, key: string | number): string =>
  typeof key === 'number'
    ? `${path}[${key}]`
    : /^[A-Za-z_$][\w$-]*$/.test(key)
      ? `${path}.${key}`
      : `${path}[${JSON.stringify(key)}]`;

export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
export const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export function isTimestamp(v: unknown): v is string {
  return typeof v === 'string' && ISO_TIMESTAMP.test(v) && !Number.isNaN(Date.parse(v));
}

export function isDate(v: unknown): v is string {
  if (typeof v !== 'string' || !DATE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}
