import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The layers' import rules (eslint.config.js, docs/architecture.md "Layers and import rules") fire where they
// should and only there. Each case lints a snippet as if it were the named file; the snippets are otherwise
// clean, so the rules reported are exactly the expected one, or none.

const ROOT = join(import.meta.dirname, '..');

/** [file the snippet pretends to be, the snippet, the rule that must fire (null: none)] */
type Case = readonly [filePath: string, code: string, expectedRuleId: string | null];

const CASES: readonly Case[] = [
  // layers/server-is-root: only src/cli/ (and tests) import src/server/.
  [
    'src/delivery/x.ts',
    "import { buildApp } from '../server/app.js';\nexport { buildApp };",
    'layers/server-is-root',
  ],
  [
    'src/delivery/list/x.ts',
    "import type { AppServices } from '../../server/app.js';\nexport type { AppServices };",
    'layers/server-is-root',
  ],
  ['src/forms/x.ts', "export { toFolioError } from '../server/error-handler.js';", 'layers/server-is-root'],
  ['src/cli/x.ts', "import { buildApp } from '../server/app.js';\nexport { buildApp };", null],
  ['src/server/x.ts', "import { buildApp } from './app.js';\nexport { buildApp };", null],
  ['test/x.test.ts', "import { buildApp } from '../src/server/app.js';\nexport { buildApp };", null],
  [
    'src/delivery/x.ts',
    "import type { AppServices } from '../app/services.js';\nexport type { AppServices };",
    null,
  ],
  [
    'src/forms/x.ts',
    "import { toFolioError } from '../errors/from-fastify.js';\nexport { toFolioError };",
    null,
  ],

  // layers/errors-leaf and layers/config-leaf: nothing from src/ but src/lib/.
  [
    'src/errors/x.ts',
    "import { notFound } from '../delivery/params.js';\nexport { notFound };",
    'layers/errors-leaf',
  ],
  [
    'src/errors/x.ts',
    "import type { Config } from '../config/config.js';\nexport type { Config };",
    'layers/errors-leaf',
  ],
  ['src/errors/x.ts', "import { newId } from '../lib/ids.js';\nexport { newId };", null],
  ['src/errors/x.ts', "import { notFound } from './errors.js';\nexport { notFound };", null],
  [
    'src/config/x.ts',
    "import { notFound } from '../errors/errors.js';\nexport { notFound };",
    'layers/config-leaf',
  ],
  [
    'src/config/x.ts',
    "import type { Store } from '../store/open-store.js';\nexport type { Store };",
    'layers/config-leaf',
  ],
  ['src/config/x.ts', "import { newId } from '../lib/ids.js';\nexport { newId };", null],

  // layers/error-constructors: one constructor per code, never `new FolioError` outside src/errors/.
  [
    'src/forms/x.ts',
    "import { FolioError } from '../errors/errors.js';\nexport const e = new FolioError('not_found', 'x');",
    'layers/error-constructors',
  ],
  [
    'src/forms/x.ts',
    "import { notFound } from '../errors/errors.js';\nexport const e = notFound('x');",
    null,
  ],

  // layers/kysely-in-repos: Kysely values (sql, builders) only in src/store/ and `*-repo.ts` files.
  [
    'src/menus/x.ts',
    "import { sql } from 'kysely';\nexport const q = sql`select 1`;",
    'layers/kysely-in-repos',
  ],
  [
    'src/forms/inbox/x.ts',
    "import { type Transaction, sql } from 'kysely';\nexport const q = sql`select 1`;\nexport type { Transaction };",
    'layers/kysely-in-repos',
  ],
  ['src/menus/x.ts', "import type { Transaction } from 'kysely';\nexport type { Transaction };", null],
  ['src/menus/x.ts', "import { type Transaction } from 'kysely';\nexport type { Transaction };", null],
  ['src/menus/x-repo.ts', "import { sql } from 'kysely';\nexport const q = sql`select 1`;", null],
  ['src/store/x.ts', "import { sql } from 'kysely';\nexport const q = sql`select 1`;", null],

  // layers/routes-no-kysely and layers/routes-no-queries: route files hold no SQL.
  [
    'src/menus/routes.ts',
    "import type { Transaction } from 'kysely';\nexport type { Transaction };",
    'layers/routes-no-kysely',
  ],
  [
    'src/forms/x-routes.ts',
    "import type { Database } from '../store/schema.js';\nexport type { Database };",
    'layers/routes-no-kysely',
  ],
  [
    'src/forms/x-routes.ts',
    "export const f = (store: { db: { selectFrom(t: string): unknown } }) => store.db.selectFrom('forms');",
    'layers/routes-no-queries',
  ],
  [
    'src/menus/routes.ts',
    "import { listMenus } from './menus-repo.js';\nexport const f = (store: { db: unknown }) => listMenus(store.db);",
    null,
  ],

  // layers/queries-in-repos: query builders only in `*-repo.ts` files and src/store/; transactions anywhere.
  [
    'src/content/x.ts',
    "export const f = (tx: { selectFrom(t: string): unknown }) => tx.selectFrom('spaces');",
    'layers/queries-in-repos',
  ],
  [
    'src/bundle/x.ts',
    "export const f = (db: { updateTable(t: string): unknown }) => db.updateTable('spaces');",
    'layers/queries-in-repos',
  ],
  [
    'src/bundle/x-repo.ts',
    "export const f = (db: { updateTable(t: string): unknown }) => db.updateTable('spaces');",
    null,
  ],
  [
    'src/store/x.ts',
    "export const f = (db: { deleteFrom(t: string): unknown }) => db.deleteFrom('spaces');",
    null,
  ],
  [
    'src/content/x.ts',
    'export const f = (store: { db: { transaction(): unknown } }) => store.db.transaction();',
    null,
  ],

  // layers/dialect-capabilities: a capability, not the engine's name, outside src/store/.
  [
    'src/jobs/x-repo.ts',
    "export const f = (store: { dialect: { engine: string } }) => store.dialect.engine === 'postgres';",
    'layers/dialect-capabilities',
  ],
  [
    'src/forms/x.ts',
    "export const f = (dialect: { engine: string }) => dialect.engine !== 'sqlite';",
    'layers/dialect-capabilities',
  ],
  [
    'src/jobs/x-repo.ts',
    'export const f = (store: { dialect: { rowLocks: boolean } }) => store.dialect.rowLocks;',
    null,
  ],
  [
    'src/cluster/x.ts',
    "export const f = (config: { engine: string }) => config.engine === 'postgres';",
    null,
  ],
  [
    'src/store/migrations/index.ts',
    'export const f = (dialect: { engine: string }) => dialect.engine;',
    null,
  ],
];

