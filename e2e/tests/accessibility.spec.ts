import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ACCOUNTS, ROOT } from '../support/stack';
import { expectShell, seriousViolations, signIn } from '../support/pages';
import { invitationLinkFor } from '../support/outbox';
import { inviteThroughDialog, userRow } from '../support/users';
import { apiAs } from '../support/api';

const APP_ROUTES = [
  ['/', 'Welcome, Ada'],
  ['/no-such-page', 'Page not found'],
  ['/data-explorer', 'Data Explorer'],
  ['/cohorts', 'Cohorts'],
  ['/cohorts/6f1c2a52-8f0e-4a43-9d7c-1b2e3f4a5b6c', 'Cohort not found'],
  ['/workbenches', 'Workbenches'],
  ['/workbenches/6f1c2a52-8f0e-4a43-9d7c-1b2e3f4a5b6c', 'Workbench'],
  ['/documents', 'Documents'],
  ['/users', 'Users'],
  ['/audit-log', 'Audit Log'],
  ['/account', 'Your account'],
] as const;

/** Pages whose main content loads after the first paint: axe waits for their table. */
const LOADS_A_TABLE = new Set<string>(['/documents', '/audit-log']);

test('the sign-in, error and sign-out pages have no serious accessibility violations', async ({ page }) => {
  for (const url of [
    '/api/auth/signin',
    '/api/auth/signin?error=SessionRequired',
    '/error?error=AccountNotActive',
    '/signout',
    '/accept-invitation',
    '/accept-invitation#token=this-is-not-a-valid-invitation-token',
    '/api/auth/signin?error=SessionRevoked',
    '/no-such-page',
    // No sign-in under way: the second step says it has expired and offers the sign-in page.
    '/sign-in/second-factor',
  ]) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
    if (url.startsWith('/accept-invitation')) await expect(page.getByRole('alert').filter({ hasText: /invitation/ })).toBeVisible();
    if (url === '/sign-in/second-factor') await expect(page.getByRole('link', { name: 'Sign in again' })).toBeVisible();
    expect(await seriousViolations(page, { touchTargets: true }), url).toEqual([]);
  }
});

test('every page of the app has no serious accessibility violations', async ({ page }) => {
  // Another session of the account (a script's), so that /account lists one this browser can end.
  await apiAs(ACCOUNTS.admin);
  await signIn(page, ACCOUNTS.admin);
  await expectShell(page, ACCOUNTS.admin.name);
  for (const [url, heading] of APP_ROUTES) {
    await page.goto(url);
    await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    if (LOADS_A_TABLE.has(url)) await expect(page.getByRole('table')).toBeVisible();
    if (url === '/data-explorer') await expect(page.locator('.queryBuilder')).toBeVisible();
    // Its sessions arrive after the first paint, and enable "End all sessions": scanned before, the
    // button was once caught changing from its disabled colours to its danger ones.
    if (url === '/account') await expect(page.getByRole('list', { name: 'Your active sessions' }).getByRole('listitem')).not.toHaveCount(0);
    expect(await seriousViolations(page), url).toEqual([]);
  }
  await page.goto('/data-explorer');
  await expect(page.getByRole('heading', { name: 'Data Explorer' })).toBeVisible();
  // The README's picture of the shell: refreshed with UPDATE_SCREENSHOTS=1, else kept with the results.
  const dir = process.env.UPDATE_SCREENSHOTS === '1' ? path.join(ROOT, 'docs', 'images') : path.join(ROOT, 'e2e', 'test-results');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, 'shell.png') });
});

