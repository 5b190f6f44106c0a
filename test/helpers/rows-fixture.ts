/**
 * The space of the rows index tests (test/rows-index*.test.ts): a localized type (`thing`, 700 entries) and the same
 * fields with nothing localized (`plain`, 300), values with ties, gaps and text whose UTF-16 order differs from its
 * UTF-8 order, 40 publish times.
 */

export const SPACE = 'spc_rowsidx';
export const TOKEN = 'folio_pub_RowsIndexPublicToken0000001';
export const N = 700;
// Option values whose UTF-16 order differs from their UTF-8 order (U+FB00 against a surrogate pair).
export const COLORS = ['red', 'Red', 'érable', 'zebra', '𝒳wing', 'ﬀlat', 'blue'];
export const SIZES = ['s', 'm', 'l', 'xl'];
const MAKERS = ['ent_mk1', 'ent_mk2', 'ent_mk3'];

const option = (key: string, values: string[], localized = false) => ({
  key,
  type: 'option',
  ...(localized ? { localized: true } : {}),
  options: values.map((value) => ({ value, label: { en: value } })),
});

export const thingType = {
  key: 'thing',
  kind: 'collection',
  pages: false,
  fields: [
    option('size', SIZES),
    option('color', COLORS, true),
    { key: 'maker', type: 'reference', to: ['maker'] },
    { key: 'day', type: 'date' },
    // A fifth string-slotted field finds the four string slots taken: its filters are list_values probes.
    { key: 'flag', type: 'boolean' },
    { key: 'score', type: 'number' },
    { key: 'weight', type: 'number' },
  ],
};

/** Deterministic values with ties, gaps and a localized field missing in one locale now and then. */
function thing(i: number): Record<string, unknown> {
  const pick = <T>(xs: readonly T[], k: number): T => xs[k % xs.length] as T;
  const fields: Record<string, unknown> = {};
  if (i % 11 !== 3) fields.size = pick(SIZES, (i * 7) % 13);
  if (i % 5 !== 1) {
    const en = pick(COLORS, i * 3);
    fields.color = i % 4 === 0 ? { en } : { en, de: pick(COLORS, i * 5 + 1) };
  }
  if (i % 6 !== 2) fields.flag = i % 3 === 0;
  if (i % 7 !== 0) fields.day = `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')}`;
  if (i % 8 !== 5) fields.maker = pick(MAKERS, i);
  if (i % 9 !== 4) fields.score = (i * 37) % 40;
  if (i % 10 !== 6) fields.weight = ((i * 13) % 17) / 4 - 1;
  return fields;
}

// The same fields with nothing localized: one row per version in `*`, so lists without a driving filter (the type
// alone, negations, ranges) are answered from memory too.
export const plainType = {
  ...thingType,
  key: 'plain',
  fields: thingType.fields.map((f) => (f.key === 'color' ? option('color', COLORS) : f)),
};
const PLAIN = 300;

function plain(i: number): Record<string, unknown> {
  const fields = thing(i);
  const color = fields.color as { en: string } | undefined;
  return color ? { ...fields, color: color.en } : fields;
}

/** An entry of the bundle, published at one of 40 times (many ties, which the entry id breaks). */
function entry(id: string, type: string, i: number, time: number, fields: Record<string, unknown>) {
  const at = `2026-03-${String(1 + (time % 20)).padStart(2, '0')}T${time % 2 ? '10' : '11'}:00:00.000Z`;
  const name = `${type} ${i}`;
  return {
    id,
    type,
    name,
    slug: `${type}-${i}`,
    parent: null,
    position: i,
    tags: [],
    published: { at, firstAt: at },
    fields,
  };
}

export function bundle(): Record<string, unknown> {
  return {
    format: 'folio-bundle@1',
    space: {
      id: SPACE,
      name: 'Rows index',
      locales: [{ code: 'en', default: true }, { code: 'de' }],
    },
    tokens: [{ kind: 'public', value: TOKEN }],
    types: [{ key: 'maker', kind: 'collection', pages: false, fields: [] }, thingType, plainType],
    assets: [],
    entries: [
      ...MAKERS.map((id, i) => entry(id, 'maker', i, i, {})),
      ...Array.from({ length: N }, (_, i) =>
        entry(`ent_t${String((i * 7919) % 10007).padStart(5, '0')}`, 'thing', i, i, thing(i)),
      ),
      ...Array.from({ length: PLAIN }, (_, i) =>
        entry(`ent_p${String((i * 31) % 1009).padStart(4, '0')}`, 'plain', i, i * 3, plain(i)),
      ),
    ],
    menus: [],
    redirects: [],
    forms: [],
    webhooks: [],
  };
}
