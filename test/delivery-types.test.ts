import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { openTestApp, type TestApp } from './helpers/app.js';
import { TOKENS } from './helpers/fixture.js';

// The content model served to site developers (what `folio-types` generates TypeScript from).

const base = '/v1/spc_test';
const pub = { authorization: `Bearer ${TOKENS.public}` };
const prv = { authorization: `Bearer ${TOKENS.preview}` };

describe.each(ENGINES)('GET /types on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(engine);
  });
  afterAll(async () => t.close());

  it('lists every type with its fields, flags always present, sorted by key', async () => {
    const r = await t.get(`${base}/types`, pub);
    expect(r.status).toBe(200);
    expect(r.body.cv).toBe(1);
    const keys = r.body.types.map((x: { key: string }) => x.key);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toEqual(expect.arrayContaining(['page', 'author', 'footer', 'folder', 'hero']));
    const page = r.body.types.find((x: { key: string }) => x.key === 'page');
    expect(page).toMatchObject({ kind: 'page', name: 'page', pages: true });
    expect(page.fields).toContainEqual({ key: 'title', type: 'text', localized: true, required: false });
    expect(page.fields).toContainEqual({
      key: 'blocks',
      type: 'blocks',
      localized: false,
      required: false,
      blocks: ['hero'],
    });
    expect(page.fields).toContainEqual({
      key: 'related',
      type: 'reference',
      localized: false,
      required: false,
      to: ['page'],
      many: true,
    });
    const author = r.body.types.find((x: { key: string }) => x.key === 'author');
    expect(author).toMatchObject({ kind: 'collection', pages: false });
    expect(author.fields).toContainEqual({
      key: 'friend',
      type: 'reference',
      localized: false,
      required: false,
      to: ['author'],
      many: false,
    });
  });

  it('is cached per cv like every read, with a CDN tag of its own', async () => {
    const r = await t.get(`${base}/types`, pub);
    expect(r.headers['x-folio-cv']).toBe('1');
    expect(r.headers['cache-control']).toContain('public');
    expect(String(r.headers['surrogate-key'])).toContain('spc_test:types');
    const pinned = await t.get(`${base}/types?cv=1`, pub);
    expect(pinned.headers['cache-control']).toContain('immutable');
    expect(pinned.body).toEqual(r.body);
  });

  it('serves preview tokens (drafts) and refuses unknown parameters and tokens', async () => {
    const draft = await t.get(`${base}/types?draft=1`, prv);
    expect(draft.status).toBe(200);
    expect(draft.headers['cache-control']).toBe('private, no-store');
    const unknown = await t.get(`${base}/types?include=author`, pub);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'invalid_query', details: { parameter: 'include' } });
    expect((await t.get(`${base}/types`, {})).status).toBe(401);
  });
});
