import { Problems } from '../lib/problems.js';
import { invalid, loadRefContext, requireSpace } from '../content/context.js';
import { conflict, notFound } from '../errors/errors.js';
import type { Store } from '../store/open-store.js';
import { withPublish } from '../content/publish-log.js';
import { enqueueRedirectUpdated } from './auto-redirects.js';
import { checkRedirect, docToRow, type RedirectDoc, redirectKey, rowToDoc } from './redirect-model.js';
import {
  closeRedirects,
  getOpenRedirect,
  listOpenRedirects,
  newRedirectId,
  nextRedirectPosition,
  openRedirectsFrom,
  putRedirects,
  type RedirectRow,
} from './redirects-repo.js';

/** The management API's view of a redirect: its authored shape plus id and creation time. */
const view = (row: RedirectRow) => ({ id: row.id, ...rowToDoc(row), createdAt: row.createdAt });

export async function listRedirectViews(store: Store, spaceId: string) {
  await requireSpace(store, spaceId);
  return (await listOpenRedirects(store.db, spaceId)).map(view);
}

async function checked(store: Store, spaceId: string, input: Record<string, unknown>): Promise<RedirectDoc> {
  const space = await requireSpace(store, spaceId);
  const ctx = await loadRefContext(store, store.db, space);
  const p = new Problems();
  const doc = { locale: null, status: input.to === null ? 410 : 301, ...input };
  if (!checkRedirect(doc, '', { locales: ctx.locales, isPage: ctx.isPageProper }, p))
    throw invalid('redirect', p.list);
  return doc as RedirectDoc;
}

async function refuseDuplicate(
  store: Store,
  spaceId: string,
  doc: RedirectDoc,
  except?: string,
): Promise<void> {
  const same = (await openRedirectsFrom(store.db, spaceId, [redirectKey(doc.from)])).find(
    (r) => r.locale === doc.locale && r.id !== except,
  );
  if (same) {
    throw conflict(`A redirect from "${same.fromPath}" already exists (${same.id}).`, {
      details: { id: same.id },
    });
  }
}

/**
 * Creates a manual redirect to an entry (followed wherever it moves) or a URL, 301 or 302, shared or for one
 * locale (spec 2.6). A redirect change is a publish: one cv bump and `redirect.updated` (rule 6).
 */
export async function createRedirect(store: Store, spaceId: string, body: Record<string, unknown>) {
  const doc = await checked(store, spaceId, body);
  await refuseDuplicate(store, spaceId, doc);
  const row = docToRow(
    doc,
    newRedirectId(),
    await nextRedirectPosition(store.db, spaceId),
    new Date().toISOString(),
  );
  const { cv } = await withPublish(store, spaceId, async (tx, cv) => {
    await putRedirects(tx, spaceId, cv, [row]);
    await enqueueRedirectUpdated(tx, spaceId, cv);
  });
  return { redirect: view(row), cv };
}

/** Changes a redirect (members given replace the current ones); a new version from the new cv on. */
export async function updateRedirect(
  store: Store,
  spaceId: string,
  id: string,
  body: Record<string, unknown>,
) {
  await requireSpace(store, spaceId);
  const current = await getOpenRedirect(store.db, spaceId, id);
  if (!current) throw notFound(`Redirect "${id}" not found.`);
  const { auto: _auto, ...authored } = rowToDoc(current);
  const doc = await checked(store, spaceId, { ...authored, ...body });
  await refuseDuplicate(store, spaceId, doc, id);
  // An automatic redirect edited by hand becomes a manual one.
  const row = docToRow(doc, id, current.position, current.createdAt);
  const { cv } = await withPublish(store, spaceId, async (tx, cv) => {
    await putRedirects(tx, spaceId, cv, [row]);
    await enqueueRedirectUpdated(tx, spaceId, cv);
  });
  return { redirect: view(row), cv };
}

export async function deleteRedirect(store: Store, spaceId: string, id: string): Promise<{ cv: number }> {
  await requireSpace(store, spaceId);
  if (!(await getOpenRedirect(store.db, spaceId, id))) throw notFound(`Redirect "${id}" not found.`);
  const { cv } = await withPublish(store, spaceId, async (tx, cv) => {
    await closeRedirects(tx, spaceId, [id], cv);
    await enqueueRedirectUpdated(tx, spaceId, cv);
  });
  return { cv };
}
