import { expect, test } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { expectShell, signIn, sideBarItem } from '../support/pages';

test('a researcher sees Users and Audit Log disabled, with the reason', async ({ page }) => {
  await signIn(page, ACCOUNTS.researcher);
  await expectShell(page, ACCOUNTS.researcher.name);
  await expect(sideBarItem(page, 'Users')).toHaveAttribute('aria-disabled', 'true');
  await expect(sideBarItem(page, 'Audit Log')).toHaveAttribute('aria-disabled', 'true');
  await expect(sideBarItem(page, 'Workbenches')).not.toHaveAttribute('aria-disabled', 'true');

  await page.getByTestId('side-bar-disabled-users').hover();
  await expect(page.getByRole('tooltip')).toHaveText('Only administrators can open Users.');

  // Opening the page directly does not show it either.
  await page.goto('/users');
  await expect(page.getByText('Your roles do not allow you to open this page.')).toBeVisible();
});

test('a failing API call shows the catalogue toast at the bottom right', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expectShell(page, ACCOUNTS.admin.name);
  // A call the browser makes itself: the users list, on a route change (the server renders the
  // first page of a page opened from its address).
  await page.route('**/api/v1/users/?**', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'Boom' }) }),
  );
  await sideBarItem(page, 'Users').click();
  const toast = page.locator('.ant-notification-bottomRight .ant-notification-notice');
  await expect(toast).toContainText('Something went wrong');
  const box = (await toast.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x + box.width).toBeGreaterThan(viewport.width * 0.75);
  expect(box.y + box.height).toBeGreaterThan(viewport.height * 0.6);
});

test('a route change shows the full-page spinner and locks scrolling until it completes', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expectShell(page, ACCOUNTS.admin.name);
  // Hold the next page's code back so that the change lasts long enough to be seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_next/static/**', async (route) => {
    await held;
    await route.continue();
  });
  await sideBarItem(page, 'Cohorts').click();
  const spinner = page.getByTestId('route-change-spinner');
  await expect(spinner).toBeVisible();
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
  release();
  await expect(page.getByRole('heading', { name: 'Cohorts' })).toBeVisible();
  await expect(spinner).toHaveCount(0);
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('');
});
