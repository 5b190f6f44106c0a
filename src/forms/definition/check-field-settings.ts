// Type-specific authoring checks of a field's settings (spec 2.10, limits of spec 8).

import { isValidDate } from '../rules/dates.js';
import { isHttpUrl, MAX_LENGTH } from '../rules/field-checks.js';
import type { FieldType } from '../rules/types.js';
import { at, isObject } from './issues.js';
import type { Obj, Issues } from './issues.js';

/** spec 2.10 / 8: upload limits. */
export const MAX_FILE_SIZE = 10 * 1024 * 1024;
export const MAX_FILES_LIMIT = 10;

// Media type (`application/pdf`), wildcard (`image/*`) or extension (`.pdf`).
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/i;
const EXTENSION = /^\.[a-z0-9][a-z0-9._-]*$/i;

/** Settings each type may carry, besides the common members (spec 2.10 "Settings" column). */
export const TYPE_SETTINGS: Record<FieldType, readonly string[]> = {
  text: ['minLength', 'maxLength'],
  textarea: ['minLength', 'maxLength'],
  email: [],
  tel: [],
  url: [],
  number: ['min', 'max', 'step'],
  date: ['minDate', 'maxDate'],
  time: [],
  select: ['options', 'list'],
  radio: ['options', 'list'],
  checkboxes: ['options', 'list', 'min', 'max'],
  checkbox: [],
  consent: ['link'],
  hidden: ['defaultValue', 'fromQuery'],
  file: ['accept', 'maxSize', 'maxFiles'],
  heading: [],
  paragraph: [],
  section: [],
};

export function checkLengths(issues: Issues, field: Obj, path: string, type: 'text' | 'textarea'): void {
  const cap = MAX_LENGTH[type] ?? 0;
  const min = issues.number(field, 'minLength', path, { integer: true, min: 0 });
  const max = issues.number(field, 'maxLength', path, {
    integer: true,
    min: 1,
    max: cap,
    maxMessage: `${type} fields allow at most ${cap.toLocaleString('en-US')}`,
  });
  if (min !== undefined && min > (max ?? cap)) {
    issues.add(at(path, 'minLength'), `must not exceed maxLength (${max ?? cap})`);
  }
}

export function checkNumberBounds(issues: Issues, field: Obj, path: string): void {
  const min = issues.number(field, 'min', path);
  const max = issues.number(field, 'max', path);
  if (min !== undefined && max !== undefined && min > max)
    issues.add(at(path, 'min'), `must not exceed max (${max})`);
  const step = issues.number(field, 'step', path);
  if (step !== undefined && step <= 0) issues.add(at(path, 'step'), 'must be greater than 0');
}

export function checkDateBounds(issues: Issues, field: Obj, path: string): void {
  const bound = (key: string): string | undefined => {
    const value = issues.string(field, key, path);
    if (value === undefined || value === 'today' || isValidDate(value)) return value;
    issues.add(at(path, key), 'must be a date (YYYY-MM-DD) or "today"');
    return undefined;
  };
  const min = bound('minDate');
  const max = bound('maxDate');
  if (min !== undefined && max !== undefined && min !== 'today' && max !== 'today' && min > max) {
    issues.add(at(path, 'minDate'), `must not be after maxDate (${max})`);
  }
}

/** select, radio, checkboxes: exactly one of options and list (spec 2.10). */
export function checkChoices(
  issues: Issues,
  field: Obj,
  path: string,
  listKeys: ReadonlySet<string>,
): number | null {
  const hasOptions = field['options'] !== undefined;
  const hasList = field['list'] !== undefined;
  if (hasOptions && hasList) issues.add(path, 'set either options or list, not both');
  if (!hasOptions && !hasList) issues.add(path, 'choice fields need options or list');
  if (hasList) {
    const list = issues.string(field, 'list', path, { nonEmpty: true });
    if (list !== undefined && !listKeys.has(list))
      issues.add(at(path, 'list'), `unknown option list "${list}"`);
  }
  return hasOptions ? checkOptions(issues, field['options'], at(path, 'options')) : null;
}

const OPTION_KEYS = new Set(['value', 'label']);

/** Returns the number of options (for tick bounds), or null when `options` is not an array. */
function checkOptions(issues: Issues, options: unknown, path: string): number | null {
  if (!Array.isArray(options) || options.length === 0) {
    issues.add(path, 'must be a non-empty array of { value, label }');
    return null;
  }
  const seen = new Map<string, number>();
  options.forEach((option, i) => {
    const p = at(path, i);
    if (!isObject(option)) {
      issues.add(p, 'must be an object with value and label');
      return;
    }
    issues.unknownKeys(option, p, OPTION_KEYS, 'options');
    const value = issues.string(option, 'value', p, { required: true, nonEmpty: true });
    issues.string(option, 'label', p, { required: true, nonEmpty: true });
    if (value === undefined) return;
    const first = seen.get(value);
    if (first !== undefined)
      issues.add(at(p, 'value'), `duplicate option value "${value}" (also options[${first}])`);
    else seen.set(value, i);
  });
  return options.length;
}

/** checkboxes: min/max are numbers of ticks. */
export function checkTickBounds(issues: Issues, field: Obj, path: string, optionCount: number | null): void {
  const limit = optionCount ?? undefined;
  const min = issues.number(field, 'min', path, { integer: true, min: 0 });
  const max = issues.number(field, 'max', path, { integer: true, min: 1 });
  if (min !== undefined && max !== undefined && min > max)
    issues.add(at(path, 'min'), `must not exceed max (${max})`);
  if (limit !== undefined && min !== undefined && min > limit) {
    issues.add(at(path, 'min'), `cannot require more ticks than the ${limit} options`);
  }
}

const LINK_KEYS = new Set(['label', 'url']);

export function checkLink(issues: Issues, link: unknown, path: string, partial: boolean): void {
  if (!isObject(link)) {
    issues.add(path, 'must be an object with label and url');
    return;
  }
  issues.unknownKeys(link, path, LINK_KEYS, 'links');
  issues.string(link, 'label', path, { required: !partial, nonEmpty: true });
  const url = issues.string(link, 'url', path, { required: !partial, nonEmpty: true });
  if (url !== undefined && url.trim() !== '' && !isHttpUrl(url))
    issues.add(at(path, 'url'), 'must be an http(s) link');
}

export function checkHidden(issues: Issues, field: Obj, path: string): void {
  issues.string(field, 'defaultValue', path);
  issues.string(field, 'fromQuery', path, { nonEmpty: true });
}

export function checkFileSettings(issues: Issues, field: Obj, path: string): void {
  const accept = field['accept'];
  if (accept !== undefined) {
    if (!Array.isArray(accept))
      issues.add(at(path, 'accept'), 'must be an array of media types or extensions');
    else {
      accept.forEach((entry, i) => {
        if (typeof entry !== 'string' || !(MEDIA_TYPE.test(entry) || EXTENSION.test(entry))) {
          issues.add(
            at(at(path, 'accept'), i),
            'must be a media type (image/png, image/*) or an extension (.pdf)',
          );
        }
      });
    }
  }
  issues.number(field, 'maxSize', path, {
    integer: true,
    min: 1,
    max: MAX_FILE_SIZE,
    maxMessage: `must be at most 10 MB (${MAX_FILE_SIZE} bytes)`,
  });
  issues.number(field, 'maxFiles', path, { integer: true, min: 1, max: MAX_FILES_LIMIT });
}
