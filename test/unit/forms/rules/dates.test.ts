import { describe, expect, it } from 'vitest';

import { isValidDate, isValidTime, resolveDateBound, todayIn } from '../../../../src/forms/rules/dates.js';

describe('todayIn', () => {
  it.each([
    ['UTC', '2026-03-15T23:30:00Z', '2026-03-15'],
    ['Europe/Berlin', '2026-03-15T23:30:00Z', '2026-03-16'],
    ['Europe/Berlin', '2026-03-15T22:59:59Z', '2026-03-15'],
    ['America/Los_Angeles', '2026-03-16T05:00:00Z', '2026-03-15'],
    ['Pacific/Kiritimati', '2026-12-31T10:00:00Z', '2027-01-01'],
    ['Asia/Kolkata', '2026-02-28T18:30:00Z', '2026-03-01'],
  ])('%s at %s is %s', (zone, iso, expected) => {
    expect(todayIn(zone, new Date(iso))).toBe(expected);
  });

  it('throws for an unknown time zone', () => {
    expect(() => todayIn('Mars/Olympus', new Date())).toThrow(RangeError);
  });

  it('resolves only the word today', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    expect(resolveDateBound('today', 'UTC', now)).toBe('2026-03-15');
    expect(resolveDateBound('2020-01-01', 'UTC', now)).toBe('2020-01-01');
  });
});

describe('isValidDate', () => {
  it.each(['2026-01-31', '2024-02-29', '2000-02-29', '2026-12-31', '0001-01-01'])('%s is a date', (d) =>
    expect(isValidDate(d)).toBe(true),
  );
  it.each([
    '2026-02-30',
    '2026-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-00-10',
    '2026-13-01',
    '2026-01-00',
    '0000-01-01',
    '26-01-01',
    '2026-1-1',
    ' 2026-01-01',
    '2026-01-01T00:00',
  ])('%s is not', (d) => expect(isValidDate(d)).toBe(false));
});

describe('isValidTime', () => {
  it.each(['00:00', '23:59', '12:30'])('%s is a time', (t) => expect(isValidTime(t)).toBe(true));
  it.each(['24:00', '23:60', '9:30', '09:30:00', '0930', 'ab:cd'])('%s is not', (t) =>
    expect(isValidTime(t)).toBe(false),
  );
});
