/**
 * JSON schemas of the management API's request bodies (docs/api.md "Management API"). They check shapes
 * (a failure is 400 `invalid_body`); the domain checks meaning (422 `validation_failed` with JSON paths).
 * Unknown members are errors, not silently dropped: the management scope compiles these strictly.
 */

const str = (maxLength: number, minLength = 0) => ({ type: 'string', minLength, maxLength }) as const;
const obj = (properties: Record<string, unknown>, required: string[] = [], minProperties = 0) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  required,
  ...(minProperties > 0 ? { minProperties } : {}),
});
const localizedTexts = { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 100 };
const position = { type: 'integer', minimum: 0, maximum: 1_000_000_000 };
const fields = { type: 'object' };

export const createEntrySchema = obj(
  {
    id: str(68, 5),
    type: str(64, 1),
    name: str(500, 1),
    slug: str(200),
    slugs: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 100 },
    parent: { type: ['string', 'null'], maxLength: 68 },
    position,
    tags: { type: 'array', items: str(100), maxItems: 100 },
    fields,
  },
  ['type', 'name', 'slug'],
);

export const updateEntrySchema = obj(
  { name: str(500, 1), tags: { type: 'array', items: str(100), maxItems: 100 }, fields },
  [],
  1,
);

export const moveEntrySchema = obj({ parent: { type: ['string', 'null'], maxLength: 68 }, position }, [], 1);

export const renameEntrySchema = obj(
  {
    slug: str(200),
    slugs: { type: 'object', additionalProperties: { type: ['string', 'null'] }, maxProperties: 100 },
  },
  [],
  1,
);

// Menu items are checked in depth by the domain (links, depth, ids); here only their outer shape.
export const saveMenuSchema = obj({ name: str(200, 1), items: { type: 'array', maxItems: 500 } }, [
  'name',
  'items',
]);

const redirectTarget = {
  oneOf: [
    { type: 'null' },
    obj({ kind: { const: 'entry' }, entry: str(68, 1) }, ['kind', 'entry']),
    obj({ kind: { const: 'url' }, url: str(2048, 1) }, ['kind', 'url']),
  ],
};
const redirectMembers = {
  from: str(2048, 1),
  to: redirectTarget,
  status: { type: 'integer', enum: [301, 302, 410] },
  locale: { type: ['string', 'null'], maxLength: 35 },
};
export const createRedirectSchema = obj(redirectMembers, ['from', 'to']);
export const updateRedirectSchema = obj(redirectMembers, [], 1);

export const saveListSchema = obj(
  {
    name: str(200),
    options: {
      type: 'array',
      maxItems: 1000,
      items: obj({ value: str(200, 1), label: localizedTexts }, ['value', 'label']),
    },
  },
  ['options'],
);

const releaseEntries = {
  type: 'array',
  maxItems: 1000,
  items: obj({ id: str(68, 1), fields }, ['id', 'fields']),
};
export const createReleaseSchema = obj({ id: str(68, 5), name: str(200, 1), entries: releaseEntries }, [
  'name',
]);
export const replaceReleaseSchema = obj({ name: str(200, 1), entries: releaseEntries }, ['name', 'entries']);

const events = { type: 'array', minItems: 1, maxItems: 20, items: str(64, 1) };
export const createWebhookSchema = obj(
  { url: str(2048, 1), events, secret: str(200, 1), enabled: { type: 'boolean' } },
  ['url', 'events'],
);
export const updateWebhookSchema = obj(
  { url: str(2048, 1), events, secret: str(200, 1), enabled: { type: 'boolean' } },
  [],
  1,
);
