import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      // src/app would be Next's App Router directory (its built-in not-found page would replace pages/404):
      // the app layer lives in src/application and keeps its import name.
      '@/app': path.join(__dirname, 'src', 'application'),
      '@': path.join(__dirname, 'src'),
      // jsdom stands in for the browser: the SDK's browser build, as the app's bundle gets it.
      '@sentry/nextjs': require.resolve('@sentry/nextjs').replace(/build\/cjs\/index\.server\.js$/, 'build/esm/index.client.js'),
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    environment: 'jsdom',
    // Two files at a time: vitest's default on two cores is one worker, and the main process is idle
    // while the tests run. Each file keeps its own module state (isolation stays on: the tests mock
    // modules and stub globals such as fetch).
    maxWorkers: 2,
    globals: true,
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    server: { deps: { inline: ['@react-querybuilder/antd', '@sentry/nextjs'] } },
  },
});
