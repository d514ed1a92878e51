import { expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

/** Signs in on the built-in sign-in page, starting from wherever the browser is. */
export async function signIn(page: Page, account: { email: string; password: string }, from = '/api/auth/signin'): Promise<void> {
  if (from) await page.goto(from);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in with email and password' }).click();
}

/** The serious and critical accessibility violations axe finds on the page. */
export async function seriousViolations(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  // Measure the settled page: colours mid-transition would be judged as they pass.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact!, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

/** Waits until the shell shows the signed-in user. */
export async function expectShell(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByTestId('current-user')).toContainText(name);
}
