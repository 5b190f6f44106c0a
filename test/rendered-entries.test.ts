import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, ConfigError, loadConfig } from '../src/config/config.js';
import { listBodyBytes, type ListResponse } from '../src/delivery/list/list-service.js';
import { entryBytes, RenderedEntries } from '../src/delivery/rendered-entries.js';
import type { DeliveredEntry } from '../src/delivery/resolve.js';
import { buildApp } from '../src/server/app.js';
import { getSpace } from '../src/store/spaces-repo.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { type ManagementApp, openManagementApp } from './helpers/management.js';

// Lists take entries rendered before at the same cv, with their JSON, from the app's RenderedEntries.
// These tests check a list never answers anything else than a fresh render would, byte for byte.
describe.each(ENGINES)('rendered entries (%s)', (engine) => {
  let t: ManagementApp;
  let fresh: FastifyInstance;
  // No response cache: every request below reaches the list handler.
  const noResponseCache = (c: Config): Config => ({ ...c, cache: { ...c.cache, l1MaxBytes: 1 } });

  beforeAll(async () => {
    t = await openManagementApp(engine);
    await t.rebuild(noResponseCache(t.config));
    fresh = await buildApp({ ...t, config: { ...noResponseCache(t.config), renderCacheMb: 0 } });
  });
  afterAll(async () => {
    await fresh.close();
    await t.close();
  });

  const raw = async (app: FastifyInstance, query: string) => {
    const res = await app.inject({
      method: 'GET',
      url: `/v1/spc_test/entries?${query}`,
      headers: { authorization: `Bearer ${TOKENS.public}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-svc-cache']).toBe('MISS');
    return res.body;
  };
  const QUERIES = [
    'type=page&include=author&limit=100',
    'type=page&include=author&limit=100&locale=de',
    'type=page&fields=title&include=author',
    'type=author&include=friend',
    'type=page&limit=1',
    'sort=name&limit=100',
  ];

  it('answers byte for byte what a fresh render answers, the first time and from the cache', async () => {
    for (const q of QUERIES) {
      const expected = await raw(fresh, q);
      expect(await raw(t.app, q), q).toBe(expected);
      expect(await raw(t.app, q), `${q} (again)`).toBe(expected);
    }
  });

  it('keys renders by fields and locale: a projection or another locale never answers for the full entry', async () => {
    const projected = JSON.parse(await raw(t.app, 'type=page&fields=title&limit=100'));
    const post = (body: { items: { id: string; content: { fields: Record<string, unknown> } }[] }) =>
      body.items.find((i) => i.id === 'ent_post')?.content.fields;
    expect(Object.keys(post(projected) ?? {})).toEqual(['title']);
    const full = JSON.parse(await raw(t.app, 'type=page&limit=100'));
    expect(post(full)).toMatchObject({ title: 'Hello world', author: 'ent_bob' });
    const german = JSON.parse(await raw(t.app, 'type=page&limit=100&locale=de'));
    expect(post(german)).toMatchObject({ title: 'Hallo Welt' });
  });

  it('renders again after a publish, and keeps serving the old cv its own renders', async () => {
    const before = (await getSpace(t.store, 'spc_test'))?.cv ?? 0;
    const bobIn = (body: string) =>
      (JSON.parse(body) as { included: { entries: { id: string; name: string }[] } }).included.entries.find(
        (e) => e.id === 'ent_bob',
      )?.name;
    expect(bobIn(await raw(t.app, 'type=page&include=author&limit=100'))).toBe('Bob');
    expect((await t.api('PATCH', '/entries/ent_bob', { name: 'Robert' })).status).toBe(200);
    expect((await t.api('POST', '/entries/ent_bob/publish')).status).toBe(200);
    expect(bobIn(await raw(t.app, 'type=page&include=author&limit=100'))).toBe('Robert');
    expect(bobIn(await raw(t.app, `type=page&include=author&limit=100&cv=${before}`))).toBe('Bob');
    expect(await raw(t.app, 'type=page&include=author&limit=100')).toBe(
      await raw(fresh, 'type=page&include=author&limit=100'),
    );
  });

  it('renders entries that deliver a form anew: its status follows the clock, not the cv (spec 3.1)', async () => {
    const closesAt = new Date(Date.now() + 1500).toISOString();
    const put = await t.api('PUT', '/forms/contact', {
      key: 'contact',
      name: 'Contact',
      fields: [],
      settings: { closesAt },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const status = async () => {
      const body = JSON.parse(await raw(t.app, 'type=page&limit=100')) as {
        items: { id: string; content: { fields: { contact?: { definition: { status: string } | null } } } }[];
      };
      return body.items.find((i) => i.id === 'ent_home')?.content.fields.contact?.definition?.status;
    };
    expect(await status()).toBe('open');
    await new Promise((resolve) => setTimeout(resolve, Date.parse(closesAt) - Date.now() + 50));
    expect(await status()).toBe('closed');
  });
});

const ENTRY: DeliveredEntry = {
  id: 'ent_a',
  type: 'page',
  name: 'A "quoted" name',
  slug: 'a',
  path: '/a',
  parentId: null,
  locale: 'en',
  tags: ['x'],
  position: 0,
  publishedAt: '2026-01-01T00:00:00.000Z',
  firstPublishedAt: '2026-01-01T00:00:00.000Z',
  alternates: { en: '/a' },
  content: {
    id: 'blk_a',
    type: 'page',
    fields: { title: 'A\u2028B Zoë 😀 \ud800', n: 1.5, list: [null, true] },
  },
};

describe('listBodyBytes', () => {
  it('writes the UTF-8 of what JSON.stringify writes for a list answer', () => {
    const entry = ENTRY;
    for (const body of [
      { items: [], included: { entries: [], links: {} }, nextCursor: null, total: 0, cv: 1 },
      {
        items: [entry, { ...entry, id: 'ent_b' }],
        included: {
          entries: [entry],
          links: { ent_a: { id: 'ent_a', type: 'page', name: 'A', path: '/a' } },
        },
        nextCursor: 'abc.def',
        total: 2,
        cv: 7,
      },
    ] satisfies ListResponse[])
      expect(listBodyBytes(body).equals(Buffer.from(JSON.stringify(body)))).toBe(true);
  });

  it('takes entries a RenderedEntries holds as it stored them, frozen, so no request can change them', () => {
    const cache = new RenderedEntries(1024 * 1024);
    const entry = structuredClone(ENTRY);
    const held = cache.set('k', entry);
    expect(cache.get('k')).toBe(held);
    expect(entryBytes(held).toString()).toBe(JSON.stringify(ENTRY));
    expect(Object.isFrozen(held.content.fields)).toBe(true);
    expect(() => {
      (held.tags as string[]).push('y');
    }).toThrow(TypeError);
    const body = { items: [held], included: { entries: [], links: {} }, nextCursor: null, total: 1, cv: 3 };
    expect(listBodyBytes(body).equals(Buffer.from(JSON.stringify(body)))).toBe(true);
  });
});

describe('RENDER_CACHE_MB', () => {
  it('defaults to 32, takes 0 (off) and refuses what is not a whole number of megabytes', () => {
    expect(loadConfig({}).renderCacheMb).toBe(32);
    expect(loadConfig({ RENDER_CACHE_MB: '0' }).renderCacheMb).toBe(0);
    for (const bad of ['lots', '1.5', '-1', '70000'])
      expect(() => loadConfig({ RENDER_CACHE_MB: bad })).toThrow(ConfigError);
  });
});
