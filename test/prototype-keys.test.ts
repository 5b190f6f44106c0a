// Issue 28 item 15: a key a client, an author or a bundle chooses is looked up as an own key, never through
// Object.prototype. `?preset=constructor` found Object.prototype.constructor and answered 500; an entry without a
// field named `toString` delivered no `toString` at all (the inherited function was "its value").

import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { serveEnv, type TestApp } from './helpers/app.js';
import { ENGINES, openTestEnv } from './helpers/engines.js';
import { expectEnvelope } from './helpers/envelope.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';

/** Every name an object literal answers for without having it, and the one that sets its prototype. */
const PROTO_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'] as const;
/** Those a field, type, menu, list or form key may be (keys start with a letter). */
const KEYABLE = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;

const pub = { authorization: `Bearer ${TOKENS.public}` };
const prv = { authorization: `Bearer ${TOKENS.preview}` };
const mgt = { authorization: `Bearer ${TOKENS.management}` };
const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };

/** The fixture space with a type, fields, a global, a menu, a list, a form and a preset named like prototype members. */
function protoBundle(): Record<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the fixture is extended loosely
  const b = fixtureBundle() as any;
  b.space.imagePresets = { constructor: { width: 40, height: 20 } };
  b.types.push(
    {
      key: 'constructor',
      kind: 'collection',
      pages: true,
      fields: [
        { key: 'constructor', type: 'text' },
        { key: 'toString', type: 'number' },
        { key: 'valueOf', type: 'option', options: [{ value: 'constructor', label: { en: 'C' } }] },
        { key: 'hasOwnProperty', type: 'reference', to: ['constructor'] },
        { key: 'dict', type: 'dictionary' },
      ],
    },
    { key: 'valueOf', kind: 'global', fields: [{ key: 'toString', type: 'text' }] },
  );
  b.entries.push(
    {
      id: 'ent_c1',
      type: 'constructor',
      name: 'C1',
      slug: 'c1',
      parent: null,
      position: 5,
      tags: ['constructor'],
      published,
      fields: {
        constructor: 'x',
        toString: 3,
        valueOf: 'constructor',
        hasOwnProperty: 'ent_c2',
        // JSON.parse makes `__proto__` an own member, as a bundle file read from disk does.
        dict: JSON.parse('{"constructor":{"en":"c"},"__proto__":{"en":"p"}}') as unknown,
      },
    },
    {
      id: 'ent_c2',
      type: 'constructor',
      name: 'C2',
      slug: 'c2',
      parent: null,
      position: 6,
      tags: [],
      published,
      fields: {},
    },
    {
      id: 'ent_v',
      type: 'valueOf',
      name: 'V',
      slug: 'v',
      parent: null,
      position: 0,
      tags: [],
      published,
      fields: {},
    },
  );
  b.menus.push({ key: 'constructor', name: 'C', items: [] });
  b.lists.push({ key: 'toString', options: [{ value: 'constructor', label: { en: 'C' } }] });
  b.forms.push({
    key: 'constructor',
    name: 'C',
    fields: [
      { key: 'toString', type: 'select', label: 'Pick', list: 'toString' },
      { key: 'constructor', type: 'email', label: 'Email' },
      { key: 'valueOf', type: 'text', label: 'Text' },
    ],
    settings: { uniqueField: 'constructor', notify: ['team@example.com'] },
  });
  return b;
}

