// The management reads the inbox page is built on. The overview (status, counts, last
// submission, submissions per day in the space's time zone), a form's published version (the labels a submission
// was made to, which it now records as `formCv`) and one submission's activity.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { sweepExpiredSubmissions } from '../src/forms/retention/sweeps.js';
import type { FormDefinition } from '../src/forms/rules/index.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { formClient, type FormsApp, formsHttp, openFormsApp } from './helpers/forms.js';
import { storePerson, storeScopedToken } from './helpers/tokens.js';
import { storeSubmission } from './helpers/submissions.js';

const SPACE = 'spc_test';
const M = `/v1/spaces/${SPACE}`;
const mgt = { authorization: `Bearer ${TOKENS.management}` };

const survey = (label: string): FormDefinition => ({
  key: 'survey',
  name: 'Survey',
  fields: [
    { key: 'name', type: 'text', label },
    {
      key: 'topic',
      type: 'select',
      label: 'Topic',
      options: [
        { value: 'a', label: 'Apples' },
        { value: 'b', label: 'Bananas' },
      ],
    },
    { key: 'color', type: 'radio', label: 'Colour', list: 'colors' },
  ],
  settings: { maxSubmissions: 100 },
});

describe.each(ENGINES)('inbox reads on %s', (engine) => {
  let t: FormsApp;
  const { submit } = formClient(() => t);
  const { manage } = formsHttp(() => t);
  beforeAll(async () => {
    t = await openFormsApp(engine);
  });
  afterAll(async () => t.close());

  /** The store's counters (migration 0022) beside a recount of the rows, as comparable lists. */
  async function counters(): Promise<{ kept: string[]; counted: string[] }> {
    const q = sql.raw(
      `substr(created_at, 1, 14) || cast(cast(substr(created_at, 15, 2) as integer) / 15 as text)`,
    );
    const kept = [
      ...(
        await sql<{
          k: string;
        }>`select form_key || ' ' || folder || ' ' || status || ' ' || n as k from submission_tallies where n <> 0`.execute(
          t.store.db,
        )
      ).rows,
      ...(
        await sql<{
          k: string;
        }>`select form_key || ' ' || folder || ' ' || quarter || ' ' || n as k from submission_quarters where n <> 0`.execute(
          t.store.db,
        )
      ).rows,
    ];
    const counted = [
      ...(
        await sql<{
          k: string;
        }>`select form_key || ' ' || folder || ' ' || status || ' ' || count(*) as k from submissions group by form_key, folder, status`.execute(
          t.store.db,
        )
      ).rows,
      ...(
        await sql<{
          k: string;
        }>`select form_key || ' ' || folder || ' ' || (${q}) || ' ' || count(*) as k from submissions group by form_key, folder, (${q})`.execute(
          t.store.db,
        )
      ).rows,
    ];
    return { kept: kept.map((r) => r.k).sort(), counted: counted.map((r) => r.k).sort() };
  }

  const seed = async (form: string, id: string, createdAt: string, folder: 'inbox' | 'spam' = 'inbox') =>
    storeSubmission(t.store.db, {
      id,
      spaceId: SPACE,
      form,
      folder,
      values: {},
      createdAt,
      deleteAfter: '2027-12-31T00:00:00.000Z',
    });

  it("counts per form and status, the last submission, and submissions per day in the space's zone", async () => {
    expect((await manage('PUT', `${M}/forms/survey`, survey('Name'))).status).toBe(201);
    // The clock: 2026-03-15T12:00Z; the space is in Europe/Berlin (UTC+1 in March).
    await seed('survey', 'sub_ov1', '2026-03-14T22:59:59.999Z'); // 23:59 on the 14th in Berlin
    await seed('survey', 'sub_ov2', '2026-03-14T23:00:00.000Z'); // 00:00 on the 15th
    await seed('survey', 'sub_ov3', '2026-03-15T11:00:00.000Z');
    await seed('survey', 'sub_ov4', '2026-03-15T11:30:00.000Z', 'spam');
    await seed('survey', 'sub_ov5', '2026-02-01T10:00:00.000Z'); // before the 30 days
    await seed('gone', 'sub_ov6', '2026-03-10T10:00:00.000Z'); // a form that no longer exists
    expect(
      (await manage('PATCH' as 'PUT', `${M}/forms/survey/submissions/sub_ov3`, { status: 'done' })).status,
    ).toBe(200);

    const res = await manage('GET', `${M}/forms-overview`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.timeZone).toBe('Europe/Berlin');
    expect(res.body.dates).toHaveLength(30);
    expect(res.body.dates.at(-1)).toBe('2026-03-15');
    const byKey = Object.fromEntries(res.body.forms.map((f: { key: string }) => [f.key, f]));
    expect(byKey.survey).toMatchObject({
      name: 'Survey',
      deleted: false,
      status: 'open',
      counts: { new: 3, read: 0, done: 1, archived: 0, inbox: 4, spam: 1 },
      lastSubmissionAt: '2026-03-15T11:00:00.000Z',
    });
    expect(byKey.survey.daily.inbox.slice(-2)).toEqual([1, 2]);
    expect(byKey.survey.daily.spam.slice(-2)).toEqual([0, 1]);
    expect(byKey.survey.daily.inbox.reduce((a: number, b: number) => a + b, 0)).toBe(3);
    expect(byKey.gone).toMatchObject({ deleted: true, status: null, counts: { inbox: 1, new: 1 } });
    expect(byKey.contact).toMatchObject({ deleted: false, status: 'open', lastSubmissionAt: null });

    const ninety = await manage('GET', `${M}/forms-overview?days=90`);
    expect(ninety.body.dates).toHaveLength(90);
    expect(
      ninety.body.forms
        .find((f: { key: string }) => f.key === 'survey')
        .daily.inbox.reduce((a: number, b: number) => a + b, 0),
    ).toBe(4);
    for (const bad of ['days=7', 'days=30&days=90', 'since=1'])
      expect((await manage('GET', `${M}/forms-overview?${bad}`)).status).toBe(400);
    const writer = await storeScopedToken(t.store, SPACE, ['forms.write']);
    const refused = await t.inject({
      method: 'GET',
      url: `${M}/forms-overview`,
      headers: { authorization: `Bearer ${writer}` },
    });
    expect([refused.status, refused.body.error.details.missingScopes]).toEqual([403, ['forms.read']]);
  });

  it('a submission records its form version; that version answers with the labels and lists of its time', async () => {
    expect((await manage('PUT', `${M}/forms/survey`, survey('Your name'))).status).toBeLessThan(300);
    const sent = await submit('survey', { name: 'Ada', topic: 'b', color: 'red' });
    expect(sent.status, sent.text).toBe(200);
    const list = await manage('GET', `${M}/forms/survey/submissions?q=Ada`);
    const item = list.body.items[0];
    expect(item.formCv).toEqual(expect.any(Number));
    // The form changes afterwards: the submission keeps pointing at the version it was made to.
    expect((await manage('PUT', `${M}/forms/survey`, survey('Full name'))).status).toBe(200);
    const then = await manage('GET', `${M}/forms/survey/published?cv=${item.formCv}`);
    expect(then.status, then.text).toBe(200);
    expect(then.body.form.fields[0].label).toBe('Your name');
    expect(then.body.current).toBe(false);
    expect(then.body.lists.colors).toEqual([{ value: 'red', label: { en: 'Red', de: 'Rot' } }]);
    const now = await manage('GET', `${M}/forms/survey/published`);
    expect([now.body.form.fields[0].label, now.body.current]).toEqual(['Full name', true]);
    expect(now.body.form.settings).not.toHaveProperty('turnstileSecret');
    expect((await manage('GET', `${M}/forms/survey/published?cv=1`)).status).toBe(404);
    expect((await manage('GET', `${M}/forms/survey/published?cv=x`)).status).toBe(400);
    expect((await manage('GET', `${M}/forms/nothing/published`)).status).toBe(404);
  });

  it('the counters the overview reads stay exact through every kind of write', async () => {
    const base = `${M}/forms/survey/submissions`;
    for (let i = 0; i < 8; i++)
      await seed('survey', `sub_cnt${i}`, `2026-03-1${i % 3}T1${i}:${10 + i * 5}:00.000Z`);
    expect((await submit('survey', { name: 'Lin', topic: 'a', color: 'red' })).status).toBe(200);
    const steps: [string, () => Promise<unknown>][] = [
      [
        'bulk status',
        () =>
          manage('POST', `${base}/bulk`, { action: 'status', status: 'read', ids: ['sub_cnt0', 'sub_cnt1'] }),
      ],
      ['spam', () => manage('POST', `${base}/bulk`, { action: 'spam', ids: ['sub_cnt2', 'sub_cnt3'] })],
      ['not spam', () => manage('POST', `${base}/bulk`, { action: 'not_spam', ids: ['sub_cnt3'] })],
      ['delete one', () => manage('DELETE', `${base}/sub_cnt4`)],
      [
        'bulk delete',
        () => manage('POST', `${base}/bulk`, { action: 'delete', ids: ['sub_cnt5', 'sub_cnt6'] }),
      ],
      [
        'retention',
        () =>
          sweepExpiredSubmissions(
            t.store,
            { blobs: t.blobs, mailDir: t.config.mail.outboxDir },
            new Date('2027-12-31T00:00:01.000Z'),
          ),
      ],
    ];
    expect((await counters()).kept).toEqual((await counters()).counted);
    for (const [name, step] of steps) {
      const res = await step();
      if (typeof res === 'object' && res !== null && 'status' in res)
        expect([name, res.status]).toEqual([name, 200]);
      const { kept, counted } = await counters();
      expect({
        name,
        extra: kept.filter((k) => !counted.includes(k)),
        missing: counted.filter((k) => !kept.includes(k)),
        sizes: [kept.length, counted.length],
      }).toEqual({ name, extra: [], missing: [], sizes: [counted.length, counted.length] });
    }
  });

  it("a submission's activity: its changes and notes, not another's", async () => {
    await seed('survey', 'sub_act1', '2026-03-15T09:00:00.000Z');
    await seed('survey', 'sub_act2', '2026-03-15T09:00:01.000Z');
    const base = `${M}/forms/survey/submissions`;
    const bo = await storePerson(t.store, SPACE, 'Bo');
    expect((await manage('PATCH' as 'PUT', `${base}/sub_act1`, { assignee: bo.id })).status).toBe(200);
    t.clock.current = new Date(t.clock.current.getTime() + 1000);
    expect((await manage('POST', `${base}/sub_act1/notes`, { text: 'hi', author: 'Bo' })).status).toBe(201);
    expect((await manage('PATCH' as 'PUT', `${base}/sub_act2`, { status: 'read' })).status).toBe(200);
    const res = await manage('GET', `${base}/sub_act1/activity`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((i: { action: string }) => i.action)).toEqual([
      'submissions.updated',
      'submission.note_added',
    ]);
    expect(res.body.items[0]).toMatchObject({ details: { submission: 'sub_act1', assignee: bo.id } });
    expect((await manage('GET', `${base}/sub_nope/activity`)).status).toBe(404);
  });
});

export { mgt };
