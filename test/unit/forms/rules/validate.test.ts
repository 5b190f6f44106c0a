import { describe, expect, it } from 'vitest';

import { SUBMISSION_CASES, caseDefinition } from './cases.js';
import type { SubmissionCase } from './cases.js';
import { FIELD_ERROR_CODES, FORM_ERROR_CODES, fieldError } from '../../../../src/forms/rules/codes.js';
import { formDataToRecord } from '../../../../src/forms/rules/form-data.js';
import type { FormField } from '../../../../src/forms/rules/types.js';
import {
  resolveListOptions,
  validateFieldValue,
  validateSubmission,
} from '../../../../src/forms/rules/validate.js';

function run(c: SubmissionCase, raw: Record<string, unknown>) {
  const def = resolveListOptions(caseDefinition(c), c.lists);
  return validateSubmission(def, raw, { now: new Date(c.now), timeZone: c.timeZone });
}

function check(c: SubmissionCase, raw: Record<string, unknown>): void {
  const result = run(c, raw);
  if (c.expect.ok) {
    expect(result).toMatchObject({ ok: true });
    if (result.ok && c.expect.values) expect({ ...result.values }).toEqual(c.expect.values);
    return;
  }
  expect(result.ok).toBe(false);
  if (result.ok) return;
  const got: Record<string, { code: string; params?: unknown }> = {};
  for (const [key, e] of Object.entries(result.errors)) {
    got[key] = e.params === undefined ? { code: e.code } : { code: e.code, params: e.params };
    expect(e.message).toMatch(/\.$/);
  }
  expect(got).toEqual(c.expect.errors);
}

describe('submission case table', () => {
  it('has unique case names', () => {
    const names = SUBMISSION_CASES.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('covers every field error code that validateSubmission raises (spec 7.4)', () => {
    const seen = new Set<string>();
    for (const c of SUBMISSION_CASES)
      if (!c.expect.ok) for (const e of Object.values(c.expect.errors)) seen.add(e.code);
    // file_type and file_too_large come from the server's upload checks (spec 4.4 rule 5); not_applicable from
    // the plain-post check of hidden values (hiddenValues, test/forms-hidden-values.test.ts).
    const elsewhere = new Set(['file_type', 'file_too_large', 'not_applicable']);
    const expected = FIELD_ERROR_CODES.filter((code) => !elsewhere.has(code));
    expect([...seen].sort()).toEqual([...expected].sort());
  });

  describe.each(SUBMISSION_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    it('as JSON', () => check(c, c.input));
    const formData = c.formData;
    if (formData !== null) it('as form data', () => check(c, formDataToRecord(formData)));
  });
});

describe('validateSubmission', () => {
  const opts = { now: new Date('2026-03-15T12:00:00Z'), timeZone: 'UTC' };
  const text: FormField = { key: 'name', type: 'text', label: 'Name' };

  it('never lets a key reach an object prototype', () => {
    const raw = JSON.parse(
      '{"__proto__":{"polluted":"yes"},"constructor":{"polluted":"yes"},"name":"Ada"}',
    ) as Record<string, unknown>;
    const result = validateSubmission({ fields: [text] }, raw, opts);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.getPrototypeOf(result.values)).toBeNull();
    expect(Object.keys(result.values)).toEqual(['name']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('returns prototype-less error records', () => {
    const result = validateSubmission({ fields: [{ ...text, required: true }] }, {}, opts);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.getPrototypeOf(result.errors)).toBeNull();
  });

  it('gives English messages with params (spec 7.4)', () => {
    const result = validateSubmission({ fields: [text] }, { name: 'a'.repeat(501) }, opts);
    expect(result).toEqual({
      ok: false,
      errors: {
        name: { code: 'too_long', message: 'Must be at most 500 characters.', params: { max: 500 } },
      },
    });
    expect(fieldError('required')).toEqual({ code: 'required', message: 'This field is required.' });
  });

  it('reports one error per field, for every failing field', () => {
    const fields: FormField[] = [
      { ...text, required: true },
      { key: 'mail', type: 'email', label: 'Mail' },
      { key: 'ok', type: 'text', label: 'OK' },
    ];
    const result = validateSubmission({ fields }, { mail: 'x', ok: 'fine' }, opts);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors)).toEqual(['name', 'mail']);
  });
});

describe('validateFieldValue', () => {
  const ctx = { now: new Date('2026-03-15T12:00:00Z'), timeZone: 'UTC' };

  it('validates one value regardless of visibility', () => {
    const field: FormField = { key: 'n', type: 'number', min: 1, showIf: { match: 'all', rules: [] } };
    expect(validateFieldValue(field, '0', ctx)).toMatchObject({ ok: false, error: { code: 'too_small' } });
    expect(validateFieldValue(field, '2', ctx)).toEqual({ ok: true, value: 2 });
  });

  it('passes non-submitted types with no value', () => {
    expect(validateFieldValue({ key: 'h', type: 'heading', label: 'Hi' }, 'x', ctx)).toEqual({
      ok: true,
      value: undefined,
    });
  });
});

describe('resolveListOptions', () => {
  it('fills options from the list and leaves other fields alone', () => {
    const fields: FormField[] = [
      { key: 'c', type: 'select', list: 'countries' },
      { key: 't', type: 'text' },
    ];
    const def = { key: 'k', name: 'K', fields, settings: {} };
    const out = resolveListOptions(def, { countries: [{ value: 'de', label: 'Germany' }] });
    expect(out.fields[0]?.options).toEqual([{ value: 'de', label: 'Germany' }]);
    expect(out.fields[1]).toBe(fields[1]);
    expect(def.fields[0]?.options).toBeUndefined();
  });

  it('resolves an unknown or prototype-named list to no options', () => {
    const fields: FormField[] = [{ key: 'c', type: 'select', list: 'constructor' }];
    const out = resolveListOptions({ fields }, {});
    expect(out.fields[0]?.options).toEqual([]);
  });
});

describe('error code registry', () => {
  it('lists the codes of spec 7.4, and not_applicable beyond it', () => {
    expect(FIELD_ERROR_CODES).toHaveLength(21);
    expect(FIELD_ERROR_CODES.at(-1)).toBe('not_applicable');
    expect(FORM_ERROR_CODES).toEqual([
      'form_closed',
      'form_not_open',
      'form_full',
      'already_submitted',
      'turnstile_required',
      'turnstile_failed',
      'uploading',
      'rate_limited',
      'network_error',
    ]);
  });
});

describe('formDataToRecord', () => {
  it('folds repeated names and names ending in [] into lists (spec 2.13)', () => {
    const out = formDataToRecord([
      ['topics', 'a'],
      ['topics', 'b'],
      ['tags[]', 'x'],
      ['name', 'Ada'],
    ]);
    expect({ ...out }).toEqual({ topics: ['a', 'b'], tags: ['x'], name: 'Ada' });
    expect(Object.getPrototypeOf(out)).toBeNull();
  });
});
