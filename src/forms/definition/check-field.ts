// Authoring checks of one form field (spec 2.10, 2.11). Form-wide checks (duplicate and reserved
// keys, Turnstile) live in validate-definition.ts.

import { CHOICE_TYPES, FIELD_TYPES } from '../rules/types.js';
import type { FieldType } from '../rules/types.js';
import { checkCondition } from './check-condition.js';
import type { FieldRef } from './check-condition.js';
import {
  TYPE_SETTINGS,
  checkChoices,
  checkDateBounds,
  checkFileSettings,
  checkHidden,
  checkLengths,
  checkLink,
  checkNumberBounds,
  checkTickBounds,
} from './check-field-settings.js';
import { at, isObject } from './issues.js';
import type { Obj, Issues } from './issues.js';

/** Field keys and the form key: a letter, then letters, digits, `_` or `-`; 1–64 characters. */
export const KEY_FORMAT = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

const COMMON = ['key', 'type', 'label', 'help', 'placeholder', 'width', 'required', 'showIf', 'translations'];
const TRANSLATION_KEYS = new Set(['label', 'help', 'placeholder', 'options', 'link']);

export interface FieldCheckContext {
  issues: Issues;
  listKeys: ReadonlySet<string>;
  locales: readonly string[];
  /** every field key → its first position, for showIf references */
  fields: ReadonlyMap<string, FieldRef>;
}

export function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value);
}

/** Checks fields[index]; the field is known to be an object with a valid key and type. */
export function checkField(ctx: FieldCheckContext, field: Obj, index: number, type: FieldType): void {
  const { issues } = ctx;
  const path = at('fields', index);
  issues.unknownKeys(field, path, new Set([...COMMON, ...TYPE_SETTINGS[type]]), `${type} fields`);

  // spec 2.10: label is a common member; heading and paragraph use it as their text. Only hidden
  // fields, which visitors never see, may go without.
  issues.string(field, 'label', path, { required: type !== 'hidden', nonEmpty: type !== 'hidden' });
  issues.string(field, 'help', path);
  issues.string(field, 'placeholder', path);
  if (field['width'] !== undefined && field['width'] !== 'full' && field['width'] !== 'half') {
    issues.add(at(path, 'width'), 'must be "full" or "half"');
  }
  const required = issues.boolean(field, 'required', path);
  if (required !== undefined && (type === 'heading' || type === 'paragraph' || type === 'section')) {
    issues.add(at(path, 'required'), `${type} fields are never submitted`);
  }
  if (required === false && type === 'consent')
    issues.add(at(path, 'required'), 'consent fields are always required');
  if (field['showIf'] !== undefined)
    checkCondition(issues, field['showIf'], at(path, 'showIf'), ctx.fields, index);

  const optionValues = checkTypeSettings(ctx, field, path, type);
  if (field['translations'] !== undefined) checkTranslations(ctx, field, path, type, optionValues);
}

/** Returns the inline option values of a choice field (for translation checks), else null. */
function checkTypeSettings(
  ctx: FieldCheckContext,
  field: Obj,
  path: string,
  type: FieldType,
): Set<string> | null {
  const { issues } = ctx;
  switch (type) {
    case 'text':
    case 'textarea':
      checkLengths(issues, field, path, type);
      return null;
    case 'number':
      checkNumberBounds(issues, field, path);
      return null;
    case 'date':
      checkDateBounds(issues, field, path);
      return null;
    case 'select':
    case 'radio':
    case 'checkboxes': {
      const count = checkChoices(issues, field, path, ctx.listKeys);
      if (type === 'checkboxes') checkTickBounds(issues, field, path, count);
      return optionValuesOf(field);
    }
    case 'consent':
      if (field['link'] !== undefined) checkLink(issues, field['link'], at(path, 'link'), false);
      return null;
    case 'hidden':
      checkHidden(issues, field, path);
      return null;
    case 'file':
      checkFileSettings(issues, field, path);
      return null;
    default:
      return null;
  }
}

function optionValuesOf(field: Obj): Set<string> | null {
  const options = field['options'];
  if (!Array.isArray(options) || field['list'] !== undefined) return null;
  const values = new Set<string>();
  for (const o of options) if (isObject(o) && typeof o['value'] === 'string') values.add(o['value']);
  return values;
}

/** spec 2.10 / 2.12: translations per locale of the space; option labels by option value. */
function checkTranslations(
  ctx: FieldCheckContext,
  field: Obj,
  path: string,
  type: FieldType,
  optionValues: Set<string> | null,
): void {
  const { issues } = ctx;
  const tPath = at(path, 'translations');
  const translations = field['translations'];
  if (!isObject(translations)) {
    issues.add(tPath, 'must be an object keyed by locale');
    return;
  }
  for (const [locale, t] of Object.entries(translations)) {
    const p = at(tPath, locale);
    if (!ctx.locales.includes(locale)) {
      issues.add(p, `unknown locale "${locale}" (space locales: ${ctx.locales.join(', ')})`);
      continue;
    }
    if (!isObject(t)) {
      issues.add(p, 'must be an object with label, help, placeholder, options or link');
      continue;
    }
    issues.unknownKeys(t, p, TRANSLATION_KEYS, 'translations');
    for (const key of ['label', 'help', 'placeholder']) issues.string(t, key, p);
    if (t['options'] !== undefined)
      checkOptionTranslations(issues, t['options'], at(p, 'options'), type, optionValues);
    if (t['link'] !== undefined) {
      if (type === 'consent') checkLink(issues, t['link'], at(p, 'link'), true);
      else issues.add(at(p, 'link'), 'only consent fields have a link');
    }
  }
}

function checkOptionTranslations(
  issues: Issues,
  options: unknown,
  path: string,
  type: FieldType,
  optionValues: Set<string> | null,
): void {
  if (!CHOICE_TYPES.has(type)) {
    issues.add(path, 'only choice fields have options');
    return;
  }
  if (optionValues === null) {
    // Shared lists carry their own localized labels (spec 2.8).
    issues.add(path, 'fields using a shared list take option labels from the list');
    return;
  }
  if (!isObject(options)) {
    issues.add(path, 'must be an object mapping option value to label');
    return;
  }
  for (const [value, label] of Object.entries(options)) {
    if (!optionValues.has(value)) issues.add(at(path, value), `"${value}" is not an option of this field`);
    else if (typeof label !== 'string') issues.add(at(path, value), 'must be a string');
  }
}
