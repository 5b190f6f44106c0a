// @ts-check
import js from '@eslint/js';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import tseslint from 'typescript-eslint';

/**
 * The layers' rules that dependency-cruiser (.dependency-cruiser.cjs, `npm run lint:imports`) cannot express:
 * it sees value imports only, so the rows on type imports (the root, the leaves, Kysely's types) and on syntax
 * stay here (docs/architecture.md, "Folders and their imports"). Each row is its own rule,
 * `layers/<name>`: ESLint replaces (does not merge) a rule's options when two config blocks match one file, so
 * two rows sharing `no-restricted-imports` would silently drop one of them. Every row runs the same core rule
 * under its own id instead: `imports` is typescript-eslint's `no-restricted-imports` (which knows `import type`),
 * `syntax` is ESLint's `no-restricted-syntax`. Import sources are matched as written, so patterns are relative
 * paths (`../server/app.js`). test/lint-rules.test.ts holds one passing and one failing case per row.
 */
const RULES = {
  imports: tseslint.plugin.rules['no-restricted-imports'],
  syntax: builtinRules.get('no-restricted-syntax'),
};

/** @type {{ name: string, files: string[], ignores?: string[], rule: keyof typeof RULES, options: unknown[] }[]} */
const LAYER_RULES = [
  {
    // The app factory is the composition root: only the CLI (and tests, outside src/) build the app.
    name: 'server-is-root',
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/server/**'],
    rule: 'imports',
    options: [
      {
        patterns: [
          {
            regex: '^(?:\\./|(?:\\.\\./)+)server(?:/|$)',
            message:
              'src/server/ is the composition root: only src/cli/ and tests import it. Route plugins take `AppServices` from src/app/services.ts.',
          },
        ],
      },
    ],
  },
  {
    // Leaves: any folder may import them, so they import nothing from src/ but src/lib/ (a flat folder each).
    name: 'errors-leaf',
    files: ['src/errors/**/*.ts'],
    rule: 'imports',
    options: [
      {
        patterns: [
          {
            regex: '^\\.\\./(?!lib/)',
            message: 'src/errors/ is a leaf: it imports nothing from src/ except src/lib/.',
          },
        ],
      },
    ],
  },
  {
    name: 'config-leaf',
    files: ['src/config/**/*.ts'],
    rule: 'imports',
    options: [
      {
        patterns: [
          {
            regex: '^\\.\\./(?!lib/)',
            message: 'src/config/ is a leaf: it imports nothing from src/ except src/lib/.',
          },
        ],
      },
    ],
  },
  {
    // One constructor per code (src/errors/errors.ts): call sites never spell a code or a status.
    name: 'error-constructors',
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/errors/**'],
    rule: 'syntax',
    options: [
      {
        selector: 'NewExpression[callee.name="FolioError"]',
        message:
          "Use the code's constructor from src/errors/errors.ts (`notFound(message)`), not `new FolioError`.",
      },
    ],
  },
  {
    // SQL is built in the store and in `*-repo.ts` files: elsewhere Kysely is a type (a `Transaction` to pass on).
    name: 'kysely-in-repos',
    files: ['src/**/*.ts'],
    ignores: ['src/store/**', 'src/**/*-repo.ts'],
    rule: 'imports',
    options: [
      {
        paths: [
          {
            name: 'kysely',
            allowTypeImports: true,
            message: 'Build SQL in a `*-repo.ts` file (or src/store/); here import Kysely types only.',
          },
        ],
      },
    ],
  },
  {
    // Route files hold no SQL: no Kysely at all, not even its types, nor the table types.
    name: 'routes-no-kysely',
    files: ['src/**/routes.ts', 'src/**/*-routes.ts'],
    rule: 'imports',
    options: [
      {
        paths: [
          { name: 'kysely', message: 'Route files hold no SQL: call a service or a `*-repo.ts` function.' },
        ],
        patterns: [
          {
            regex: '(?:^|/)store/schema(?:\\.js)?$',
            message: 'Route files hold no SQL: the table types belong to the repositories.',
          },
        ],
      },
    ],
  },
  {
    // ... nor queries built on a connection they were handed (`store.db.selectFrom(…)` needs no import).
    name: 'routes-no-queries',
    files: ['src/**/routes.ts', 'src/**/*-routes.ts'],
    rule: 'syntax',
    options: [
      {
        selector:
          'CallExpression[callee.property.name=/^(selectFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|transaction|executeQuery)$/]',
        message: 'Route files hold no SQL: call a service or a `*-repo.ts` function.',
      },
    ],
  },
  {
    // Queries are built in the repositories: elsewhere a connection or a transaction is handed to a `*-repo.ts`
    // function. Opening a transaction (`store.db.transaction()`) is the domain's decision and stays there.
    name: 'queries-in-repos',
    files: ['src/**/*.ts'],
    // Route files have their stricter row (`routes-no-queries`, transactions too).
    ignores: ['src/store/**', 'src/**/*-repo.ts', 'src/**/routes.ts', 'src/**/*-routes.ts'],
    rule: 'syntax',
    options: [
      {
        selector:
          'CallExpression[callee.property.name=/^(selectFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|executeQuery)$/]',
        message: 'Build queries in a `*-repo.ts` file (or src/store/) and call it here.',
      },
    ],
  },
  {
    // One dialect object with capability flags (src/store/dialect/): code asks for a capability, never the engine.
    name: 'dialect-capabilities',
    files: ['src/**/*.ts'],
    ignores: ['src/store/**'],
    rule: 'syntax',
    options: [
      {
        selector:
          'MemberExpression[property.name="engine"]:matches([object.name="dialect"], [object.property.name="dialect"])',
        message:
          "Ask the store's dialect for a capability (`rowLocks`, `streamsRows`, `jsonText`, …; add one in src/store/dialect/) instead of comparing its engine.",
      },
    ],
  },
];

const layers = {
  meta: { name: 'folio-layers' },
  rules: Object.fromEntries(LAYER_RULES.map((row) => [row.name, RULES[row.rule]])),
};

export default tseslint.config(
  // test/kit-site/ is compiled (tsc --strict) by test/client-kit.test.ts in a fresh project of its own.
  // .astro/ holds what Astro generates (types, its content store) in the example Astro site.
  {
    ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'client/dist/', 'test/kit-site/', '**/.astro/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // dependency-cruiser's configuration is CommonJS.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['bin/**/*.js', 'client/bin/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // The example site: plain Node ESM, no build.
    files: ['examples/**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', fetch: 'readonly' },
    },
  },
  { plugins: { layers } },
  ...LAYER_RULES.map((row) => ({
    files: row.files,
    ...(row.ignores ? { ignores: row.ignores } : {}),
    rules: { [`layers/${row.name}`]: /** @type {const} */ (['error', ...row.options]) },
  })),
);
