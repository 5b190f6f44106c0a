import { describe, expect, it } from 'vitest';
import * as errors from '../src/errors/errors.js';
import { ERRORS, type ErrorCode, FolioError } from '../src/errors/errors.js';

// src/errors/errors.ts: one constructor per code, named after the code in camelCase, with the registry's status
// and default message.

const camel = (code: string): string => code.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const constructorOf = (code: ErrorCode) =>
  (errors as unknown as Record<string, (message?: string, options?: errors.FolioErrorOptions) => FolioError>)[
    camel(code)
  ];

describe('the error constructors', () => {
  it.each(Object.keys(ERRORS) as ErrorCode[])('%s has one, with its status and default message', (code) => {
    const make = constructorOf(code);
    expect(make, camel(code)).toBeTypeOf('function');
    const err = make!();
    expect(err).toBeInstanceOf(FolioError);
    expect([err.code, err.status, err.message]).toEqual([code, ERRORS[code].status, ERRORS[code].message]);
    expect(err.toBody()).toEqual({ error: { code, message: ERRORS[code].message } });
  });

  it('carries a message, details, extra members and a cause', () => {
    const cause = new Error('inner');
    const err = errors.notFound('Entry "a" not found.', {
      details: { id: 'a' },
      extra: { redirect: { to: '/b' } },
      cause,
    });
    expect(err.cause).toBe(cause);
    expect(err.toBody()).toEqual({
      error: { code: 'not_found', message: 'Entry "a" not found.', details: { id: 'a' } },
      redirect: { to: '/b' },
    });
  });

  it('invalidQuery names the parameter at fault', () => {
    expect(errors.invalidQuery('Unknown parameter "x".', 'x').toBody()).toEqual({
      error: { code: 'invalid_query', message: 'Unknown parameter "x".', details: { parameter: 'x' } },
    });
    expect(errors.invalidQuery('Bad.').details).toBeUndefined();
  });
});
