/**
 * `npx tsx scripts/folder-cycles.ts [--depth N] [--types]`: lists the import cycles between folders under src/,
 * from dependency-cruiser's graph of the tree (the same resolution `npm run lint:imports` uses). A folder is
 * the path under src/ cut to N segments (default 1: `forms`, `jobs`); each strongly connected group of two or
 * more folders is printed with the imports that bind it. Value imports only, unless `--types` (type-only
 * imports vanish when TypeScript compiles, so they order nothing at run time).
 */
import { cruise } from 'dependency-cruiser';

const args = process.argv.slice(2);
const depthAt = args.indexOf('--depth');
const depth = depthAt >= 0 ? Number(args[depthAt + 1]) : 1;
const withTypes = args.includes('--types');

const result = await cruise(['src'], {
  tsPreCompilationDeps: withTypes,
  tsConfig: { fileName: 'tsconfig.json' },
  doNotFollow: { path: 'node_modules' },
});
if (typeof result.output === 'string') throw new Error('expected the JSON graph');

const folderOf = (path: string): string | undefined => {
  if (!path.startsWith('src/')) return undefined;
  const parts = path.slice(4).split('/').slice(0, -1);
  return parts.length === 0 ? '.' : parts.slice(0, depth).join('/');
};

/** folder → folder → a few `from → to` module pairs */
const edges = new Map<string, Map<string, string[]>>();
for (const mod of result.output.modules) {
  const from = folderOf(mod.source);
  if (from === undefined) continue;
  for (const dep of mod.dependencies) {
    const to = folderOf(dep.resolved);
    if (to === undefined || to === from) continue;
    const out = edges.get(from) ?? new Map<string, string[]>();
    edges.set(from, out);
    const pairs = out.get(to) ?? [];
    out.set(to, pairs);
    pairs.push(`${mod.source} → ${dep.resolved}`);
  }
}

// Tarjan's strongly connected components.
const index = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const groups: string[][] = [];
let next = 0;
const visit = (v: string): void => {
  index.set(v, next);
  low.set(v, next);
  next += 1;
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v)!, low.get(w)!));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
  }
  if (low.get(v) === index.get(v)) {
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  }
};
for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);

if (groups.length === 0) {
  console.log(`No cycles between folders (depth ${depth}${withTypes ? ', type imports included' : ''}).`);
} else {
  for (const group of groups) {
    console.log(`cycle of ${group.length}: ${group.join(', ')}`);
    for (const from of group)
      for (const [to, pairs] of edges.get(from) ?? [])
        if (group.includes(to))
          console.log(`  ${from} → ${to} (${pairs.length}): ${pairs.slice(0, 3).join('; ')}`);
  }
  process.exitCode = 1;
}

if (args.includes('--tiers') && groups.length === 0) {
  // The lowest tier each folder can sit in: one above the highest folder it imports.
  const tier = new Map<string, number>();
  const tierOf = (f: string): number => {
    const known = tier.get(f);
    if (known !== undefined) return known;
    let t = 0;
    for (const to of edges.get(f)?.keys() ?? []) t = Math.max(t, tierOf(to) + 1);
    tier.set(f, t);
    return t;
  };
  const all = new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
  for (const f of all) tierOf(f);
  const byTier = new Map<number, string[]>();
  for (const [f, t] of tier) byTier.set(t, [...(byTier.get(t) ?? []), f].sort());
  for (const t of [...byTier.keys()].sort((a, b) => a - b)) {
    console.log(`tier ${t}: ${byTier.get(t)!.join(', ')}`);
    for (const f of byTier.get(t)!)
      console.log(`  ${f} → ${[...(edges.get(f)?.keys() ?? [])].sort().join(', ')}`);
  }
}
