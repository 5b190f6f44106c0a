import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, tokenHint } from '../src/auth/tokens.js';
import type { FormDefinition } from '../src/forms/rules/index.js';
import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';
import { insertToken } from '../src/store/tokens-repo.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { type FormsApp, VISITOR_IP, openFormsApp, putForms } from './helpers/forms.js';

// spec 4.5 "POST /forms/erase": a visitor's right to be forgotten across every form,
// deleted forms and the spam folder; files of submissions only to forms.read, directly or by a signed link.

const pass = { turnstileSiteKey: '1x00000000000000000000AA', turnstileSecret: TURNSTILE_TEST_SECRETS.pass };
const TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';
const ADDRESS = 'Ada.Lovelace@Example.com';

const FORMS: FormDefinition[] = [
  {
    key: 'contact',
    name: 'Contact',
    fields: [
      { key: 'email', type: 'email' },
      { key: 'note', type: 'text' },
      { key: 'cv', type: 'file' },
    ],
    settings: pass,
  },
  {
    key: 'newsletter',
    name: 'Newsletter',
    fields: [{ key: 'mail', type: 'email', required: true }],
    settings: { uniqueField: 'mail' },
  },
  { key: 'old', name: 'Old', fields: [{ key: 'address', type: 'email' }], settings: {} },
];

const NARROW = {
  read: 'folio_mgt_EraseReadOnlyToken0000000001',
  erase: 'folio_mgt_EraseOnlyToken000000000000002',
};
const mgt = (token: string = TOKENS.management) => ({ authorization: `Bearer ${token}` });

