import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// Import zones of the web app (after bulletproof-react): a feature may use another feature's API
// endpoints (one RTK Query API serves them all) but not its components, hooks or internals; shared
// code (components, lib, test-support) never reaches into a feature, the pages or the app.
const WEB_SRC = 'apps/web/src';
const webFeatures = readdirSync(new URL(`./${WEB_SRC}/features`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
// The contract's index brings every zod schema with it (about 47 kB gzip in the first load of any
// page that imports a value from it): the browser's code takes values from the contract's zod-free
// subpaths (`@hdp/contract/permissions`, `/criteria-attributes`, ...) and only types from its index.
// Tests and the server-side sign-in code may import values from it.
const contractIndexValues = {
  name: '@hdp/contract',
  allowTypeImports: true,
  message: 'Import values from a zod-free subpath of the contract (@hdp/contract/<module>) and only types from its index: a value import brings zod into the page.',
};
const SERVER_OR_TEST = [`${WEB_SRC}/**/*.test.{ts,tsx}`, `${WEB_SRC}/test-support/**`, `${WEB_SRC}/lib/auth/**`, `${WEB_SRC}/pages/api/**`];
/** A zone's import rule: with the contract rule for browser code, without it for tests and server code. */
const zone = (files, patterns) => [
  { files, rules: { 'no-restricted-imports': ['error', { paths: [contractIndexValues], patterns }] } },
  { files: SERVER_OR_TEST, rules: { 'no-restricted-imports': ['error', { patterns }] } },
];
const featureZones = webFeatures.flatMap((feature) =>
  zone(
    [`${WEB_SRC}/features/${feature}/**/*.{ts,tsx}`],
    [
      {
        regex: `^@/features/(?!${feature}/)[^/]+/(?!api/)`,
        message: 'A feature may import only the api/ of another feature; move what is shared to src/components, src/lib or src/test-support.',
      },
      { regex: '^@/pages/', message: 'Pages compose features; features do not import pages.' },
    ],
  ),
);
const sharedZone = zone([`${WEB_SRC}/{components,lib,test-support}/**/*.{ts,tsx}`], [{ regex: '^@/(features|pages)/', message: 'Shared code does not depend on features or pages.' }]);
const pagesZone = zone([`${WEB_SRC}/{pages,application,config}/**/*.{ts,tsx}`, `${WEB_SRC}/*.{ts,tsx}`], []);

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.next/**', '**/data/**', '**/next-env.d.ts', 'apps/api/drizzle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  ...featureZones,
  ...sharedZone,
  ...pagesZone,
);
