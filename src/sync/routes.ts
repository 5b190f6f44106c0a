import type { FastifyInstance } from 'fastify';
import { readCursor, signCursor } from '../delivery/list/cursor.js';
import { assetUrlFor, deliveryDepsOf, openScope } from '../delivery/delivery-service.js';
import { cvExpired, rejectUnknown, single } from '../delivery/params.js';
import { cacheHeaders, cdnTag } from '../delivery/cache-headers.js';
import type { AppServices } from '../app/services.js';
import { invalidQuery } from '../errors/errors.js';
import { deriveKey } from '../store/secrets-repo.js';
import { derivedOf, spanAffected, spanDiff } from './span.js';
import { type SyncPosition, syncPage, validPosition } from './sync-service.js';
import { deliveryJson, NOT_MODIFIED, SPACE_PARAMS } from '../delivery/schemas.js';
import { deliveryRead, queryParams } from '../lib/api-schema.js';
import { SYNC_QUERY, syncBody } from './schemas.js';

type Params = { spaceId: string };
type Query = Record<string, unknown>;

const SYNC_PARAMS = ['since', 'cv', 'cursor', 'limit', 'locale', 'full', 'include', 'fields'] as const;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const CV = /^(0|[1-9]\d{0,9})$/;

function intParam(query: Query, name: string, min: number, max: number): number | undefined {
  const raw = single(query, name);
  if (raw === undefined) return undefined;
  const n = CV.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max))
    throw invalidQuery(`Parameter "${name}" must be an integer from ${min} to ${max}.`, name);
  return n;
}

/**
 * What later pages must repeat: everything but the position, `since` and the cv, which the cursor carries. The
 * first member names the walk's layout, so a cursor issued by an older Folio (whose positions meant other
 * sources) is refused rather than misread.
 */
const shapeOf = (query: Query): string =>
  JSON.stringify([
    'walk-2',
    ...['locale', 'full', 'include', 'fields', 'limit'].map((n) => single(query, n) ?? null),
  ]);

/** The `since` and parameter shape a cursor was issued for (signed, but still checked, never cast). */
function parseBound(text: string): { since: number; shape: string } | null {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [since, shape] = value as unknown[];
    return Number.isSafeInteger(since) && typeof shape === 'string' ? { since: Number(since), shape } : null;
  } catch {
    return null;
  }
}

/**
 * `GET /v1/<spaceId>/sync?since=<cv>` (docs/api.md "Sync"): what changed in the published content after
 * `since` up to the current cv (or a pinned `cv`), keyset-paged; `nextCursor` carries `since`, the end cv and the
 * position, so every page describes the same difference. Public and preview tokens; published content only.
 */
export async function syncRoutes(app: FastifyInstance, opts: { services: AppServices }): Promise<void> {
  const deps = deliveryDepsOf(opts.services);
  const cursorKey = deriveKey(opts.services.masterKey, 'sync-cursor');

  const schema = deliveryRead({
    summary: 'What changed since a cv',
    description:
      'The published log as a difference between `since` and the end cv, keyset-paged. Public and preview tokens; published content only (`draft` and `release` are unknown parameters here).',
    tags: ['delivery', 'sync'],
    params: SPACE_PARAMS,
    querystring: queryParams(SYNC_QUERY),
    response: { 200: deliveryJson('A page of the difference.', syncBody), 304: NOT_MODIFIED },
  });
  app.get<{ Params: Params; Querystring: Query }>(
    '/v1/:spaceId/sync',
    { config: { delivery: 'read' }, schema },
    async (request, reply) => {
      const { query } = request;
      rejectUnknown(query, SYNC_PARAMS);
      const full = single(query, 'full');
      if (full !== undefined && full !== '0' && full !== '1')
        throw invalidQuery('Parameter "full" must be 0 or 1.', 'full');
      const limit = intParam(query, 'limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT;
      let since = intParam(query, 'since', 0, Number.MAX_SAFE_INTEGER);
      let toCv = intParam(query, 'cv', 1, Number.MAX_SAFE_INTEGER);
      let from: SyncPosition = { source: 0, key: null };
      const cursor = single(query, 'cursor');
      if (cursor !== undefined) {
        const state = readCursor(cursorKey, cursor);
        const bad = () =>
          invalidQuery('cursor: it belongs to other parameters (use nextCursor as given).', 'cursor');
        const bound = parseBound(state.query);
        const [source, key] = state.after;
        from = { source: Number(source), key: typeof key === 'string' ? key : null };
        if (bound === null || bound.shape !== shapeOf(query) || !validPosition(from)) throw bad();
        const sinceInCursor = bound.since;
        if ((since !== undefined && since !== sinceInCursor) || (toCv !== undefined && toCv !== state.cv))
          throw bad();
        since = sinceInCursor;
        toCv = state.cv;
      }
      // Everything the scope parses (locale, include, fields, the pinned cv and its 410), as for /entries.
      const scopeQuery: Query = {};
      for (const name of ['locale', 'include', 'fields'] as const)
        if (query[name] !== undefined) scopeQuery[name] = query[name];
      if (toCv !== undefined) scopeQuery.cv = String(toCv);
      const scope = await openScope(deps, { spaceId: request.params.spaceId, query: scopeQuery });
      const to = scope.view.cv;
      const fromCv = since ?? 0;
      if (fromCv > to) throw invalidQuery(`since ${fromCv} is ahead of cv ${to}.`, 'since');
      // History before the oldest kept cv is gone: the client must start over with a full sync.
      if (fromCv > 0 && fromCv < scope.space.minCv) throw cvExpired(fromCv, scope.space.minCv);
      const explicitLocale = query.locale !== undefined;
      const locales =
        explicitLocale || full === '1'
          ? [scope.params.locale]
          : scope.space.settings.locales.map((l) => l.code);
      const span = {
        store: deps.store,
        spaceId: scope.space.id,
        settings: scope.space.settings,
        range: { from: fromCv, to },
        assetUrl: assetUrlFor(deps, scope.space.id),
      };
      // The span's difference is computed once and kept: every page, limit and locale is served from it.
      const [diff, affected] = await Promise.all([spanDiff(span), spanAffected(span, scope.params.include)]);
      const page = await syncPage({
        store: deps.store,
        spaceId: scope.space.id,
        range: { from: fromCv, to },
        locales,
        full:
          full === '1'
            ? {
                view: scope.view,
                resolve: {
                  locale: scope.params.locale,
                  chain: scope.params.chain,
                  include: scope.params.include,
                  fields: scope.params.fields,
                  assetUrl: assetUrlFor(deps, scope.space.id),
                },
              }
            : null,
        derived: derivedOf(diff, affected),
        from,
        limit,
      });
      const nextCursor =
        page.next === null
          ? null
          : signCursor(cursorKey, {
              cv: to,
              query: JSON.stringify([fromCv, shapeOf(query)]),
              after: page.next.key === null ? [page.next.source] : [page.next.source, page.next.key],
            });
      // A page of a cursor is immutable like a pinned read: its end cv is fixed.
      // It depends on everything in the space: the space's own tag.
      // A current difference ends at the current cv: every publish purges it (its `sync` tag).
      cacheHeaders(reply, cursor !== undefined ? { ...scope, pinned: true } : scope, scope.space.id, {
        tags: [cdnTag.of(scope.space.id, 'sync')],
      });
      return {
        changed: page.changed,
        affected: page.affected,
        deleted: page.deleted,
        truncated: diff.truncated || affected.truncated,
        ...(page.included === null ? {} : { included: page.included }),
        fromCv,
        toCv: to,
        nextCursor,
      };
    },
  );
}