describe('the layers lint enforces', () => {
  const eslint = new ESLint({ cwd: ROOT });

  it.each(CASES)('%s: %j → %s', async (filePath, code, expected) => {
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
    const rules = (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
    expect(rules).toEqual(expected === null ? [] : [expected]);
  });
});

// The folders' import rules (.dependency-cruiser.cjs, `npm run lint:imports`): the tree passes, and in a copy
// of it, fixture files with one new import each fail with exactly the expected rule (or pass). Value imports
// only: dependency-cruiser reads the graph TypeScript's output runs.

/** [fixture file, its code, the rules that must fire on it, sorted, space-separated (null: none)] */
const IMPORT_CASES: readonly Case[] = [
  // tier-*: a folder imports lower tiers only. inbox (read-side) → sync (delivered-domains) points up and
  // closes no cycle (sync reaches delivery, store and the leaves, not inbox).
  [
    'src/inbox/zz-up.ts',
    "import { syncPage } from '../sync/sync-service.js';\nexport const f = syncPage;",
    'tier-read-side',
  ],
  // Sideways, within one tier: kv and outbound are both helpers.
  [
    'src/kv/zz-side.ts',
    "import { postJson } from '../outbound/send.js';\nexport const f = postJson;",
    'tier-helpers',
  ],
  [
    'src/menus/zz-down.ts',
    "import { parseCommon } from '../delivery/params.js';\nexport const f = parseCommon;",
    null,
  ],
  [
    'src/delivery/zz-own.ts',
    "import { parseCommon } from './params.js';\nexport const f = parseCommon;",
    null,
  ],
  // The root: only src/cli/ imports src/server/.
  [
    'src/forms/zz-root.ts',
    "import { buildApp } from '../server/app.js';\nexport const f = buildApp;",
    'tier-forms',
  ],
  ['src/cli/zz-root.ts', "import { buildApp } from '../server/app.js';\nexport const f = buildApp;", null],
  // folder-in-a-tier: a new folder is placed on purpose.
  ['src/zz-new/a.ts', "import { newId } from '../lib/ids.js';\nexport const f = newId;", 'folder-in-a-tier'],
  // app-types-only: src/app/ has type imports only.
  [
    'src/app/zz.ts',
    "import { loadConfig } from '../config/config.js';\nexport const f = loadConfig;",
    'app-types-only',
  ],
  [
    'src/app/zz-types.ts',
    "import type { Config } from '../config/config.js';\nexport type C = Config;",
    null,
  ],
  // store-imports: the store imports values only from itself and the leaves; types from anywhere.
  [
    'src/store/zz-a-repo.ts',
    "import { slotLayout } from '../delivery/list/slots.js';\nexport const f = slotLayout;",
    'store-imports tier-storage',
  ],
  [
    'src/store/dialect/zz-b.ts',
    "import { pathKey } from '../../content/paths.js';\nexport const f = pathKey;",
    'store-imports tier-storage',
  ],
  [
    'src/store/zz-c-repo.ts',
    "import { enqueueEvent } from '../jobs/outbox-repo.js';\nexport const f = enqueueEvent;",
    'store-imports tier-storage',
  ],
  // Helpers are below the store's tier, but the store keeps to errors/, config/ and lib/.
  [
    'src/store/zz-h-repo.ts',
    "import { postJson } from '../outbound/send.js';\nexport const f = postJson;",
    'store-imports',
  ],
  [
    'src/store/zz-d-repo.ts',
    "import type { EntrySnapshot } from '../content/model.js';\nexport type E = EntrySnapshot;",
    null,
  ],
  [
    'src/store/zz-e-repo.ts',
    "import { pathKey } from '../lib/path-key.js';\nexport const f = pathKey;",
    null,
  ],
  ['src/store/zz-f-repo.ts', "import { bumpCv } from './spaces-repo.js';\nexport const f = bumpCv;", null],
  [
    'src/delivery/list/zz-g-repo.ts',
    "import { bumpCv } from '../../store/spaces-repo.js';\nexport const f = bumpCv;",
    null,
  ],
  // frozen-migrations: a migration imports Kysely and types, no code of the app.
  [
    'src/store/migrations/0999-zz-a.ts',
    "import { bulkInsert } from '../dialect/bulk-insert.js';\nexport const f = bulkInsert;",
    'frozen-migrations',
  ],
  [
    'src/store/migrations/0999-zz-b.ts',
    "import { sql } from 'kysely';\nimport type { Engine } from '../dialect/dialect.js';\nexport const f = (e: Engine) => sql`select ${e}`;",
    null,
  ],
];

/** The one file that closes a cycle: jobs/ (platform) imports delivery/, which reaches jobs/ through content/. */
const CYCLE: readonly [string, string] = [
  'src/jobs/zz-cycle.ts',
  "import { parseCommon } from '../delivery/params.js';\nexport const f = parseCommon;",
];

interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** dependency-cruiser's JSON report, checked for the members read here. */
function parseViolations(text: string): Violation[] {
  const report: unknown = JSON.parse(text);
  const summary = typeof report === 'object' && report !== null ? Reflect.get(report, 'summary') : undefined;
  const list: unknown =
    typeof summary === 'object' && summary !== null ? Reflect.get(summary, 'violations') : undefined;
  if (!Array.isArray(list)) throw new Error('no summary.violations in the report');
  return list.map((v: unknown) => {
    const rule: unknown = typeof v === 'object' && v !== null ? Reflect.get(v, 'rule') : undefined;
    const name: unknown = typeof rule === 'object' && rule !== null ? Reflect.get(rule, 'name') : undefined;
    const from: unknown = typeof v === 'object' && v !== null ? Reflect.get(v, 'from') : undefined;
    const to: unknown = typeof v === 'object' && v !== null ? Reflect.get(v, 'to') : undefined;
    if (typeof name !== 'string' || typeof from !== 'string' || typeof to !== 'string')
      throw new Error(`unexpected violation ${JSON.stringify(v)}`);
    return { rule: name, from, to };
  });
}

const run = promisify(execFile);
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');

/** `npm run lint:imports`'s command in `cwd`, as JSON; dependency-cruiser exits non-zero on errors. */
async function cruise(cwd: string): Promise<Violation[]> {
  const args = ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
  try {
    const { stdout } = await run(DEPCRUISE, args, { cwd, maxBuffer: 256 * 1024 * 1024 });
    return parseViolations(stdout);
  } catch (err) {
    const stdout: unknown = typeof err === 'object' && err !== null ? Reflect.get(err, 'stdout') : undefined;
    if (typeof stdout !== 'string' || stdout === '') throw err;
    return parseViolations(stdout);
  }
}

describe('the folders lint (dependency-cruiser) enforces', () => {
  let copy = '';
  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'folio-lint-imports-'));
    cpSync(join(ROOT, 'src'), join(copy, 'src'), { recursive: true });
    for (const f of ['tsconfig.json', '.dependency-cruiser.cjs', 'package.json'])
      cpSync(join(ROOT, f), join(copy, f));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  });
  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('passes on the tree', async () => {
    expect(await cruise(ROOT)).toEqual([]);
  }, 120_000);

  it('fails on an import that breaks a tier, and only there', async () => {
    for (const [file, code] of IMPORT_CASES) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      writeFileSync(join(copy, file), `${code}\n`, { flag: 'wx' });
    }
    const violations = await cruise(copy);
    for (const [file, , expected] of IMPORT_CASES) {
      const rules = violations.filter((v) => v.from === file).map((v) => v.rule);
      expect({ file, rules: rules.sort().join(' ') }).toEqual({ file, rules: expected ?? '' });
    }
    // Nothing else fires on a module; the folder cycles the store's fixtures close (every domain imports the
    // store) are reported on folders, as the next case shows.
    const others = violations.filter((v) => v.rule !== 'no-folder-cycles');
    expect(others.filter((v) => !IMPORT_CASES.some(([file]) => file === v.from))).toEqual([]);
    for (const [file] of IMPORT_CASES) rmSync(join(copy, file));
  }, 120_000);

  it('fails on an import that closes a folder cycle', async () => {
    writeFileSync(join(copy, CYCLE[0]), `${CYCLE[1]}\n`, { flag: 'wx' });
    const violations = await cruise(copy);
    rmSync(join(copy, CYCLE[0]));
    expect(violations.filter((v) => v.from === CYCLE[0]).map((v) => v.rule)).toEqual(['tier-platform']);
    const cycles = violations.filter((v) => v.rule === 'no-folder-cycles');
    expect(cycles.length).toBeGreaterThan(0);
    expect(cycles.some((v) => v.from === 'src/jobs' && v.to === 'src/delivery')).toBe(true);
  }, 120_000);
});