/** Requests that put each prototype name where a client chooses a key; none may answer 5xx. */
function probes(
  k: string,
): { method: HTTPMethods; url: string; headers: Record<string, string>; body?: unknown }[] {
  const e = encodeURIComponent;
  const get = (url: string, headers = pub) => ({ method: 'GET' as const, url, headers });
  const send = (method: HTTPMethods, url: string, body: unknown, headers = mgt) => ({
    method,
    url,
    headers,
    body,
  });
  const d = '/v1/spc_test';
  const m = '/v1/spaces/spc_test';
  return [
    // Delivery: query parameters, locale codes, include and fields keys, type keys, filter and sort members.
    get(`${d}/entries?${k}=1`),
    get(`${d}/entries?locale=${k}`),
    get(`${d}/entries?include=${k}&fields=${k}`),
    get(`${d}/entries?type=${k}`),
    get(`${d}/entries?sort=${k}`),
    get(`${d}/entries?sort=-fields.${k}`),
    get(`${d}/entries?type=page&sort=fields.${k}`),
    get(`${d}/entries?${e(`filter[${k}]`)}=1`),
    get(`${d}/entries?${e(`filter[fields.${k}]`)}=1`),
    get(`${d}/entries?${e(`filter[name][${k}]`)}=1`),
    get(`${d}/entries?type=page&${e(`filter[fields.${k}][${k}]`)}=1`),
    get(`${d}/entries?tags=${k}&under=/${k}`),
    get(`${d}/entries/ent_home?locale=${k}&include=${k}&fields=${k}`),
    get(`${d}/entries/${k}`),
    get(`${d}/entries/by-path/${k}`),
    get(`${d}/globals/${k}`),
    get(`${d}/globals?keys=${k}`),
    get(`${d}/menus/${k}?locale=${k}`),
    get(`${d}/menus?keys=main,${k}`),
    get(`${d}/lists/${k}`),
    get(`${d}/lists/colors?locale=${k}`),
    get(`${d}/forms/${k}?locale=${k}`),
    get(`${d}/assets/ast_pic/pic.png?preset=${k}`),
    get(`${d}/assets/ast_pic/pic.png?fm=${k}&${k}=1`),
    get(`${d}/assets/${k}/pic.png`),
    get(`${d}/tree?locale=${k}&under=/${k}`),
    get(`${d}/sitemap?locale=${k}`),
    get(`${d}/search?q=${k}&type=${k}&locale=${k}`),
    get(`${d}/redirects?locale=${k}`),
    get(`${d}/sync?${k}=1`),
    get(`${d}/sync?full=1&locale=${k}`),
    get(`${d}/entries?draft=1&type=page&sort=fields.${k}&${e(`filter[fields.${k}]`)}=1`, prv),
    get(`${d}/entries/ent_home?draft=1&include=${k}&fields=${k}`, prv),
    // Forms: submission keys (field keys of the body), form keys, option values.
    send('POST', `${d}/forms/contact/submissions`, { [k]: 'x', [`${k}[]`]: ['y'] }, pub),
    send('POST', `${d}/forms/${k}/submissions`, { [k]: 'x' }, pub),
    // The inbox and exports: field filters, unknown parameters, bulk filters.
    get(`${m}/forms/contact/submissions?${e(`field[${k}]`)}=x`, mgt),
    get(`${m}/forms/contact/submissions?${k}=x`, mgt),
    get(`${m}/forms/contact/submissions/export?format=${k}&${e(`field[${k}]`)}=x`, mgt),
    send('POST', `${m}/forms/contact/submissions/bulk`, {
      action: 'status',
      status: 'done',
      filter: { [k]: 'x' },
    }),
    send('POST', `${m}/forms/contact/submissions/bulk`, { action: k, ids: ['sub_x'] }),
    // Management: ids and keys in paths, members and locale keys in bodies.
    get(`${m}/forms/${k}`, mgt),
    get(`${m}/activity?action=${k}`, mgt),
    get(`${m}/entries?type=${k}&parent=${k}`, mgt),
    send('POST', `${m}/forms`, {
      key: `x${k}`,
      name: 'X',
      fields: [{ key: 'a', type: k, label: 'A' }],
      settings: { [k]: 1 },
    }),
    send('POST', `${m}/forms`, {
      key: `y${k}`,
      name: 'Y',
      fields: [{ key: 'a', type: 'select', label: 'A', list: k, translations: { [k]: { label: 'x' } } }],
      settings: { uniqueField: k, successMessage: { [k]: 'x' } },
    }),
    send('POST', `${m}/entries`, { type: k, name: 'x', slug: `x${k}` }),
    send('POST', `${m}/entries`, {
      type: 'page',
      name: 'x',
      slug: `y${k}`,
      slugs: { [k]: 'y' },
      fields: { [k]: 'x', title: { [k]: 'x' } },
    }),
    send('POST', `${m}/entries/ent_about/rename`, { slugs: { [k]: 'x' } }),
    send('PUT', `${m}/menus/main`, {
      name: 'x',
      items: [{ id: 'mni_a', label: { [k]: 'x' }, link: { kind: k }, children: [] }],
    }),
    send('POST', `${m}/redirects`, { from: `/${k}`, to: null, locale: k }),
    send('PUT', `${m}/lists/colors`, { options: [{ value: 'red', label: { [k]: 'x' } }] }),
    send('POST', `${m}/webhooks`, { url: 'https://example.com/hook', events: [k] }),
    send('POST', `${m}/tokens`, { kind: 'management', scopes: [k] }),
  ];
}

