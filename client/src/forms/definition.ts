// The delivered form (spec 2.9) as the renderer and the enhancer take it. The enhancer reads it back from JSON in
// the page, and sites may fetch it themselves: parseDeliveredForm checks that JSON and rebuilds a typed value from
// the members it knows (STYLE rule 13: parse, don't cast), so nothing unexpected reaches the rules or the DOM.

import { CONDITION_OPS, FIELD_TYPES } from '../../../src/forms/rules/index.js';
import type { Condition, ConditionRule, FieldType, FormOption } from '../../../src/forms/rules/index.js';
import type { DeliveredField, DeliveredForm } from '../../../src/forms/definition/deliver.js';

export type { DeliveredField, DeliveredForm };

export class DefinitionError extends Error {
  override name = 'DefinitionError';
}

type Json = Readonly<Record<string, unknown>>;

const STATUSES = ['scheduled', 'open', 'closed', 'full'] as const;

function fail(path: string, what: string): never {
  throw new DefinitionError(`form definition: ${path} ${what}`);
}

export function isJsonObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function object(value: unknown, path: string): Json {
  return isJsonObject(value) ? value : fail(path, 'must be an object');
}

function get(o: Json, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function str(o: Json, key: string, path: string): string {
  const v = get(o, key);
  return typeof v === 'string' ? v : fail(`${path}.${key}`, 'must be a string');
}

function optStr(o: Json, key: string, path: string): string | undefined {
  return get(o, key) === undefined ? undefined : str(o, key, path);
}

function nullableStr(o: Json, key: string, path: string): string | null {
  const v = get(o, key);
  return v === null || v === undefined ? null : str(o, key, path);
}

function optNum(o: Json, key: string, path: string): number | undefined {
  const v = get(o, key);
  if (v === undefined) return undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : fail(`${path}.${key}`, 'must be a number');
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T {
  const found = allowed.find((a) => a === value);
  return found ?? fail(path, `must be one of ${allowed.join(', ')}`);
}

function list<T>(value: unknown, path: string, item: (v: unknown, p: string) => T): T[] {
  if (!Array.isArray(value)) fail(path, 'must be an array');
  return value.map((v, i) => item(v, `${path}[${i}]`));
}

function scalar(v: unknown, path: string): string | number {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))
    ? v
    : fail(path, 'must be a string or number');
}

function rule(value: unknown, path: string): ConditionRule {
  const o = object(value, path);
  const out: ConditionRule = {
    field: str(o, 'field', path),
    op: oneOf(get(o, 'op'), CONDITION_OPS, `${path}.op`),
  };
  const v = get(o, 'value');
  if (v !== undefined) out.value = typeof v === 'boolean' ? v : scalar(v, `${path}.value`);
  const vs = get(o, 'values');
  if (vs !== undefined) out.values = list(vs, `${path}.values`, scalar);
  return out;
}

function condition(value: unknown, path: string): Condition {
  const o = object(value, path);
  return {
    match: oneOf(get(o, 'match'), ['all', 'any'] as const, `${path}.match`),
    rules: list(get(o, 'rules'), `${path}.rules`, rule),
  };
}

function option(value: unknown, path: string): FormOption {
  const o = object(value, path);
  return { value: str(o, 'value', path), label: str(o, 'label', path) };
}

const TEXTS = ['label', 'help', 'placeholder', 'minDate', 'maxDate', 'defaultValue', 'fromQuery'] as const;
const NUMBERS = ['minLength', 'maxLength', 'min', 'max', 'step', 'maxSize', 'maxFiles'] as const;

function field(value: unknown, path: string): DeliveredField {
  const o = object(value, path);
  const type: FieldType = oneOf(get(o, 'type'), FIELD_TYPES, `${path}.type`);
  const out: DeliveredField = { key: str(o, 'key', path), type };
  for (const key of TEXTS) {
    const v = optStr(o, key, path);
    if (v !== undefined) out[key] = v;
  }
  for (const key of NUMBERS) {
    const v = optNum(o, key, path);
    if (v !== undefined) out[key] = v;
  }
  const width = get(o, 'width');
  if (width !== undefined) out.width = oneOf(width, ['full', 'half'] as const, `${path}.width`);
  const required = get(o, 'required');
  if (required !== undefined) out.required = required === true;
  if (get(o, 'showIf') !== undefined) out.showIf = condition(get(o, 'showIf'), `${path}.showIf`);
  if (get(o, 'options') !== undefined) out.options = list(get(o, 'options'), `${path}.options`, option);
  if (get(o, 'accept') !== undefined)
    out.accept = list(get(o, 'accept'), `${path}.accept`, (v, p) =>
      typeof v === 'string' ? v : fail(p, 'must be a string'),
    );
  if (get(o, 'link') !== undefined) {
    const link = object(get(o, 'link'), `${path}.link`);
    out.link = { label: str(link, 'label', `${path}.link`), url: str(link, 'url', `${path}.link`) };
  }
  return out;
}

/** Checks a delivered form (the `form` of GET /forms/<key>, spec 2.9); throws DefinitionError naming the member. */
export function parseDeliveredForm(value: unknown): DeliveredForm {
  const o = object(value, 'form');
  const turnstile = get(o, 'turnstile');
  return {
    key: str(o, 'key', 'form'),
    name: str(o, 'name', 'form'),
    locale: str(o, 'locale', 'form'),
    fields: list(get(o, 'fields'), 'form.fields', field),
    honeypot: str(o, 'honeypot', 'form'),
    turnstile: typeof turnstile === 'boolean' ? turnstile : fail('form.turnstile', 'must be a boolean'),
    turnstileSiteKey: nullableStr(o, 'turnstileSiteKey', 'form'),
    successMessage: str(o, 'successMessage', 'form'),
    status: oneOf(get(o, 'status'), STATUSES, 'form.status'),
    closedMessage: nullableStr(o, 'closedMessage', 'form'),
    opensAt: nullableStr(o, 'opensAt', 'form'),
    closesAt: nullableStr(o, 'closesAt', 'form'),
  };
}
