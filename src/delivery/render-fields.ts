import { type Crop, parseContentCrop } from '../lib/crop.js';
import { pickLocalized } from '../content/locales.js';
import { own } from '../lib/own.js';
import type { AssetDoc, ContentTypeDef, EntrySnapshot, FieldDef, TypeMap } from '../content/model.js';

/** Everything rendering needs, loaded before rendering starts; rendering itself does no I/O. */
export interface RenderContext {
  chain: readonly string[];
  types: TypeMap;
  assets: ReadonlyMap<string, AssetDoc>;
  /** Entries visible in this view that the rendered fields may point at. */
  entries: ReadonlyMap<string, EntrySnapshot>;
  /** The asset's url; with a crop, signed (spec 2.3 rule 2). */
  assetUrl: (asset: AssetDoc, crop?: Crop | null) => string;
  /** Delivered forms by key (spec 2.9); a form field whose form is absent delivers `definition: null`. */
  forms?: ReadonlyMap<string, unknown>;
}

/** The ids a set of field values points at, gathered before loading them. */
export interface Needs {
  assets: Set<string>;
  /** Entries named by links (for included.links). */
  links: Set<string>;
  /** Entries named by reference fields, keyed by the field key (for include). */
  refs: Map<string, Set<string>>;
  /** Form keys named by form fields. */
  forms: Set<string>;
}

export const emptyNeeds = (): Needs => ({
  assets: new Set(),
  links: new Set(),
  refs: new Map(),
  forms: new Set(),
});

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Walks raw field values of `type` (every locale: what a locale shows is decided at render time). */
export function collectNeeds(
  fields: Record<string, unknown>,
  type: ContentTypeDef,
  types: TypeMap,
  needs: Needs,
): void {
  for (const def of type.fields) {
    const raw = own(fields, def.key);
    if (raw === undefined || raw === null) continue;
    const values = def.localized && def.type !== 'dictionary' && isObj(raw) ? Object.values(raw) : [raw];
    for (const v of values) collectValue(v, def, types, needs);
  }
}

function collectAsset(v: unknown, needs: Needs): void {
  const id = typeof v === 'string' ? v : isObj(v) ? v.asset : undefined;
  if (typeof id === 'string') needs.assets.add(id);
}

function collectLink(v: unknown, needs: Needs): void {
  if (!isObj(v)) return;
  if (v.kind === 'entry' && typeof v.entry === 'string') needs.links.add(v.entry);
  if (v.kind === 'asset') collectAsset(v.asset, needs);
}

function collectValue(v: unknown, def: FieldDef, types: TypeMap, needs: Needs): void {
  if (v === null || v === undefined) return;
  switch (def.type) {
    case 'asset':
      collectAsset(v, needs);
      break;
    case 'assets':
      if (Array.isArray(v)) for (const a of v) collectAsset(a, needs);
      break;
    case 'seo':
      if (isObj(v)) collectAsset(v.image, needs);
      break;
    case 'link':
      collectLink(v, needs);
      break;
    case 'reference': {
      const ids = Array.isArray(v) ? v : [v];
      let set = needs.refs.get(def.key);
      if (!set) needs.refs.set(def.key, (set = new Set()));
      for (const id of ids) if (typeof id === 'string') set.add(id);
      break;
    }
    case 'richtext':
      walkRichText(v, (mark) => collectLink(mark, needs));
      break;
    case 'form': {
      const key = formKeyOf(v);
      if (key !== null) needs.forms.add(key);
      break;
    }
    case 'blocks':
      if (Array.isArray(v))
        for (const block of v) {
          const bt = isObj(block) && typeof block.type === 'string' ? types.get(block.type) : undefined;
          if (bt && isObj(block) && isObj(block.fields)) collectNeeds(block.fields, bt, types, needs);
        }
      break;
    default:
      break;
  }
}

/** A form field holds the form key, or `{ form: key }`. */
function formKeyOf(v: unknown): string | null {
  const key = typeof v === 'string' ? v : isObj(v) ? v.form : null;
  return typeof key === 'string' ? key : null;
}

function walkRichText(node: unknown, onLink: (attrs: unknown) => void): void {
  if (!isObj(node)) return;
  if (Array.isArray(node.marks))
    for (const m of node.marks) if (isObj(m) && m.type === 'link') onLink(m.attrs);
  if (Array.isArray(node.content)) for (const c of node.content) walkRichText(c, onLink);
}

// ---- rendering ----------------------------------------------------------------------------------------

export function renderFields(
  fields: Record<string, unknown>,
  type: ContentTypeDef,
  ctx: RenderContext,
  only?: ReadonlySet<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of type.fields) {
    if (only && !only.has(def.key)) continue;
    out[def.key] = renderField(own(fields, def.key), def, ctx);
  }
  return out;
}

function renderField(raw: unknown, def: FieldDef, ctx: RenderContext): unknown {
  if (def.type === 'dictionary') return renderDictionary(raw, ctx.chain);
  const value = def.localized ? pickLocalized(isObj(raw) ? raw : undefined, ctx.chain) : raw;
  return renderValue(value ?? null, def, ctx);
}

