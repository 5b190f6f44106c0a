import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../src/blobs/blob-store.js';
import type { FormDefinition } from '../src/forms/rules/index.js';
import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';
import { BLOB_KINDS, type BlobKind, openTestBlobs } from './helpers/blobs.js';
import { ENGINES, type Engine } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { type FormsApp, SiteverifyStandIn, VISITOR_IP, openFormsApp, putForms } from './helpers/forms.js';
import {
  ACCEPTED_ENCODED,
  ACCEPTED_MARKUP,
  REFUSED_ENCODED,
  REFUSED_MARKUP,
  UTF16BE_HTML,
  UTF16_HTML,
} from './helpers/markup-cases.js';

// spec 2.14, 3.3, 4.4 rule 5, 7.3, 7.4: uploads for file fields, checked against `accept` and their content,
// cut off while streaming, claimed by one submission; on both engines and both blob stores.

const MB = 1024 * 1024;
const pass = { turnstileSiteKey: '1x00000000000000000000AA', turnstileSecret: TURNSTILE_TEST_SECRETS.pass };

const FORMS: FormDefinition[] = [
  {
    key: 'apply',
    name: 'Apply',
    fields: [
      { key: 'name', type: 'text' },
      { key: 'cv', type: 'file', accept: ['application/pdf', '.pdf'], maxSize: MB },
      { key: 'photos', type: 'file', accept: ['image/*'], maxFiles: 3 },
      { key: 'any', type: 'file' },
      { key: 'voice', type: 'file', accept: ['audio/*'] },
    ],
    settings: pass,
  },
  { key: 'other', name: 'Other', fields: [{ key: 'cv', type: 'file' }], settings: pass },
  { key: 'plain', name: 'Plain', fields: [{ key: 'cv', type: 'file' }], settings: {} },
  {
    key: 'strict',
    name: 'Strict',
    fields: [{ key: 'cv', type: 'file' }],
    settings: { turnstileSiteKey: 'site-key', turnstileSecret: 'real-secret' },
  },
];

/** Records the keys written, so a test can check that nothing of a refused upload is left in the store. */
class RecordingBlobs implements BlobStore {
  readonly keys: string[] = [];
  constructor(private readonly inner: BlobStore) {}
  put(key: string, data: Readable | Buffer, opts?: { contentType?: string }) {
    this.keys.push(key);
    return this.inner.put(key, data, opts);
  }
  get(key: string) {
    return this.inner.get(key);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  close() {
    return this.inner.close();
  }
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);
// An empty ZIP archive is just its end-of-central-directory record (APPNOTE 4.3.16).
const EMPTY_ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);

interface FilePart {
  name: string;
  type: string;
  content: Buffer;
}

