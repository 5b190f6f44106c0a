// The OpenAPI document as a contract tools can use: applied to the document @fastify/swagger
// builds from the route schemas (`transformObject`), so every route gets it without repeating it. An operationId
// on every operation, constraints and examples on the parameters every route shares, 405 with `Allow` on every
// path, `Retry-After` and `RateLimit-*` on every 429, and `links` from answers to the reads they lead to.
// test/openapi.test.ts lints the result with Redocly's recommended ruleset.

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter((p) => p !== '')
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');

/**
 * `get /v1/{spaceId}/entries/{id}` → `getEntriesById`; management routes (`/v1/spaces/{spaceId}/…`) keep
 * `Spaces`: `getSpacesEntriesById`. Stable as long as the path is.
 */
export function operationIdOf(method: string, path: string): string {
  const parts = path
    .split('/')
    .filter((s) => s !== '' && s !== 'v1' && s !== '{spaceId}')
    .map((s) => (s.startsWith('{') ? `By${pascal(s.slice(1, -1))}` : pascal(s)));
  return `${method}${parts.join('') || 'Root'}`;
}

/**
 * Constraints and an example per shared parameter name (`in` where it matters). A route's own schema wins: a page
 * size's maximum, the values `draft` takes and the like differ by route and are stated beside it (`Q` of
 * src/lib/api-schema.ts); these fill in what every route means by the name.
 */
const PARAMETERS: Record<string, { in?: string; schema: Json; example: unknown }> = {
  spaceId: { in: 'path', schema: { type: 'string', pattern: '^spc_[A-Za-z0-9_]+$' }, example: 'spc_demo' },
  cv: { schema: { type: 'integer', minimum: 1, maximum: 9_999_999_999 }, example: 42 },
  since: { schema: { type: 'integer', minimum: 0 }, example: 41 },
  limit: { schema: { type: 'integer', minimum: 1 }, example: 10 },
  depth: { schema: { type: 'integer', minimum: 1, maximum: 10 }, example: 3 },
  // A locale of the space (GET /status lists them); BCP 47-like codes.
  locale: { schema: { type: 'string', pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$' }, example: 'de' },
  draft: { schema: { type: 'string' }, example: '1' },
  full: { schema: { type: 'string', enum: ['0', '1'] }, example: '1' },
  release: { schema: { type: 'string' }, example: 'rel_spring' },
  id: { in: 'path', schema: { type: 'string', minLength: 1 }, example: 'ent_about' },
  key: { in: 'path', schema: { type: 'string', minLength: 1 }, example: 'contact' },
  path: { in: 'path', schema: { type: 'string' }, example: 'blog/hello-world' },
};

function constrain(param: Json): void {
  const name = typeof param.name === 'string' ? param.name : '';
  const rule = Object.hasOwn(PARAMETERS, name) ? PARAMETERS[name] : undefined;
  if (rule === undefined || (rule.in !== undefined && rule.in !== param.in)) return;
  const schema = isObj(param.schema) ? param.schema : {};
  param.schema = { ...rule.schema, ...schema };
  param.example ??= rule.example;
}

const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });

const RATE_LIMIT_HEADERS = {
  'Retry-After': header('Seconds to wait before asking again.', { type: 'integer', minimum: 0 }),
  'RateLimit-Limit': header('Requests allowed per window and token.', { type: 'integer', minimum: 0 }),
  'RateLimit-Remaining': header('Requests left in the current window (0).', { type: 'integer', minimum: 0 }),
  'RateLimit-Reset': header('Seconds until the window starts again.', { type: 'integer', minimum: 0 }),
};

const methodNotAllowed = (allow: string) => ({
  description: '`method_not_allowed`: the path does not serve this method (docs/api.md "Edges").',
  headers: { Allow: header(`The methods the path serves: \`${allow}\`.`) },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/FolioError' } } },
});

/** Links from an answer to the reads it leads to (by operationId, values from the answer). */
const LINKS: Record<string, Record<string, Json>> = {
  getStatus: {
    pinnedEntryByPath: {
      operationId: 'getEntriesByPathByPath',
      parameters: { spaceId: '$request.path.spaceId', cv: '$response.body#/cv' },
      description: "Read a page at the space's current cv (an immutable answer).",
    },
    syncSinceOldest: {
      operationId: 'getSync',
      parameters: { spaceId: '$request.path.spaceId', since: '$response.body#/oldestCv' },
      description: 'Everything that changed since the oldest cv still kept.',
    },
  },
  getEntries: {
    nextPage: {
      operationId: 'getEntries',
      parameters: { spaceId: '$request.path.spaceId', cursor: '$response.body#/nextCursor' },
      description: 'The next page (null on the last).',
    },
  },
  getSync: {
    nextPage: {
      operationId: 'getSync',
      parameters: { spaceId: '$request.path.spaceId', cursor: '$response.body#/nextCursor' },
      description: 'The next page of the same difference (null on the last).',
    },
    nextSync: {
      operationId: 'getSync',
      parameters: { spaceId: '$request.path.spaceId', since: '$response.body#/toCv' },
      description: 'The next build: what changes after this one.',
    },
  },
  getEntriesById: {
    samePageAtCv: {
      operationId: 'getEntriesById',
      parameters: {
        spaceId: '$request.path.spaceId',
        id: '$response.body#/entry/id',
        cv: '$response.body#/cv',
      },
      description: 'The same entry pinned at the cv of this answer.',
    },
  },
  getTypes: {
    entriesOfType: {
      operationId: 'getEntries',
      parameters: { spaceId: '$request.path.spaceId', type: '$response.body#/types/0/key' },
      description: 'Entries of a type of the model.',
    },
  },
};

/** The document with the contract's additions (a new object; the input is not changed). */
export function contractDocument<T extends object>(doc: T): T {
  const out: unknown = structuredClone(doc);
  if (!isObj(out) || !isObj(out.paths)) return doc;
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(out.paths)) {
    if (!isObj(item)) continue;
    const methods = METHODS.filter((m) => isObj(item[m]));
    const allow = [
      ...new Set(methods.flatMap((m) => (m === 'get' ? ['GET', 'HEAD'] : [m.toUpperCase()]))),
    ].join(', ');
    for (const method of methods) {
      const op = item[method];
      if (!isObj(op)) continue;
      let id = operationIdOf(method, path);
      while (seen.has(id)) id = `${id}Again`;
      seen.add(id);
      op.operationId ??= id;
      if (Array.isArray(op.parameters)) for (const p of op.parameters) if (isObj(p)) constrain(p);
      const responses = isObj(op.responses) ? op.responses : (op.responses = {});
      responses['405'] ??= methodNotAllowed(allow);
      const limited = responses['429'];
      if (isObj(limited))
        limited.headers = { ...(isObj(limited.headers) ? limited.headers : {}), ...RATE_LIMIT_HEADERS };
      const links = typeof op.operationId === 'string' ? LINKS[op.operationId] : undefined;
      const ok = responses['200'];
      if (links !== undefined && isObj(ok)) ok.links = links;
    }
  }
  // Checked above: the same document with members added.
  return out as T;
}
