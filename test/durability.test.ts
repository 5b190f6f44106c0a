// Durability under a crash: submissions and publishes run against `folio serve` (the built
// dist, a real process), which is killed with SIGKILL mid-load and started again on the same data. Every request
// that got a 2xx is stored, no half-written publish is visible, and every outbox event reaches a real receiver,
// exactly once per event id after deduplication. On both engines.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/open-store.js';
import { randomBase62 } from '../src/lib/ids.js';
import { DATABASE_URL, dropSchema, ENGINES } from './helpers/engines.js';
import { type FolioProcess, runFolio, serveFolio } from './helpers/processes.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const SPACE = 'spc_dur';
const PUBLIC = 'folio_pub_DurabilityPublicToken00001';
const MANAGEMENT = 'folio_mgt_DurabilityManageToken00002';
const LOAD_MS = 1000;

function bundle(): Record<string, unknown> {
  return {
    format: 'folio-bundle@1',
    space: { id: SPACE, name: 'Durability', locales: [{ code: 'en', default: true }] },
    tokens: [
      { kind: 'public', value: PUBLIC },
      { kind: 'management', value: MANAGEMENT },
    ],
    types: [{ key: 'page', kind: 'page', fields: [{ key: 'title', type: 'text' }] }],
    entries: [],
    forms: [
      {
        key: 'contact',
        name: 'Contact',
        fields: [{ key: 'note', type: 'text', label: 'Note', required: true }],
        settings: {},
      },
    ],
  };
}

async function post(url: string, token: string, body: unknown, method = 'POST') {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

describe.each(ENGINES)('durability under SIGKILL on %s', (engine) => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-durability-'));
  const schema = `dur_${randomBase62(8).toLowerCase()}`;
  const env: Record<string, string> = {
    DATA_DIR: join(dir, 'data'),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // The engine under test only, even where CI exports DATABASE_URL and REDIS_URL.
    DATABASE_URL: '',
    REDIS_URL: '',
    RATE_LIMIT_VISITOR_PER_MINUTE: '1000000',
    RATE_LIMIT_FORM_PER_MINUTE: '1000000',
    // Jobs the killed process held come back after their lease: the shortest one allowed.
    JOB_LEASE_SECONDS: '15',
    ...(engine === 'postgres' ? { DATABASE_URL, DATABASE_SCHEMA: schema } : {}),
  };
  let server: FolioProcess | null = null;
  afterAll(async () => {
    await server?.stop();
    if (engine === 'postgres') await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write, shows no half publish, delivers every event once per id', async () => {
    writeFileSync(join(dir, 'bundle.json'), JSON.stringify(bundle()));
    const imported = await runFolio(['import', join(dir, 'bundle.json')], env);
    expect(imported.code, imported.out).toBe(0);
    // The import's own content.published went out before the receiver subscribed: the load's events come after.
    const subscribedAt = new Date().toISOString();
    const receiver = await WebhookReceiver.start();
    try {
      server = await serveFolio(env);
      const api = `${server.base}/v1/spaces/${SPACE}`;
      const hook = await post(`${api}/webhooks`, MANAGEMENT, { url: receiver.url, events: ['*'] });
      expect(hook.status).toBe(201);

      // Load: submitters and a publisher, until the kill.
      const acknowledgedNotes: string[] = [];
      const acknowledgedMenus = new Map<number, string>();
      let running = true;
      const submitter = async () => {
        while (running) {
          const note = randomUUID();
          const r = await post(`${server!.base}/v1/${SPACE}/forms/contact/submissions`, PUBLIC, {
            note,
          }).catch(() => null);
          if (r && r.status >= 200 && r.status < 300) acknowledgedNotes.push(note);
        }
      };
      const publisher = async () => {
        for (let i = 0; running; i++) {
          const name = `Main ${i}`;
          const r = await post(`${api}/menus/main`, MANAGEMENT, { name, items: [] }, 'PUT').catch(() => null);
          if (r && r.status >= 200 && r.status < 300) acknowledgedMenus.set(Number(r.body?.cv), name);
        }
      };
      const load = Promise.all([submitter(), submitter(), publisher()]);
      await new Promise((r) => setTimeout(r, LOAD_MS));
      const killed = new Promise((r) => server!.child.once('exit', r));
      server.child.kill('SIGKILL');
      await killed;
      running = false;
      await load;
      expect(acknowledgedNotes.length).toBeGreaterThan(5);
      expect(acknowledgedMenus.size).toBeGreaterThan(2);

      // Started again on the same data: the job runner delivers what the outbox holds.
      server = await serveFolio(env);
      const store = await openStore(
        engine === 'postgres'
          ? { engine, url: DATABASE_URL, schema }
          : { engine, file: join(env.DATA_DIR!, 'folio.sqlite') },
      );
      try {
        // 1. Every acknowledged submission is stored.
        const rows = await store.db
          .selectFrom('submissions')
          .select('values')
          .where('space_id', '=', SPACE)
          .execute();
        const stored = new Set(
          rows.map((r) => String(store.dialect.parseJson<{ note?: unknown }>(r.values).note)),
        );
        expect(acknowledgedNotes.filter((n) => !stored.has(n))).toEqual([]);

        // 2. No half-written publish: cv and versions agree, and every acknowledged save is the version at its cv.
        const space = await store.db
          .selectFrom('spaces')
          .select('cv')
          .where('id', '=', SPACE)
          .executeTakeFirstOrThrow();
        const cv = Number(space.cv);
        const versions = await store.db
          .selectFrom('doc_versions')
          .select(['cv_from', 'cv_to', 'doc'])
          .where('space_id', '=', SPACE)
          .where('kind', '=', 'menu')
          .orderBy('cv_from')
          .execute();
        expect(
          versions.every((v) => Number(v.cv_from) <= cv && (v.cv_to === null || Number(v.cv_to) <= cv)),
        ).toBe(true);
        expect(versions.filter((v) => v.cv_to === null)).toHaveLength(1);
        for (const [savedCv, name] of acknowledgedMenus) {
          expect(savedCv).toBeLessThanOrEqual(cv);
          const at = versions.find(
            (v) => Number(v.cv_from) <= savedCv && (v.cv_to === null || Number(v.cv_to) > savedCv),
          );
          expect(at && store.dialect.parseJson<{ name: string }>(at.doc).name, `cv ${savedCv}`).toBe(name);
        }

        // 3. Every event in the outbox reaches the receiver; deduplicated by id, exactly the outbox's events.
        const events = await store.db
          .selectFrom('outbox')
          .select('id')
          .where('space_id', '=', SPACE)
          .where('kind', '=', 'event')
          .where('created_at', '>', subscribedAt)
          .execute();
        const want = new Set(events.map((e) => e.id));
        const received = await receiver.waitFor((r) => {
          const ids = new Set(r.map((x) => String(x.headers['webhook-id'])));
          return [...want].every((id) => ids.has(id));
        }, 60_000);
        const ids = new Set(received.map((x) => String(x.headers['webhook-id'])));
        expect([...ids].filter((id) => !want.has(id))).toEqual([]);
        // Every acknowledged submission's form.submitted is among them.
        const submittedNotes = new Set(
          received.flatMap((x) => {
            const body = JSON.parse(x.body) as { type: string; data: { values?: { note?: string } } };
            return body.type === 'form.submitted' && body.data.values?.note ? [body.data.values.note] : [];
          }),
        );
        expect(acknowledgedNotes.filter((n) => !submittedNotes.has(n))).toEqual([]);
      } finally {
        await store.close();
      }
    } finally {
      await server?.stop();
      server = null;
      await receiver.close();
    }
  }, 120_000);
});
