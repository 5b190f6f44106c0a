import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { emailForm } from './helpers/form-defs.js';
import { type FormsApp, openFormsApp, putForms } from './helpers/forms.js';

// spec 3.1: "number of stored non-spam submissions reaches maxSubmissions" must hold under concurrency; on
// PostgreSQL the requests below run in parallel transactions on the pool's connections.

const headers = { authorization: `Bearer ${TOKENS.public}`, 'content-type': 'application/json' };

describe.each(ENGINES)('concurrent submissions on %s', (engine) => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine);
    await putForms(t, 'spc_test', [
      emailForm('ten', { maxSubmissions: 10 }),
      emailForm('once', { uniqueField: 'email' }),
      emailForm('both', { maxSubmissions: 3, uniqueField: 'email' }),
    ]);
  });
  afterAll(async () => t.close());

  const post = (form: string, email: string) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/spc_test/forms/${form}/submissions`,
      payload: JSON.stringify({ email }),
      headers,
    });
  const stored = async (form: string) =>
    Number(
      (
        await t.store.db
          .selectFrom('submissions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('form_key', '=', form)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const tally = (codes: (string | number)[]) =>
    codes.reduce<Record<string, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});
  const outcome = (res: Awaited<ReturnType<typeof post>>) =>
    res.statusCode === 200 ? 200 : (res.json() as { error: { code: string } }).error.code;

  it('stores exactly maxSubmissions of 50 parallel submissions; the rest answer 409 form_full', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => post('ten', `p${i}@example.com`)));
    expect(tally(results.map(outcome))).toEqual({ 200: 10, form_full: 40 });
    expect(await stored('ten')).toBe(10);
    const counter = await t.store.db
      .selectFrom('form_counters')
      .select('count')
      .where('form_key', '=', 'ten')
      .executeTakeFirstOrThrow();
    expect(Number(counter.count)).toBe(10);
  });

  it('stores one of concurrent submissions with the same uniqueField address', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post('once', i % 2 === 0 ? 'Same@Example.com' : 'same@example.COM'),
      ),
    );
    expect(tally(results.map(outcome))).toEqual({ 200: 1, already_submitted: 19 });
    expect(await stored('once')).toBe(1);
  });

  it('keeps capacity and uniqueness together: a rejected duplicate does not take a place', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post('both', `u${i % 2}@example.com`)),
    );
    expect(tally(results.map(outcome))).toEqual({ 200: 2, already_submitted: 10 });
    expect((await post('both', 'third@example.com')).statusCode).toBe(200);
    expect(outcome(await post('both', 'fourth@example.com'))).toBe('form_full');
    expect(await stored('both')).toBe(3);
  });
});
