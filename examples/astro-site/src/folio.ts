// The site's Folio space. FOLIO_URL: the service (default http://127.0.0.1:3000, `npm start`); FOLIO_TOKEN: a public
// token whose origins name SITE_ORIGIN (forms posted without JavaScript come back there), else the demo's public
// token from DATA_DIR/demo-tokens.json (default ./data, where `npm start` keeps it).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createFolioSource } from '@folio/astro';

/** The site's locales and their URL prefixes: English at the root, German under /de. */
export const LOCALES = ['en', 'de'];
export const LOCALE_PREFIXES = { en: '', de: '/de' };
export const DEFAULT_LOCALE = 'en';

const baseUrl = (process.env.FOLIO_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');

function demoToken(): string {
  const file = join(resolve(process.env.DATA_DIR ?? '../../data'), 'demo-tokens.json');
  if (!existsSync(file))
    throw new Error(`Set FOLIO_TOKEN, or start Folio with its demo space (${file} not found)`);
  const tokens: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (
    typeof tokens === 'object' &&
    tokens !== null &&
    'public' in tokens &&
    typeof tokens.public === 'string'
  )
    return tokens.public;
  throw new Error(`${file} holds no public token`);
}

const cv = Number(process.env.FOLIO_CV);

export const folio = createFolioSource({
  baseUrl,
  spaceId: process.env.FOLIO_SPACE ?? 'spc_demo',
  token: process.env.FOLIO_TOKEN ?? demoToken(),
  localePrefixes: LOCALE_PREFIXES,
  locales: LOCALES,
  include: ['author'],
  // FOLIO_CV pins a build to a published version (e.g. a webhook's data.cv); else the cv when the build starts.
  ...(Number.isInteger(cv) && cv > 0 ? { cv } : {}),
});
