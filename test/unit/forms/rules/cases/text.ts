// Cases for text-like fields: text, textarea, email, tel, url, hidden (spec 2.10, 7.4).

import { fails, field, ok, tc } from './table.js';
import type { SubmissionCase } from './table.js';

const text = field('text');
const required = field('text', { required: true });

export const TEXT_CASES: SubmissionCase[] = [
  // text
  tc('text: value is trimmed', text, { f: '  Ada  ' }, ok({ f: 'Ada' })),
  tc('text: optional and empty gives no value', text, { f: '' }, ok({})),
  tc('text: required and absent', required, {}, fails('required')),
  tc('text: required and only spaces', required, { f: '   ' }, fails('required')),
  tc('text: minLength', field('text', { minLength: 3 }), { f: 'ab' }, fails('too_short', { min: 3 })),
  tc('text: minLength met', field('text', { minLength: 3 }), { f: 'abc' }, ok({ f: 'abc' })),
  tc('text: maxLength', field('text', { maxLength: 5 }), { f: 'abcdef' }, fails('too_long', { max: 5 })),
  tc('text: without maxLength the cap is 500', text, { f: 'a'.repeat(501) }, fails('too_long', { max: 500 })),
  tc('text: 500 characters fit', text, { f: 'a'.repeat(500) }, ok({ f: 'a'.repeat(500) })),
  tc(
    'text: length counts characters, not UTF-16 units',
    field('text', { maxLength: 3 }),
    { f: '😀😀😀' },
    ok({ f: '😀😀😀' }),
  ),
  // A JSON number is not text (spec 2.10 "Value: string"); form data sends "42", which is text.
  tc('text: a JSON number is invalid_type', text, { f: 42 }, fails('invalid_type'), { formData: null }),
  tc('text: digits from form data are text', text, { f: '42' }, ok({ f: '42' })),
  tc('text: a list is invalid_type', text, { f: ['a', 'b'] }, fails('invalid_type')),
  tc('text: an object is invalid_type', text, { f: { a: 1 } }, fails('invalid_type')),
  tc('text: a boolean is invalid_type', text, { f: true }, fails('invalid_type'), { formData: null }),
  // textarea
  tc(
    'textarea: without maxLength the cap is 5,000',
    field('textarea'),
    { f: 'a'.repeat(5001) },
    fails('too_long', { max: 5000 }),
  ),
  tc(
    'textarea: maxLength',
    field('textarea', { maxLength: 10 }),
    { f: 'a'.repeat(11) },
    fails('too_long', { max: 10 }),
  ),
  tc(
    'textarea: minLength',
    field('textarea', { minLength: 10 }),
    { f: 'short' },
    fails('too_short', { min: 10 }),
  ),
  tc(
    'textarea: CRLF line breaks count as one character',
    field('textarea', { maxLength: 9 }),
    { f: 'abcd\r\nefgh' },
    ok({ f: 'abcd\nefgh' }),
  ),
  tc('textarea: required', field('textarea', { required: true }), { f: '\r\n' }, fails('required')),
  tc('textarea: a JSON number is invalid_type', field('textarea'), { f: 1 }, fails('invalid_type'), {
    formData: null,
  }),
  // email
  tc('email: valid', field('email'), { f: 'ada@example.com' }, ok({ f: 'ada@example.com' })),
  tc('email: no dot in the domain', field('email'), { f: 'ada@example' }, fails('invalid_email')),
  tc('email: no @', field('email'), { f: 'ada.example.com' }, fails('invalid_email')),
  tc('email: two @', field('email'), { f: 'ada@b@example.com' }, fails('invalid_email')),
  tc('email: spaces', field('email'), { f: 'ada lovelace@example.com' }, fails('invalid_email')),
  // A bidirectional control would make the address display as another (and reach Reply-To).
  tc('email: a bidi control', field('email'), { f: '\u202eada@example.com' }, fails('invalid_email')),
  tc(
    'email: over 254 characters',
    field('email'),
    { f: `${'a'.repeat(245)}@example.com` },
    fails('invalid_email'),
  ),
  tc('email: required', field('email', { required: true }), {}, fails('required')),
  tc(
    'email: a list is invalid_type',
    field('email'),
    { f: ['a@example.com', 'b@example.com'] },
    fails('invalid_type'),
  ),
  // tel
  tc('tel: valid with punctuation', field('tel'), { f: '+49 (30) 1234-567' }, ok({ f: '+49 (30) 1234-567' })),
  tc('tel: dots', field('tel'), { f: '030.123.456' }, ok({ f: '030.123.456' })),
  tc('tel: letters', field('tel'), { f: 'call me' }, fails('invalid_tel')),
  tc('tel: fewer than 5 digits', field('tel'), { f: '1234' }, fails('invalid_tel')),
  tc('tel: more than 20 digits', field('tel'), { f: '1'.repeat(21) }, fails('invalid_tel')),
  tc('tel: + only at the start', field('tel'), { f: '49+301234567' }, fails('invalid_tel')),
  tc('tel: required', field('tel', { required: true }), { f: '' }, fails('required')),
  tc('tel: a JSON number is invalid_type', field('tel'), { f: 4930123456 }, fails('invalid_type'), {
    formData: null,
  }),
  // url
  tc('url: https', field('url'), { f: 'https://example.com/a?b=c' }, ok({ f: 'https://example.com/a?b=c' })),
  tc('url: http', field('url'), { f: 'http://example.com' }, ok({ f: 'http://example.com' })),
  tc('url: ftp is not http(s)', field('url'), { f: 'ftp://example.com/file' }, fails('invalid_url')),
  tc('url: no scheme', field('url'), { f: 'example.com' }, fails('invalid_url')),
  tc('url: javascript:', field('url'), { f: 'javascript:alert(1)' }, fails('invalid_url')),
  tc('url: required', field('url', { required: true }), {}, fails('required')),
  // hidden
  tc('hidden: value as sent', field('hidden'), { f: 'utm-spring' }, ok({ f: 'utm-spring' })),
  tc('hidden: defaultValue when absent', field('hidden', { defaultValue: 'web' }), {}, ok({ f: 'web' })),
  tc(
    'hidden: sent value wins over defaultValue',
    field('hidden', { defaultValue: 'web' }),
    { f: 'app' },
    ok({ f: 'app' }),
  ),
  tc('hidden: absent without default', field('hidden', { fromQuery: 'ref' }), {}, ok({})),
  tc('hidden: a list is invalid_type', field('hidden'), { f: ['a', 'b'] }, fails('invalid_type')),
  tc('hidden: a JSON number is invalid_type', field('hidden'), { f: 7 }, fails('invalid_type'), {
    formData: null,
  }),
];
