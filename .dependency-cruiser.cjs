// @ts-check
/**
 * The folders of src/ and the imports allowed between them (docs/architecture.md, "Folders and their imports"),
 * checked by `npm run lint:imports` (dependency-cruiser). test/lint-rules.test.ts shows each rule failing on a
 * forbidden import and the tree passing.
 *
 * Value imports only (`tsPreCompilationDeps: false`: the graph is the one TypeScript's output runs): a type
 * import orders nothing at run time, and the model's types (`import type` from content/model.ts) are shared by
 * every tier on purpose. The ESLint rows that remain in eslint.config.js are those this cannot express: type
 * imports (`server-is-root`, the leaves, `routes-no-kysely`, `kysely-in-repos`) and syntax.
 */

/**
 * Tiers, lowest first. A folder imports folders of lower tiers only, never one of its own tier, so the arrows
 * all point down and no folders can import each other in a circle. A new import that points up (or sideways)
 * is a design decision: move a module, register a hook (src/content/publish-hooks.ts), or move the folder to
 * another tier here and in docs/architecture.md.
 */
const TIERS = [
  { name: 'leaves', folders: ['errors', 'config'] },
  { name: 'helpers', folders: ['lib', 'files', 'kv', 'outbound'] },
  { name: 'storage', folders: ['store', 'blobs'] },
  { name: 'platform', folders: ['jobs', 'auth', 'observability', 'cache', 'ratelimit'] },
  { name: 'content', folders: ['content'] },
  { name: 'read-side', folders: ['cluster', 'redirects', 'inbox'] },
  { name: 'delivery', folders: ['delivery'] },
  { name: 'delivered-domains', folders: ['activity', 'menus', 'search'] },
  { name: 'sync', folders: ['sync'] },
  { name: 'forms', folders: ['forms'] },
  { name: 'forms-users', folders: ['assets', 'webhooks'] },
  { name: 'bundle', folders: ['bundle'] },
  { name: 'management', folders: ['management'] },
  { name: 'wiring', folders: ['wiring'] },
  { name: 'server', folders: ['server'] },
  { name: 'cli', folders: ['cli'] },
];

/** @param {string[]} folders a path pattern matching modules in any of `folders` */
const any = (folders) => `^src/(${folders.join('|')})/`;

const tierRules = TIERS.map((tier, i) => ({
  name: `tier-${tier.name}`,
  severity: 'error',
  comment: `src/{${tier.folders.join(',')}}/ import folders of lower tiers only (docs/architecture.md).`,
  from: { path: any(tier.folders) },
  to: {
    path: any(TIERS.slice(i).flatMap((t) => t.folders)),
    // `$1` is the importing folder: imports inside one folder are its own business.
    pathNot: '^src/$1/',
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...tierRules,
    {
      // Every folder of src/ is in a tier: a new folder is placed on purpose, not by default.
      name: 'folder-in-a-tier',
      severity: 'error',
      comment: 'Add the folder to a tier in .dependency-cruiser.cjs and docs/architecture.md.',
      from: {
        path: '^src/',
        pathNot: `${any([...TIERS.flatMap((t) => t.folders), 'app'])}|^src/[^/]+$`,
      },
      to: {},
    },
    {
      // The tiers order top-level folders; this also covers folders inside them (forms/submission ↔ forms/notify).
      // forms/'s subfolders still import each other in a circle (submission, inbox, authoring, notify, uploads,
      // retention, delivery): untangling them waits for the forms work in flight, so cycles among them alone are
      // not reported yet; a cycle that reaches a folder outside them is.
      name: 'no-folder-cycles',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/', pathNot: '^src/forms/[^/]+$' },
      to: { circular: true },
    },
    {
      // What the root hands the route plugins is described, not built: src/app/ has type imports only.
      name: 'app-types-only',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { path: '^src/' },
    },
    {
      // The store is below every domain: values only from itself and the leaves (model types are fine).
      name: 'store-imports',
      severity: 'error',
      comment:
        'src/store/ imports values only from src/store/, src/errors/, src/config/ and src/lib/: the list tables are src/delivery/list/list-write-repo.ts, publishing is src/content/publish-log.ts.',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: '^src/(store|errors|config|lib)/' },
    },
    {
      // Migrations are frozen history (STYLE.md rule 14): Kysely and types, no code of the app.
      name: 'frozen-migrations',
      severity: 'error',
      comment:
        'A migration imports no code (constants are copied in, data backfills are reindex steps): it must not change when the app does.',
      from: { path: '^src/store/migrations/0' },
      to: { path: '^src/' },
    },
  ],
  options: {
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(?!src/)' },
  },
};
