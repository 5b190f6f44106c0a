import { defaultLocale, localeChain } from './locales.js';
import { type ContentTypeDef, hasPaths, type SpaceSettings } from './model.js';

export interface TreeNode {
  id: string;
  type: string;
  parentId: string | null;
  slug: string;
  slugs: Record<string, string>;
}

/** The slug of a node in a locale: its own, else along the chain; the default locale's is `slug`. */
export function slugIn(node: TreeNode, chain: readonly string[], defaultCode: string): string {
  for (const code of chain) {
    if (code === defaultCode) return node.slug;
    const s = node.slugs[code];
    if (s !== undefined) return s;
  }
  return node.slug;
}

/**
 * Paths per locale for every node of a page kind (DESIGN.md: paths never carry a locale prefix). A child with
 * an empty slug takes its parent's path (a folder's start page); the home page at the root is `/`.
 */
export function computePaths(
  nodes: readonly TreeNode[],
  types: ReadonlyMap<string, ContentTypeDef>,
  settings: SpaceSettings,
): Map<string, Record<string, string>> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const defaultCode = defaultLocale(settings);
  const chains = settings.locales.map((l) => [l.code, localeChain(settings, l.code)] as const);
  const memo = new Map<string, Record<string, string> | null>();

  const pathsOf = (node: TreeNode, seen: Set<string>): Record<string, string> | null => {
    const cached = memo.get(node.id);
    if (cached !== undefined) return cached;
    if (!hasPaths(types.get(node.type)) || seen.has(node.id)) return null;
    seen.add(node.id);
    const parent = node.parentId === null ? undefined : byId.get(node.parentId);
    const parentPaths = parent ? pathsOf(parent, seen) : null;
    const result: Record<string, string> = {};
    for (const [code, chain] of chains) {
      const base = parentPaths?.[code] ?? '/';
      const slug = slugIn(node, chain, defaultCode);
      result[code] = slug === '' ? base : base === '/' ? `/${slug}` : `${base}/${slug}`;
    }
    memo.set(node.id, result);
    return result;
  };

  const out = new Map<string, Record<string, string>>();
  for (const node of nodes) {
    const p = pathsOf(node, new Set());
    if (p) out.set(node.id, p);
  }
  return out;
}