test('the users table, the invite dialog, the detail drawer and the password form have no serious violations', async ({ page, browser }) => {
  test.setTimeout(60_000);
  await signIn(page, ACCOUNTS.admin);
  await expectShell(page, ACCOUNTS.admin.name);
  await page.goto('/users');
  await expect(userRow(page, ACCOUNTS.researcher.email)).toBeVisible();
  expect(await seriousViolations(page), 'users table').toEqual([]);

  // Unique, so that the test can be repeated on one stack (--repeat-each).
  const email = `axel.axe.${Date.now()}@example.org`;
  const invitedAt = Date.now() - 1_000;
  await page.getByRole('button', { name: 'Invite users' }).click();
  await expect(page.getByRole('dialog', { name: 'Invite users' }).getByLabel('Email addresses')).toBeVisible();
  expect(await seriousViolations(page), 'invite dialog').toEqual([]);
  await page.getByRole('dialog', { name: 'Invite users' }).getByRole('button', { name: 'Cancel' }).click();
  await inviteThroughDialog(page, email);
  expect(await seriousViolations(page), 'invitation results').toEqual([]);
  await page.getByRole('dialog', { name: 'Invite users' }).getByRole('button', { name: 'Done' }).click();

  await page.getByRole('button', { name: `Details of ${ACCOUNTS.researcher.name}` }).click();
  await expect(page.getByRole('dialog', { name: ACCOUNTS.researcher.name })).toBeVisible();
  expect(await seriousViolations(page), 'detail drawer').toEqual([]);

  const context = await browser.newContext();
  const invitee = await context.newPage();
  await invitee.goto(await invitationLinkFor(email, { after: invitedAt }));
  await invitee.getByLabel('New password').fill('tangerine pelican voyage');
  await expect(invitee.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', /strong/i);
  // Its show-password switches are touch targets of 24 px at least (antd's eye was 14 px).
  expect(await seriousViolations(invitee, { touchTargets: true }), 'password form').toEqual([]);
  await context.close();
});

test('the query builder with rules of every editor, a records group and the name dialog have no serious violations', async ({ page }) => {
  await signIn(page, ACCOUNTS.researcher);
  await expectShell(page, ACCOUNTS.researcher.name);
  await page.goto('/data-explorer');
  await expect(page.locator('.queryBuilder')).toBeVisible();
  const header = page.locator('.queryBuilder > .ruleGroup > .ruleGroup-header');
  // A select (Sex), a number (Age), a concept picker (Condition) and a date, inside and outside a records group.
  for (const field of [null, 'Age (years)', 'Condition']) {
    await header.getByRole('button', { name: '+ Rule' }).click();
    if (field) {
      await page.locator('.queryBuilder .rule').last().getByLabel('Field').click();
      await page.locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${field}"]`).last().click();
    }
  }
  await header.getByLabel('Add a group of records').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="Drug"]').last().click();
  await expect(page.getByText('A Drug record where')).toBeVisible();
  await page.keyboard.press('Escape');
  expect(await seriousViolations(page), 'query builder').toEqual([]);

  // Save as checks the rules first: the rules still empty are marked, each with what to enter.
  await page.getByRole('button', { name: 'Save as' }).click();
  await expect(page.locator('.queryBuilder [aria-invalid="true"]').first()).toBeVisible();
  expect(await seriousViolations(page), 'rules to complete').toEqual([]);

  // A complete rule: Save as asks for the name.
  await page.goto('/data-explorer');
  await expect(page.locator('.queryBuilder')).toBeVisible();
  await header.getByRole('button', { name: '+ Rule' }).click();
  await page.locator('.queryBuilder .rule').last().getByLabel('Field').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="Age (years)"]').last().click();
  await page.locator('.queryBuilder .rule').last().getByLabel('Age (years) value').fill('40');
  await page.getByRole('button', { name: 'Save as' }).click();
  await expect(page.getByRole('dialog', { name: 'Save as a new query' }).getByLabel('Query name')).toBeVisible();
  expect(await seriousViolations(page), 'name dialog').toEqual([]);
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

  test('the home page, the drawer, the not-found page and the card tables have no serious violations', async ({ page }) => {
    test.setTimeout(60_000);
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect(await seriousViolations(page), 'not found, signed out').toEqual([]);
    await signIn(page, ACCOUNTS.admin);
    await expect(page.getByRole('heading', { name: 'Welcome, Ada' })).toBeVisible();
    await expect(page.getByTestId('dataset-persons')).toBeVisible();
    expect(await seriousViolations(page), 'home').toEqual([]);
    await page.getByRole('button', { name: 'Open the menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    expect(await seriousViolations(page), 'drawer').toEqual([]);
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Close the menu' }).click();
    for (const [url, heading] of [['/users', 'Users'], ['/audit-log', 'Audit Log'], ['/documents', 'Documents'], ['/no-such-page', 'Page not found']] as const) {
      await page.goto(url);
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
      if (url !== '/no-such-page') await expect(page.getByRole('table').or(page.getByText(/No documents yet/)).first()).toBeVisible();
      expect(await seriousViolations(page), url).toEqual([]);
    }
  });
});
