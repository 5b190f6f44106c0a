import type { ContentTypeDef, FieldDef } from '../content/model.js';
import { at, isDate, isObject, isTimestamp, type Problems } from '../lib/problems.js';

/** What field values may refer to; filled from the whole bundle before fields are checked. */
export interface FieldContext {
  locales: ReadonlySet<string>;
  types: ReadonlyMap<string, ContentTypeDef>;
  entryTypes: ReadonlyMap<string, string>;
  assets: ReadonlySet<string>;
  lists: ReadonlyMap<string, ReadonlySet<string>>;
  problems: Problems;
}

const LINK_KINDS = new Set(['url', 'entry', 'email', 'asset']);

export function checkFields(values: unknown, type: ContentTypeDef, path: string, ctx: FieldContext): void {
  if (!isObject(values)) {
    ctx.problems.add(path, 'must be an object keyed by field key');
    return;
  }
  const defs = new Map(type.fields.map((f) => [f.key, f]));
  for (const [key, value] of Object.entries(values)) {
    const def = defs.get(key);
    if (!def) {
      ctx.problems.add(at(path, key), `is not a field of type "${type.key}"`);
      continue;
    }
    checkField(value, def, at(path, key), ctx);
  }
}

function checkField(value: unknown, def: FieldDef, path: string, ctx: FieldContext): void {
  if (value === null) return;
  // Dictionaries are translated per key, never as a whole (spec 2.2).
  if (def.localized && def.type !== 'dictionary') {
    if (!isObject(value)) {
      ctx.problems.add(path, 'is localized: must be an object keyed by locale');
      return;
    }
    for (const [locale, v] of Object.entries(value)) {
      if (!ctx.locales.has(locale))
        ctx.problems.add(at(path, locale), `"${locale}" is not a locale of the space`);
      else if (v !== null) checkValue(v, def, at(path, locale), ctx);
    }
    return;
  }
  checkValue(value, def, path, ctx);
}

function checkValue(value: unknown, def: FieldDef, path: string, ctx: FieldContext): void {
  const p = ctx.problems;
  switch (def.type) {
    case 'text':
    case 'textarea':
      if (typeof value !== 'string') p.add(path, 'must be a string');
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) p.add(path, 'must be a finite number');
      return;
    case 'boolean':
      if (typeof value !== 'boolean') p.add(path, 'must be true or false');
      return;
    case 'date':
      if (!isDate(value)) p.add(path, 'must be a date YYYY-MM-DD');
      return;
    case 'datetime':
      if (!isTimestamp(value)) p.add(path, 'must be an ISO 8601 UTC timestamp');
      return;
    case 'richtext':
      checkRichText(value, path, ctx);
      return;
    case 'link':
      checkLink(value, path, ctx);
      return;
    case 'asset':
      checkAssetRef(value, path, ctx);
      return;
    case 'assets':
      if (!Array.isArray(value)) p.add(path, 'must be an array of assets');
      else value.forEach((v, i) => checkAssetRef(v, at(path, i), ctx));
      return;
    case 'blocks':
      checkBlocks(value, def, path, ctx);
      return;
    case 'reference':
      checkReference(value, def, path, ctx);
      return;
    case 'dictionary':
      if (!isObject(value)) {
        p.add(path, 'must be an object of key → { locale: text }');
        return;
      }
      for (const [k, texts] of Object.entries(value)) {
        if (!isObject(texts)) p.add(at(path, k), 'must be an object keyed by locale');
        else
          for (const [locale, t] of Object.entries(texts)) {
            if (!ctx.locales.has(locale))
              p.add(at(at(path, k), locale), `"${locale}" is not a locale of the space`);
            else if (typeof t !== 'string') p.add(at(at(path, k), locale), 'must be a string');
          }
      }
      return;
    case 'seo':
      if (!isObject(value)) {
        p.add(path, 'must be an object with title, description, image, noindex');
        return;
      }
      for (const k of Object.keys(value)) {
        if (!['title', 'description', 'image', 'noindex'].includes(k))
          p.add(at(path, k), 'is not an seo member');
      }
      if (value.title !== undefined && typeof value.title !== 'string')
        p.add(at(path, 'title'), 'must be a string');
      if (value.description !== undefined && typeof value.description !== 'string')
        p.add(at(path, 'description'), 'must be a string');
      if (value.noindex !== undefined && typeof value.noindex !== 'boolean')
        p.add(at(path, 'noindex'), 'must be true or false');
      if (value.image !== undefined && value.image !== null)
        checkAssetRef(value.image, at(path, 'image'), ctx);
      return;
    case 'option': {
      if (typeof value !== 'string') {
        p.add(path, 'must be an option value (string)');
        return;
      }
      const allowed = def.list ? ctx.lists.get(def.list) : new Set((def.options ?? []).map((o) => o.value));
      if (allowed && !allowed.has(value)) p.add(path, `"${value}" is not one of the field's options`);
      return;
    }
    case 'form':
      if (typeof value !== 'string' && !(isObject(value) && typeof value.form === 'string'))
        p.add(path, 'must be a form key or { form: key }');
      return;
  }
}

