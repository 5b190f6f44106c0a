import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { contactForm, VALID_CONTACT } from './helpers/form-defs.js';
import { encode, type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';

const base = '/v1/spc_test';
const auth = { authorization: `Bearer ${TOKENS.public}` };

describe.each(ENGINES)('submission bodies on %s (spec 2.13, 4.4, 7.2)', (engine) => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine);
    await putForms(t, 'spc_test', [contactForm()]);
  });
  afterAll(async () => t.close());

  const { submit, rows } = formClient(() => t);

  describe('keys and values', () => {
    it('drops keys that are not fields; none reaches an object prototype', async () => {
      const json =
        '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"extra":"x",' +
        `"name":"Proto","email":"p@example.com","consent":true}`;
      t.clock.current = new Date(t.clock.current.getTime() + 1);
      const res = await t.inject({
        method: 'POST',
        url: `${base}/forms/contact/submissions`,
        payload: json,
        headers: { 'content-type': 'application/json', ...auth },
      });
      expect(res.status).toBe(200);
      const form = await submit(
        'contact',
        [
          ['__proto__[polluted]', 'yes'],
          ['__proto__', 'x'],
          ['name', 'Proto2'],
          ['email', 'p@example.com'],
          ['consent', 'on'],
        ],
        { encoding: 'urlencoded' },
      );
      expect(form.status).toBe(200);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const stored = await rows('contact');
      expect(stored.slice(0, 2).map((s) => Object.keys(s.values as object).sort())).toEqual([
        ['consent', 'email', 'name'],
        ['consent', 'email', 'name'],
      ]);
    });

    it('stores texts with NUL characters and unpaired surrogates (PostgreSQL rejects both)', async () => {
      const json = await submit('contact', { ...VALID_CONTACT, name: 'A\u0000B\ud800', _page: 'p\u0000age' });
      expect(json.status).toBe(200);
      expect((await rows('contact'))[0]).toMatchObject({ values: { name: 'AB\ufffd' }, page: 'page' });
      const form = await submit(
        'contact',
        [
          ['name', 'C\u0000D'],
          ['email', 'c@example.com'],
          ['consent', 'on'],
        ],
        {
          encoding: 'urlencoded',
        },
      );
      expect(form.status).toBe(200);
      expect((await rows('contact'))[0]?.values).toMatchObject({ name: 'CD' });
      const spam = await submit('contact', {
        ...VALID_CONTACT,
        name: 'x\u0000',
        website: 'x',
        tags: [{ a: '\u0000' }],
      });
      expect(spam.status).toBe(200);
    });

    it('reads repeated names and name[] as lists, ignores files in multipart', async () => {
      for (const [encoding, pairs] of [
        [
          'urlencoded',
          [
            ['tags', 'a'],
            ['tags', 'c'],
          ],
        ],
        ['multipart', [['tags[]', 'b']]],
      ] as const) {
        const input = [['name', 'L'], ['email', 'l@example.com'], ['consent', 'on'], ...pairs] as const;
        const { payload, contentType } = await encode(encoding, input, [
          { name: 'name', filename: 'evil.txt', content: 'not a value' },
        ]);
        t.clock.current = new Date(t.clock.current.getTime() + 1);
        const res = await t.inject({
          method: 'POST',
          url: `${base}/forms/contact/submissions`,
          payload,
          headers: { 'content-type': contentType, ...auth },
        });
        expect(res.status).toBe(200);
        const [stored] = await rows('contact');
        expect(stored?.values).toMatchObject({ name: 'L', tags: pairs.map(([, v]) => v) });
      }
    });
  });

  describe('bodies (spec 4.4, 7.2)', () => {
    const raw = (payload: string | Buffer, contentType?: string) =>
      t.inject({
        method: 'POST',
        url: `${base}/forms/contact/submissions`,
        payload,
        headers: { ...auth, ...(contentType === undefined ? {} : { 'content-type': contentType }) },
      });

    it('answers 413 too_large over 64 KB in every encoding', async () => {
      const big = 'x'.repeat(65 * 1024);
      for (const encoding of ['json', 'urlencoded', 'multipart'] as const) {
        const res = await submit('contact', { ...VALID_CONTACT, message: big }, { encoding });
        expect([encoding, res.status, res.body.error.code]).toEqual([encoding, 413, 'too_large']);
      }
    });

    it('answers 422 submission_too_large when values exceed 32 KB', async () => {
      const res = await submit('contact', {
        ...VALID_CONTACT,
        name: 'n'.repeat(20_000),
        message: 'm'.repeat(20_000),
      });
      expect([res.status, res.body.error.code]).toEqual([422, 'submission_too_large']);
    });

    it('answers 415 for other media types and bodies without one', async () => {
      for (const [payload, type] of [
        ['name=x', 'text/plain'],
        ['<a/>', 'application/xml'],
        ['name=x', undefined],
      ] as const) {
        const res = await raw(payload, type);
        expect([type, res.status, res.body.error.code]).toEqual([type, 415, 'unsupported_media_type']);
      }
      const empty = await t.inject({
        method: 'POST',
        url: `${base}/forms/contact/submissions`,
        headers: auth,
      });
      expect([empty.status, empty.body.error.code]).toEqual([415, 'unsupported_media_type']);
    });

    it('answers 400 invalid_body for unparsable bodies and non-objects', async () => {
      for (const [payload, type] of [
        ['{"name":', 'application/json'],
        ['[1,2]', 'application/json'],
        ['"text"', 'application/json'],
        ['null', 'application/json'],
        ['garbage', 'multipart/form-data; boundary=xyz'],
      ] as const) {
        const res = await raw(payload, type);
        expect([payload, res.status, res.body.error.code]).toEqual([payload, 400, 'invalid_body']);
      }
    });

    it('answers 422 validation_failed with one entry per field', async () => {
      const res = await submit('contact', { name: '', email: 'nope', consent: false, tags: ['z'] });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(
        Object.fromEntries(
          Object.entries(res.body.error.details.fields).map(([k, v]) => [k, (v as { code: string }).code]),
        ),
      ).toEqual({
        name: 'required',
        email: 'invalid_email',
        tags: 'invalid_option',
        consent: 'must_be_checked',
      });
    });

    it('answers 404 not_found for an unknown form', async () => {
      for (const key of ['nope', '_bad']) {
        const res = await submit(key, VALID_CONTACT);
        expect([res.status, res.body.error.code]).toEqual([404, 'not_found']);
      }
    });
  });
});
