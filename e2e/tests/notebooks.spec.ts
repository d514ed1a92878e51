import { expect, test } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { apiAs } from '../support/api';
import { seriousViolations, signIn } from '../support/pages';

const stamp = Date.now();
const notebookName = `Kidney outcomes (${stamp})`;

let workbenchId = '';

test.describe('notebooks', () => {
  test.beforeAll(async () => {
    const researcher = await apiAs(ACCOUNTS.researcher);
    const workbench = await researcher.call<{ id: string }>('POST', '/workbenches/', {
      name: `Notebooks workbench (${stamp})`,
      purpose: 'To study how HbA1c control relates to kidney outcomes in women with type 2 diabetes.',
    });
    workbenchId = workbench.id;
  });

  test('a researcher creates a notebook, opens it through the platform and stops it', async ({ page, context }) => {
    test.setTimeout(120_000);
    await signIn(page, ACCOUNTS.researcher);
    await page.goto(`/workbenches/${workbenchId}`);
    await page.getByRole('tab', { name: 'Notebooks' }).click();
    const tab = page.getByRole('region', { name: 'Notebooks' });
    await expect(tab.getByText('No notebooks in this workbench yet.')).toBeVisible({ timeout: 15_000 });
    expect(await seriousViolations(page), 'notebooks tab').toEqual([]);

    // Create, with the spec's defaults picked from the catalogue.
    await tab.getByRole('button', { name: 'Create notebook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a notebook' });
    await expect(dialog).toContainText('australia-southeast1-a');
    await expect(dialog).toContainText('n1-standard-4');
    expect(await seriousViolations(page), 'create dialog').toEqual([]);
    await dialog.getByLabel('Name').fill(notebookName);
    await dialog.getByRole('button', { name: 'Create notebook' }).click();
    await expect(dialog).toBeHidden();

    // The list follows it to RUNNING by itself.
    const row = tab.getByRole('row').filter({ hasText: notebookName });
    await expect(row.getByTestId('notebook-status')).toHaveText('Running', { timeout: 60_000 });
    await expect(row).toContainText('n1-standard-4');
    await expect(row).toContainText(ACCOUNTS.researcher.name);

    // Open: a new tab through the platform's single-use URL, landing on Jupyter's file list.
    const [jupyter] = await Promise.all([context.waitForEvent('page'), row.getByRole('button', { name: `Open ${notebookName}` }).click()]);
    await expect(jupyter).toHaveURL(/\/jupyter\/[0-9a-f-]{36}\/tree/, { timeout: 30_000 });
    await expect(jupyter.getByRole('button', { name: 'New' })).toBeVisible();
    await jupyter.close();

    // Stop: the tag follows to the stopped style, and Start is offered.
    await row.getByRole('button', { name: `Stop ${notebookName}` }).click();
    const status = row.getByTestId('notebook-status');
    await expect(status).toHaveText('Stopped', { timeout: 30_000 });
    await expect(status).toHaveAttribute('data-status', 'STOPPED');
    await expect(row.getByRole('button', { name: `Start ${notebookName}` })).toBeVisible();
  });
});