describe.each(ENGINES)('erase and file downloads on %s', (engine) => {
  let t: FormsApp;
  const ids: Record<string, string> = {};

  async function submit(form: string, values: Record<string, unknown>) {
    t.clock.current = new Date(t.clock.current.getTime() + 1);
    const res = await t.inject({
      method: 'POST',
      url: `/v1/spc_test/forms/${form}/submissions`,
      payload: { ...values, 'cf-turnstile-response': TOKEN },
      remoteAddress: VISITOR_IP,
      headers: { authorization: `Bearer ${TOKENS.public}` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await t.store.db
      .selectFrom('submissions')
      .select('id')
      .where('form_key', '=', form)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function upload(): Promise<string> {
    const form = new FormData();
    form.append('field', 'cv');
    form.append('cf-turnstile-response', TOKEN);
    form.append('file', new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' }), 'cv.pdf');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const res = await t.inject({
      method: 'POST',
      url: '/v1/spc_test/forms/contact/uploads',
      payload: Buffer.from(await request.arrayBuffer()),
      remoteAddress: VISITOR_IP,
      headers: {
        'content-type': request.headers.get('content-type') ?? '',
        authorization: `Bearer ${TOKENS.public}`,
      },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  const erase = (payload: unknown, token?: string) =>
    t.inject({
      method: 'POST',
      url: '/v1/spaces/spc_test/forms/erase',
      payload: payload as object,
      headers: mgt(token),
    });

  beforeAll(async () => {
    t = await openFormsApp(engine, { worker: false });
    t.clock.current = new Date();
    await putForms(t, 'spc_test', FORMS);
    for (const [name, value] of Object.entries(NARROW)) {
      await insertToken(t.store.db, {
        id: `tok_${name}`,
        spaceId: 'spc_test',
        kind: 'management',
        hash: hashToken(value),
        hint: tokenHint(value),
        name,
        origins: [],
        createdAt: new Date().toISOString(),
        scopes: name === 'read' ? ['forms.read'] : ['forms.erase'],
      });
    }
    ids.cvUpload = await upload();
    ids.withFile = await submit('contact', { email: ADDRESS, cv: ids.cvUpload });
    ids.contactOther = await submit('contact', {
      email: 'grace@example.com',
      note: 'ada.lovelace@example.com',
    });
    ids.newsletter = await submit('newsletter', { mail: 'ADA.LOVELACE@example.COM' });
    ids.old = await submit('old', { address: ADDRESS });
    ids.spam = await submit('contact', { email: ADDRESS, website: 'http://spam.example' });
    await t.store.db
      .insertInto('submission_notes')
      .values({
        id: 'nte_erase1',
        space_id: 'spc_test',
        submission_id: ids.withFile,
        text: 'called back',
        author: 'Sam',
        created_at: new Date().toISOString(),
      })
      .execute();
    // The form is deleted; its submissions keep their data until retention or erase.
    const del = await t.inject({ method: 'DELETE', url: '/v1/spaces/spc_test/forms/old', headers: mgt() });
    expect(del.status).toBe(200);
  });
  afterAll(async () => t.close());

  it('refuses tokens without forms.erase and bodies without a valid address', async () => {
    expect((await erase({ email: ADDRESS }, NARROW.read)).status).toBe(403);
    for (const body of [
      {},
      { email: 'not-an-address' },
      { email: ADDRESS, dryRun: 'yes' },
      { email: ADDRESS, x: 1 },
    ]) {
      const res = await erase(body, NARROW.erase);
      expect([JSON.stringify(body), res.status, res.body.error.code]).toEqual([
        JSON.stringify(body),
        400,
        'invalid_body',
      ]);
    }
  });

  it('counts with dryRun and deletes nothing', async () => {
    const res = await erase({ email: 'ada.lovelace@EXAMPLE.com', dryRun: true }, NARROW.erase);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      dryRun: true,
      submissions: 4,
      files: 1,
      forms: [
        { form: 'contact', inbox: 1, spam: 1 },
        { form: 'newsletter', inbox: 1, spam: 0 },
        { form: 'old', inbox: 1, spam: 0 },
      ],
      // The submissions it would delete, newest first, to open before deciding.
      items: expect.any(Array),
    });
    const found = res.body.items as { id: string; form: string; folder: string; createdAt: string }[];
    expect(found.map((i) => [i.form, i.folder]).sort()).toEqual([
      ['contact', 'inbox'],
      ['contact', 'spam'],
      ['newsletter', 'inbox'],
      ['old', 'inbox'],
    ]);
    expect(found.map((i) => i.createdAt)).toEqual(
      found
        .map((i) => i.createdAt)
        .sort()
        .reverse(),
    );
    const left = await t.store.db.selectFrom('submissions').select('id').execute();
    expect(left).toHaveLength(5);
  });

  it('serves files only to forms.read, directly or by a signed link that expires', async () => {
    const url = `/v1/spaces/spc_test/forms/contact/submissions/${ids.withFile}/files/${ids.cvUpload}`;
    expect((await t.inject({ method: 'GET', url, headers: mgt(NARROW.erase) })).status).toBe(403);
    const direct = await t.app.inject({ method: 'GET', url, headers: mgt(NARROW.read) });
    expect([direct.statusCode, direct.headers['content-disposition']]).toEqual([
      200,
      `attachment; filename="cv.pdf"; filename*=UTF-8''cv.pdf`,
    ]);
    const link = await t.inject({ method: 'POST', url: `${url}/link`, headers: mgt(NARROW.read) });
    expect(link.status).toBe(200);
    const signed = new URL(link.body.url as string);
    const path = `${signed.pathname}${signed.search}`;
    const viaLink = await t.app.inject({ method: 'GET', url: path });
    expect([viaLink.statusCode, viaLink.body]).toEqual([200, '%PDF-1.4\n%%EOF\n']);
    const forged = await t.app.inject({
      method: 'GET',
      url: path.replace(/signature=[^&]+/, 'signature=AAAA'),
    });
    expect(forged.statusCode).toBe(403);
    const otherFile = await t.app.inject({
      method: 'GET',
      url: path.replace(ids.withFile ?? '', ids.contactOther ?? ''),
    });
    expect(otherFile.statusCode).toBe(403);
    t.clock.current = new Date(t.clock.current.getTime() + 11 * 60_000);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(403);
    t.clock.current = new Date();
    const log = await t.store.db
      .selectFrom('activity_log')
      .select(['actor'])
      .where('action', '=', 'submission.file_downloaded')
      .execute();
    expect(log.map((r) => r.actor).sort()).toEqual(['link', 'tok_read']);
  });

  it('erases every submission holding the address in an email field: all forms, deleted ones, spam; files and notes', async () => {
    const blobKey = `uploads/spc_test/${ids.cvUpload}`;
    expect(await t.blobs.get(blobKey)).not.toBeNull();
    const res = await erase({ email: ` ${ADDRESS.toUpperCase()} ` }, NARROW.erase);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dryRun: false, submissions: 4, files: 1 });
    const left = await t.store.db.selectFrom('submissions').select('id').execute();
    // The other visitor stays, though a text field holds the address: only email fields count.
    expect(left.map((r) => r.id)).toEqual([ids.contactOther]);
    expect(await t.blobs.get(blobKey)).toBeNull();
    expect(await t.store.db.selectFrom('uploads').selectAll().execute()).toEqual([]);
    expect(await t.store.db.selectFrom('submission_notes').selectAll().execute()).toEqual([]);
    // The outbox no longer carries their values (form.submitted events, notifications).
    const outbox = await t.store.db.selectFrom('outbox').select('payload').execute();
    // (The other visitor's event stays: it holds the address only in a text field, which is theirs.)
    const text = JSON.stringify(outbox);
    for (const id of [ids.withFile, ids.newsletter, ids.old]) expect(text).not.toContain(id);
    expect(text).toContain(ids.contactOther);
    // The activity log says who and how many, never the address.
    const log = await t.store.db
      .selectFrom('activity_log')
      .selectAll()
      .where('action', '=', 'forms.erased')
      .execute();
    expect(log.map((r) => r.actor)).toEqual(['tok_erase', 'tok_erase']);
    expect(JSON.stringify(log).toLowerCase()).not.toContain('lovelace');
    // Again: nothing left to erase.
    expect((await erase({ email: ADDRESS }, NARROW.erase)).body).toMatchObject({ submissions: 0, forms: [] });
  });
});
