// Authoring validation of a form definition (spec 2.10–2.12, 4.4 rules 4 and 6, spec 8): rejects a
// definition with precise JSON-path errors, e.g. `fields[3].maxLength: text fields allow at most 500`.

import { DEFAULT_HONEYPOT } from '../rules/types.js';
import type { FormDefinition } from '../rules/types.js';
import type { FieldRef } from './check-condition.js';
import { KEY_FORMAT, checkField, isFieldType } from './check-field.js';
import { checkSettings } from './check-settings.js';
import { Issues, at, isObject } from './issues.js';
import type { DefinitionError, Obj } from './issues.js';

export type { DefinitionError } from './issues.js';
export { formatDefinitionErrors } from './issues.js';

/** spec 2.10 / 4.4: control keys of a submission, never field keys (the spam trap's name is added). */
export const RESERVED_KEYS: readonly string[] = [
  'cf-turnstile-response',
  '_page',
  '_locale',
  '_redirect',
  '_redirect_error',
  '_drop',
  '_error_page',
];

export interface DefinitionOptions {
  /** keys of the space's shared option lists (spec 2.8) */
  listKeys: ReadonlySet<string>;
  /** the space's locale codes; translations keyed otherwise are rejected */
  locales: readonly string[];
}

export type DefinitionResult = { ok: true; form: FormDefinition } | { ok: false; errors: DefinitionError[] };

const FORM_KEYS = new Set(['key', 'name', 'fields', 'settings']);

/**
 * Validates an authored definition. On success `form` is a deep copy of the input, typed; the input
 * itself is not changed.
 */
export function validateFormDefinition(input: unknown, opts: DefinitionOptions): DefinitionResult {
  const issues = new Issues();
  if (!isObject(input))
    return {
      ok: false,
      errors: [{ path: '', message: 'must be an object with key, name, fields and settings' }],
    };

  issues.unknownKeys(input, '', FORM_KEYS, 'forms');
  const key = issues.string(input, 'key', '', { required: true });
  if (key !== undefined && !KEY_FORMAT.test(key)) issues.add('key', keyFormatMessage());
  issues.string(input, 'name', '', { required: true, nonEmpty: true });

  const settings = input['settings'] ?? {};
  if (!isObject(settings)) issues.add('settings', 'must be an object');
  const rawFields = input['fields'];
  if (!Array.isArray(rawFields)) {
    issues.add('fields', 'must be an array');
    return { ok: false, errors: issues.errors };
  }

  const honeypot =
    isObject(settings) && typeof settings['honeypot'] === 'string' ? settings['honeypot'] : DEFAULT_HONEYPOT;
  const fields = indexFields(issues, rawFields, honeypot);
  rawFields.forEach((field, index) => {
    if (isObject(field) && isFieldType(field['type'])) {
      checkField(
        { issues, listKeys: opts.listKeys, locales: opts.locales, fields },
        field,
        index,
        field['type'],
      );
    }
  });

  if (isObject(settings)) {
    const { turnstile } = checkSettings({ issues, locales: opts.locales, fields }, settings);
    // spec 4.4 rule 4: forms that accept files must use Turnstile.
    rawFields.forEach((field, index) => {
      if (!turnstile && isObject(field) && field['type'] === 'file') {
        issues.add(
          at('fields', index),
          'file fields require Turnstile: set settings.turnstileSiteKey and settings.turnstileSecret',
        );
      }
    });
  }

  if (issues.errors.length > 0) return { ok: false, errors: sortByPath(issues.errors) };
  return { ok: true, form: structuredClone(input) as unknown as FormDefinition };
}

function keyFormatMessage(): string {
  return 'must start with a letter and hold 1–64 letters, digits, _ or -';
}

/**
 * First pass over the fields: shape, key format, reserved and duplicate keys. Returns key → first
 * position and type, which showIf and settings checks resolve references against.
 */
function indexFields(issues: Issues, rawFields: unknown[], honeypot: string): Map<string, FieldRef> {
  const fields = new Map<string, FieldRef>();
  const reserved = new Set([...RESERVED_KEYS, honeypot]);
  rawFields.forEach((field: unknown, index) => {
    const path = at('fields', index);
    if (!isObject(field)) {
      issues.add(path, 'must be an object with key and type');
      return;
    }
    const type = field['type'];
    if (!isFieldType(type)) issues.add(at(path, 'type'), `unknown field type ${JSON.stringify(type)}`);
    const key = checkFieldKey(issues, field, path, reserved, honeypot);
    if (key === undefined || !isFieldType(type)) return;
    const first = fields.get(key);
    if (first !== undefined)
      issues.add(at(path, 'key'), `duplicate key "${key}" (also fields[${first.index}])`);
    else fields.set(key, { index, type });
  });
  return fields;
}

function checkFieldKey(
  issues: Issues,
  field: Obj,
  path: string,
  reserved: Set<string>,
  honeypot: string,
): string | undefined {
  const key = issues.string(field, 'key', path, { required: true });
  if (key === undefined) return undefined;
  if (reserved.has(key)) {
    const why =
      key === honeypot
        ? `the spam trap's name (settings.honeypot, default "${DEFAULT_HONEYPOT}")`
        : 'a submission control key';
    issues.add(at(path, 'key'), `"${key}" is reserved: ${why} (spec 2.10)`);
    return key;
  }
  if (!KEY_FORMAT.test(key)) {
    issues.add(at(path, 'key'), keyFormatMessage());
    return undefined;
  }
  return key;
}

/** Readers get errors in document order: form members, then field by field, then settings. */
function sortByPath(errors: DefinitionError[]): DefinitionError[] {
  const rank = (path: string): number => {
    const field = /^fields\[(\d+)\]/.exec(path);
    if (field) return Number(field[1]);
    return path.startsWith('settings') ? Number.MAX_SAFE_INTEGER : -1;
  };
  // Array.prototype.sort is stable, so errors of one field keep their check order.
  return [...errors].sort((a, b) => rank(a.path) - rank(b.path));
}
