// Cases for number, date, time, checkbox, consent and file fields (spec 2.10, 7.4).

import { fails, field, ok, tc } from './table.js';
import type { SubmissionCase } from './table.js';

const number = field('number');
const id1 = 'fup_abcdEFGH1234';
const id2 = 'fup_ijklMNOP5678';
const id3 = 'fup_qrstUVWX9012';

export const NUMBER_CASES: SubmissionCase[] = [
  tc('number: text from form data', number, { f: '42' }, ok({ f: 42 })),
  tc('number: JSON number', number, { f: 42.5 }, ok({ f: 42.5 })),
  tc('number: exponent', number, { f: '1e3' }, ok({ f: 1000 })),
  tc('number: negative', number, { f: '-7' }, ok({ f: -7 })),
  tc('number: not a number', number, { f: 'abc' }, fails('invalid_number')),
  tc('number: decimal comma', number, { f: '1,5' }, fails('invalid_number')),
  tc('number: hex is not accepted', number, { f: '0x10' }, fails('invalid_number')),
  tc('number: a boolean is invalid_type', number, { f: true }, fails('invalid_type'), { formData: null }),
  tc('number: a list is invalid_type', number, { f: ['1', '2'] }, fails('invalid_type')),
  tc('number: required', field('number', { required: true }), { f: '' }, fails('required')),
  tc('number: min', field('number', { min: 10 }), { f: '9' }, fails('too_small', { min: 10 })),
  tc('number: min is inclusive', field('number', { min: 10 }), { f: '10' }, ok({ f: 10 })),
  tc('number: max', field('number', { max: 10 }), { f: '10.5' }, fails('too_large', { max: 10 })),
  tc('number: step 0.1 accepts 0.3', field('number', { step: 0.1 }), { f: '0.3' }, ok({ f: 0.3 })),
  tc('number: step 0.1 accepts 0.7 (JSON)', field('number', { step: 0.1 }), { f: 0.7 }, ok({ f: 0.7 })),
  tc(
    'number: step 0.1 rejects 0.35',
    field('number', { step: 0.1 }),
    { f: '0.35' },
    fails('invalid_step', { step: 0.1 }),
  ),
  tc('number: step counts from min', field('number', { min: 1, step: 2 }), { f: '3' }, ok({ f: 3 })),
  tc(
    'number: off the step from min',
    field('number', { min: 1, step: 2 }),
    { f: '4' },
    fails('invalid_step', { step: 2 }),
  ),
  tc('number: step 1e-7', field('number', { step: 1e-7 }), { f: '0.0000003' }, ok({ f: 3e-7 })),
  tc(
    'number: off step 1e-7',
    field('number', { step: 1e-7 }),
    { f: '0.00000035' },
    fails('invalid_step', { step: 1e-7 }),
  ),
  tc(
    'number: step 0.01 with min 0.05',
    field('number', { min: 0.05, step: 0.01 }),
    { f: '1.15' },
    ok({ f: 1.15 }),
  ),
];

export const DATE_TIME_CASES: SubmissionCase[] = [
  tc('date: valid', field('date'), { f: '2026-03-01' }, ok({ f: '2026-03-01' })),
  tc('date: 29 February in a leap year', field('date'), { f: '2024-02-29' }, ok({ f: '2024-02-29' })),
  tc('date: 2026-02-30 does not exist', field('date'), { f: '2026-02-30' }, fails('invalid_date')),
  tc('date: 29 February in a common year', field('date'), { f: '2026-02-29' }, fails('invalid_date')),
  tc('date: month 13', field('date'), { f: '2026-13-01' }, fails('invalid_date')),
  tc('date: not zero-padded', field('date'), { f: '2026-3-1' }, fails('invalid_date')),
  tc('date: with a time', field('date'), { f: '2026-03-01T10:00' }, fails('invalid_date')),
  tc('date: required', field('date', { required: true }), {}, fails('required')),
  tc(
    'date: minDate',
    field('date', { minDate: '2026-01-01' }),
    { f: '2025-12-31' },
    fails('too_small', { min: '2026-01-01' }),
  ),
  tc(
    'date: maxDate',
    field('date', { maxDate: '2026-12-31' }),
    { f: '2027-01-01' },
    fails('too_large', { max: '2026-12-31' }),
  ),
  tc(
    'date: minDate today (UTC)',
    field('date', { minDate: 'today' }),
    { f: '2026-03-14' },
    fails('too_small', { min: '2026-03-15' }),
  ),
  tc(
    'date: today itself is allowed',
    field('date', { minDate: 'today' }),
    { f: '2026-03-15' },
    ok({ f: '2026-03-15' }),
  ),
  tc(
    'date: today in Europe/Berlin just before UTC midnight is already tomorrow',
    field('date', { minDate: 'today' }),
    { f: '2026-03-15' },
    fails('too_small', { min: '2026-03-16' }),
    { now: '2026-03-15T23:30:00.000Z', timeZone: 'Europe/Berlin' },
  ),
  tc(
    'date: today in America/Los_Angeles after UTC midnight is still yesterday',
    field('date', { maxDate: 'today' }),
    { f: '2026-03-16' },
    fails('too_large', { max: '2026-03-15' }),
    { now: '2026-03-16T05:00:00.000Z', timeZone: 'America/Los_Angeles' },
  ),
  tc('time: valid', field('time'), { f: '23:59' }, ok({ f: '23:59' })),
  tc('time: midnight', field('time'), { f: '00:00' }, ok({ f: '00:00' })),
  tc('time: 24:00', field('time'), { f: '24:00' }, fails('invalid_time')),
  tc('time: minute 60', field('time'), { f: '12:60' }, fails('invalid_time')),
  tc('time: not zero-padded', field('time'), { f: '9:30' }, fails('invalid_time')),
  tc('time: with seconds', field('time'), { f: '09:30:00' }, fails('invalid_time')),
  tc('time: required', field('time', { required: true }), {}, fails('required')),
];

