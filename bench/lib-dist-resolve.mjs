// The resolve hook of lib-dist-register.mjs: src/**/*.ts → dist/**/*.js, after tsx resolved the specifier.
import { URL } from 'node:url';

const root = new URL('../', import.meta.url).href;
const src = `${root}src/`;
const dist = `${root}dist/`;

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => Promise<{ url: string; format?: string | null }>} next
 */
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (!resolved.url.startsWith(src) || !resolved.url.endsWith('.ts')) return resolved;
  return { ...resolved, url: `${dist}${resolved.url.slice(src.length, -'.ts'.length)}.js`, format: 'module' };
}
