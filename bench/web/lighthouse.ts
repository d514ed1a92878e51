// Lighthouse on every page of the web app's production build, signed in as the administrator through
// the real sign-in form, then the time a side-bar link takes to show a list page already visited.
// Usage: npm run bench:web-lighthouse [-- --runs N] [--routes /users,/audit-log] [--desktop] [--json]
//          [--route-change-runs N] [--no-route-change] [--reports DIR]
// Mobile: Lighthouse's default simulation (a mid-range phone on slow 4G, simulated throttling).
// Scores move a lot with the machine's load: measure on an idle machine (docs/web-performance.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { chromium, type Page } from 'playwright-core';
import { ACCOUNTS, startStack } from '../../e2e/support/stack';
import { signIn } from '../../e2e/support/sign-in';
import { prepareRouteFixtures, selectRoutes, type AppRoute, type RouteFixtures } from '../../e2e/support/routes';
import { readBudgets } from './budgets';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    routes: { type: 'string' },
    desktop: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'route-change-runs': { type: 'string', default: '5' },
    'no-route-change': { type: 'boolean', default: false },
    // Keeps each run's whole Lighthouse report (JSON), to see what the figures come from.
    reports: { type: 'string' },
  },
});
const runs = Number(options.runs);
const routeChangeRuns = Number(options['route-change-runs']);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(routeChangeRuns) || routeChangeRuns < 1) {
  throw new Error('--runs and --route-change-runs take a whole number of at least 1');
}
const routes = selectRoutes(options.routes);
const budgets = readBudgets().lighthouse;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The machine has no network: nothing in the browser may try to reach out on its own.
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const log = (line: string) => process.stderr.write(`[lighthouse] ${line}\n`);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

interface Measurement {
  performance: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  accessibility: number;
  /** The scripts the page loaded during the run, as sent (compressed). */
  jsKb: number;
}

function measurementOf(lhr: Result): Measurement {
  const fail = (what: string) => {
    throw new Error(`${lhr.finalDisplayedUrl}: Lighthouse gave no ${what}${lhr.runtimeError ? ` (${lhr.runtimeError.code}: ${lhr.runtimeError.message})` : ''}`);
  };
  const numeric = (audit: string) => lhr.audits[audit]?.numericValue ?? fail(audit);
  const requests = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? fail('network requests');
  const jsBytes = requests.filter((request) => request.resourceType === 'Script').reduce((sum, request) => sum + (request.transferSize ?? 0), 0);
  return {
    performance: lhr.categories.performance?.score ?? fail('performance score'),
    accessibility: lhr.categories.accessibility?.score ?? fail('accessibility score'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    jsKb: jsBytes / 1024,
  };
}

/** Signs the browser's default profile in through the sign-in form, so Lighthouse's tabs share the session cookie. */
async function signInBrowser(port: number, webUrl: string, account: (typeof ACCOUNTS)[keyof typeof ACCOUNTS]): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const page = await browser.contexts()[0]!.newPage();
  await signIn(page, account, `${webUrl}/api/auth/signin`);
  await page.getByTestId('current-user').filter({ hasText: account.name }).waitFor();
  // Until React has taken the page over, the browser has not yet told the server its time zone (a
  // cookie), without which the server leaves the lists' rows for the browser to read.
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  await page.close();
  // Disconnects only: the browser and its default profile stay, for Lighthouse.
  await browser.close();
}

/** Median of `runs` Lighthouse runs of each route (each a cold load: Lighthouse empties the cache first). */
interface PageFigures {
  route: AppRoute;
  url: string;
  /** Per figure, the median of the runs; null when a run failed. */
  median: Measurement | null;
  runs: Measurement[];
  error: string | null;
}

