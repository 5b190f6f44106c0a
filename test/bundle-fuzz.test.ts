// Bundle validation returns a normalised bundle, and a bad bundle never gets past it. Every JSON
// path of the fixture and demo bundles is replaced with junk (null, numbers, strings, {}, [], 100 KB, 200 nested
// arrays, or deleted): validation never throws; the import succeeds or throws a BundleError naming JSON paths,
// never another error; and a failed import leaves the store and the blob directory as they were (STYLE.md 13).
// `FOLIO_FUZZ_RUNS` mutations on SQLite (default 200); a handful on PostgreSQL.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleError, importBundle } from '../src/bundle/import-bundle.js';
import { validateBundle } from '../src/bundle/validate-bundle.js';
import { DEMO_DIR } from '../src/cli/demo.js';
import { listSpaceIds } from '../src/store/spaces-repo.js';
import { type Engine, openTestEnv, type TestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir } from './helpers/fixture.js';

const RUNS = Number(process.env.FOLIO_FUZZ_RUNS ?? 200);
const PG_RUNS = Number(process.env.FOLIO_FUZZ_PG_RUNS ?? 8);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = (string | number)[];

/** Every member of every object and element of every array, recursively. */
function pathsOf(value: Json, prefix: Path = [], out: Path[] = []): Path[] {
  const children: [string | number, Json][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : value !== null && typeof value === 'object'
      ? Object.entries(value)
      : [];
  for (const [k, v] of children) {
    out.push([...prefix, k]);
    pathsOf(v, [...prefix, k], out);
  }
  return out;
}

/** Paths grouped by their top-level member. */
function groupBy(paths: Path[]): Path[][] {
  const groups = new Map<string | number, Path[]>();
  for (const p of paths) groups.set(p[0]!, [...(groups.get(p[0]!) ?? []), p]);
  return [...groups.values()];
}

const deep = (levels: number): Json => {
  let v: Json = [];
  for (let i = 1; i < levels; i++) v = [v];
  return v;
};

/** What a member is replaced with; `undefined` deletes it. */
const REPLACEMENTS: Record<string, () => Json | undefined> = {
  null: () => null,
  zero: () => 0,
  negative: () => -1,
  fraction: () => 0.5,
  huge_number: () => 1e300,
  int_overflow: () => 2 ** 31,
  true: () => true,
  empty_string: () => '',
  string: () => 'x',
  id_like: () => 'ent_home',
  object: () => ({}),
  array: () => [],
  huge_string: () => 'é'.repeat(50_000) + 'x'.repeat(2_000),
  nested_array: () => deep(200),
  deleted: () => undefined,
};

function mutate(base: Json, path: Path, kind: string): Json {
  const copy = structuredClone(base);
  let parent: Json = copy;
  for (const seg of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[seg] as Json;
  const last = path[path.length - 1] as string | number;
  const value = REPLACEMENTS[kind]!();
  if (value !== undefined) (parent as Record<string | number, Json>)[last] = value;
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete (parent as Record<string, Json>)[last];
  return copy;
}

const TABLES = [
  'spaces',
  'tokens',
  'content_types',
  'entries',
  'entry_versions',
  'entry_paths',
  'assets',
  'docs',
  'doc_versions',
  'list_entries',
  'list_values',
  'list_rows',
  'redirects',
  'webhooks',
  'outbox',
] as const;

/** Row counts of the tables an import writes (with the space ids), and every blob file with its digest. */
async function snapshot(env: TestEnv): Promise<unknown> {
  const counts: Record<string, number> = {};
  for (const t of TABLES) {
    const row = await env.store.db
      .selectFrom(t)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    counts[t] = Number(row.n);
  }
  return { spaces: await listSpaceIds(env.store), counts, blobs: blobFiles(join(env.dataDir, 'blobs')) };
}

function blobFiles(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    let items;
    try {
      items = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of items) {
      const full = join(dir, d.name);
      if (d.isDirectory()) walk(full);
      else out[relative(root, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(root);
  return out;
}

const PATH_OF_PROBLEM = /^(\$|[A-Za-z_][\w-]*)([.[]|$)/;

interface Base {
  name: string;
  bundle: Json;
  dir: string;
  paths: Path[];
}

/**
 * One mutation: validate, then import into `env` (holding nothing but failed imports, or the unmutated base when
 * `replace`). Returns whether the import succeeded (the caller then needs a fresh store).
 */
async function runOne(
  env: TestEnv,
  base: Base,
  path: Path,
  kind: string,
  replace: boolean,
): Promise<boolean> {
  const input = mutate(base.bundle, path, kind);
  const check = validateBundle(input); // (a) never throws
  if (check.ok) {
    // The normalised bundle is itself a valid bundle, and plain JSON.
    expect(JSON.parse(JSON.stringify(check.bundle))).toEqual(check.bundle);
    expect(validateBundle(check.bundle).ok).toBe(true);
  } else expect(check.problems.length).toBeGreaterThan(0);
  const before = await snapshot(env);
  try {
    await importBundle(env.store, env.blobs, input, { baseDir: base.dir, replace });
    return true;
  } catch (err) {
    // (b) only a BundleError, each problem named by its JSON path
    if (!(err instanceof BundleError)) throw err;
    expect(err.problems.length).toBeGreaterThan(0);
    for (const p of err.problems) expect(p.path).toMatch(PATH_OF_PROBLEM);
    // (c) the store and the blob directory are as they were
    expect(await snapshot(env)).toEqual(before);
    return false;
  }
}

function describeFuzz(engine: Engine, runs: number) {
  describe(`bundle fuzz on ${engine}`, () => {
    const bases: Base[] = [];
    let fixtureFolder = '';
    beforeAll(async () => {
      fixtureFolder = await fixtureDir();
      const demo = JSON.parse(readFileSync(join(DEMO_DIR, 'bundle.json'), 'utf8')) as Json;
      const fixture = fixtureBundle() as Json;
      bases.push({ name: 'fixture', bundle: fixture, dir: fixtureFolder, paths: pathsOf(fixture) });
      bases.push({ name: 'demo', bundle: demo, dir: DEMO_DIR, paths: pathsOf(demo) });
    });
    afterAll(() => rmSync(fixtureFolder, { recursive: true, force: true }));

    it(
      `never lets junk past validation (${runs} mutations)`,
      async () => {
        // A store that saw only failed imports is a fresh store (that is what the property checks), so one is
        // opened per success; `replace` runs import over the unmutated base and must leave it intact on failure.
        const envs = new Map<string, TestEnv>();
        const envFor = async (base: Base, replace: boolean) => {
          const key = replace ? base.name : '';
          let env = envs.get(key);
          if (!env) {
            env = await openTestEnv(engine);
            if (replace) await importBundle(env.store, env.blobs, base.bundle, { baseDir: base.dir });
            envs.set(key, env);
          }
          return env;
        };
        // A base, then one of its top-level members, then a path in it: the demo's entries hold most of its paths,
        // and tokens, assets or webhooks would hardly ever be drawn otherwise. Unbiased picks: fast-check leans
        // towards the ends of a range.
        const mutation = fc
          .constantFrom(...bases)
          .chain((base) => fc.constantFrom(...groupBy(base.paths)).map((paths) => ({ base, paths })))
          .chain(({ base, paths }) =>
            fc.record({
              base: fc.constant(base.name),
              path: fc.noBias(fc.integer({ min: 0, max: paths.length - 1 })).map((i) => paths[i]!),
              kind: fc.constantFrom(...Object.keys(REPLACEMENTS)),
              replace: fc.boolean(),
            }),
          );
        const tally = { imported: 0, refused: 0 };
        try {
          await fc.assert(
            fc.asyncProperty(mutation, async ({ base: name, path, kind, replace }) => {
              const base = bases.find((b) => b.name === name)!;
              const env = await envFor(base, replace);
              const ok = await runOne(env, base, path, kind, replace);
              tally[ok ? 'imported' : 'refused']++;
              if (process.env.DEBUG_FUZZ && !ok) console.log(base.name, JSON.stringify(path), kind, replace);
              if (ok) {
                envs.delete(replace ? base.name : '');
                await env.close();
              }
            }),
            { numRuns: runs, endOnFailure: true },
          );
        } finally {
          for (const env of envs.values()) await env.close();
        }
        console.log(`bundle fuzz on ${engine}: ${JSON.stringify(tally)}`);
        // Both sides of the property ran: junk refused, and harmless changes imported.
        if (runs >= 50) expect(Math.min(tally.imported, tally.refused)).toBeGreaterThan(0);
      },
      runs * 1_000 + 60_000,
    );
  });
}

describeFuzz('sqlite', RUNS);
describeFuzz('postgres', PG_RUNS);
