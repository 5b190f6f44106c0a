// Collecting definition errors with JSON paths (`fields[3].maxLength`), plus the small type checks
// every part of the definition validator shares.

export interface DefinitionError {
  path: string;
  message: string;
}

export type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Appends a member or index to a path: `fields` + 3 → `fields[3]`; `x` + `pt-BR` → `x["pt-BR"]`. */
export function at(path: string, member: string | number): string {
  if (typeof member === 'number') return `${path}[${member}]`;
  if (!IDENTIFIER.test(member)) return `${path}[${JSON.stringify(member)}]`;
  return path === '' ? member : `${path}.${member}`;
}

export class Issues {
  readonly errors: DefinitionError[] = [];

  add(path: string, message: string): void {
    this.errors.push({ path, message });
  }

  /** Reports members not in `allowed`; `what` names the object in the message. */
  unknownKeys(obj: Obj, path: string, allowed: ReadonlySet<string>, what: string): void {
    for (const key of Object.keys(obj)) {
      if (!allowed.has(key)) this.add(at(path, key), `not a setting of ${what}`);
    }
  }

  /** An optional string member; reports a wrong type or an empty string when `nonEmpty`. */
  string(
    obj: Obj,
    key: string,
    path: string,
    opts: { required?: boolean; nonEmpty?: boolean } = {},
  ): string | undefined {
    const value = obj[key];
    if (value === undefined) {
      if (opts.required) this.add(at(path, key), 'is required');
      return undefined;
    }
    if (typeof value !== 'string') return this.wrong(path, key, 'must be a string');
    if (opts.nonEmpty && value.trim() === '') return this.wrong(path, key, 'must not be empty');
    return value;
  }

  boolean(obj: Obj, key: string, path: string): boolean | undefined {
    const value = obj[key];
    if (value === undefined || typeof value === 'boolean') return value;
    return this.wrong(path, key, 'must be true or false');
  }

  /** An optional finite number, or an integer within bounds when `integer` is set. */
  number(
    obj: Obj,
    key: string,
    path: string,
    opts: { integer?: boolean; min?: number; max?: number; maxMessage?: string } = {},
  ): number | undefined {
    const value = obj[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value))
      return this.wrong(path, key, 'must be a number');
    if (opts.integer && !Number.isInteger(value)) return this.wrong(path, key, 'must be an integer');
    if (opts.min !== undefined && value < opts.min)
      return this.wrong(path, key, `must be at least ${opts.min}`);
    if (opts.max !== undefined && value > opts.max) {
      return this.wrong(path, key, opts.maxMessage ?? `must be at most ${opts.max}`);
    }
    return value;
  }

  /** A present member that must be null or pass `check` (nullable settings such as opensAt). */
  nullable<T>(obj: Obj, key: string, check: () => T | undefined): T | null | undefined {
    return obj[key] === null ? null : check();
  }

  private wrong(path: string, key: string, message: string): undefined {
    this.add(at(path, key), message);
    return undefined;
  }
}

/** Renders errors one per line as `path: message`, for logs and CLI output. */
export function formatDefinitionErrors(errors: readonly DefinitionError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join('\n');
}
