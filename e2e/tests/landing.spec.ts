import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { apiAs, savedAndRunQuery } from '../support/api';
import { expectShell, signIn, sideBarItem } from '../support/pages';

const firstName = (name: string) => name.split(' ')[0];

async function expectHome(page: Page, name: string): Promise<void> {
  await expect(page).toHaveURL(/:\d+\/$/);
  await expectShell(page, name);
  await expect(page.getByRole('heading', { name: `Welcome, ${firstName(name)}`, level: 1 })).toBeVisible();
  await expect(page.getByText('Not available to you')).toHaveCount(0);
}

test('every role lands on the home page after sign-in, never on a page it cannot use', async ({ page }) => {
  for (const account of [ACCOUNTS.admin, ACCOUNTS.steward, ACCOUNTS.researcher, ACCOUNTS.auditor]) {
    await page.context().clearCookies();
    await signIn(page, account);
    await expectHome(page, account.name);
  }
});

test('an auditor lands on a home page that leads to the audit log, with the other items disabled and explained', async ({ page }) => {
  const { auditor } = ACCOUNTS;
  await signIn(page, auditor);
  await expectHome(page, auditor.name);
  // No aggregate data for an auditor: no dataset panel, no queries or cohorts.
  await expect(page.getByRole('heading', { name: 'The dataset' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Your recent queries' })).toHaveCount(0);
  const steps = page.getByRole('region', { name: 'What you can do' });
  await expect(steps.getByRole('link')).toHaveText(['Review the audit log']);
  await expect(sideBarItem(page, 'Data Explorer')).toHaveAttribute('aria-disabled', 'true');
  await page.getByTestId('side-bar-disabled-data-explorer').hover();
  await expect(page.getByRole('tooltip')).toHaveText('Only administrators, data stewards and researchers can open Data Explorer.');
  await steps.getByRole('link', { name: 'Review the audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Log', exact: true })).toBeVisible();

  // Cancelling sign-out (finding 118) and the product name both lead home.
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signout$/);
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expectHome(page, auditor.name);
  await page.goto('/audit-log');
  await page.getByRole('link', { name: /Health Data Platform: home/ }).click();
  await expectHome(page, auditor.name);

  // A page outside the role says so, with a way home.
  await page.goto('/data-explorer');
  await expect(page.getByText('Your roles do not allow you to open this page.')).toBeVisible();
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expectHome(page, auditor.name);
});

test('the home page shows the dataset with counts released as the explorer releases them, and the recent work', async ({ page }) => {
  test.setTimeout(60_000);
  const { researcher } = ACCOUNTS;
  const queryName = `Home page query ${Date.now()}`;
  await savedAndRunQuery(researcher, queryName, { combinator: 'and', rules: [{ field: 'person.age', operator: '>=', value: 18 }] });
  const { call } = await apiAs(researcher);
  const everyone = await call<{ person_count_display: string }>('POST', '/queries/execute/', { query: { combinator: 'and', rules: [] } });

  await signIn(page, researcher);
  await expectHome(page, researcher.name);
  const dataset = page.getByRole('region', { name: 'The dataset' });
  await expect(dataset.getByTestId('dataset-persons')).toHaveText(everyone.person_count_display);
  await expect(dataset.getByText(/^synthetic: \d+ persons, seed \d+$/)).toBeVisible();
  await expect(dataset.getByText('OMOP CDM v5.4')).toBeVisible();
  const domains = dataset.getByRole('table', { name: 'Records by domain' });
  await expect(domains.getByRole('rowheader')).toHaveText(['Conditions', 'Drug exposures', 'Procedures', 'Measurements', 'Observations', 'Visits', 'Deaths']);
  // Each count is withheld ("< 20"), zero, or at least 20.
  for (const cell of await domains.getByRole('cell').allTextContents()) {
    if (cell !== '< 20') expect(Number(cell.replaceAll(',', '')) === 0 || Number(cell.replaceAll(',', '')) >= 20, cell).toBe(true);
  }

  const recent = page.getByRole('region', { name: 'Your recent queries' });
  await expect(recent.getByRole('link', { name: queryName })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Recent cohorts' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your workbenches' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'What you can do' }).getByRole('link')).toHaveText(['Build a query', 'Browse cohorts', 'Create a workbench', 'Share a document']);

  await recent.getByRole('link', { name: queryName }).click();
  await expect(page.getByRole('heading', { name: 'Data Explorer', level: 1 })).toBeVisible();
});

test('an unknown address shows the app’s own not-found page inside the shell, with a way home', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');

  await signIn(page, ACCOUNTS.researcher);
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expectShell(page, ACCOUNTS.researcher.name);
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expectHome(page, ACCOUNTS.researcher.name);
});

test('every route renders and stays rendered after hydration: none turns into the not-found page', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ACCOUNTS.admin);
  await expectShell(page, ACCOUNTS.admin.name);
  const routes: [string, string | RegExp][] = [
    ['/', 'Welcome, Ada'],
    ['/data-explorer', 'Data Explorer'],
    ['/cohorts', 'Cohorts'],
    ['/workbenches', 'Workbenches'],
    ['/workbenches/new', /workbench/i],
    ['/documents', 'Documents'],
    ['/users', 'Users'],
    ['/audit-log', 'Audit Log'],
    ['/signout', 'Sign out'],
  ];
  for (const [url, heading] of routes) {
    await page.goto(url);
    await expect(page.getByRole('heading', { name: heading }).first(), url).toBeVisible();
    await page.waitForLoadState('networkidle');
    if (url === '/data-explorer') await expect(page.locator('.queryBuilder')).toBeVisible();
    await expect(page.getByRole('heading', { name: heading }).first(), `${url} after hydration`).toBeVisible();
    await expect(page.getByText('Page not found'), url).toHaveCount(0);
  }
  // Client-side navigation too.
  await page.goto('/');
  await sideBarItem(page, 'Data Explorer').click();
  await expect(page.locator('.queryBuilder')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Page not found')).toHaveCount(0);
});
