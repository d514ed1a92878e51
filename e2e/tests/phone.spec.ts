import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { apiAs, savedAndRunQuery } from '../support/api';
import { expectHydrated, expectShell, signIn, sideBarItem } from '../support/pages';

test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

/** How far the page scrolls sideways: 0 when nothing is wider than the screen. */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);

/** The innermost elements that reach past the right edge, to name the culprit when a page scrolls sideways. */
const widest = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('body *'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((element) => !Array.from(element.children).some((child) => child.getBoundingClientRect().right > window.innerWidth + 1))
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${Array.from(element.classList).join('.')} (${Math.round(element.getBoundingClientRect().right)} px)`),
  );

async function expectInsideViewport(page: Page, what: Parameters<Page['getByRole']>[0], name: string | RegExp) {
  const box = (await page.getByRole(what, { name }).first().boundingBox())!;
  expect(box, `${what} ${name}`).not.toBeNull();
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  return box;
}

test('the header fits one line: the product name, the user and Sign out all on screen', async ({ page }) => {
  await signIn(page, ACCOUNTS.researcher);
  await expect(page.getByTestId('current-user')).toContainText(ACCOUNTS.researcher.name.split(' ')[0]!);
  const header = (await page.locator('.hdp-header').boundingBox())!;
  expect(header.width).toBeLessThanOrEqual(390);
  expect(header.height).toBeLessThanOrEqual(64);
  const brand = await expectInsideViewport(page, 'link', /Health Data Platform: home/);
  await expect(page.getByRole('link', { name: /Health Data Platform: home/ })).toContainText('HDP');
  const signOut = await expectInsideViewport(page, 'link', 'Sign out');
  const user = (await page.getByTestId('current-user').boundingBox())!;
  // One line: everything sits in the header's band, and the name is not cut top and bottom.
  for (const box of [brand, signOut, user]) {
    expect(box.y).toBeGreaterThanOrEqual(header.y - 1);
    expect(box.y + box.height).toBeLessThanOrEqual(header.y + header.height + 1);
  }
  expect(user.height).toBeLessThan(30);
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signout$/);
});

test('the side bar is a drawer over the page, with a scrim and a close button', async ({ page }) => {
  await signIn(page, ACCOUNTS.researcher);
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
  await expectHydrated(page);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  const before = (await page.getByRole('main').boundingBox())!;

  await page.getByRole('button', { name: 'Open the menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.locator('.ant-drawer-mask')).toBeVisible();
  // Over the page, not pushing it aside.
  expect((await page.getByRole('main').boundingBox())!.x).toBe(before.x);
  expect((await page.getByRole('main').boundingBox())!.width).toBe(before.width);
  // Only the current page's item is selected.
  await expect(drawer.locator('[aria-current="page"]')).toHaveCount(1);

  await drawer.getByRole('button', { name: 'Close the menu' }).click();
  await expect(drawer).toBeHidden();

  // Following a link closes it too.
  await page.getByRole('button', { name: 'Open the menu' }).click();
  await sideBarItem(page, 'Cohorts', page.getByRole('dialog', { name: 'Menu' })).click();
  await expect(page.getByRole('heading', { name: 'Cohorts', exact: true })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Menu' })).toBeHidden();
});

test('no page scrolls sideways', async ({ page }) => {
  test.setTimeout(120_000);
  const { researcher } = ACCOUNTS;
  const { executionId } = await savedAndRunQuery(researcher, `Phone cohort query ${Date.now()}`, { combinator: 'and', rules: [{ field: 'person.age', operator: '>=', value: 30 }] });
  const cohort = await (await apiAs(researcher)).call<{ id: string }>('POST', '/cohorts/', { name: `Phone cohort ${Date.now()}`, tags: ['phone'], executionId });

  await signIn(page, ACCOUNTS.admin);
  await expectShell(page, ACCOUNTS.admin.name).catch(() => undefined);
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
  await expectHydrated(page);
  const routes: [string, string | RegExp][] = [
    ['/', /^Welcome/],
    ['/data-explorer', 'Data Explorer'],
    ['/cohorts', 'Cohorts'],
    [`/cohorts/${cohort.id}`, /Phone cohort/],
    ['/workbenches', 'Workbenches'],
    ['/documents', 'Documents'],
    ['/users', 'Users'],
    ['/audit-log', 'Audit Log'],
    ['/account', 'Your account'],
    ['/no-such-page', 'Page not found'],
  ];
  for (const [url, heading] of routes) {
    await page.goto(url);
    await expect(page.getByRole('heading', { name: heading, level: 1 }).first(), url).toBeVisible();
    await page.waitForLoadState('networkidle');
    const overflow = await sidewaysOverflow(page);
    expect(overflow, `${url}: ${overflow > 0 ? (await widest(page)).join(', ') : ''}`).toBeLessThanOrEqual(0);
  }
});

test('the users, documents and audit-log tables become cards with labelled cells', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, ACCOUNTS.admin);
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
  await expectHydrated(page);
  for (const [url, labels] of [
    ['/users', ['Name', 'Email', 'Roles', 'Source', 'Status', 'Created', 'Actions']],
    ['/audit-log', ['Time', 'Event', 'Outcome']],
  ] as const) {
    await page.goto(url);
    const row = page.locator('.hdp-card-table tr.ant-table-row').first();
    await expect(row, url).toBeVisible();
    await expect(page.locator('.hdp-card-table thead')).toBeHidden();
    const box = (await row.boundingBox())!;
    expect(box.x + box.width, url).toBeLessThanOrEqual(390);
    const shown = await row.locator('td').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
    for (const label of labels) expect(shown, url).toContain(`"${label}"`);
    expect(await sidewaysOverflow(page), url).toBeLessThanOrEqual(0);
  }
  // The documents table, with one document in it.
  const { call } = await apiAs(ACCOUNTS.admin);
  const form = new FormData();
  form.append('file', new Blob(['protocol text'], { type: 'text/plain' }), `phone-protocol-${Date.now()}.txt`);
  await call('POST', '/documents/', form);
  await page.goto('/documents');
  const row = page.locator('.hdp-card-table tr.ant-table-row').first();
  await expect(row).toBeVisible();
  const shown = await row.locator('td').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
  for (const label of ['Name', 'Size', 'Scan', 'Uploaded', 'Uploaded by']) expect(shown).toContain(`"${label}"`);
  expect(((await row.boundingBox())!).width).toBeLessThanOrEqual(390);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
});
