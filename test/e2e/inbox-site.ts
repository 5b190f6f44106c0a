// The inbox's browser test fixture: the real app on SQLite, listening on loopback, with a form, submissions (one
// with a file, one with markup and a `javascript:` page), tokens of several scopes, and a page on another origin
// that posts to the inbox (a cross-site form post).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { insertPendingUpload, completeUpload } from '../../src/forms/uploads/uploads-repo.js';
import { insertSubmission } from '../../src/forms/submission/submissions-repo.js';
import type { FormDefinition } from '../../src/forms/rules/index.js';
import { TOKENS } from '../helpers/fixture.js';
import { type FormsApp, openFormsApp } from '../helpers/forms.js';
import { storeScopedToken } from '../helpers/tokens.js';

export const SPACE = 'spc_test';
export const FORM = 'support';
export const XSS_NAME = '<img src=x onerror=alert(1)>';
export const XSS_PAGE = 'javascript:alert(1)';
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

export const SUPPORT: FormDefinition = {
  key: FORM,
  name: 'Support requests',
  fields: [
    { key: 'name', type: 'text', label: 'Your name', required: true },
    { key: 'email', type: 'email', label: 'Email' },
    {
      key: 'topic',
      type: 'select',
      label: 'Topic',
      options: [
        { value: 'billing', label: 'Billing question' },
        { value: 'bug', label: 'Something is broken' },
      ],
    },
    { key: 'newsletter', type: 'checkbox', label: 'Newsletter' },
    { key: 'message', type: 'textarea', label: 'Message' },
  ],
  settings: {},
};

export interface InboxSite {
  t: FormsApp;
  base: string;
  /** A page on another origin whose form posts a token to /inbox/session. */
  evil: string;
  tokens: { admin: string; writerOnly: string; revocable: string };
  xssId: string;
  fileSubmission: string;
  uploadId: string;
  close(): Promise<void>;
}

const DAY = 86_400_000;

export async function startInboxSite(): Promise<InboxSite> {
  const t = await openFormsApp('sqlite');
  // The clock of the app (form status, sessions): now, so the browser's own time agrees with the session's.
  t.clock.current = new Date();
  const admin = TOKENS.management;
  const put = await t.inject({
    method: 'PUT',
    url: `/v1/spaces/${SPACE}/forms/${FORM}`,
    headers: { authorization: `Bearer ${admin}` },
    payload: { ...SUPPORT },
  });
  if (put.status !== 201) throw new Error(`form: ${put.text}`);
  const now = Date.now();
  // 60 older submissions over 20 days (a second page, a chart), then the ones the test looks at.
  for (let i = 0; i < 60; i++) {
    await insertSubmission(
      t.store.db,
      {
        id: `sub_seed${String(i).padStart(3, '0')}`,
        spaceId: SPACE,
        form: FORM,
        folder: i % 10 === 0 ? 'spam' : 'inbox',
        values: {
          name: `Person ${i}`,
          email: `p${i}@example.com`,
          topic: i % 2 ? 'bug' : 'billing',
          message: 'Hello',
        },
        page: 'https://site.example/contact',
        locale: 'en',
        userAgent: null,
        consent: {},
        uniqueKey: null,
        createdAt: new Date(now - DAY - i * 8 * 3_600_000).toISOString(),
        deleteAfter: new Date(now + 365 * DAY).toISOString(),
        // The fields it was made to: its chosen options are stored beside it, as submit does.
      },
      SUPPORT.fields,
    );
  }
  const submit = async (values: Record<string, unknown>) => {
    t.clock.current = new Date(t.clock.current.getTime() + 1000);
    const res = await t.inject({
      method: 'POST',
      url: `/v1/${SPACE}/forms/${FORM}/submissions`,
      headers: { authorization: `Bearer ${TOKENS.public}`, 'content-type': 'application/json' },
      payload: values,
    });
    if (res.status !== 200) throw new Error(`submit: ${res.text}`);
  };
  await submit({
    name: 'Grace Hopper',
    email: 'grace@example.com',
    topic: 'bug',
    newsletter: true,
    message: 'It crashed.',
  });
  await submit({
    name: XSS_NAME,
    email: 'mallory@example.com',
    topic: 'billing',
    message: '<script>alert(2)</script>',
    _page: XSS_PAGE,
  });
  const rows = await t.store.db
    .selectFrom('submissions')
    .select(['id', 'values'])
    .where('form_key', '=', FORM)
    .where('created_at', '>', new Date(now - 60_000).toISOString())
    .execute();
  const xssId = rows.find((r) => String(r.values).includes('onerror'))?.id ?? '';

  // A submission with a file (stored as an upload would be: a row claimed by the submission and its bytes).
  const fileSubmission = 'sub_withfile';
  const uploadId = 'fup_inboxe2efile0001';
  const blobKey = `uploads/${SPACE}/${uploadId}`;
  await t.blobs.put(blobKey, PDF);
  await insertPendingUpload(t.store.db, {
    id: uploadId,
    spaceId: SPACE,
    formKey: FORM,
    fieldKey: 'attachment',
    name: 'report.pdf',
    blobKey,
    createdAt: new Date(now - 2 * DAY).toISOString(),
    expiresAt: new Date(now + DAY).toISOString(),
  });
  await completeUpload(t.store.db, uploadId, PDF.length, 'application/pdf');
  await t.store.db
    .updateTable('uploads')
    .set({ submission_id: fileSubmission })
    .where('id', '=', uploadId)
    .execute();
  await insertSubmission(
    t.store.db,
    {
      id: fileSubmission,
      spaceId: SPACE,
      form: FORM,
      folder: 'inbox',
      values: { name: 'Ada with a file', email: 'ada@example.com', attachment: uploadId },
      page: null,
      locale: 'de',
      userAgent: null,
      consent: {},
      uniqueKey: null,
      createdAt: new Date(now - DAY / 2).toISOString(),
      deleteAfter: new Date(now + 365 * DAY).toISOString(),
    },
    SUPPORT.fields,
  );

  const tokens = {
    admin,
    writerOnly: await storeScopedToken(t.store, SPACE, ['forms.write']),
    revocable: await storeScopedToken(t.store, SPACE, ['forms.read']),
  };
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // Another site: `localhost` is not the same site as `127.0.0.1`.
  const target = `${base}/inbox/session`;
  const evilServer: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><form method="post" action="${target}" enctype="text/plain">
<input name='{"token":"${admin}","x":"' value='"}'><button id="go">Win a prize</button></form>`);
  });
  await new Promise<void>((resolve) => evilServer.listen(0, '127.0.0.1', resolve));
  const evil = `http://localhost:${(evilServer.address() as AddressInfo).port}/`;
  return {
    t,
    base,
    evil,
    tokens,
    xssId,
    fileSubmission,
    uploadId,
    async close() {
      await new Promise((r) => evilServer.close(r));
      await t.close();
    },
  };
}
