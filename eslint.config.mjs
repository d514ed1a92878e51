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
const featureZones = webFeatures.map((feature) => ({
  files: [`${WEB_SRC}/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [{
        regex: `^@/features/(?!${feature}/)[^/]+/(?!api/)`,
        message: 'A feature may import only the api/ of another feature; move what is shared to src/components, src/lib or src/test-support.',
      }, {
        regex: '^@/pages/',
        message: 'Pages compose features; features do not import pages.',
      }],
    }],
  },
}));
const sharedZone = {
  files: [`${WEB_SRC}/{components,lib,test-support}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [{ regex: '^@/(features|pages)/', message: 'Shared code does not depend on features or pages.' }],
    }],
  },
};

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
  sharedZone,
);
