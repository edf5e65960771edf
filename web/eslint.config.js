// ESLint (flat config) for the web app (src, e2e, bench, the config files) and the project's
// Node scripts outside web/: edge/tests, edge/bench, engine/js-tests, engine/js-bench,
// engine/js/boundary.js and scripts/lib. `npm run lint` runs it from the repository root with
// `--config web/eslint.config.js`, so the patterns below are written to match from either root.
//
// ESLint and Prettier rather than Biome: the React rules this app needs (eslint-plugin-react-hooks
// 7, whose rules come from the React Compiler, and eslint-plugin-react-refresh for Vite's Fast
// Refresh) exist only as ESLint plugins, and typescript-eslint is the reference TypeScript rule
// set. Formatting is Prettier's alone (prettier.config.js): no ESLint rule here is about layout.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The web app's layers (docs/architecture.md, "The web app's layers"): the shared layers
// (src/api, src/components, src/lib, src/testing) import nothing above them; a feature imports
// the shared layers and itself, never another feature nor the app; src/app assembles the
// features. eslint-plugin-import's `import/no-restricted-paths` is not installed, so each
// feature gets core `no-restricted-imports` with the other features named; a new folder under
// src/features is covered by being there.
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const LAYERS_MESSAGE =
  'A feature imports only the shared layers (@/api, @/components, @/lib) and its own files: move what two features share into a shared layer.';
const SHARED_MESSAGE = 'The shared layers (api, components, lib, testing) import neither a feature nor the app.';
const featureLayers = FEATURES.map((feature) => ({
  name: `shop/layers/features/${feature}`,
  files: [`**/src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { regex: `^@/features/(?!${feature}/)`, message: LAYERS_MESSAGE },
          { regex: '^@/app(/|$)', message: LAYERS_MESSAGE },
          { regex: `^(\\.\\./)+(app|features|${FEATURES.filter((other) => other !== feature).join('|')})(/|$)`, message: LAYERS_MESSAGE },
        ],
      },
    ],
  },
}));

export default defineConfig([
  globalIgnores(['**/node_modules/', '**/dist/', '**/build/', '**/test-results/', '**/playwright-report/', '**/.wrangler/']),

  js.configs.recommended,
  tseslint.configs.recommended,
  {
    name: 'shop/everywhere',
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_`-prefixed names are the ones a signature requires but the body does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },

  // The browser app: React, hooks (the React Compiler's rules) and Fast Refresh boundaries.
  {
    name: 'shop/web-app',
    files: ['**/src/**/*.{ts,tsx}'],
    ignores: ['**/engine/**', '**/edge/**'],
    extends: [reactHooks.configs.flat['recommended-latest'], reactRefresh.configs.vite],
    languageOptions: { globals: globals.browser },
  },
  {
    name: 'shop/web-tests',
    files: ['**/src/**/*.test.{ts,tsx}', '**/src/testing/**'],
    rules: { 'react-refresh/only-export-components': 'off' },
  },

  // The layers: imports flow shared → features → app.
  {
    name: 'shop/layers/shared',
    files: ['**/src/{api,components,lib,testing}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^@/(features|app)(/|$)', message: SHARED_MESSAGE },
            { regex: '^(\\.\\./)+(features|app)(/|$)', message: SHARED_MESSAGE },
          ],
        },
      ],
    },
  },
  ...featureLayers,
  // A read's key and fetcher, and a write's call, live once in an api.ts (or src/api): a
  // component uses those options and hooks, and never calls the API client itself.
  {
    name: 'shop/layers/data',
    files: ['**/src/features/*/components/**/*.tsx', '**/src/components/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='queryFn']",
          message: "A read is a queryOptions factory in its feature's api.ts (or src/api): use it, as useQuery(orderQuery(id)).",
        },
        {
          selector: "ImportDeclaration[source.value='@/lib/api']",
          message:
            "A component calls the API through its feature's api.ts (or src/api): queryOptions for reads, mutation hooks for writes.",
        },
      ],
    },
  },

  // Node: the config files, the browser tests' runner side, benchmarks, test harnesses and the
  // scripts. Playwright's `page.evaluate` callbacks run in the page, hence the browser globals.
  {
    name: 'shop/node',
    files: ['**/*.config.{js,ts}', '**/e2e/**/*.ts', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    name: 'shop/node-in-browser',
    files: ['**/e2e/**/*.ts', '**/bench/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  // The engine's JavaScript boundary, loaded by the WebAssembly package in browsers, Node and
  // the Workers runtime alike: only what all three share.
  {
    name: 'shop/engine-boundary',
    files: ['**/engine/js/*.js'],
    languageOptions: { sourceType: 'module', globals: { ...globals['shared-node-browser'] } },
  },
  // Console output is what the Node scripts, benchmarks and tests are for.
  {
    name: 'shop/console-scripts',
    files: ['**/*.mjs', '**/e2e/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
]);
