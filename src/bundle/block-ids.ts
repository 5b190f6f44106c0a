import type { ContentTypeDef, FieldValues } from '../content/model.js';
import { newId } from '../lib/ids.js';
import { isObject } from '../lib/problems.js';

/**
 * The field values with every block complete: an `id` (`blk_`, generated where the bundle has none, spec 2.2) and
 * `fields` (`{}` where left out), in blocks fields at any depth (a block's own blocks fields included). Walks the
 * values along the type's field definitions, so only blocks are touched: never a rich-text node or a link.
 */
export function assignBlockIds(
  values: FieldValues,
  type: ContentTypeDef,
  types: ReadonlyMap<string, ContentTypeDef>,
): FieldValues {
  const defs = new Map(type.fields.map((f) => [f.key, f]));
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => {
      const def = defs.get(key);
      if (def?.type !== 'blocks' || value === null) return [key, value];
      if (!def.localized) return [key, blocksWithIds(value, types)];
      if (!isObject(value)) return [key, value];
      return [key, Object.fromEntries(Object.entries(value).map(([l, v]) => [l, blocksWithIds(v, types)]))];
    }),
  );
}

function blocksWithIds(value: unknown, types: ReadonlyMap<string, ContentTypeDef>): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((block: unknown) => {
    if (!isObject(block)) return block;
    const type = typeof block.type === 'string' ? types.get(block.type) : undefined;
    const fields = isObject(block.fields) ? block.fields : {};
    return {
      ...block,
      id: typeof block.id === 'string' ? block.id : newId('blk'),
      fields: type ? assignBlockIds(fields, type, types) : fields,
    };
  });
}
