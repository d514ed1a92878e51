import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

/**
 * Debian's headless shell (package chromium-headless-shell) when installed: the same Chromium
 * without the full browser's UI layers, ~20 % less CPU for the same specs (2026-11-29: four spec
 * files 216 s with `chromium`, 199 s with the shell, 121 → 98 s of CPU; every test passing on both). The full browser
 * otherwise; CHROMIUM_PATH overrides both.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => fs.existsSync(p)) ?? '/usr/bin/chromium';

/**
 * Specs that change what every other spec relies on, so they run alone, after the others: they
 * stop the API, reload the warehouse (cohort versions taken before can no longer be released),
 * disable or sign out the shared accounts (a sign-out revokes every session of the account and
 * ends its notebook sessions), try wrong passwords against them, or compare a page's rows as the
 * server sent them with the rows the browser reads next.
 */
const ALONE = [
  'api-down',
  'auth',
  'cohort-versions',
  'data-explorer-feedback',
  'dataset-reload',
  'landing',
  'phone',
  'security-headers',
  'server-rendering',
  'session-ended',
  'user-security',
];
const alone = new RegExp(`/(${ALONE.join('|')})\\.spec\\.ts$`);

/** Browser tests on Debian's Chromium (no browser is downloaded). */
export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  // A spec file's tests run in order; the spec files one after another (each makes its own
  // records, named by its own stamp), then the specs that must run alone, one after another.
  fullyParallel: false,
  // One worker: the run is bound by the CPU (Chromium's renderers), so on two cores a second worker
  // only shares them (2026-11-29: 979 s with two against 966 s with one for the shared specs, one
  // test timing out under the load). The specs that must run alone run last.
  workers: 1,
  projects: [
    { name: 'shared', testIgnore: alone, teardown: 'alone' },
    // A teardown project runs after the other has finished, whether its tests passed or not, and
    // always in full: to run some specs only, add --no-deps (npx playwright test --no-deps tests/x.spec.ts).
    { name: 'alone', testMatch: alone, workers: 1 },
  ],
  // One retry: a test that passes only on its retry is still reported (as flaky) in the output, so
  // flakiness stays visible, but one timing hiccup on a loaded 2-core machine does not fail the run.
  retries: 1,
  forbidOnly: true,
  timeout: 30_000,
  // The whole run, including the production build of the web app in the global setup (~4 min on 2
  // busy cores). The run took 20 minutes on two cores loaded by other work (34 with one worker): the
  // limit leaves room for a slower machine, and still ends a run that hangs well inside CI's own limit.
  globalTimeout: 40 * 60_000,
  // Two spec files at once on two cores: an answer the page waits for (a saved query's refusal, a
  // new cohort's page) was seen to take over 7 s while the other worker ran a notebook.
  expect: { timeout: 12_000 },
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    // Set by the global setup, which runs before the workers load this file.
    baseURL: process.env.E2E_WEB_URL,
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
