import { expect, type Locator, type Page } from '@playwright/test';

/** Chooses an option of an antd select by its text. */
export async function pick(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  await select.click();
  const popup = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
  const item = typeof option === 'string' ? popup.locator(`.ant-select-item-option[title="${option}"]`) : popup.locator('.ant-select-item-option').filter({ hasText: option });
  await item.first().click();
  // On a loaded machine a click can land while the list is still opening, and the list stays open:
  // choose the option once more (a single select, so choosing it again changes nothing).
  const closed = await expect(select)
    .toHaveAttribute('aria-expanded', 'false', { timeout: 3_000 })
    .then(() => true)
    .catch(() => false);
  if (!closed && (await item.first().isVisible())) await item.first().click();
  await expect(select).toHaveAttribute('aria-expanded', 'false');
}

/** The rules of the query builder, top to bottom. */
export const rules = (page: Page) => page.locator('.queryBuilder .rule');

/** Adds a rule to the query's top group. */
export const addRootRule = (page: Page) => page.locator('.queryBuilder > .ruleGroup > .ruleGroup-header').getByRole('button', { name: '+ Rule' }).click();

/** Waits for a run's count and its charts. */
export async function expectResults(page: Page): Promise<void> {
  const count = page.getByTestId('person-count');
  await expect(count).toHaveText(/^(\d[\d,]*|< 20)$/, { timeout: 20_000 });
  // Each chart, or the note that replaces it when all its counts are hidden.
  const charts = page.locator('.result-charts');
  await expect(charts.getByRole('img', { name: /^(Age pyramid|Persons by age band)/ }).or(charts.getByRole('note', { name: /^(Age pyramid|Age bands)/ }))).toBeVisible();
  await expect(charts.getByRole('img', { name: 'Persons by race' }).or(charts.getByRole('note', { name: /^Race:/ }))).toBeVisible();
  await expect(charts.getByRole('img', { name: 'Persons by ethnicity' }).or(charts.getByRole('note', { name: /^Ethnicity:/ }))).toBeVisible();
  await expect(page.getByRole('table').filter({ hasText: 'Age band' })).toBeVisible();
}
