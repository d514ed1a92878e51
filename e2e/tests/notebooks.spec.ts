import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { apiAs, savedAndRunQuery } from '../support/api';
import { seriousViolations, signIn } from '../support/pages';

const stamp = Date.now();
const WOMEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] };
const cohortName = `Women, notebook cohort (${stamp})`;
const notebookName = `Kidney outcomes (${stamp})`;
// One line, so the editor's auto-indent and bracket closing have nothing to change. The released
// cohort is `released/cohorts/<slug>-v<n>/person.csv.gz` in the notebook's home (docs/workbenches.md).
const CELL =
  "import glob, pandas as pd; files = glob.glob('/home/nb/released/cohorts/*/person.csv.gz'); print('files:', len(files)); print('persons:', len(pd.read_csv(files[0])))";

let workbenchId = '';

test.describe('notebooks', () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    // A workbench with one published cohort released into it, ready to read.
    const { executionId } = await savedAndRunQuery(ACCOUNTS.researcher, `Women for a notebook (${stamp})`, WOMEN);
    const researcher = await apiAs(ACCOUNTS.researcher);
    const cohort = await researcher.call<{ id: string }>('POST', '/cohorts/', { name: cohortName, tags: ['women'], executionId });
    const steward = await apiAs(ACCOUNTS.steward);
    await steward.call('PATCH', `/cohorts/${cohort.id}/`, { status: 'PUBLISHED' });
    const workbench = await researcher.call<{ id: string }>('POST', '/workbenches/', {
      name: `Notebooks workbench (${stamp})`,
      purpose: 'To study how HbA1c control relates to kidney outcomes in women with type 2 diabetes.',
      cohorts: [{ id: cohort.id }],
    });
    workbenchId = workbench.id;
    for (let attempt = 0; attempt < 120; attempt++) {
      const current = await researcher.call<{ state: string; cohorts: { error: string | null }[] }>('GET', `/workbenches/${workbenchId}/`);
      if (current.state === 'READY') return;
      if (current.state === 'FAILED') {
        const log = fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, 'servers.log'), 'utf8').split('\n').slice(-40).join('\n');
        throw new Error(`the workbench did not provision: ${current.cohorts.map((c) => c.error).join('; ')}\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the workbench did not become ready');
  });

  test('a researcher creates a notebook, opens it, counts the released cohort in Jupyter and stops it', async ({ page, context }) => {
    test.setTimeout(180_000);
    await signIn(page, ACCOUNTS.researcher);
    await page.goto(`/workbenches/${workbenchId}`);

    // The cohort's size as the workbench page shows it. The Persons column is the cohort's published
    // count, perturbed like every count the platform gives out; the rows released per table are the
    // exact contents of the files, which is what a notebook reads.
    await page.getByRole('tab', { name: 'Data' }).click();
    const cohortRow = page.getByRole('row').filter({ hasText: cohortName });
    await cohortRow.getByRole('button', { name: 'Rows per table' }).click();
    const personRow = page.getByRole('table', { name: `Rows of ${cohortName} per table` }).getByRole('row').filter({ hasText: /^person/ });
    const persons = Number((await personRow.getByRole('cell').nth(1).innerText()).replace(/,/g, ''));
    expect(persons).toBeGreaterThan(0);
    const shown = Number((await cohortRow.getByRole('cell').nth(2).innerText()).replace(/,/g, ''));
    expect(Math.abs(shown - persons)).toBeLessThanOrEqual(2);

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

    // Open: a new tab through the platform's single-use URL, landing on Jupyter's file list, where
    // the released data is.
    const [jupyter] = await Promise.all([context.waitForEvent('page'), row.getByRole('button', { name: `Open ${notebookName}` }).click()]);
    await expect(jupyter).toHaveURL(/\/jupyter\/[0-9a-f-]{36}\/tree/, { timeout: 30_000 });
    await expect(jupyter.getByRole('link', { name: 'released' })).toBeVisible({ timeout: 15_000 });

    // A new Python notebook, its kernel reached through the proxy's WebSocket, runs the cell.
    await jupyter.getByRole('button', { name: 'New' }).click();
    // Jupyter names each kernel's menu item by the kernel's id (aria-label), and shows its display name.
    const python = jupyter.locator('#new-menu [id^="kernel-"] [role="menuitem"]').filter({ hasText: /^Python 3/ }).first();
    const [editor] = await Promise.all([context.waitForEvent('page'), python.click()]);
    await expect(editor).toHaveURL(/\/jupyter\/[0-9a-f-]{36}\/notebooks\/Untitled.*\.ipynb/, { timeout: 30_000 });
    await expect(editor.locator('#kernel_indicator_icon.kernel_idle_icon')).toBeAttached({ timeout: 30_000 });
    await editor.locator('.cell .CodeMirror').first().click();
    await editor.keyboard.insertText(CELL);
    await editor.keyboard.press('Shift+Enter');
    const output = editor.locator('.cell').first().locator('.output');
    await expect(output).toContainText(/persons: \d+|Error/, { timeout: 60_000 });
    const printed = await output.innerText();
    expect(printed).toMatch(/^files: 1$/m);
    expect(printed.match(/^persons: (\d+)$/m)?.[1], printed).toBe(String(persons));
    await editor.close();

    // Jupyter's own Download on a released file: the platform's refusal page, not the file.
    await jupyter.getByRole('link', { name: 'released' }).click();
    await jupyter.locator('#notebook_list .item_link').filter({ hasText: 'cohorts' }).click();
    await jupyter.locator('#notebook_list .item_link').filter({ hasText: /-v\d+/ }).first().click();
    const fileRow = jupyter.locator('#notebook_list .list_item').filter({ hasText: 'person.csv.gz' });
    await fileRow.locator('input[type=checkbox]').check();
    const [refusal] = await Promise.all([context.waitForEvent('page'), jupyter.locator('#notebook_toolbar .download-button').click()]);
    await expect(refusal.getByRole('heading', { name: 'This file stays in the workbench' })).toBeVisible({ timeout: 15_000 });
    await expect(refusal.getByText(/release request/)).toBeVisible();
    await refusal.close();
    await jupyter.close();

    // Stop: the tag follows to the stopped style, and Start is offered.
    await row.getByRole('button', { name: `Stop ${notebookName}` }).click();
    const status = row.getByTestId('notebook-status');
    await expect(status).toHaveText('Stopped', { timeout: 30_000 });
    await expect(status).toHaveAttribute('data-status', 'STOPPED');
    await expect(row.getByRole('button', { name: `Start ${notebookName}` })).toBeVisible();
  });
});