function renderDictionary(raw: unknown, chain: readonly string[]): Record<string, string> {
  if (!isObj(raw)) return {};
  const out: [string, string][] = [];
  for (const [key, texts] of Object.entries(raw)) {
    // spec 2.2: each key falls back on its own along the chain.
    const text = pickLocalized(isObj(texts) ? (texts as Record<string, string>) : undefined, chain);
    if (typeof text === 'string') out.push([key, text]);
  }
  // fromEntries defines each key: an authored `__proto__` stays a key, where `out[key] =` set the prototype.
  return Object.fromEntries(out);
}

const LIST_TYPES = new Set(['assets', 'blocks']);

function renderValue(v: unknown, def: FieldDef, ctx: RenderContext): unknown {
  if (v === null) return LIST_TYPES.has(def.type) || (def.type === 'reference' && def.many) ? [] : null;
  switch (def.type) {
    case 'asset':
      return renderAsset(v, ctx);
    case 'assets':
      return Array.isArray(v) ? v.map((a) => renderAsset(a, ctx)).filter((a) => a !== null) : [];
    case 'seo': {
      if (!isObj(v)) return null;
      return {
        title: typeof v.title === 'string' ? v.title : null,
        description: typeof v.description === 'string' ? v.description : null,
        image: v.image === undefined || v.image === null ? null : renderAsset(v.image, ctx),
        noindex: v.noindex === true,
      };
    }
    case 'link':
      return renderLink(v, ctx);
    case 'reference': {
      // Only entries visible in this view are delivered; the rest would be dead ends.
      const ids = (Array.isArray(v) ? v : [v]).filter(
        (id): id is string => typeof id === 'string' && ctx.entries.has(id),
      );
      return def.many ? ids : (ids[0] ?? null);
    }
    case 'richtext':
      return renderRichText(v, ctx);
    case 'blocks':
      if (!Array.isArray(v)) return [];
      return v.flatMap((block) => {
        if (!isObj(block) || typeof block.type !== 'string') return [];
        const bt = ctx.types.get(block.type);
        if (!bt) return [];
        return [
          {
            id: block.id,
            type: block.type,
            fields: renderFields(isObj(block.fields) ? block.fields : {}, bt, ctx),
          },
        ];
      });
    case 'form': {
      // spec 2.9: the form key and the form in the entry's locale, or null when the form was deleted.
      const key = formKeyOf(v);
      return { form: key, definition: (key !== null && ctx.forms?.get(key)) || null };
    }
    default:
      return v;
  }
}

function renderLink(v: unknown, ctx: RenderContext): unknown {
  if (!isObj(v)) return null;
  if (v.kind === 'asset') {
    const asset = renderAsset(v.asset, ctx);
    return asset ? { kind: 'asset', asset: asset.asset, url: asset.url } : null;
  }
  return v;
}

function renderRichText(v: unknown, ctx: RenderContext): unknown {
  if (!isObj(v)) return null;
  const walk = (node: unknown): unknown => {
    if (!isObj(node)) return node;
    const out: Record<string, unknown> = { ...node };
    if (Array.isArray(node.marks))
      out.marks = node.marks.map((m) =>
        isObj(m) && m.type === 'link' && isObj(m.attrs) ? { ...m, attrs: renderLink(m.attrs, ctx) } : m,
      );
    if (Array.isArray(node.content)) out.content = node.content.map(walk);
    return out;
  };
  return walk(v);
}

interface DeliveredAsset {
  asset: string;
  url: string;
  filename: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  focal: { x: number; y: number } | null;
  crop: Crop | null;
  alt: string | null;
  title: string | null;
  credit: string | null;
  placeholder: string | null;
  color: string | null;
}

function renderAsset(ref: unknown, ctx: RenderContext): DeliveredAsset | null {
  const id = typeof ref === 'string' ? ref : isObj(ref) ? ref.asset : undefined;
  const doc = typeof id === 'string' ? ctx.assets.get(id) : undefined;
  if (!doc) return null;
  const usage = isObj(ref) ? ref : {};
  // A usage's own alt text wins locale by locale; where it has none, the asset's text in that locale does.
  const altOverride = isObj(usage.alt) ? (usage.alt as Record<string, string>) : {};
  let alt: string | null = null;
  for (const code of ctx.chain) {
    const text = own(altOverride, code) ?? own(doc.alt, code);
    if (typeof text === 'string' && text !== '') {
      alt = text;
      break;
    }
  }
  // Checked, never cast: a malformed crop in content delivers as no crop (and an unsigned url).
  const crop = parseContentCrop(usage.crop);
  let { width, height, focal } = doc;
  if (crop && width !== null && height !== null) {
    // spec 2.3 rule 2: width, height and focal describe the cropped image.
    width = Math.round(width * crop.width);
    height = Math.round(height * crop.height);
    if (focal) {
      const fx = (focal.x - crop.x) / crop.width;
      const fy = (focal.y - crop.y) / crop.height;
      focal = { x: clamp01(fx), y: clamp01(fy) };
    }
  }
  return {
    asset: doc.id,
    url: ctx.assetUrl(doc, crop),
    filename: doc.filename,
    mime: doc.mime,
    size: doc.size,
    width,
    height,
    focal,
    crop,
    alt,
    title: pickLocalized(doc.title, ctx.chain) ?? null,
    credit: doc.credit,
    placeholder: doc.placeholder,
    color: doc.color,
  };
}

const clamp01 = (n: number): number => Math.round(Math.min(1, Math.max(0, n)) * 10000) / 10000;
