import { defineConfig } from '@playwright/test';

/** Browser tests on Debian's Chromium (no browser is downloaded). */
export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  // One retry: a test that passes only on its retry is still reported (as flaky) in the output, so
  // flakiness stays visible, but one timing hiccup on a loaded 2-core machine does not fail the run.
  retries: 1,
  forbidOnly: true,
  timeout: 30_000,
  // The whole run, including the production build of the web app in the global setup (~4 min on 2
  // busy cores). The run takes about 22 minutes on two loaded cores: the limit leaves room for a
  // slower machine, and still ends a run that hangs well inside CI's own limit.
  globalTimeout: 40 * 60_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    // Set by the global setup, which runs before the workers load this file.
    baseURL: process.env.E2E_WEB_URL,
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
