import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { expectHydrated, expectShell, signIn } from '../support/pages';
import { APP_ROUTES, prepareRouteFixtures } from '../support/routes';

/** What the browser reported as errors while the page was open (a failed hydration among them). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Opens a page in the browser and waits until React has taken over the HTML the server sent. */
async function openHydrated(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expectHydrated(page);
}
import { apiAs } from '../support/api';
import { invitationLinkFor } from '../support/outbox';

/** Signs in, then fetches a page's HTML as the server first sends it (no script has run on it). */
async function firstHtmlSignedIn(page: Page, account: { email: string; password: string; name: string }, path: string): Promise<string> {
  await signIn(page, account);
  await expectShell(page, account.name);
  return (await page.request.get(path)).text();
}

// A protected page's first HTML is the shell and the page's frame, not a spinner: the server renders
// it with the session and the signed-in user.
test('a protected page arrives rendered with the shell and the signed-in user', async ({ page }) => {
  const { steward } = ACCOUNTS;
  const html = await firstHtmlSignedIn(page, steward, '/cohorts');
  expect(html).toContain('aria-label="Main"');
  expect(html).toContain(steward.name);
  expect(html).toContain('Data steward');
  expect(html).not.toContain('Checking your session');
  // The page's own frame is there too: its heading.
  expect(html).toMatch(/<h[1-4][^>]*>Cohorts<\/h[1-4]>/);
});

test('without a session the HTML holds no one’s details, and the browser is sent to sign in', async ({ page }) => {
  const answer = await page.request.get('/cohorts');
  const html = await answer.text();
  expect(html).not.toContain('aria-label="Main"');
  for (const account of Object.values(ACCOUNTS)) expect(html).not.toContain(account.email);
  await page.goto('/cohorts');
  await expect(page).toHaveURL(/\/api\/auth\/signin/);
});

test('the sign-out page arrives asking whether to sign out, not with a spinner', async ({ page }) => {
  const html = await firstHtmlSignedIn(page, ACCOUNTS.researcher, '/signout');
  expect(html).toContain('Are you sure you want to sign out');
  // Signed out, the same page says so from the first HTML.
  await page.context().clearCookies();
  expect(await (await page.request.get('/signout')).text()).toContain('You are signed out');
});

// A list page's first HTML holds its first page of rows: the server read them with the session, and
// the browser's store starts with the same answer, so React takes the page over without redrawing it
// and without asking for the list again.
test('a list page arrives with its first rows, and the browser takes it over as it is', async ({ page }) => {
  const { admin, researcher } = ACCOUNTS;
  const html = await firstHtmlSignedIn(page, admin, '/users');
  expect(html).toContain(researcher.email);
  expect(html).not.toContain('Loading users');

  const errors = collectErrors(page);
  const listCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/v1/users/') listCalls.push(request.url());
  });
  await openHydrated(page, '/users');
  await expect(page.getByRole('cell', { name: researcher.email })).toBeVisible();
  // Taken over, it responds: sorting by email asks for the next order.
  await page.getByRole('columnheader', { name: 'Email' }).click();
  await expect.poll(() => listCalls.some((url) => url.includes('order_by=email'))).toBe(true);
  expect(listCalls.filter((url) => !url.includes('order_by'))).toEqual([]);
  expect(errors).toEqual([]);
});

// Dates are shown in the browser's time zone. A browser in another zone than the server's gets the
// page without the rows, and reads them itself, rather than rows with the server's dates.
test.describe('in a time zone other than the server’s', () => {
  test.use({ timezoneId: 'Pacific/Kiritimati' });

  test('the rows are read by the browser, and shown in its own zone', async ({ page }) => {
    const { admin, researcher } = ACCOUNTS;
    const html = await firstHtmlSignedIn(page, admin, '/users');
    expect(html).not.toContain(researcher.email);
    const errors = collectErrors(page);
    await openHydrated(page, '/users');
    await expect(page.getByRole('cell', { name: researcher.email })).toBeVisible();
    expect(errors).toEqual([]);
  });
});

// Every signed-in page, rendered on the server with its data where it names any (lists, records, the
// home page), must be the page React builds in the browser: a difference is a hydration error, after
// which React throws the server's HTML away and draws the page again.
test('every signed-in page is taken over in the browser without a hydration error', async ({ browser }) => {
  test.setTimeout(120_000);
  const fixtures = await prepareRouteFixtures();
  // Each page as the account that opens it: the administrator's, or the role a route names (the
  // output checkers' queue is a data steward's).
  for (const account of ['admin', 'steward'] as const) {
    const routes = APP_ROUTES.filter((candidate) => candidate.signedIn && candidate.page !== '/signout' && (candidate.account ?? 'admin') === account);
    if (routes.length === 0) continue;
    const context = await browser.newContext({ baseURL: process.env.E2E_WEB_URL, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page, ACCOUNTS[account]);
    await expectShell(page, ACCOUNTS[account].name);
    const errors = collectErrors(page);
    for (const route of routes) {
      await openHydrated(page, route.path(fixtures));
      await expect(page.getByRole('heading', { name: route.heading(fixtures), level: 1 })).toBeVisible();
      expect(errors, route.page).toEqual([]);
    }
    await context.close();
  }
});
// The invitation's token is in the link's fragment, which the server never sees: the first HTML is
// the card with placeholders, and what the browser then learns fills it without moving anything.
test('the accept-invitation page arrives as its card, and nothing on it moves as the invitation and the form arrive', async ({ page }) => {
  const html = await (await page.request.get('/accept-invitation')).text();
  expect(html).toMatch(/<h1[^>]*>Accept your invitation<\/h1>/);
  expect(html).toContain('aria-label="Checking the invitation"');

  const email = `shift.free.${Date.now()}@example.org`;
  const invitedAt = Date.now() - 1_000;
  await (await apiAs(ACCOUNTS.admin)).call('POST', '/users/', { invitations: [{ email, name: 'Shirin Still', roles: ['RESEARCHER'] }] });
  // Every layout shift from the first paint on, as Lighthouse counts them (none follow an input here).
  await page.addInitScript(() => {
    const shifts: number[] = ((window as unknown as { __shifts: number[] }).__shifts = []);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) shifts.push(entry.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto(await invitationLinkFor(email, { after: invitedAt }));
  await expect(page.getByText('Shirin Still, you are invited')).toBeVisible();
  await expect(page.getByLabel('New password')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Set password and activate account' })).toBeVisible();
  // Two frames, so that the last shifts (if any) are reported.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts)).toEqual([]);
});