/** One run's report as `DIR/users-1.json` (the page name with its slashes and brackets made plain). */
function saveReport(directory: string, page: string, run: number, lhr: Result): void {
  fs.mkdirSync(directory, { recursive: true });
  const name = page.replace(/[[\]]/g, '').replace(/^\/|\/$/g, '').replace(/\//g, '_') || 'home';
  fs.writeFileSync(path.join(directory, `${name}-${run}.json`), JSON.stringify(lhr));
}

async function lighthouseRoutes(webUrl: string, fixtures: RouteFixtures): Promise<PageFigures[]> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-lighthouse-'));
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS, userDataDir: profile, logLevel: 'error' });
  const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] };
  const results: PageFigures[] = [];
  try {
    // Signed-out pages first, while the browser has no session; then the administrator's, then
    // those of other roles (a sign-in replaces the session).
    const ordered = [
      ...routes.filter((route) => !route.signedIn),
      ...routes.filter((route) => route.signedIn && !route.account),
      ...routes.filter((route) => route.signedIn && route.account),
    ];
    let signedInAs: keyof typeof ACCOUNTS | null = null;
    for (const route of ordered) {
      const account = route.account ?? 'admin';
      if (route.signedIn && signedInAs !== account) {
        await signInBrowser(chrome.port, webUrl, ACCOUNTS[account]);
        signedInAs = account;
      }
      const url = `${webUrl}${route.path(fixtures)}`;
      const measured: Measurement[] = [];
      try {
        for (let run = 1; run <= runs; run++) {
          // The 404 page answers 404 on purpose; any other page must answer 200.
          let result = await lighthouse(url, { ...flags, ignoreStatusCode: route.page === '/404' }, options.desktop ? desktopConfig : undefined);
          // A trace that failed to record (NO_NAVSTART and the like, on a busy machine) says to run again: once.
          if (result?.lhr.runtimeError) {
            log(`${route.page} run ${run}: ${result.lhr.runtimeError.code}, running it again`);
            result = await lighthouse(url, { ...flags, ignoreStatusCode: route.page === '/404' }, options.desktop ? desktopConfig : undefined);
          }
          if (!result) throw new Error(`${url}: Lighthouse returned nothing`);
          if (new URL(result.lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
            throw new Error(`${url} ended at ${result.lhr.finalDisplayedUrl}: the page redirected (is the session gone?)`);
          }
          if (options.reports) saveReport(options.reports, route.page, run, result.lhr);
          measured.push(measurementOf(result.lhr));
          log(`${route.page} run ${run}/${runs}: performance ${measured.at(-1)!.performance}`);
        }
      } catch (error) {
        // One page that cannot be measured must not lose the others' figures: it is reported, and the bench fails.
        log(`${route.page}: ${error instanceof Error ? error.message : String(error)}`);
        results.push({ route, url, runs: measured, median: null, error: error instanceof Error ? error.message : String(error) });
        continue;
      }
      const pick = (key: keyof Measurement) => median(measured.map((m) => m[key]));
      results.push({
        route,
        url,
        runs: measured,
        median: { performance: pick('performance'), lcpMs: pick('lcpMs'), tbtMs: pick('tbtMs'), cls: pick('cls'), accessibility: pick('accessibility'), jsKb: pick('jsKb') },
        error: null,
      });
    }
  } finally {
    chrome.kill();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  return results;
}

/**
 * Watches, in the page, for the next click and then for the first frame in which a level-1 heading
 * reads HEADING and the page's table has a row; resolves to the milliseconds between the two. Kept
 * as source text: tsx compiles this file with esbuild's keepNames, whose `__name` calls in a
 * function handed to page.evaluate do not exist in the page.
 */
const WATCH_NEXT_ROUTE_CHANGE = `new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(HEADING + ' did not show within 30 s of the click')), 30000);
  document.addEventListener('click', (event) => {
    const check = () => {
      const shown = [...document.querySelectorAll('h1')].some((h1) => h1.textContent.trim() === HEADING)
        && document.querySelector('main .ant-table-tbody tr.ant-table-row') !== null;
      if (!shown) return requestAnimationFrame(check);
      clearTimeout(timer);
      resolve(performance.now() - event.timeStamp);
    };
    check();
  }, { capture: true, once: true });
})`;

/** Times one side-bar link: from the click event to the first frame showing the new page's heading and table rows. */
async function timeSideBarLink(page: Page, label: string, heading: string): Promise<number> {
  const watching = page.evaluate<number>(WATCH_NEXT_ROUTE_CHANGE.replaceAll('HEADING', JSON.stringify(heading)));
  // Evaluations run in order: once this one has, the listener is in place.
  await page.evaluate('0');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
  return watching;
}

/** /users ⇄ /audit-log by the side bar on the desktop preset's screen, unthrottled. */
async function routeChanges(webUrl: string): Promise<{ firstVisitMs: number; cachedAuditLogMs: number[]; cachedUsersMs: number[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless') });
  try {
    const context = await browser.newContext({ baseURL: webUrl, viewport: { width: 1350, height: 940 } });
    const page = await context.newPage();
    await signIn(page, ACCOUNTS.admin);
    await page.getByTestId('current-user').filter({ hasText: ACCOUNTS.admin.name }).waitFor();
    await page.goto('/users');
    await page.locator('main .ant-table-tbody tr.ant-table-row').first().waitFor();
    // The page arrives rendered by the server: its links respond once React has taken it over.
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    const firstVisitMs = await timeSideBarLink(page, 'Audit Log', 'Audit Log');
    const cachedAuditLogMs: number[] = [];
    const cachedUsersMs: number[] = [];
    for (let run = 0; run < routeChangeRuns; run++) {
      cachedUsersMs.push(await timeSideBarLink(page, 'Users', 'Users'));
      cachedAuditLogMs.push(await timeSideBarLink(page, 'Audit Log', 'Audit Log'));
    }
    return { firstVisitMs, cachedAuditLogMs, cachedUsersMs };
  } finally {
    await browser.close();
  }
}

const stack = await startStack(log);
try {
  // The fixtures' helpers find the stack the way the browser tests' workers do.
  process.env.E2E_API_URL = stack.apiUrl;
  process.env.E2E_DATA_DIR = stack.dataDir;
  const fixtures = await prepareRouteFixtures();
  const pages = await lighthouseRoutes(stack.webUrl, fixtures);
  let routeChange: Awaited<ReturnType<typeof routeChanges>> | null = null;
  let routeChangeError: string | null = null;
  if (!options['no-route-change']) {
    // A failure here must not lose the Lighthouse figures: it is reported, and the bench fails.
    routeChange = await routeChanges(stack.webUrl).catch((error: unknown) => {
      routeChangeError = error instanceof Error ? error.message : String(error);
      return null;
    });
  }

  if (options.json) {
    const strip = ({ route, ...rest }: (typeof pages)[number]) => ({ page: route.page, ...rest });
    process.stdout.write(`${JSON.stringify({ preset: options.desktop ? 'desktop' : 'mobile', runs, budgets, pages: pages.map(strip), routeChange, routeChangeError }, null, 2)}\n`);
  } else {
    const mark = (ok: boolean) => (ok ? ' ' : '!');
    process.stdout.write(
      `Lighthouse 12, ${options.desktop ? 'desktop preset' : 'default mobile simulation'}, median of ${runs} run(s) per page; ! = misses the goal in bench/web/performance-budgets.json\n\n`,
    );
    process.stdout.write(`${'page'.padEnd(32)}${'perf'.padStart(6)}${'LCP ms'.padStart(9)}${'TBT ms'.padStart(9)}${'CLS'.padStart(8)}${'a11y'.padStart(7)}${'JS kB gz'.padStart(10)}\n`);
    for (const { route, median: m, error } of pages) {
      if (!m) {
        process.stdout.write(`${route.page.padEnd(32)}  not measured: ${error}\n`);
        continue;
      }
      process.stdout.write(
        `${route.page.padEnd(32)}${m.performance.toFixed(2).padStart(5)}${mark(m.performance >= budgets.minPerformance)}` +
          `${Math.round(m.lcpMs).toString().padStart(8)}${mark(m.lcpMs <= budgets.maxLcpMs)}` +
          `${Math.round(m.tbtMs).toString().padStart(8)}${mark(m.tbtMs <= budgets.maxTbtMs)}` +
          `${m.cls.toFixed(3).padStart(7)}${mark(m.cls <= budgets.maxCls)}` +
          `${m.accessibility.toFixed(2).padStart(6)}${mark(m.accessibility >= budgets.minAccessibility)}` +
          `${m.jsKb.toFixed(1).padStart(10)}\n`,
      );
    }
    if (routeChangeError) process.stdout.write(`\nRoute change by the side bar: not measured: ${routeChangeError}\n`);
    if (routeChange) {
      process.stdout.write(`\nRoute change by the side bar (desktop screen, no throttling): click to heading and table rows shown\n`);
      process.stdout.write(`  /users -> /audit-log, first visit:        ${Math.round(routeChange.firstVisitMs)} ms\n`);
      process.stdout.write(`  /users -> /audit-log, cached, median of ${routeChange.cachedAuditLogMs.length}: ${Math.round(median(routeChange.cachedAuditLogMs))} ms\n`);
      process.stdout.write(`  /audit-log -> /users, cached, median of ${routeChange.cachedUsersMs.length}: ${Math.round(median(routeChange.cachedUsersMs))} ms\n`);
    }
    process.stdout.write(`\nMachine load (1/5/15 min): ${os.loadavg().map((load) => load.toFixed(2)).join(' ')} on ${os.cpus().length} cores\n`);
  }
  if (pages.some((page) => page.error) || routeChangeError) process.exitCode = 1;
} finally {
  await stack.stop();
}
