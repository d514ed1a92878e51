import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Request } from '@playwright/test';
import { ACCOUNTS, ROOT } from '../support/stack';
import { signIn } from '../support/sign-in';
import { APP_ROUTES, prepareRouteFixtures, type RouteFixtures } from '../support/routes';
import { BUDGETS_FILE, readBudgets, routeBudget } from '../../bench/web/budgets';

// The JavaScript each page makes a first-time visitor download, against the page's budget in
// bench/web/performance-budgets.json. Sizes, not times: the timings are the benches' (docs/web-performance.md).

const budgets = readBudgets();
const budgetsFile = path.relative(ROOT, BUDGETS_FILE);
let fixtures: RouteFixtures;
/** The saved session of each account that opens a page: the administrator's, and the roles' named by a route. */
const sessionFile = (account: keyof typeof ACCOUNTS) => path.join(process.env.E2E_DATA_DIR!, 'performance-budgets', `${account}-session.json`);

test.describe('first-load JavaScript budgets', () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(180_000);
    // Made once per run and kept beside the stack's data: a failed test restarts the worker, and
    // the pages after it reuse the records and the session instead of making them again.
    const saved = path.join(process.env.E2E_DATA_DIR!, 'performance-budgets');
    const fixturesFile = path.join(saved, 'fixtures.json');
    if (fs.existsSync(fixturesFile)) {
      fixtures = JSON.parse(fs.readFileSync(fixturesFile, 'utf8')) as RouteFixtures;
      return;
    }
    fixtures = await prepareRouteFixtures();
    // The sessions, made through the real sign-in form, for the signed-in pages.
    fs.mkdirSync(saved, { recursive: true });
    for (const account of new Set(['admin' as const, ...APP_ROUTES.flatMap((route) => (route.account ? [route.account] : []))])) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, ACCOUNTS[account]);
      await expect(page.getByTestId('current-user')).toContainText(ACCOUNTS[account].name);
      await context.storageState({ path: sessionFile(account) });
      await context.close();
    }
    fs.writeFileSync(fixturesFile, JSON.stringify(fixtures));
  });

  test('every page of the app has a budget', () => {
    expect(Object.keys(budgets.firstLoadJs.routes).sort()).toEqual(APP_ROUTES.map((route) => route.page).sort());
  });

  for (const route of APP_ROUTES) {
    test(`${route.page} loads no more JavaScript than its budget`, async ({ browser }) => {
      const budget = routeBudget(budgets, route.page);
      // A fresh context: an empty cache, as on a first visit.
      const context = await browser.newContext(route.signedIn ? { storageState: sessionFile(route.account ?? 'admin') } : {});
      const page = await context.newPage();
      const scripts: Promise<{ url: string; bytes: number }>[] = [];
      const onFinished = (request: Request) => {
        // responseBodySize is the body as it came over the wire, i.e. compressed.
        if (request.resourceType() === 'script') scripts.push(request.sizes().then((sizes) => ({ url: request.url(), bytes: sizes.responseBodySize })));
      };
      page.on('requestfinished', onFinished);
      await page.goto(route.path(fixtures), { waitUntil: 'load' });
      await page.waitForLoadState('networkidle');
      // No size is asked for after this: one asked for while the page closes fails the test.
      page.off('requestfinished', onFinished);
      const loaded = await Promise.all(scripts);
      // The page itself, not a redirect to the sign-in page or an error, was what loaded.
      await expect(page.getByRole('heading', { name: route.heading(fixtures), exact: true }).first()).toBeVisible();
      await context.close();

      const bytes = loaded.reduce((sum, script) => sum + script.bytes, 0);
      const kb = Math.round((bytes / 1024) * 10) / 10;
      test.info().annotations.push({ type: 'first-load JS', description: `${kb} kB gzip in ${loaded.length} scripts (budget ${budget.budgetKb} kB, goal ${budget.goalKb} kB)` });
      process.stdout.write(`first-load JS ${route.page}: ${kb} kB in ${loaded.length} scripts (budget ${budget.budgetKb} kB, goal ${budget.goalKb} kB)\n`);
      // Every Next.js page runs React; next-auth's sign-in page (/api/auth/signin) is plain HTML.
      if (!route.page.startsWith('/api/')) expect(loaded.length, `${route.page} loaded no JavaScript at all: the measurement is broken`).toBeGreaterThan(0);
      const largest = [...loaded]
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 5)
        .map((script) => `  ${(script.bytes / 1024).toFixed(1)} kB ${new URL(script.url).pathname}`)
        .join('\n');
      expect(
        kb,
        `${route.page} loaded ${kb} kB of JavaScript (gzip) on a first visit, over its budget of ${budget.budgetKb} kB in ${budgetsFile}. Largest scripts:\n${largest}`,
      ).toBeLessThanOrEqual(budget.budgetKb);
    });
  }
});
