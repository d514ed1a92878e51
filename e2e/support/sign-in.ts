import type { Page } from '@playwright/test';

/**
 * Signs in on the built-in sign-in page, starting from wherever the browser is. Apart from
 * pages.ts (which loads the test runner and axe) so that the benches can sign in the same way.
 */
export async function signIn(page: Page, account: { email: string; password: string }, from = '/api/auth/signin'): Promise<void> {
  if (from) await page.goto(from);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in with email and password' }).click();
}
