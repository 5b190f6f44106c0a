import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { SpaceDirectory } from '../src/cluster/space-directory.js';
import { publishEntries, saveDraft } from '../src/content/publish-entries.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import type { Config } from '../src/config/config.js';
import { openStore, type Store } from '../src/store/open-store.js';
import type { SpaceRow } from '../src/store/spaces-repo.js';
import { type Engine, openTestEnv, type TestEnv } from './helpers/engines.js';
import { buildEdgeApp, clearRedisPrefix, get, REDIS_URL, uniquePrefix } from './helpers/edge.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';

const pub = { authorization: `Bearer ${TOKENS.public}` };
const HOUR = 3_600_000;

/**
 * Two apps on one database through two separate store connections: the publish signal of one never reaches the
 * other in-process, so what carries the new cv is the fan-out channel under test.
 */
async function twoInstances(engine: Engine, config: Partial<Config>) {
  const env = await openTestEnv(engine);
  await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: await fixtureDir() });
  const other: Store = await openStore(env.storeConfig);
  const app = await buildEdgeApp({ ...env, store: other }, config);
  return { env, other, app };
}

describe('the cv fan-out between instances', () => {
  const open: { env: TestEnv; other: Store; app: FastifyInstance; prefix?: string }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.app.close();
      await o.other.close();
      await o.env.close();
      if (o.prefix) await clearRedisPrefix(o.prefix);
    }
  });

  async function publishedElsewhere(env: TestEnv, app: FastifyInstance, title: string) {
    const url = '/v1/spc_test/entries/ent_about';
    const before = await get(app, url, pub);
    expect(before.status).toBe(200);
    await saveDraft(env.store, 'spc_test', 'ent_about', { title: { en: title } });
    const cv = await publishEntries(env.store, 'spc_test', ['ent_about']);
    await expect
      .poll(async () => (await get(app, url, pub)).body.cv, { timeout: 2000, interval: 10 })
      .toBe(cv);
    expect((await get(app, url, pub)).body.entry.content.fields.title).toBe(title);
  }

  it('PostgreSQL: LISTEN/NOTIFY from the trigger, with the poll an hour away', async () => {
    const o = await twoInstances('postgres', { cvPollMs: HOUR });
    open.push(o);
    expect(o.app.folioEdge.fanout.channel).toBe('postgres-notify');
    await publishedElsewhere(o.env, o.app, 'Notified');
  });

  it('SQLite with Redis: pub/sub of local publishes, with the poll an hour away', async () => {
    const prefix = uniquePrefix();
    const o = await twoInstances('sqlite', { cvPollMs: HOUR, redisUrl: REDIS_URL, redisPrefix: prefix });
    open.push({ ...o, prefix });
    expect(o.app.folioEdge.fanout.channel).toBe('redis-pubsub');
    // The publishing side needs the fan-out too: an app on the first store publishes to Redis.
    const publisher = await buildEdgeApp(o.env, { cvPollMs: HOUR, redisUrl: REDIS_URL, redisPrefix: prefix });
    try {
      await publishedElsewhere(o.env, o.app, 'Broadcast');
    } finally {
      await publisher.close();
    }
  });

  it('without any channel: the bounded poll', async () => {
    const o = await twoInstances('sqlite', { cvPollMs: 100 });
    open.push(o);
    expect(o.app.folioEdge.fanout.channel).toBe('in-process');
    await publishedElsewhere(o.env, o.app, 'Polled');
  });
});

describe('SpaceDirectory', () => {
  const settings = { locales: [{ code: 'en', default: true }] } as unknown as SpaceRow['settings'];
  const row = (cv: number, minCv = 1): SpaceRow => ({
    id: 'spc_x',
    name: 'X',
    settings,
    cv,
    minCv,
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const log = { info: () => {}, warn: () => {}, error: () => {} };

  it('adopts a notified cv at once and never moves back for a late read', async () => {
    let stored = row(1);
    let reads = 0;
    const dir = new SpaceDirectory({ read: async () => (reads++, stored) }, log);
    expect((await dir.get('spc_x'))?.cv).toBe(1);
    expect(await dir.get('spc_x')).toBe(dir.peek('spc_x')?.row);
    expect(reads).toBe(1);
    dir.notify('spc_x', 3); // the store still answers cv 1 to the re-read
    expect(dir.peek('spc_x')?.row.cv).toBe(3);
    await expect.poll(() => reads).toBe(2);
    expect(dir.peek('spc_x')?.row.cv).toBe(3);
    stored = row(4, 2);
    dir.reconcile([{ id: 'spc_x', cv: 4, minCv: 2 }]);
    await expect.poll(() => dir.peek('spc_x')?.row.minCv).toBe(2);
    expect(dir.peek('spc_x')?.row.cv).toBe(4);
    expect(dir.peek('spc_x')?.defaultLocale).toBe('en');
  });

  it('ignores notifications for spaces it never loaded', () => {
    const dir = new SpaceDirectory({ read: async () => row(1) }, log);
    dir.notify('spc_x', 5);
    expect(dir.peek('spc_x')).toBeUndefined();
  });
});
