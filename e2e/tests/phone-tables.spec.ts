import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { apiAs } from '../support/api';
import { expectHydrated, seriousViolations, signIn } from '../support/pages';

/** Tables with actions, on a phone: each row is a card whose actions stay on the screen. */
test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

const stamp = Date.now();
const purpose = 'To check that the tables of a workbench can be used on a phone, actions included, at 390 pixels.';

const sidewaysOverflow = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);

async function expectOnScreen(page: Page, locator: ReturnType<Page['locator']>, what: string) {
  await locator.scrollIntoViewIfNeeded();
  const box = (await locator.boundingBox())!;
  expect(box, what).not.toBeNull();
  expect(box.x, what).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, what).toBeLessThanOrEqual(390);
}

test("the wizard's members stack as cards: Remove, and why the only owner cannot be removed, fit the screen", async ({ page }) => {
  await signIn(page, ACCOUNTS.researcher);
  // On a phone the side bar is behind the menu button: the header's user is the sign of the shell.
  await expect(page.getByTestId('current-user')).toContainText('Rosalind');
  await page.goto('/workbenches/new');
  await page.getByLabel('Name').fill(`Phone members (${stamp})`);
  await page.getByLabel('Research purpose').fill(purpose);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Step 2 of 4: Add Data' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Step 3 of 4: Add Users' })).toBeVisible();
  await expectOnScreen(page, page.getByRole('button', { name: `Remove ${ACCOUNTS.researcher.email}` }), 'Remove');
  await expectOnScreen(page, page.locator('#last-owner-note'), 'the only-owner note');
  await expectOnScreen(page, page.getByRole('combobox', { name: 'Person (name or email)' }), 'the person search');
  expect(await sidewaysOverflow(page)).toBe(0);
  expect(await seriousViolations(page), 'members on a phone').toEqual([]);
});

test("a workbench's notebooks stack as cards with their actions on the screen", async ({ page }) => {
  test.setTimeout(120_000);
  const researcher = await apiAs(ACCOUNTS.researcher);
  const workbench = await researcher.call<{ id: string }>('POST', '/workbenches/', { name: `Phone notebooks (${stamp})`, purpose, cohorts: [], queries: [], documents: [], users: [] });
  const notebook = await researcher.call<{ id: string }>('POST', `/workbenches/${workbench.id}/notebooks/`, { name: `Phone analysis (${stamp})`, environment: 'python3-datascience' });
  try {
    await signIn(page, ACCOUNTS.researcher);
    // On a phone the side bar is behind the menu button: the header's user is the sign of the shell.
  await expect(page.getByTestId('current-user')).toContainText('Rosalind');
    await page.goto(`/workbenches/${workbench.id}`);
    await expectHydrated(page);
    // The tab bar wraps on a phone: every tab is on screen, none behind a "more" button (which
    // antd puts inside the tab list, where axe allows only tabs), and the bar passes axe at 390 px.
    const tabs = page.getByRole('tab');
    for (let i = 0; i < (await tabs.count()); i++) await expectOnScreen(page, tabs.nth(i), `tab ${i + 1}`);
    expect(await seriousViolations(page, { include: '.ant-tabs-nav' }), 'the tab bar on a phone').toEqual([]);
    await page.getByRole('tab', { name: 'Notebooks' }).click();
    await expect(page.getByRole('tab', { name: 'Notebooks' })).toHaveAttribute('aria-selected', 'true');
    const card = page.getByRole('row').filter({ hasText: `Phone analysis (${stamp})` });
    await expect(card).toBeVisible();
    const actions = card.getByRole('button');
    await expect(actions.first()).toBeVisible();
    for (let i = 0; i < (await actions.count()); i++) await expectOnScreen(page, actions.nth(i), `action ${i + 1}`);
    expect(await sidewaysOverflow(page)).toBe(0);
    expect(await seriousViolations(page), 'notebooks on a phone').toEqual([]);
  } finally {
    // Not left running for the rest of the suite.
    await researcher.call('POST', `/workbenches/${workbench.id}/notebooks/${notebook.id}/stop/`).catch(() => undefined);
  }
});

test("a workbench's overview, data and documents pass axe on a phone, their tables as cards without sideways scroll", async ({ page }) => {
  const researcher = await apiAs(ACCOUNTS.researcher);
  const workbench = await researcher.call<{ id: string }>('POST', '/workbenches/', { name: `Phone overview (${stamp})`, purpose, cohorts: [], queries: [], documents: [], users: [] });
  await signIn(page, ACCOUNTS.researcher);
  await expect(page.getByTestId('current-user')).toContainText('Rosalind');
  await page.goto(`/workbenches/${workbench.id}`);
  await expectHydrated(page);
  const owner = page.getByRole('row').filter({ hasText: ACCOUNTS.researcher.email });
  await expectOnScreen(page, owner, 'the owner’s card');
  expect(await sidewaysOverflow(page)).toBe(0);
  expect(await seriousViolations(page), 'the overview on a phone').toEqual([]);
  for (const tab of ['Data', 'Documents']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    expect(await sidewaysOverflow(page), tab).toBe(0);
    expect(await seriousViolations(page), `${tab} on a phone`).toEqual([]);
  }
});
