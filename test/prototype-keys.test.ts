// A key a client, an author or a bundle chooses is looked up as an own key, never through
// Object.prototype. `?preset=constructor` found Object.prototype.constructor and answered 500; an entry without a
// field named `toString` delivered no `toString` at all (the inherited function was "its value").

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { serveEnv, type TestApp } from './helpers/app.js';
import { ENGINES, openTestEnv } from './helpers/engines.js';
import { expectEnvelope } from './helpers/envelope.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';
import { KEYABLE, mgt, probes, protoBundle, prv, PROTO_KEYS, pub } from './helpers/prototype-keys.js';

describe.each(ENGINES)(
  'user-supplied keys named like Object.prototype members, looked up as own keys, on %s',
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
