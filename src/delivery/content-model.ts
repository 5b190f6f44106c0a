import { type ContentTypeDef, type FieldDef, FIELD_TYPES, hasPaths, TYPE_KINDS } from '../content/model.js';
import { object, S } from '../lib/api-schema.js';
import type { Scope } from './delivery-service.js';

/** A field of the content model as `GET /types` delivers it: every setting, flags always present. */
export type ModelField = {
  key: string;
  type: FieldDef['type'];
  localized: boolean;
  required: boolean;
  blocks?: string[];
  to?: string[];
  many?: boolean;
  options?: { value: string; label: Record<string, string> }[];
  list?: string;
};

export type ModelType = {
  key: string;
  kind: ContentTypeDef['kind'];
  name: string;
  /** Whether entries of the type have paths (pages, folders, page collections). */
  pages: boolean;
  fields: ModelField[];
};

function modelField(def: FieldDef): ModelField {
  return {
    key: def.key,
    type: def.type,
    localized: def.localized === true,
    required: def.required === true,
    ...(def.blocks === undefined ? {} : { blocks: [...def.blocks] }),
    ...(def.to === undefined ? {} : { to: [...def.to] }),
    ...(def.type === 'reference' ? { many: def.many === true } : {}),
    ...(def.options === undefined
      ? {}
      : { options: def.options.map((o) => ({ value: o.value, label: { ...o.label } })) }),
    ...(def.list === undefined ? {} : { list: def.list }),
  };
}

/** Types as `GET /types` delivers them, sorted by key. */
export function modelTypes(types: Iterable<ContentTypeDef>): ModelType[] {
  return [...types]
    .map((t): ModelType => ({
      key: t.key,
      kind: t.kind,
      name: t.name ?? t.key,
      pages: hasPaths(t),
      fields: t.fields.map(modelField),
    }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The space's content model in the scope's view (its cv, a draft or a release). */
export async function contentModel(scope: Scope): Promise<{ types: ModelType[]; cv: number }> {
  return { types: modelTypes((await scope.view.types()).values()), cv: scope.view.cv };
}

const modelFieldSchema = object(
  {
    key: S.string,
    type: { type: 'string', enum: [...FIELD_TYPES] },
    localized: S.boolean,
    required: S.boolean,
    blocks: S.describe(S.strings, 'Block fields: the block types allowed.'),
    to: S.describe(S.strings, 'Reference fields: the entry types allowed.'),
    many: S.describe(S.boolean, 'Reference fields: whether the value is a list of ids.'),
    options: S.arrayOf(
      object({ value: S.string, label: S.mapOf(S.string, 'The label by locale.') }),
      'Option fields with inline options.',
    ),
    list: S.describe(S.string, 'Option fields on a shared option list (`GET /lists/<key>`).'),
  },
  ['key', 'type', 'localized', 'required'],
);

/** `GET /types` (docs/api.md "GET /types"). */
export const contentModelBody = object({
  types: S.arrayOf(
    object({
      key: S.string,
      kind: { type: 'string', enum: [...TYPE_KINDS] },
      name: S.string,
      pages: S.describe(
        S.boolean,
        'Whether entries of the type have paths (pages, folders, page collections).',
      ),
      fields: S.arrayOf(modelFieldSchema),
    }),
    'Content, global, folder and block types, by key.',
  ),
  cv: S.cv,
});
