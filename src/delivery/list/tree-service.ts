import { hasPaths, type TypeMap } from '../../content/model.js';
import { pathKey } from '../../lib/path-key.js';
import { invalidQuery } from '../../errors/errors.js';
import { TimeSlicer } from '../../lib/time-slice.js';
import type { DeliveryDeps, Scope } from '../delivery-service.js';
import { single } from '../params.js';
import { folderPath } from './list-query-repo.js';
import { treeChildren, type TreeRow } from './tree-repo.js';

/** Navigation tree node (spec 4.2 "node shape: not shown"; docs/api.md). */
export interface TreeNode {
  id: string;
  type: string;
  name: string;
  /** The node's own slug in the locale; "" for a folder's start page and the home page. */
  slug: string;
  path: string;
  position: number;
  isFolder: boolean;
  children: TreeNode[];
}

export const TREE_PARAMS = ['locale', 'cv', 'draft', 'release', 'under', 'depth'] as const;
export const DEFAULT_DEPTH = 3;
export const MAX_DEPTH = 10;
/** Bounds the memory and size of one response; deeper or larger trees are read per folder with `under`. */
export const MAX_TREE_NODES = 10_000;

interface TreeSource {
  /** Children of `parents` (null: the top level), ordered by parent, position and id; may stop past `max`. */
  children(parents: readonly string[] | null, max: number): Promise<TreeRow[]>;
  /** The folder whose path in the locale matches `key` (a pathKey). */
  folder(key: string): Promise<{ id: string; path: string } | null>;
}

function publishedSource(deps: DeliveryDeps, scope: Scope): TreeSource {
  const { id } = scope.space;
  const { cv } = scope.view;
  const locale = scope.params.locale;
  const slicer = new TimeSlicer();
  return {
    children: (parents, max) => treeChildren(deps.store, id, cv, locale, parents, max, slicer),
    folder: (key) => folderPath(deps.store, id, cv, locale, key),
  };
}

/** The preview tree from the view's snapshots (drafts and releases are small and never cached; spec 3.4). */
async function previewSource(scope: Scope, types: TypeMap): Promise<TreeSource> {
  const keys = [...types.values()].filter((t) => hasPaths(t)).map((t) => t.key);
  const rows: TreeRow[] = (await scope.view.entriesOfTypes(keys)).flatMap((s) => {
    const path = s.paths?.[scope.params.locale];
    const kind = types.get(s.type)?.kind ?? 'page';
    return path === undefined
      ? []
      : [
          {
            entryId: s.id,
            type: s.type,
            kind,
            name: s.name,
            position: s.position,
            parentId: s.parentId,
            path,
          },
        ];
  });
  rows.sort((a, b) => a.position - b.position || (a.entryId < b.entryId ? -1 : 1));
  return {
    children: async (parents) =>
      rows.filter((r) => (parents === null ? r.parentId === null : parents.includes(r.parentId ?? ''))),
    folder: async (key) => {
      const f = rows.find((r) => r.kind === 'folder' && pathKey(r.path) === key);
      return f ? { id: f.entryId, path: f.path } : null;
    },
  };
}

/** GET /tree (spec 4.2): pages and folders ordered by position, `depth` levels below the root or `under`. */
export async function entryTree(deps: DeliveryDeps, scope: Scope, query: Record<string, unknown>) {
  const depthRaw = single(query, 'depth');
  if (depthRaw !== undefined && !(/^\d{1,2}$/.test(depthRaw) && +depthRaw >= 1 && +depthRaw <= MAX_DEPTH))
    throw invalidQuery(`depth: a whole number from 1 to ${MAX_DEPTH}.`, 'depth');
  const depth = depthRaw === undefined ? DEFAULT_DEPTH : Number(depthRaw);
  const locale = scope.params.locale;
  const source =
    scope.view.mode === 'published'
      ? publishedSource(deps, scope)
      : await previewSource(scope, await scope.view.types());
  const underRaw = single(query, 'under');
  let root: { id: string; path: string } | null = null;
  if (underRaw !== undefined) {
    root = await source.folder(pathKey(underRaw));
    if (root === null)
      throw invalidQuery(`under: "${underRaw}" is not a folder in locale "${locale}".`, 'under');
  }

  const items: TreeNode[] = [];
  let level: { id: string; path: string; into: TreeNode[] }[] = [
    { id: root?.id ?? '', path: root?.path ?? '/', into: items },
  ];
  let count = 0;
  for (let d = 1; d <= depth && level.length > 0; d++) {
    const byId = new Map(level.map((p) => [p.id, p]));
    // One row past the cap is enough to answer 400: a level of a large space is not read whole for that.
    const rows = await source.children(
      root === null && d === 1 ? null : level.map((p) => p.id),
      MAX_TREE_NODES - count + 1,
    );
    count += rows.length;
    if (count > MAX_TREE_NODES)
      throw invalidQuery(
        `depth: the tree has more than ${MAX_TREE_NODES} nodes at this depth; lower depth or use under.`,
        'depth',
      );
    const next: typeof level = [];
    for (const r of rows) {
      const parent = byId.get(r.parentId ?? '');
      if (!parent) continue;
      const node: TreeNode = {
        id: r.entryId,
        type: r.type,
        name: r.name,
        slug: r.path === parent.path ? '' : r.path.slice(r.path.lastIndexOf('/') + 1),
        path: r.path,
        position: r.position,
        isFolder: r.kind === 'folder',
        children: [],
      };
      parent.into.push(node);
      next.push({ id: r.entryId, path: r.path, into: node.children });
    }
    level = next;
  }
  return { locale, under: root?.path ?? null, items, cv: scope.view.cv };
}