describe.each(ENGINES)(
  'user-supplied keys named like Object.prototype members on %s (issue 28 item 15)',
  (engine) => {
    let t: TestApp;
    beforeAll(async () => {
      const env = await openTestEnv(engine);
      const dir = await fixtureDir();
      await importBundle(env.store, env.blobs, protoBundle(), { baseDir: dir });
      await importBundle(env.store, env.blobs, fixtureBundle('spc_other'), { baseDir: dir });
      t = await serveEnv(env);
    });
    afterAll(async () => t.close());

    it('an unknown preset named constructor is 400 invalid_query; a preset of that name works', async () => {
      for (const k of PROTO_KEYS) {
        const url = `/v1/spc_other/assets/ast_pic/pic.png?preset=${k}`;
        const res = await t.app.inject({ url, headers: { authorization: `Bearer ${TOKENS.otherSpace}` } });
        expectEnvelope(
          { status: res.statusCode, headers: res.headers, text: res.body },
          'invalid_query',
          url,
        );
      }
      const own = await t.app.inject({
        url: '/v1/spc_test/assets/ast_pic/pic.png?preset=constructor',
        headers: pub,
      });
      expect(own.statusCode).toBe(200);
      expect(String(own.headers['content-type'])).toMatch(/^image\//);
    });

    it('delivers an entry without those fields with each of them null, and one with them as authored', async () => {
      const empty = await t.get('/v1/spc_test/entries/ent_c2', pub);
      expect(empty.status).toBe(200);
      expect(empty.body.entry.content.fields).toEqual({
        constructor: null,
        toString: null,
        valueOf: null,
        hasOwnProperty: null,
        dict: {},
      });
      const full = await t.get('/v1/spc_test/entries/ent_c1?include=hasOwnProperty', pub);
      expect(full.body.entry.content.fields).toEqual({
        constructor: 'x',
        toString: 3,
        valueOf: 'constructor',
        hasOwnProperty: 'ent_c2',
        dict: JSON.parse('{"constructor":"c","__proto__":"p"}') as unknown,
      });
      expect(full.body.included.entries.map((x: { id: string }) => x.id)).toEqual(['ent_c2']);
      const globals = await t.get('/v1/spc_test/globals?keys=valueOf', pub);
      expect(globals.body.globals.valueOf.content.fields).toEqual({ toString: null });
    });

    it('filters and sorts on fields named like them, published (SQL, rows index) and in previews (memory)', async () => {
      const ids = (body: { items: { id: string }[] }) => body.items.map((i) => i.id);
      for (const headers of [pub, prv]) {
        const draft = headers === prv ? 'draft=1&' : '';
        const list = async (q: string) => {
          const res = await t.get(`/v1/spc_test/entries?${draft}type=constructor&${q}`, headers);
          expect(res.status, q).toBe(200);
          return ids(res.body);
        };
        const f = (member: string, op = '') => encodeURIComponent(`filter[fields.${member}]${op}`);
        expect(await list(`${f('constructor')}=x`)).toEqual(['ent_c1']);
        expect(await list(`${f('constructor', '[exists]')}=false`)).toEqual(['ent_c2']);
        expect(await list(`${f('toString', '[gt]')}=2`)).toEqual(['ent_c1']);
        expect(await list(`${f('toString', '[ne]')}=3`)).toEqual(['ent_c2']);
        expect(await list(`${f('valueOf')}=constructor`)).toEqual(['ent_c1']);
        expect(await list(`${f('valueOf', '[exists]')}=false`)).toEqual(['ent_c2']);
        expect(await list(`${f('hasOwnProperty')}=ent_c2`)).toEqual(['ent_c1']);
        for (const k of KEYABLE) {
          // Entries without the value sort last in both directions.
          expect(await list(`sort=fields.${k}`), k).toEqual(['ent_c1', 'ent_c2']);
          expect(await list(`sort=-fields.${k}`), k).toEqual(['ent_c1', 'ent_c2']);
        }
      }
    });

    it('takes a submission to a form keyed and fielded like them; uniqueField holds', async () => {
      const submit = (body: unknown) =>
        t.app.inject({
          method: 'POST',
          url: '/v1/spc_test/forms/constructor/submissions',
          headers: pub,
          payload: body as object,
        });
      expect((await submit({ toString: 'constructor' })).statusCode).toBe(200);
      expect((await submit({ toString: 'constructor', constructor: 'ada@example.com' })).statusCode).toBe(
        200,
      );
      const again = await submit({ toString: 'constructor', constructor: 'ada@example.com' });
      expect([again.statusCode, again.json().error.code]).toEqual([409, 'already_submitted']);
      const bad = await submit({ toString: 'toString', valueOf: 7 });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().error.details.fields).sort()).toEqual(['toString', 'valueOf']);
      const inbox = await t.app.inject({
        url: `/v1/spaces/spc_test/forms/constructor/submissions?${encodeURIComponent('field[constructor]')}=ada@example.com`,
        headers: mgt,
      });
      expect(inbox.json().items.map((i: { values: unknown }) => i.values)).toEqual([
        { toString: 'constructor', constructor: 'ada@example.com' },
      ]);
    });

    it('names a body member called like them in details.fields of a 422 (it went missing)', async () => {
      for (const k of KEYABLE) {
        const res = await t.app.inject({
          method: 'PUT',
          url: `/v1/spaces/spc_test/forms/named${k}`,
          headers: mgt,
          payload: { name: 'Named', fields: [], settings: {}, [k]: 1 },
        });
        const error = expectEnvelope(
          { status: res.statusCode, headers: res.headers, text: res.body },
          'validation_failed',
          k,
        );
        expect(Object.keys((error.details as { fields: object }).fields), k).toEqual([k]);
      }
    });

    it('answers every probe with a 4xx envelope or a success, never 5xx', async () => {
      const failures: string[] = [];
      for (const k of PROTO_KEYS) {
        for (const p of probes(k)) {
          const res = await t.app.inject({
            method: p.method,
            url: p.url,
            headers: p.headers,
            ...(p.body === undefined
              ? {}
              : {
                  payload: JSON.stringify(p.body),
                  headers: { ...p.headers, 'content-type': 'application/json' },
                }),
          });
          const where = `${p.method} ${p.url} ${p.body === undefined ? '' : JSON.stringify(p.body)}`;
          if (res.statusCode >= 500) failures.push(`${where} → ${res.statusCode} ${res.body.slice(0, 200)}`);
          else if (res.statusCode >= 400)
            expectEnvelope(
              { status: res.statusCode, headers: res.headers, text: res.body },
              undefined,
              where,
            );
        }
      }
      expect(failures).toEqual([]);
    });

    it('answers multipart bodies keyed like them (form data, uploads, asset texts) with 4xx or success, never 5xx', async () => {
      const failures: string[] = [];
      const multipart = (parts: [string, string][], file?: [string, Buffer]) => {
        const boundary = 'ProtoKeys';
        const head = parts
          .map(([n, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`)
          .join('');
        const tail = file
          ? `--${boundary}\r\nContent-Disposition: form-data; name="${file[0]}"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`
          : '';
        const payload = Buffer.concat([
          Buffer.from(head + tail),
          file ? Buffer.concat([file[1], Buffer.from('\r\n')]) : Buffer.alloc(0),
          Buffer.from(`--${boundary}--\r\n`),
        ]);
        return { payload, type: `multipart/form-data; boundary=${boundary}` };
      };
      const png = Buffer.from('89504e470d0a1a0a', 'hex');
      for (const k of PROTO_KEYS) {
        const cases: [string, Record<string, string>, { payload: Buffer | string; type: string }][] = [
          [
            '/v1/spc_test/forms/constructor/submissions',
            pub,
            multipart([
              [k, 'x'],
              [`${k}[]`, 'y'],
              ['toString', k],
            ]),
          ],
          [
            '/v1/spc_test/forms/constructor/submissions',
            pub,
            {
              payload: new URLSearchParams([
                [k, 'x'],
                [`${k}[]`, 'y'],
              ]).toString(),
              type: 'application/x-www-form-urlencoded',
            },
          ],
          [
            '/v1/spc_test/forms/constructor/uploads',
            pub,
            multipart(
              [
                ['field', k],
                [k, 'x'],
              ],
              ['file', png],
            ),
          ],
          ['/v1/spc_test/forms/contact/uploads', pub, multipart([[k, k]], [k, png])],
          [
            '/v1/spaces/spc_test/assets',
            mgt,
            multipart(
              [
                ['alt', JSON.stringify({ [k]: 'x', en: 'y' })],
                ['title', `{"${k}":"x"}`],
                [k, 'x'],
              ],
              ['file', png],
            ),
          ],
        ];
        for (const [url, headers, body] of cases) {
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: { ...headers, 'content-type': body.type },
            payload: body.payload,
          });
          const where = `POST ${url} (${k})`;
          if (res.statusCode >= 500) failures.push(`${where} → ${res.statusCode} ${res.body.slice(0, 200)}`);
          else if (res.statusCode >= 400)
            expectEnvelope(
              { status: res.statusCode, headers: res.headers, text: res.body },
              undefined,
              where,
            );
        }
      }
      expect(failures).toEqual([]);
    });
  },
);
