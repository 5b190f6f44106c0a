import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

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

  // layers/app-types-only: src/app/ describes what the root builds, with type imports only.
  [
    'src/app/x.ts',
    "import { loadConfig } from '../config/config.js';\nexport { loadConfig };",
    'layers/app-types-only',
  ],
  ['src/app/x.ts', "import type { Config } from '../config/config.js';\nexport type { Config };", null],

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

  // layers/store-imports: the store imports values only from itself and the leaves; types from anywhere.
  [
    'src/store/x-repo.ts',
    "import { slotRows } from '../delivery/list/slots.js';\nexport { slotRows };",
    'layers/store-imports',
  ],
  [
    'src/store/x-repo.ts',
    "import { enqueueEvent } from '../jobs/outbox-repo.js';\nexport { enqueueEvent };",
    'layers/store-imports',
  ],
  ['src/store/x.ts', "export { withPublish } from '../content/publish-log.js';", 'layers/store-imports'],
  [
    'src/store/dialect/x.ts',
    "import { pathKey } from '../../content/paths.js';\nexport { pathKey };",
    'layers/store-imports',
  ],
  [
    'src/store/x-repo.ts',
    "import type { EntrySnapshot } from '../content/model.js';\nexport type { EntrySnapshot };",
    null,
  ],
  ['src/store/x-repo.ts', "import { pathKey } from '../lib/path-key.js';\nexport { pathKey };", null],
  ['src/store/x-repo.ts', "import { notFound } from '../errors/errors.js';\nexport { notFound };", null],
  ['src/store/x-repo.ts', "import { bumpCv } from './spaces-repo.js';\nexport { bumpCv };", null],
  ['src/store/dialect/x.ts', "import { bulkInsert } from '../bulk-insert.js';\nexport { bulkInsert };", null],
  [
    'src/delivery/list/x-repo.ts',
    "import { bumpCv } from '../../store/spaces-repo.js';\nexport { bumpCv };",
    null,
  ],

  // layers/frozen-migrations: a migration imports Kysely and types, no code.
  [
    'src/store/migrations/0099-x.ts',
    "import { bulkInsert } from '../bulk-insert.js';\nexport { bulkInsert };",
    'layers/frozen-migrations',
  ],
  [
    'src/store/migrations/0099-x.ts',
    "import { OPEN_CV } from '../dialect/lists.js';\nexport { OPEN_CV };",
    'layers/frozen-migrations',
  ],
  [
    'src/store/migrations/0099-x.ts',
    "import { sql } from 'kysely';\nimport type { Engine } from '../dialect/dialect.js';\nexport const f = (e: Engine) => sql`select ${e}`;",
    null,
  ],
  ['src/store/migrations/index.ts', "import { up } from './0099-x.js';\nexport { up };", null],

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
