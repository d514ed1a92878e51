import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { expectShell, signIn } from '../support/pages';
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
