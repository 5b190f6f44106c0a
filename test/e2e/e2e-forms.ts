// The forms of the browser tests: rows of the shared case table a person could enter into a browser (one
// failing and one passing row per combination of field types), an upload form, a form in steps, a rate-limited one.

import {
  SUBMISSION_CASES,
  TURNSTILE_TEST_SETTINGS,
  type SubmissionCase,
  caseDefinition,
} from '../unit/forms/rules/cases.js';
import { type FieldType, type FormDefinition, MAX_LENGTH } from '../../src/forms/rules/index.js';

// Types the browser can hold a case's input in; and choose the rows whose input a person could enter.
const DOM_TYPES = new Set<FieldType>([
  'text',
  'textarea',
  'email',
  'tel',
  'url',
  'number',
  'select',
  'radio',
  'checkboxes',
  'checkbox',
  'consent',
]);
const HTML_NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function enterable(c: SubmissionCase): boolean {
  if (c.formData === null || Object.keys(c.lists).length > 0 || c.timeZone !== 'UTC') return false;
  return c.fields.every((f) => {
    if (!DOM_TYPES.has(f.type)) return false;
    const v = Object.hasOwn(c.input, f.key) ? c.input[f.key] : undefined;
    if (v === undefined) return true;
    const options = (f.options ?? []).map((o) => o.value);
    switch (f.type) {
      case 'select':
      case 'radio':
        return typeof v === 'string' && options.includes(v);
      case 'checkboxes':
        return Array.isArray(v) && v.every((x) => typeof x === 'string' && options.includes(x));
      case 'checkbox':
      case 'consent':
        return v === true || v === false;
      case 'number':
        return (typeof v === 'number' || typeof v === 'string') && HTML_NUMBER.test(String(v));
      default: {
        // Inputs strip line breaks and edge blanks, and `maxlength` stops typing: such rows are not enterable.
        const max = f.maxLength ?? MAX_LENGTH[f.type] ?? Infinity;
        const blank = f.type === 'textarea' ? /\r/ : /^\s|\s$|[\r\n]/;
        return typeof v === 'string' && v.length <= max && !blank.test(v);
      }
    }
  });
}

// A handful of rows: per combination of field types, the first failing row and the first passing one.
export const CASE_ROWS = (() => {
  const taken = new Set<string>();
  return SUBMISSION_CASES.map((c, index) => ({ c, index, key: `case-${index}` })).filter(({ c }) => {
    const kind = `${c.fields.map((f) => f.type).join('+')}:${c.expect.ok}`;
    if (taken.has(kind) || !enterable(c)) return false;
    taken.add(kind);
    return true;
  });
})();

export const FORMS: FormDefinition[] = [
  {
    key: 'upload',
    name: 'Apply',
    fields: [
      { key: 'name', type: 'text', label: 'Name', required: true },
      {
        key: 'cv',
        type: 'file',
        label: 'CV (PDF)',
        required: true,
        accept: ['application/pdf'],
        maxSize: 100_000,
      },
    ],
    settings: { ...TURNSTILE_TEST_SETTINGS, successMessage: { en: 'Got your CV.' } },
  },
  {
    key: 'steps',
    name: 'Booking',
    fields: [
      { key: 'about', type: 'section', label: 'About you' },
      { key: 'name', type: 'text', label: 'Name', required: true },
      { key: 'visit', type: 'section', label: 'Your visit' },
      { key: 'guests', type: 'number', label: 'Guests', required: true, min: 1, max: 10 },
      { key: 'extra', type: 'section', label: 'Anything else' },
      { key: 'notes', type: 'textarea', label: 'Notes' },
    ],
    settings: { successMessage: { en: 'Booked.' } },
  },
  ...CASE_ROWS.map(({ c, key }) => ({ ...caseDefinition(c), key })),
];
export const LIMITED: FormDefinition = {
  key: 'limited',
  name: 'Limited',
  fields: [{ key: 'email', type: 'email', label: 'Email', required: true }],
  settings: { successMessage: { en: 'Noted.' } },
};
