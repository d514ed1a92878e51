import { expect, test } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { expectHydrated, expectShell, signIn, sideBarItem } from '../support/pages';
import { invitationLinkFor } from '../support/outbox';
import { confirmRowAction, inviteThroughDialog, userRow } from '../support/users';

const NEWCOMER = { email: 'nora.newcomer@example.org', name: 'Nora Newcomer', password: 'quiet harbour lanterns 42' };
const WITHDRAWN = { email: 'walter.withdrawn@example.org', name: 'Walter Withdrawn' };
const NO_LONGER_VALID = 'This invitation is no longer valid. Ask an administrator to send a new one.';

test('an invited researcher joins, is disabled and enabled again; a revoked invitation stops working', async ({ page, browser }) => {
  test.setTimeout(150_000);
  const webUrl = process.env.E2E_WEB_URL!;

  // 1. The administrator invites a researcher.
  await signIn(page, ACCOUNTS.admin);
  await expectShell(page, ACCOUNTS.admin.name);
  await sideBarItem(page, 'Users').click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  const invitedAt = Date.now() - 1_000;
  await inviteThroughDialog(page, `${NEWCOMER.name} <${NEWCOMER.email}>`);
  const results = page.getByRole('dialog', { name: 'Invite users' });
  await expect(results.getByRole('row', { name: new RegExp(NEWCOMER.email) })).toContainText('Invited');
  await results.getByRole('button', { name: 'Done' }).click();
  await expect(userRow(page, NEWCOMER.email)).toContainText('Invited');

  // 2. The invitation e-mail links to the web app; the researcher sets a password there.
  const link = await invitationLinkFor(NEWCOMER.email, { after: invitedAt });
  expect(link.startsWith(`${webUrl}/accept-invitation#token=`)).toBe(true);
  const newcomerContext = await browser.newContext();
  const newcomer = await newcomerContext.newPage();
  await newcomer.goto(link);
  await expect(newcomer.getByText(`${NEWCOMER.name}, you are invited`)).toBeVisible();
  await expect(newcomer).toHaveURL(`${webUrl}/accept-invitation`); // the token left the address bar
  // The same tab opened without a token shows no one's invitation (the page said whose it was before).
  await newcomer.goto(`${webUrl}/accept-invitation`);
  await expect(newcomer.getByRole('alert').filter({ hasText: /invitation/ })).toBeVisible();
  await expect(newcomer.getByText(NEWCOMER.name)).toHaveCount(0);
  await newcomer.goto('about:blank');
  await newcomer.goto(link);
  await expect(newcomer.getByText(`${NEWCOMER.name}, you are invited`)).toBeVisible();
  await newcomer.getByLabel('New password').fill(NEWCOMER.password);
  await expect(newcomer.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', /strong/i);
  await newcomer.getByLabel('Confirm password').fill(NEWCOMER.password);
  await newcomer.getByRole('button', { name: 'Set password and activate account' }).click();
  await expect(newcomer.getByText('Your account is ready.')).toBeVisible();

  // 3. Signed in, the researcher sees Users disabled.
  await newcomer.getByRole('link', { name: 'Sign in' }).click();
  await signIn(newcomer, NEWCOMER, '');
  await expect(newcomer).toHaveURL(`${webUrl}/`);
  await expectShell(newcomer, NEWCOMER.name);
  await expect(sideBarItem(newcomer, 'Users')).toHaveAttribute('aria-disabled', 'true');

  // 4. The administrator disables them: their next navigation ends at the sign-in page.
  await page.reload();
  await expect(userRow(page, NEWCOMER.email)).toContainText('Active');
  await confirmRowAction(page, NEWCOMER.email, 'Disable');
  await expect(userRow(page, NEWCOMER.email)).toContainText('Disabled');
  await newcomer.goto(`${webUrl}/workbenches`);
  await expect(newcomer).toHaveURL(/\/api\/auth\/signin\?.*error=AccountDisabled/);
  expect(await (await newcomer.request.get(`${webUrl}/api/auth/session`)).json()).toEqual({});

  // 5. Enabled again, they can sign in.
  await confirmRowAction(page, NEWCOMER.email, 'Enable');
  await expect(userRow(page, NEWCOMER.email)).toContainText('Active');
  await signIn(newcomer, NEWCOMER, '');
  await expectShell(newcomer, NEWCOMER.name);
  await newcomerContext.close();

  // 6. A revoked invitation's link says it is no longer valid.
  const secondAt = Date.now() - 1_000;
  await inviteThroughDialog(page, `${WITHDRAWN.name} <${WITHDRAWN.email}>`);
  await page.getByRole('dialog', { name: 'Invite users' }).getByRole('button', { name: 'Done' }).click();
  const revokedLink = await invitationLinkFor(WITHDRAWN.email, { after: secondAt });
  await confirmRowAction(page, WITHDRAWN.email, 'Revoke');
  await expect(userRow(page, WITHDRAWN.email)).toContainText('Revoked');
  await expect(userRow(page, WITHDRAWN.email).getByRole('button', { name: /^(Re-send|Revoke) / })).toHaveCount(0);
  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  await stranger.goto(revokedLink);
  await expect(stranger.getByText(NO_LONGER_VALID)).toBeVisible();
  await expect(stranger.getByLabel('New password')).toHaveCount(0);
  await strangerContext.close();
});

test('the users list filters by status and searches by name', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expectShell(page, ACCOUNTS.admin.name);
  await page.goto('/users');
  await expect(userRow(page, ACCOUNTS.researcher.email)).toBeVisible();
  // The rows come with the page from the server: the search responds once React has taken it over.
  await expectHydrated(page);
  await page.getByRole('searchbox', { name: 'Search users by name or email' }).fill('Rosalind');
  await page.keyboard.press('Enter');
  await expect(userRow(page, ACCOUNTS.admin.email)).toHaveCount(0);
  await expect(userRow(page, ACCOUNTS.researcher.email)).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search users by name or email' }).fill('');
  await page.keyboard.press('Enter');
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.locator('.ant-select-dropdown:visible').getByText('Disabled', { exact: true }).click();
  await expect(userRow(page, ACCOUNTS.researcher.email)).toHaveCount(0);
  await expect(page.getByText('No user matches these filters.')).toBeVisible();
});