async function multipart(parts: readonly (readonly [string, string] | FilePart)[]) {
  const form = new FormData();
  for (const p of parts) {
    if (Array.isArray(p)) form.append(p[0], p[1] as string);
    else {
      const f = p as FilePart;
      form.append('file', new Blob([f.content], { type: f.type }), f.name);
    }
  }
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

const cases: [Engine, BlobKind][] = ENGINES.flatMap((e) => BLOB_KINDS.map((b): [Engine, BlobKind] => [e, b]));

describe.each(cases)('form uploads on %s with %s blobs', (engine, blobKind) => {
  let t: FormsApp;
  let blobs: RecordingBlobs;
  let closeBlobs: () => Promise<void>;
  let verify: SiteverifyStandIn;
  let jpeg: Buffer;
  let png: Buffer;

  beforeAll(async () => {
    const opened = await openTestBlobs(blobKind);
    closeBlobs = opened.close;
    blobs = new RecordingBlobs(opened.blobs);
    verify = await new SiteverifyStandIn().start();
    t = await openFormsApp(
      engine,
      { turnstileVerifyUrl: verify.url, rateLimitVisitorPerMinute: 1_000_000 },
      { blobs },
    );
    await putForms(t, 'spc_test', FORMS);
    const image = sharp({ create: { width: 16, height: 16, channels: 3, background: '#c33' } });
    jpeg = await image.clone().jpeg().toBuffer();
    png = await image.clone().png().toBuffer();
  });
  afterAll(async () => {
    await t.close();
    await verify.close();
    await closeBlobs();
  });

  async function upload(
    form: string,
    parts: readonly (readonly [string, string] | FilePart)[],
    opts: { token?: string | null; headers?: Record<string, string> } = {},
  ) {
    const token = opts.token === undefined ? 'XXXX.DUMMY.TOKEN.XXXX' : opts.token;
    const all = token === null ? parts : [['cf-turnstile-response', token] as const, ...parts];
    const { payload, contentType } = await multipart(all);
    return t.inject({
      method: 'POST',
      url: `/v1/spc_test/forms/${form}/uploads`,
      payload,
      remoteAddress: VISITOR_IP,
      headers: { 'content-type': contentType, authorization: `Bearer ${TOKENS.public}`, ...opts.headers },
    });
  }

  async function submit(form: string, values: Record<string, unknown>) {
    t.clock.current = new Date(t.clock.current.getTime() + 1);
    return t.inject({
      method: 'POST',
      url: `/v1/spc_test/forms/${form}/submissions`,
      payload: { ...values, 'cf-turnstile-response': 'XXXX.DUMMY.TOKEN.XXXX' },
      remoteAddress: VISITOR_IP,
      headers: { authorization: `Bearer ${TOKENS.public}` },
    });
  }

  /** Every blob written since `from` is gone, and no upload row is left for them. */
  async function nothingLeftSince(from: number) {
    for (const key of blobs.keys.slice(from)) expect([key, await blobs.get(key)]).toEqual([key, null]);
    const rows = await t.store.db.selectFrom('uploads').select('blob_key').execute();
    const left = new Set(rows.map((r) => r.blob_key));
    for (const key of blobs.keys.slice(from)) expect(left.has(key)).toBe(false);
  }

  it('stores a PDF privately and answers { id, name, size, type } with the sniffed type', async () => {
    const res = await upload('apply', [['field', 'cv'], file('Lebenslauf März.pdf', 'application/pdf', PDF)]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^fup_[A-Za-z0-9]{20}$/),
      name: 'Lebenslauf März.pdf',
      size: PDF.length,
      type: 'application/pdf',
    });
    expect(res.headers['cache-control']).toBe('no-store');
    const row = await t.store.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      form_key: 'apply',
      field_key: 'cv',
      submission_id: null,
      type: 'application/pdf',
    });
    const blob = await blobs.get(row.blob_key);
    expect(blob && (await bytesOf(blob.stream))).toEqual(PDF);
    // No public route serves it.
    for (const url of [
      `/v1/spc_test/forms/apply/uploads/${res.body.id}`,
      `/v1/spc_test/uploads/${res.body.id}`,
    ]) {
      const get = await t.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${TOKENS.public}` },
      });
      expect([url, get.status]).toEqual([url, 404]);
    }
  });

  it('takes a file part sent without a file name (busboy leaves it undefined): no 500', async () => {
    const boundary = 'folio-nameless';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="cf-turnstile-response"\r\n\r\nXXXX.DUMMY.TOKEN.XXXX\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="field"\r\n\r\nphotos\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.inject({
      method: 'POST',
      url: '/v1/spc_test/forms/apply/uploads',
      payload,
      remoteAddress: VISITOR_IP,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        authorization: `Bearer ${TOKENS.public}`,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    expect(res.body).toMatchObject(res.status === 201 ? { type: 'image/png' } : { error: {} });
  });

  it('reports the type found in the content, not the one declared', async () => {
    const res = await upload('apply', [['field', 'photos'], file('photo.gif', 'image/gif', png)]);
    expect([res.status, res.body.type]).toEqual([201, 'image/png']);
    const any = await upload('apply', [
      ['field', 'any'],
      file('notes.txt', 'application/pdf', Buffer.from('plain notes')),
    ]);
    expect([any.status, any.body.type]).toEqual([201, 'text/plain']);
  });

  it.each([
    [
      'an HTML page named .pdf',
      'cv',
      file(
        'cv.pdf',
        'application/pdf',
        Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>'),
      ),
      'file_type',
    ],
    [
      'an SVG with a script',
      'photos',
      file(
        'logo.svg',
        'image/svg+xml',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      ),
      'invalid_file',
    ],
    [
      'an SVG with an event handler',
      'photos',
      file(
        'logo.svg',
        'image/svg+xml',
        Buffer.from(
          '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><rect onload="alert(1)"/></svg>',
        ),
      ),
      'invalid_file',
    ],
    ['a zero-byte file', 'any', file('empty.pdf', 'application/pdf', Buffer.alloc(0)), 'invalid_file'],
    [
      'a PDF that starts like a web page',
      'cv',
      file(
        'cv.pdf',
        'application/pdf',
        Buffer.concat([Buffer.from('%PDF-1.4\n<html><script>x</script>'), PDF]),
      ),
      'invalid_file',
    ],
  ] as const)('refuses %s with 422 validation_failed and keeps nothing', async (_name, field, part, code) => {
    const from = blobs.keys.length;
    const res = await upload('apply', [['field', field], part]);
    expect([res.status, res.body.error.code, res.body.error.details.fields[field].code]).toEqual([
      422,
      'validation_failed',
      code,
    ]);
    if (code === 'file_type')
      expect(res.body.error.details.fields[field].params).toEqual({ accept: 'application/pdf, .pdf' });
    await nothingLeftSince(from);
  });

  it('refuses every SVG and XML of the table that can carry script, reading it whole', async () => {
    const from = blobs.keys.length;
    const got = [];
    for (const c of [...REFUSED_MARKUP, ...REFUSED_ENCODED]) {
      const res = await upload('apply', [['field', 'any'], file(c.file, 'image/svg+xml', c.bytes)]);
      got.push([c.name, res.status, res.body.error?.details?.fields?.any?.code]);
    }
    expect(got).toEqual([...REFUSED_MARKUP, ...REFUSED_ENCODED].map((c) => [c.name, 422, 'invalid_file']));
    await nothingLeftSince(from);
  });

  it('accepts the clean SVG and XML of the table with their type', async () => {
    const got = [];
    for (const c of [...ACCEPTED_MARKUP, ...ACCEPTED_ENCODED]) {
      const res = await upload('apply', [['field', 'any'], file(c.file, 'image/svg+xml', c.bytes)]);
      got.push([c.name, res.status, res.body.type]);
    }
    expect(got).toEqual([...ACCEPTED_MARKUP, ...ACCEPTED_ENCODED].map((c) => [c.name, 201, c.type]));
  });

  it('never takes UTF-16 HTML for audio/mpeg: file_type for an audio field, text/html where any type goes', async () => {
    const from = blobs.keys.length;
    for (const c of [UTF16_HTML, UTF16BE_HTML]) {
      const audio = await upload('apply', [['field', 'voice'], file(c.file, 'audio/mpeg', c.bytes)]);
      expect([c.name, audio.status, audio.body.error?.details?.fields?.voice?.code]).toEqual([
        c.name,
        422,
        'file_type',
      ]);
    }
    await nothingLeftSince(from);
    const any = await upload('apply', [
      ['field', 'any'],
      file(UTF16_HTML.file, 'audio/mpeg', UTF16_HTML.bytes),
    ]);
    expect([any.status, any.body.type]).toEqual([201, 'text/html']);
  });

  it('refuses polyglots: a JPEG with a ZIP appended, and a PNG for a PDF field', async () => {
    const from = blobs.keys.length;
    const polyglot = await upload('apply', [
      ['field', 'photos'],
      file('me.jpg', 'image/jpeg', Buffer.concat([jpeg, EMPTY_ZIP])),
    ]);
    expect([polyglot.status, polyglot.body.error.details.fields.photos.code]).toEqual([422, 'invalid_file']);
    const trailing = await upload('apply', [
      ['field', 'photos'],
      file('me.jpg', 'image/jpeg', Buffer.concat([jpeg, Buffer.from('#!/bin/sh\necho hi\n')])),
    ]);
    expect([trailing.status, trailing.body.error.details.fields.photos.code]).toEqual([422, 'invalid_file']);
    const renamed = await upload('apply', [['field', 'cv'], file('cv.pdf', 'application/pdf', png)]);
    expect([renamed.status, renamed.body.error.details.fields.cv.code]).toEqual([422, 'file_type']);
    await nothingLeftSince(from);
    const fine = await upload('apply', [['field', 'photos'], file('me.jpg', 'image/jpeg', jpeg)]);
    expect([fine.status, fine.body.type]).toEqual([201, 'image/jpeg']);
  });

  it('cuts off a file over 10 MB while streaming: 413 too_large, file_too_large with max, nothing left', async () => {
    const from = blobs.keys.length;
    const big = Buffer.alloc(10 * MB + 1, 0x41);
    const res = await upload('apply', [['field', 'any'], file('big.txt', 'text/plain', big)]);
    expect([res.status, res.body.error.code]).toEqual([413, 'too_large']);
    expect(res.body.error.details.fields.any).toMatchObject({
      code: 'file_too_large',
      params: { max: 10 * MB },
    });
    await nothingLeftSince(from);
    const exact = await upload('apply', [['field', 'any'], file('ten.txt', 'text/plain', big.subarray(1))]);
    expect([exact.status, exact.body.size]).toEqual([201, 10 * MB]);
  });

  it("cuts off at the field's maxSize when it is smaller", async () => {
    const from = blobs.keys.length;
    const over = Buffer.concat([PDF, Buffer.alloc(MB + 1 - PDF.length, 0x20)]);
    const res = await upload('apply', [['field', 'cv'], file('cv.pdf', 'application/pdf', over)]);
    expect([res.status, res.body.error.details.fields.cv.params]).toEqual([413, { max: MB }]);
    await nothingLeftSince(from);
  });

  it('answers the errors of 7.3: 415, turnstile_required, invalid_field, turnstile_failed, invalid_body', async () => {
    const json = await t.inject({
      method: 'POST',
      url: '/v1/spc_test/forms/apply/uploads',
      payload: { field: 'cv' },
      headers: { authorization: `Bearer ${TOKENS.public}` },
    });
    expect([json.status, json.body.error.code]).toEqual([415, 'unsupported_media_type']);
    const plain = await upload('plain', [['field', 'cv'], file('cv.pdf', 'application/pdf', PDF)]);
    expect([plain.status, plain.body.error.code]).toEqual([422, 'turnstile_required']);
    for (const field of ['name', 'nope', 'cv[]']) {
      const res = await upload('apply', [['field', field], file('cv.pdf', 'application/pdf', PDF)]);
      expect([field, res.status, res.body.error.code]).toEqual([field, 422, 'invalid_field']);
    }
    const noField = await upload('apply', [file('cv.pdf', 'application/pdf', PDF)]);
    expect([noField.status, noField.body.error.code]).toEqual([400, 'invalid_body']);
    const noFile = await upload('apply', [['field', 'cv']]);
    expect([noFile.status, noFile.body.error.code]).toEqual([400, 'invalid_body']);
    const unknownForm = await upload('nope', [['field', 'cv'], file('cv.pdf', 'application/pdf', PDF)]);
    expect([unknownForm.status, unknownForm.body.error.code]).toEqual([404, 'not_found']);
    const garbage = await t.inject({
      method: 'POST',
      url: '/v1/spc_test/forms/apply/uploads',
      payload: '--x\r\nContent-Disposition: form-data; name="field"\r\n\r\ncv\r\n--x\r\nContent-Disp',
      headers: {
        'content-type': 'multipart/form-data; boundary=x',
        authorization: `Bearer ${TOKENS.public}`,
      },
    });
    expect([garbage.status, garbage.body.error.code]).toEqual([400, 'invalid_body']);
    const noToken = await t.inject({
      method: 'POST',
      url: '/v1/spc_test/forms/apply/uploads',
      payload: Buffer.from('x'),
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(noToken.status).toBe(401);
  });

  it('checks the Turnstile token once per token, as for submissions', async () => {
    const from = blobs.keys.length;
    const first = await upload('strict', [['field', 'cv'], file('cv.pdf', 'application/pdf', PDF)], {
      token: 'ok-upload-1',
    });
    expect(first.status).toBe(201);
    const again = await upload('strict', [['field', 'cv'], file('cv.pdf', 'application/pdf', PDF)], {
      token: 'ok-upload-1',
    });
    expect([again.status, again.body.error.code]).toEqual([422, 'turnstile_failed']);
    const missing = await upload('strict', [['field', 'cv'], file('cv.pdf', 'application/pdf', PDF)], {
      token: null,
    });
    expect([missing.status, missing.body.error.code]).toEqual([422, 'turnstile_failed']);
    expect(blobs.keys.length - from).toBe(3);
    await nothingLeftSince(from + 1);
  });

  it('lets a submission claim its uploads once: foreign, claimed, expired and fake ids are invalid_file', async () => {
    const mine = (await upload('apply', [['field', 'cv'], file('cv.pdf', 'application/pdf', PDF)])).body.id;
    const photos = [
      (await upload('apply', [['field', 'photos'], file('a.png', 'image/png', png)])).body.id,
      (await upload('apply', [['field', 'photos'], file('b.jpg', 'image/jpeg', jpeg)])).body.id,
    ];
    const otherForm = (await upload('other', [['field', 'cv'], file('cv.pdf', 'application/pdf', PDF)])).body
      .id;
    const otherField = (await upload('apply', [['field', 'any'], file('cv.pdf', 'application/pdf', PDF)]))
      .body.id;

    for (const [name, id] of [
      ['another form', otherForm],
      ['another field', otherField],
      ['a fake id', 'fup_AAAAAAAAAAAAAAAAAAAA'],
    ] as const) {
      const res = await submit('apply', { cv: id });
      expect([name, res.status, res.body.error?.details?.fields]).toEqual([
        name,
        422,
        { cv: { code: 'invalid_file', message: expect.any(String) } },
      ]);
    }

    const ok = await submit('apply', { name: 'Ada', cv: mine, photos });
    expect(ok.status).toBe(200);
    const stored = await t.store.db
      .selectFrom('submissions')
      .select(['id', 'values'])
      .where('form_key', '=', 'apply')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(t.store.dialect.parseJson(stored.values)).toEqual({ name: 'Ada', cv: mine, photos });
    const claimed = await t.store.db
      .selectFrom('uploads')
      .select(['id', 'submission_id'])
      .where('id', 'in', [mine, ...photos])
      .execute();
    expect(claimed.map((r) => r.submission_id)).toEqual([stored.id, stored.id, stored.id]);

    const reused = await submit('apply', { cv: mine });
    expect([reused.status, reused.body.error.details.fields.cv.code]).toEqual([422, 'invalid_file']);

    // A list naming one upload twice names it once (the rules module collapses repeated values).
    const repeated = (await upload('apply', [['field', 'photos'], file('c.png', 'image/png', png)])).body.id;
    expect((await submit('apply', { photos: [repeated, repeated] })).status).toBe(200);
    const last = await t.store.db
      .selectFrom('submissions')
      .select('values')
      .where('form_key', '=', 'apply')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(t.store.dialect.parseJson(last.values)).toEqual({ photos: [repeated] });

    // spec 3.3: an upload unused for a day can no longer be claimed.
    const late = (await upload('apply', [['field', 'cv'], file('cv.pdf', 'application/pdf', PDF)])).body.id;
    t.clock.current = new Date(t.clock.current.getTime() + 24 * 3_600_000 + 1000);
    const expired = await submit('apply', { cv: late });
    expect([expired.status, expired.body.error.details.fields.cv.code]).toEqual([422, 'invalid_file']);
  });

  it('serves a claimed SVG to its owner as an attachment in a sandbox, never inline', async () => {
    const clean = ACCEPTED_MARKUP[0];
    if (!clean) throw new Error('no clean SVG in the table');
    const id = (await upload('apply', [['field', 'any'], file('logo.svg', 'image/svg+xml', clean.bytes)]))
      .body.id;
    expect((await submit('apply', { any: id })).status).toBe(200);
    const row = await t.store.db
      .selectFrom('uploads')
      .select('submission_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/spaces/spc_test/forms/apply/submissions/${row.submission_id}/files/${id}`,
      headers: { authorization: `Bearer ${TOKENS.management}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    expect(res.headers['content-security-policy']).toMatch(/\bsandbox\b/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves a claimed file only to the management API, as an attachment', async () => {
    const id = (
      await upload('apply', [['field', 'cv'], file('Über uns "final".pdf', 'application/pdf', PDF)])
    ).body.id;
    expect((await submit('apply', { cv: id })).status).toBe(200);
    const row = await t.store.db
      .selectFrom('uploads')
      .select('submission_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const url = `/v1/spaces/spc_test/forms/apply/submissions/${row.submission_id}/files/${id}`;
    const res = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${TOKENS.management}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(PDF);
    expect(res.headers).toMatchObject({
      'content-type': 'application/pdf',
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    });
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="_ber uns _final_.pdf"; filename*=UTF-8''%C3%9Cber%20uns%20%22final%22.pdf`,
    );
    const pub = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${TOKENS.public}` },
    });
    expect(pub.statusCode).toBe(403);
    const none = await t.app.inject({ method: 'GET', url });
    expect(none.statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: url.replace('/forms/apply/', '/forms/other/'),
      headers: { authorization: `Bearer ${TOKENS.management}` },
    });
    expect(wrong.statusCode).toBe(404);
  });
});

describe.each(ENGINES)('upload rate limit on %s', (engine) => {
  let t: FormsApp;
  beforeAll(async () => {
    t = await openFormsApp(engine, { rateLimitVisitorPerMinute: 3 });
    await putForms(t, 'spc_test', FORMS);
  });
  afterAll(async () => t.close());

  it('counts uploads and submissions together toward the visitor limit (spec 8)', async () => {
    const { payload, contentType } = await multipart([
      ['cf-turnstile-response', 'XXXX.DUMMY.TOKEN.XXXX'],
      ['field', 'cv'],
      file('cv.pdf', 'application/pdf', PDF),
    ]);
    const headers = { 'content-type': contentType, authorization: `Bearer ${TOKENS.public}` };
    const post = () =>
      t.inject({
        method: 'POST',
        url: '/v1/spc_test/forms/apply/uploads',
        payload,
        headers,
        remoteAddress: '198.51.100.9',
      });
    expect((await post()).status).toBe(201);
    expect((await post()).status).toBe(201);
    const sub = await t.inject({
      method: 'POST',
      url: '/v1/spc_test/forms/apply/submissions',
      payload: { name: 'x', 'cf-turnstile-response': 'XXXX.DUMMY.TOKEN.XXXX' },
      headers: { authorization: `Bearer ${TOKENS.public}` },
      remoteAddress: '198.51.100.9',
    });
    expect(sub.status).toBe(200);
    const limited = await post();
    expect([limited.status, limited.body.error.code, limited.headers['retry-after']]).toEqual([
      429,
      'rate_limited',
      expect.any(String),
    ]);
  });
});

function file(name: string, type: string, content: Buffer): FilePart {
  return { name, type, content };
}