function checkAssetRef(value: unknown, path: string, ctx: FieldContext): void {
  const id = typeof value === 'string' ? value : isObject(value) ? value.asset : undefined;
  if (typeof id !== 'string') {
    ctx.problems.add(path, 'must be an asset id or { asset, alt?, crop? }');
    return;
  }
  if (!ctx.assets.has(id)) ctx.problems.add(path, `asset "${id}" is not in the bundle`);
  if (isObject(value) && value.crop !== undefined && value.crop !== null) {
    const c = value.crop;
    const ok =
      isObject(c) &&
      ['x', 'y', 'width', 'height'].every((k) => typeof c[k] === 'number' && c[k] >= 0 && c[k] <= 1) &&
      Number(c.x) + Number(c.width) <= 1 + 1e-9 &&
      Number(c.y) + Number(c.height) <= 1 + 1e-9 &&
      Number(c.width) > 0 &&
      Number(c.height) > 0;
    if (!ok)
      ctx.problems.add(at(path, 'crop'), 'must be { x, y, width, height } as fractions of the original');
  }
}

function checkEntryRef(id: unknown, path: string, ctx: FieldContext, allowed?: readonly string[]): void {
  if (typeof id !== 'string') {
    ctx.problems.add(path, 'must be an entry id');
    return;
  }
  const type = ctx.entryTypes.get(id);
  if (type === undefined) ctx.problems.add(path, `entry "${id}" is not in the bundle`);
  else if (allowed && allowed.length > 0 && !allowed.includes(type))
    ctx.problems.add(path, `entry "${id}" is a "${type}", expected one of ${allowed.join(', ')}`);
}

function checkLink(value: unknown, path: string, ctx: FieldContext): void {
  if (!isObject(value) || typeof value.kind !== 'string' || !LINK_KINDS.has(value.kind)) {
    ctx.problems.add(path, 'must be a link { kind: url|entry|email|asset, … }');
    return;
  }
  if (value.kind === 'url') {
    if (typeof value.url !== 'string' || !/^(https?:\/\/|\/|#)/.test(value.url))
      ctx.problems.add(at(path, 'url'), 'must be an http(s) URL, a site path or a fragment');
  } else if (value.kind === 'entry') checkEntryRef(value.entry, at(path, 'entry'), ctx);
  else if (value.kind === 'email') {
    if (typeof value.email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(value.email))
      ctx.problems.add(at(path, 'email'), 'must be an email address');
  } else checkAssetRef(value.asset, at(path, 'asset'), ctx);
}

function checkReference(value: unknown, def: FieldDef, path: string, ctx: FieldContext): void {
  if (def.many) {
    if (!Array.isArray(value)) ctx.problems.add(path, 'must be an array of entry ids');
    else value.forEach((v, i) => checkEntryRef(v, at(path, i), ctx, def.to));
  } else checkEntryRef(value, path, ctx, def.to);
}

function checkBlocks(value: unknown, def: FieldDef, path: string, ctx: FieldContext): void {
  if (!Array.isArray(value)) {
    ctx.problems.add(path, 'must be an array of blocks');
    return;
  }
  value.forEach((block, i) => {
    const bp = at(path, i);
    if (!isObject(block) || typeof block.type !== 'string') {
      ctx.problems.add(bp, 'must be a block { id?, type, fields }');
      return;
    }
    if (
      block.id !== undefined &&
      (typeof block.id !== 'string' || !/^blk_[A-Za-z0-9_-]{1,64}$/.test(block.id))
    )
      ctx.problems.add(at(bp, 'id'), 'must be a blk_ id');
    const type = ctx.types.get(block.type);
    if (!type || type.kind !== 'block')
      ctx.problems.add(at(bp, 'type'), `"${block.type}" is not a block type`);
    else if (def.blocks && !def.blocks.includes(block.type))
      ctx.problems.add(
        at(bp, 'type'),
        `"${block.type}" is not allowed here (allowed: ${def.blocks.join(', ')})`,
      );
    else checkFields(block.fields ?? {}, type, at(bp, 'fields'), ctx);
  });
}

function checkRichText(value: unknown, path: string, ctx: FieldContext): void {
  if (!isObject(value) || value.type !== 'doc' || !Array.isArray(value.content)) {
    ctx.problems.add(path, 'must be a rich-text document { type: "doc", content: [...] }');
    return;
  }
  const walk = (node: unknown, p: string, depth: number): void => {
    if (depth > 50) {
      ctx.problems.add(p, 'is nested too deeply');
      return;
    }
    if (!isObject(node) || typeof node.type !== 'string') {
      ctx.problems.add(p, 'must be a node { type, content?, text? }');
      return;
    }
    if (node.text !== undefined && typeof node.text !== 'string')
      ctx.problems.add(at(p, 'text'), 'must be a string');
    if (Array.isArray(node.marks)) {
      node.marks.forEach((m, i) => {
        if (isObject(m) && m.type === 'link' && isObject(m.attrs))
          checkLink(m.attrs, at(at(at(p, 'marks'), i), 'attrs'), ctx);
      });
    }
    if (node.content !== undefined) {
      if (!Array.isArray(node.content)) ctx.problems.add(at(p, 'content'), 'must be an array');
      else node.content.forEach((c, i) => walk(c, at(at(p, 'content'), i), depth + 1));
    }
  };
  value.content.forEach((c, i) => walk(c, at(at(path, 'content'), i), 1));
}
