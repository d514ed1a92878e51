import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS, startApi, stopApi } from '../support/stack';
import { expectShell, signIn, sideBarItem } from '../support/pages';

/** The toasts on screen with this title. */
const toasts = (page: Page, title: string) => page.locator('.ant-notification-notice').filter({ hasText: title });

/**
 * With the API process really stopped, and with the browser offline, every page tells the same
 * truth: "Unable to reach the server", a failure with Retry where data should be (never "No data"
 * or "Something went wrong"), and one toast per message however many calls failed.
 */
test.describe.serial('the API down, the browser offline', () => {
  let stopped = false;
  test.afterAll(async () => {
    if (stopped) await startApi();
  });

  test('with the API stopped, a list and a full reload say the server cannot be reached, and Retry recovers', async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, ACCOUNTS.admin);
    await expectShell(page, ACCOUNTS.admin.name);
    await page.goto('/users');
    await expect(page.getByRole('row').filter({ hasText: ACCOUNTS.researcher.email })).toBeVisible();

    await stopApi();
    stopped = true;
    // A list loaded now: the failure and Retry in place of the list, the same words as the toast.
    await sideBarItem(page, 'Cohorts').click();
    await expect(page.getByRole('heading', { name: 'Cohorts', level: 1 })).toBeVisible();
    const failure = page.getByRole('alert').filter({ hasText: 'The cohorts could not be loaded.' });
    await expect(failure).toContainText('Unable to reach the server. Check your network connection and try again in a moment.');
    await expect(failure.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(page.getByText('No cohorts yet', { exact: false })).toHaveCount(0);
    await expect(toasts(page, 'Unable to reach the server')).toHaveCount(1);
    await expect(toasts(page, 'Something went wrong')).toHaveCount(0);

    // Retrying while it is still down fails the same way: still one toast, not a stack of them.
    await failure.getByRole('button', { name: 'Retry' }).click();
    await expect(failure.getByRole('button', { name: 'Retry' })).toBeEnabled();
    await expect(toasts(page, 'Unable to reach the server')).toHaveCount(1);

    // A full reload: the user's details cannot be read; the page says why, without blaming the account.
    await page.reload();
    const details = page.getByRole('alert').filter({ hasText: 'Your details could not be loaded.' });
    await expect(details).toContainText('Unable to reach the server.');
    await expect(page.getByText('Your account could not be loaded')).toHaveCount(0);

    await startApi();
    stopped = false;
    await details.getByRole('button', { name: 'Retry' }).click();
    await expectShell(page, ACCOUNTS.admin.name);
    await expect(page.getByRole('heading', { name: 'Cohorts', level: 1 })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'could not be loaded' })).toHaveCount(0);
  });

  test('offline, a list shows the failure with Retry, not "No data"', async ({ page, context }) => {
    await signIn(page, ACCOUNTS.admin);
    await expectShell(page, ACCOUNTS.admin.name);
    await page.goto('/users');
    await expect(page.getByRole('row').filter({ hasText: ACCOUNTS.researcher.email })).toBeVisible();

    // Offline, the list asks again (a search): the page's code is loaded, its data cannot be.
    await context.setOffline(true);
    await page.getByLabel('Search users by name or email').fill('researcher');
    await page.keyboard.press('Enter');
    const failure = page.getByRole('alert').filter({ hasText: 'The users could not be loaded.' });
    await expect(failure).toContainText('Unable to reach the server.');
    await expect(page.getByText('No data', { exact: true })).toHaveCount(0);
    await expect(toasts(page, 'Unable to reach the server')).toHaveCount(1);

    await context.setOffline(false);
    await failure.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('row').filter({ hasText: ACCOUNTS.researcher.email })).toBeVisible();
    await expect(failure).toHaveCount(0);
  });
});
