import { basename } from 'node:path';
import type { BundleList, CheckedAsset } from './format.js';
import { copyTexts } from './json-value.js';
import { at, isObject, KEY, type Problems } from '../lib/problems.js';
import { checkLabel, parseOptions } from './validate-types.js';

const ASSET_ID = /^ast_[A-Za-z0-9_-]{1,64}$/;
// A file name as delivered in URLs and downloads: one segment, no control characters, a bounded length.
const FILENAME = /^[^/\\\p{Cc}]{1,255}$/u;

/**
 * The bundle's `assets`, defaults applied: `filename` the file's own name, `alt` and `title` `{}`, `credit` and
 * `focal` null. The file itself is read by the import (it must exist and stay inside the bundle folder).
 */
export function parseAssets(
  raw: readonly Record<string, unknown>[],
  locales: ReadonlySet<string>,
  p: Problems,
): CheckedAsset[] {
  const ids = new Set<string>();
  return raw.flatMap((a, i) => {
    const before = p.count;
    const ap = at('assets', i);
    const { id, file, filename, alt, title, credit, focal } = a;
    if (typeof id !== 'string' || !ASSET_ID.test(id)) p.add(at(ap, 'id'), 'must be an ast_ id');
    else if (ids.has(id)) p.add(at(ap, 'id'), `duplicate asset id "${id}"`);
    else ids.add(id);
    if (
      typeof file !== 'string' ||
      file === '' ||
      file.length > 1024 ||
      file.includes('\0') ||
      file.startsWith('/') ||
      file.split(/[\\/]/).includes('..')
    )
      p.add(at(ap, 'file'), 'must be a relative path inside the bundle folder');
    if (filename !== undefined && (typeof filename !== 'string' || !FILENAME.test(filename)))
      p.add(at(ap, 'filename'), 'must be a file name (no slashes, at most 255 characters)');
    if (alt !== undefined) checkLabel(alt, at(ap, 'alt'), locales, p);
    if (title !== undefined) checkLabel(title, at(ap, 'title'), locales, p);
    if (credit !== undefined && credit !== null && typeof credit !== 'string')
      p.add(at(ap, 'credit'), 'must be a string or null');
    if (focal !== undefined && focal !== null && !isFraction2(focal))
      p.add(at(ap, 'focal'), 'must be { x, y } with fractions 0..1');
    if (p.count !== before || typeof id !== 'string' || typeof file !== 'string') return [];
    const name = typeof filename === 'string' ? filename : basename(file);
    return [
      {
        id,
        file,
        filename: FILENAME.test(name) ? name : 'file',
        alt: isObject(alt) ? copyTexts(alt) : {},
        title: isObject(title) ? copyTexts(title) : {},
        credit: typeof credit === 'string' ? credit : null,
        focal: isFraction2(focal) ? { x: focal.x, y: focal.y } : null,
      },
    ];
  });
}

function isFraction2(v: unknown): v is { x: number; y: number } {
  return isObject(v) && [v.x, v.y].every((n) => typeof n === 'number' && n >= 0 && n <= 1);
}

/** The bundle's option `lists`: `{ key, name?, options: [{ value, label }] }`, values unique in a list. */
export function parseLists(
  raw: readonly Record<string, unknown>[],
  locales: ReadonlySet<string>,
  p: Problems,
): BundleList[] {
  const keys = new Set<string>();
  return raw.flatMap((l, i) => {
    const before = p.count;
    const lp = at('lists', i);
    if (typeof l.key !== 'string' || !KEY.test(l.key))
      p.add(at(lp, 'key'), 'must be a key (letters, digits, _ -)');
    else if (keys.has(l.key)) p.add(at(lp, 'key'), `duplicate list "${l.key}"`);
    else keys.add(l.key);
    if (l.name !== undefined && typeof l.name !== 'string') p.add(at(lp, 'name'), 'must be a string');
    const options = parseOptions(l.options, at(lp, 'options'), locales, p);
    if (p.count !== before || typeof l.key !== 'string' || !options) return [];
    return [{ key: l.key, ...(typeof l.name === 'string' ? { name: l.name } : {}), options }];
  });
}
