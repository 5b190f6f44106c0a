import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormField } from '../src/forms/rules/index.js';
import { visitorAddress } from '../src/forms/notify/visitor-address.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { emailForm } from './helpers/form-defs.js';
import { type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';

// One visitor, one identity. `uniqueField` and erase compare addresses normalized (NFKC, case,
// invisible characters removed, needless quotes dropped); email fields refuse bidirectional controls, which used to
// reach the owner's Reply-To as typed.

/** Eight ways to type one address that a person reads as one. */
const VARIANTS = [
  'uniq@example.com',
  'UNIQ@Example.COM',
  'uniq@example.com\u200b',
  '"uniq"@example.com',
  'ｕniq@example.com',
  'uniq@ｅｘａｍｐｌｅ.ｃｏｍ',
  'uni\u00adq@example.com',
  '𝐮niq@example.com',
];

const mgt = { authorization: `Bearer ${TOKENS.management}` };

describe.each(ENGINES)('addresses compared as one identity on %s', (engine) => {
  let t: FormsApp;
  const { submit } = formClient(() => t);

  beforeAll(async () => {
    t = await openFormsApp(engine, { worker: false });
    await putForms(t, 'spc_test', [
      emailForm('once', { uniqueField: 'email' }),
      emailForm('many'),
      emailForm('other'),
    ]);
  });
  afterAll(async () => t.close());

  it('takes one submission per person in a uniqueField form, however the address is typed', async () => {
    const first = await submit('once', { email: VARIANTS[0] });
    expect(first.status).toBe(200);
    const again = [];
    for (const email of VARIANTS.slice(1)) {
      const res = await submit('once', { email });
      again.push([email, res.status, res.body?.error?.code]);
    }
    expect(again).toEqual(VARIANTS.slice(1).map((email) => [email, 409, 'already_submitted']));
    const other = await submit('once', { email: 'other@example.com' });
    expect(other.status).toBe(200);
  });

  it('refuses a bidirectional control in an email field (invalid_email)', async () => {
    for (const email of ['\u202euniq@example.com', 'uniq@example.com\u2066', 'ad\u200fa@example.com']) {
      const res = await submit('many', { email });
      expect([email, res.status, res.body.error.details?.fields?.email?.code]).toEqual([
        email,
        422,
        'invalid_email',
      ]);
    }
  });

  it('erases every variant, in every form and the spam folder, and no one else', async () => {
    for (const email of VARIANTS) expect((await submit('many', { email })).status).toBe(200);
    expect((await submit('other', { email: VARIANTS[4], website: 'http://spam.example' })).status).toBe(200);
    expect((await submit('other', { email: 'uniq2@example.com' })).status).toBe(200);
    const erase = (email: string, dryRun: boolean) =>
      t.inject({
        method: 'POST',
        url: '/v1/spaces/spc_test/forms/erase',
        payload: { email, dryRun },
        headers: mgt,
      });
    // Asked with another variant, and a bidi control pasted along: the address is the same.
    const counted = await erase('\u202eＵniq@Example.com ', true);
    expect(counted.status).toBe(200);
    const { items, ...counts } = counted.body as { items: { form: string; folder: string }[] };
    expect(counts).toEqual({
      dryRun: true,
      submissions: 10,
      files: 0,
      forms: [
        { form: 'many', inbox: 8, spam: 0 },
        { form: 'once', inbox: 1, spam: 0 },
        { form: 'other', inbox: 0, spam: 1 },
      ],
    });
    // The dry run also lists the submissions it would delete, each once.
    expect(items.map((i) => `${i.form}/${i.folder}`).sort()).toEqual([
      ...Array<string>(8).fill('many/inbox'),
      'once/inbox',
      'other/spam',
    ]);
    const done = await erase('"UNIQ"@example.com', false);
    expect(done.body).toMatchObject({ dryRun: false, submissions: 10 });
    const left = await t.store.db.selectFrom('submissions').select('values').execute();
    expect(left.map((r) => t.store.dialect.parseJson<{ email: string }>(r.values).email).sort()).toEqual([
      'other@example.com',
      'uniq2@example.com',
    ]);
    expect(
      await t.store.db.selectFrom('submission_addresses').select('address').orderBy('address').execute(),
    ).toEqual([{ address: 'other@example.com' }, { address: 'uniq2@example.com' }]);
  });
});

describe('the Reply-To of owner emails', () => {
  const fields: Pick<FormField, 'key' | 'type'>[] = [{ key: 'email', type: 'email' }];
  it('never takes an address with a bidirectional control, even one stored before it was refused', () => {
    expect(visitorAddress(fields, { email: 'ada@example.com' })).toBe('ada@example.com');
    expect(visitorAddress(fields, { email: '\u202eada@example.com' })).toBeNull();
    expect(visitorAddress(fields, { email: 'ada@example.com\u2069' })).toBeNull();
  });
});
