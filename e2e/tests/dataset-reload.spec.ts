import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { savedAndRunQuery } from '../support/api';
import { expectResults } from '../support/explorer';
import { expectShell, seriousViolations, signIn } from '../support/pages';
import { FIRST_DATASET, reloadWarehouse } from '../support/warehouse';

/**
 * A saved query's last result, counted before the warehouse was reloaded with other data, is shown
 * as counted in a previous dataset, and no cohort is made from it until the query runs again.
 */

const stamp = Date.now();
const WOMEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] };
const OTHER_DATASET = { kind: 'synthetic', persons: 2_000, seed: 777 } as const;

async function openSaved(page: Page, name: string): Promise<void> {
  await page.goto('/data-explorer');
  await page.getByLabel('Search saved queries by name').fill(name);
  await page.getByLabel('Search saved queries by name').press('Enter');
  await page.getByRole('button', { name: `Open ${name}` }).click();
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
}

test.describe.serial('a result counted before a reload', () => {
  test.afterAll(async () => {
    test.setTimeout(180_000);
    // The suite's other specs count in the first dataset.
    await reloadWarehouse(FIRST_DATASET);
  });

  test('is marked as counted in a previous dataset, and Create cohort asks for a re-run', async ({ page }) => {
    test.setTimeout(240_000);
    const name = `Women before the reload (${stamp})`;
    await savedAndRunQuery(ACCOUNTS.researcher, name, WOMEN);
    await reloadWarehouse(OTHER_DATASET);

    await signIn(page, ACCOUNTS.researcher);
    await expectShell(page, ACCOUNTS.researcher.name);
    await openSaved(page, name);
    await expect(page.locator('.results-dataset')).toContainText('Counted in: synthetic: 10000 persons');
    const older = page.getByTestId('results-older-dataset');
    await expect(older).toContainText('These results were counted in a previous dataset');
    await expect(older).toContainText('the platform now serves synthetic: 2000 persons');
    await expect(older).toContainText('Run the query again to count in the current data.');
    await expect(page.getByRole('button', { name: 'Create cohort' })).toBeDisabled();
    await expect(page.locator('#create-cohort-why')).toHaveText(
      'These results were counted in data no longer served: run the query again to make a cohort from the current data.',
    );
    expect(await seriousViolations(page), 'a result from a previous dataset').toEqual([]);

    // Run again: counted in the data now served, and a cohort can be made from it.
    await page.getByRole('button', { name: 'Run' }).click();
    await expectResults(page);
    await expect(page.locator('.results-dataset')).toContainText('Counted in: synthetic: 2000 persons', { timeout: 60_000 });
    await expect(older).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Create cohort' })).toBeEnabled();
  });
});
