import { existsSync } from 'node:fs';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateToken, hashToken, tokenHint } from '../auth/tokens.js';
import { importBundle } from '../bundle/import-bundle.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../lib/file-modes.js';
import { newId } from '../lib/ids.js';
import { listSpaceIds } from '../store/spaces-repo.js';
import { insertToken, type TokenKind } from '../store/tokens-repo.js';
import type { Runtime } from './runtime.js';

export const DEMO_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'demo');

export interface DemoTokens {
  spaceId: string;
  public: string;
  preview: string;
  management: string;
}

/** The demo space's tokens, and whether this start made them (only then are they printed). */
export interface DemoState {
  tokens: DemoTokens;
  created: boolean;
}

/**
 * On an empty store, imports the demo space and creates its tokens. Token values are kept in the data dir (the
 * operator's private folder, 0600) for the example site and tools; the store itself keeps only hashes. They are
 * printed once, when made: a log collector keeps what every later start would print.
 */
export async function ensureDemo(rt: Runtime): Promise<DemoState | null> {
  const file = join(rt.config.dataDir, 'demo-tokens.json');
  if ((await listSpaceIds(rt.store)).length > 0) {
    return existsSync(file)
      ? { tokens: JSON.parse(await readFile(file, 'utf8')) as DemoTokens, created: false }
      : null;
  }
  const bundle: unknown = JSON.parse(await readFile(join(DEMO_DIR, 'bundle.json'), 'utf8'));
  const { spaceId } = await importBundle(rt.store, rt.blobs, bundle, { baseDir: DEMO_DIR });
  const tokens = { spaceId } as DemoTokens;
  const now = new Date().toISOString();
  for (const kind of ['public', 'preview', 'management'] as TokenKind[]) {
    const value = generateToken(kind);
    await insertToken(rt.store.db, {
      id: newId('tok'),
      spaceId,
      kind,
      hash: hashToken(value),
      hint: tokenHint(value),
      name: `demo ${kind}`,
      origins: [],
      createdAt: now,
    });
    tokens[kind] = value;
  }
  await mkdir(rt.config.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await writeFile(file, `${JSON.stringify(tokens, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  return { tokens, created: true };
}

/** A later start's line about the demo space: where its tokens are, not their values. */
export function demoKeptLine(spaceId: string, dataDir: string): string {
  return `Demo space ${spaceId}: its tokens were printed when they were made and are kept in ${join(dataDir, 'demo-tokens.json')}.`;
}

export function demoBanner(baseUrl: string, t: DemoTokens): string {
  const api = `${baseUrl}/v1/${t.spaceId}`;
  return [
    '',
    `Folio is serving ${baseUrl}`,
    `Demo space ${t.spaceId}`,
    `  public token:     ${t.public}`,
    `  preview token:    ${t.preview}`,
    `  management token: ${t.management}`,
    '',
    'Try:',
    `  curl -s '${api}/entries/by-path/ueber-uns?locale=de&token=${t.public}'`,
    `  curl -s -H 'Authorization: Bearer ${t.public}' '${api}/globals?keys=footer,settings&locale=de-ch'`,
    `  curl -s -H 'Authorization: Bearer ${t.preview}' '${api}/entries/by-path/blog/hello-world?draft=1'`,
    `  curl -s '${api}/search?q=meet%20other%20users%20in%20the%20mountains&token=${t.public}'`,
    '',
  ].join('\n');
}
