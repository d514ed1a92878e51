import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ACCOUNTS, ROOT } from '../support/stack';
import { expectShell, seriousViolations, signIn, sideBarItem } from '../support/pages';
import { addRootRule, expectResults, pick, rules } from '../support/explorer';

/** The page with a result is kept with the test results, for review. */
const RESULTS_DIR = path.join(ROOT, 'e2e', 'test-results');
const queryName = `Women 40–65 with type 2 diabetes and HbA1c > 7 (${Date.now()})`;

/** Types into a concept picker and chooses the first concept found. */
async function pickConcept(page: Page, picker: Locator, search: string, expected: RegExp): Promise<void> {
  await picker.click();
  await picker.fill(search);
  const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: expected }).first();
  await option.click();
  await page.keyboard.press('Escape');
  await expect(picker).toHaveAttribute('aria-expanded', 'false');
}

async function openExplorer(page: Page): Promise<void> {
  await signIn(page, ACCOUNTS.researcher);
  await expectShell(page, ACCOUNTS.researcher.name);
  await sideBarItem(page, 'Data Explorer').click();
  await expect(page.getByRole('heading', { name: 'Data Explorer', level: 1 })).toBeVisible();
  await expect(page.locator('.queryBuilder')).toBeVisible();
}

test.describe.serial('data explorer', () => {
  test('a researcher builds women aged 40–65 with type 2 diabetes and an HbA1c above 7, runs, saves, reopens, edits and re-runs it', async ({ page }) => {
    test.setTimeout(120_000);
    await openExplorer(page);

    // Women
    await addRootRule(page);
    await pick(page, rules(page).nth(0).getByLabel('Field'), 'Sex');
    await pick(page, rules(page).nth(0).getByLabel('Sex value'), 'Female');
    // aged 40–65
    await addRootRule(page);
    await pick(page, rules(page).nth(1).getByLabel('Field'), 'Age (years)');
    await pick(page, rules(page).nth(1).getByLabel('Operator'), 'between');
    await rules(page).nth(1).getByLabel('Age (years) value').nth(0).fill('40');
    await rules(page).nth(1).getByLabel('Age (years) value').nth(1).fill('65');
    // with type 2 diabetes
    await addRootRule(page);
    await pick(page, rules(page).nth(2).getByLabel('Field'), 'Condition');
    await pickConcept(page, rules(page).nth(2).getByLabel('Condition concepts'), 'type 2 diabetes', /Type 2 diabetes mellitus/);
    // and a measurement of HbA1c above 7 on the same record
    await pick(page, page.locator('.queryBuilder > .ruleGroup > .ruleGroup-header').getByLabel('Add a group of records'), 'Measurement');
    const measurement = page.locator('.queryBuilder .ruleGroup .ruleGroup');
    await expect(measurement.getByText('A Measurement record where')).toBeVisible();
    await pickConcept(page, measurement.locator('.rule').nth(0).getByLabel('Measurement concepts'), '4548-4', /4548-4/);
    await measurement.locator('.ruleGroup-header').getByRole('button', { name: '+ Rule' }).click();
    await pick(page, measurement.locator('.rule').nth(1).getByLabel('Field'), 'Value');
    await pick(page, measurement.locator('.rule').nth(1).getByLabel('Operator'), '>');
    await measurement.locator('.rule').nth(1).getByLabel('Value value').fill('7');
    // The value's unit comes from the data's records of the chosen concept.
    await expect(measurement.locator('.rule').nth(1).locator('.measurement-unit')).toHaveText(/^%/);
    // The group's NOT switch is labelled before it is switched.
    await expect(measurement.getByRole('switch', { name: 'Not' })).not.toBeChecked();
    await expect(page.getByRole('status').filter({ hasText: 'Edited' })).toBeVisible();

    // Run: progress, then the count and the charts
    await page.getByRole('button', { name: 'Run' }).click();
    await expectResults(page);
    await expect(page.locator('.results-answer')).toContainText(/Value > 7 %/);
    await expect(page.locator('.results-answer')).toContainText('Type 2 diabetes mellitus');
    expect(await seriousViolations(page), 'data explorer with results').toEqual([]);
    await page.screenshot({ path: path.join(RESULTS_DIR, 'data-explorer.png'), fullPage: true });

    // Save
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save the query' });
    await dialog.getByLabel('Query name').fill(queryName);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { name: queryName, level: 2 })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Edited' })).toHaveCount(0);

    // Reload and open it from the saved queries
    await page.reload();
    await expect(page.getByRole('heading', { name: 'New query', level: 2 })).toBeVisible();
    await page.getByLabel('Search saved queries by name').fill(queryName);
    await page.getByLabel('Search saved queries by name').press('Enter');
    await page.getByRole('button', { name: `Open ${queryName}` }).click();
    await expect(page.getByRole('heading', { name: queryName, level: 2 })).toBeVisible();
    await expect(rules(page)).toHaveCount(5);
    await expect(page.getByRole('status').filter({ hasText: 'Edited' })).toHaveCount(0);
    await expect(rules(page).nth(2)).toContainText('Type 2 diabetes mellitus');
    expect(await seriousViolations(page), 'a saved query opened from the list').toEqual([]);

    // Edit it: the edited marker shows
    await rules(page).nth(1).getByLabel('Age (years) value').nth(1).fill('60');
    await expect(page.getByRole('status').filter({ hasText: 'Edited' })).toBeVisible();

    // Re-run the edited query, then save it and run the saved query as a job
    await page.getByRole('button', { name: 'Run' }).click();
    await expectResults(page);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Edited' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Run' }).click();
    await expectResults(page);
  });

  test('a rule without its concept is caught in the builder before Save as, not refused by the server', async ({ page }) => {
    await openExplorer(page);
    await addRootRule(page);
    await pick(page, rules(page).nth(0).getByLabel('Field'), 'Condition');
    await page.getByRole('button', { name: 'Save as' }).click();
    await expect(page.locator('.rule-problems')).toContainText(/Rule 1 \(Condition\): Choose (a|at least one) concept\./);
    await expect(rules(page).nth(0)).toHaveClass(/rule-has-problem/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'New query', level: 2 })).toBeVisible();
  });

  test('rename and delete a saved query', async ({ page }) => {
    await openExplorer(page);
    await page.getByLabel('Search saved queries by name').fill(queryName);
    await page.getByLabel('Search saved queries by name').press('Enter');
    await page.getByRole('button', { name: `Open ${queryName}` }).click();
    await page.getByRole('button', { name: 'Rename' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename the query' });
    await dialog.getByLabel('Query name').fill(`${queryName} renamed`);
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await expect(page.getByRole('heading', { name: `${queryName} renamed`, level: 2 })).toBeVisible();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'New query', level: 2 })).toBeVisible();
    await expect(page.getByRole('button', { name: `Open ${queryName} renamed` })).toHaveCount(0);
    // Deleting is confirmed, and nothing says it went wrong.
    await expect(page.locator('.ant-notification-notice').filter({ hasText: 'Query deleted' })).toBeVisible();
    await expect(page.locator('.ant-notification-notice').filter({ hasText: 'Something went wrong' })).toHaveCount(0);
  });
});
