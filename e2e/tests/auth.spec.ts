import { expect, test } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { expectShell, signIn, sideBarItem } from '../support/pages';

test('the seeded administrator signs in and sees the shell', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/:\d+\/$/);
  await expectShell(page, ACCOUNTS.admin.name);
  await expect(page.getByRole('heading', { name: 'Welcome, Ada' })).toBeVisible();
  for (const label of ['Home', 'Data Explorer', 'Cohorts', 'Workbenches', 'Users', 'Audit Log']) {
    await expect(sideBarItem(page, label)).toBeVisible();
  }
  await expect(sideBarItem(page, 'Users')).not.toHaveAttribute('aria-disabled', 'true');
});

test('a wrong password shows an error and stays on the sign-in page', async ({ page }) => {
  await signIn(page, { email: ACCOUNTS.admin.email, password: 'not-the-password' });
  await expect(page).toHaveURL(/\/api\/auth\/signin\?error=CredentialsSignin/);
  await expect(page.getByText('Sign in failed. Check the details you provided are correct.')).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
});

test('a protected page asks for a session and returns there after sign-in', async ({ page }) => {
  await page.goto('/workbenches');
  await expect(page).toHaveURL(/\/api\/auth\/signin\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('error')).toBe('SessionRequired');
  expect(url.searchParams.get('callbackUrl')).toMatch(/\/workbenches$/);
  await expect(page.getByText('Please sign in to access this page.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Workbenches' })).toHaveCount(0);

  await signIn(page, ACCOUNTS.researcher, '');
  await expect(page).toHaveURL(/\/workbenches$/);
  await expect(page.getByRole('heading', { name: 'Workbenches' })).toBeVisible();
});

test('the home page is a page of its own, not a redirect', async ({ page }) => {
  await signIn(page, ACCOUNTS.researcher);
  await expectShell(page, ACCOUNTS.researcher.name);
  await page.goto('/data-explorer');
  await page.goto('/');
  await expect(page).toHaveURL(/:\d+\/$/);
  await expect(page.getByRole('heading', { name: 'Welcome, Rosalind' })).toBeVisible();
});

test('signing out ends the session', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expectShell(page, ACCOUNTS.admin.name);
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signout$/);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/api\/auth\/signin/);

  const session = await page.request.get('/api/auth/session');
  expect(await session.json()).toEqual({});
  await page.goto('/users');
  await expect(page).toHaveURL(/\/api\/auth\/signin\?.*error=SessionRequired/);
});