export const BOOLEAN_CASES: SubmissionCase[] = [
  tc('checkbox: "on" from an HTML form', field('checkbox'), { f: 'on' }, ok({ f: true })),
  tc('checkbox: JSON true', field('checkbox'), { f: true }, ok({ f: true })),
  tc('checkbox: "false"', field('checkbox'), { f: 'false' }, ok({ f: false })),
  tc('checkbox: absent is unticked', field('checkbox'), {}, ok({ f: false })),
  tc('checkbox: unrecognized word', field('checkbox'), { f: 'maybe' }, fails('invalid_type')),
  tc('checkbox: required and unticked', field('checkbox', { required: true }), {}, fails('must_be_checked')),
  tc('checkbox: a list is invalid_type', field('checkbox'), { f: ['on', 'on'] }, fails('invalid_type')),
  tc('consent: absent', field('consent'), {}, fails('must_be_checked')),
  tc('consent: "false"', field('consent'), { f: 'false' }, fails('must_be_checked')),
  tc('consent: "off"', field('consent'), { f: 'off' }, fails('must_be_checked')),
  tc('consent: "on"', field('consent'), { f: 'on' }, ok({ f: true })),
  tc('consent: "yes"', field('consent'), { f: 'yes' }, ok({ f: true })),
  tc('consent: "1"', field('consent'), { f: '1' }, ok({ f: true })),
  tc('consent: JSON true', field('consent'), { f: true }, ok({ f: true })),
  tc('consent: an object is invalid_type', field('consent'), { f: { checked: true } }, fails('invalid_type')),
];

export const FILE_CASES: SubmissionCase[] = [
  tc('file: one upload id', field('file'), { f: id1 }, ok({ f: id1 })),
  tc('file: a one-element list for a single-file field', field('file'), { f: [id1] }, ok({ f: id1 })),
  tc('file: not an upload id', field('file'), { f: 'report.pdf' }, fails('invalid_file')),
  tc('file: id part too short', field('file'), { f: 'fup_abc' }, fails('invalid_file')),
  tc(
    'file: two ids for a single-file field',
    field('file'),
    { f: [id1, id2] },
    fails('too_many', { max: 1 }),
  ),
  tc('file: several ids', field('file', { maxFiles: 3 }), { f: [id1, id2] }, ok({ f: [id1, id2] })),
  tc(
    'file: one id for a multi-file field is a list',
    field('file', { maxFiles: 3 }),
    { f: id1 },
    ok({ f: [id1] }),
  ),
  tc(
    'file: more than maxFiles',
    field('file', { maxFiles: 2 }),
    { f: [id1, id2, id3] },
    fails('too_many', { max: 2 }),
  ),
  tc(
    'file: a bad id among good ones',
    field('file', { maxFiles: 3 }),
    { f: [id1, 'x'] },
    fails('invalid_file'),
  ),
  tc('file: required', field('file', { required: true }), {}, fails('required')),
  tc('file: an object is invalid_type', field('file'), { f: { id: id1 } }, fails('invalid_type')),
];
