// The inbox's built files (`npm run build` writes them to dist/inbox-ui/, inbox/scripts/build.ts), read once at
// start and served from memory: a handful of files, none large, each also kept gzipped.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export interface UiFile {
  type: string;
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

export interface UiFiles {
  index: UiFile;
  /** By file name under /inbox/assets/ (names carry a hash of their content: cached for good). */
  assets: ReadonlyMap<string, UiFile>;
}

/** src/inbox/ and dist/inbox/ both sit two folders below the package root, beside which dist/inbox-ui/ is built. */
export const UI_DIR = fileURLToPath(new URL('../../dist/inbox-ui/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

function fileOf(path: string): UiFile {
  const body = readFileSync(path);
  return {
    type: TYPES[extname(path)] ?? 'application/octet-stream',
    body,
    gzip: gzipSync(body, { level: 9 }),
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  };
}

/** The built files, or null when the UI was not built (the routes then answer 503 naming the build). */
export function loadUiFiles(dir = UI_DIR): UiFiles | null {
  const indexPath = join(dir, 'index.html');
  if (!existsSync(indexPath)) return null;
  const assets = new Map<string, UiFile>();
  const assetDir = join(dir, 'assets');
  if (existsSync(assetDir))
    for (const name of readdirSync(assetDir))
      if (!name.endsWith('.map')) assets.set(name, fileOf(join(assetDir, name)));
  return { index: fileOf(indexPath), assets };
}
