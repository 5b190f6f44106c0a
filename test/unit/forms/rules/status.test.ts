import { describe, expect, it } from 'vitest';

import { formStatus, statusErrorCode } from '../../../../src/forms/rules/status.js';
import type { FormStatus } from '../../../../src/forms/rules/status.js';
import type { FormSettings } from '../../../../src/forms/rules/types.js';

const now = new Date('2026-03-15T12:00:00.000Z');

describe('formStatus (spec 3.1)', () => {
  it.each([
    ['no settings', {}, 0, 'open'],
    ['active', { active: true }, 0, 'open'],
    ['switched off', { active: false }, 0, 'closed'],
    ['switched off beats scheduled', { active: false, opensAt: '2026-04-01T00:00:00.000Z' }, 0, 'closed'],
    ['before opensAt', { opensAt: '2026-03-15T12:00:00.001Z' }, 0, 'scheduled'],
    ['at opensAt', { opensAt: '2026-03-15T12:00:00.000Z' }, 0, 'open'],
    ['before closesAt', { closesAt: '2026-03-15T12:00:00.001Z' }, 0, 'open'],
    ['at closesAt', { closesAt: '2026-03-15T12:00:00.000Z' }, 0, 'closed'],
    ['after closesAt', { closesAt: '2026-03-01T00:00:00.000Z' }, 0, 'closed'],
    [
      'between opening and closing',
      { opensAt: '2026-03-01T00:00:00Z', closesAt: '2026-04-01T00:00:00Z' },
      0,
      'open',
    ],
    ['below capacity', { maxSubmissions: 10 }, 9, 'open'],
    ['capacity reached', { maxSubmissions: 10 }, 10, 'full'],
    ['over capacity', { maxSubmissions: 10 }, 11, 'full'],
    ['no capacity', { maxSubmissions: null }, 1000, 'open'],
    ['closed beats full', { maxSubmissions: 1, closesAt: '2026-03-01T00:00:00Z' }, 5, 'closed'],
    ['scheduled beats full', { maxSubmissions: 1, opensAt: '2026-04-01T00:00:00Z' }, 5, 'scheduled'],
    ['null schedule', { opensAt: null, closesAt: null }, 0, 'open'],
  ] satisfies [string, FormSettings, number, FormStatus][])(
    '%s → %s',
    (_name, settings, nonSpamCount, expected) => {
      expect(formStatus(settings, { now, nonSpamCount })).toBe(expected);
    },
  );
});

describe('statusErrorCode (spec 3.1, 7.3)', () => {
  it.each([
    ['scheduled', 'form_not_open'],
    ['closed', 'form_closed'],
    ['full', 'form_full'],
    ['open', null],
  ] satisfies [FormStatus, string | null][])('%s → %s', (status, code) => {
    expect(statusErrorCode(status)).toBe(code);
  });
});
