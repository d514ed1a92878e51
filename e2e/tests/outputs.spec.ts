import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { apiAs, savedAndRunQuery } from '../support/api';
import { openFromWebApp, type NotebookOpen } from '../support/notebooks';
import { seriousViolations, signIn } from '../support/pages';

const stamp = Date.now();
const OVER_FIFTY = { combinator: 'and', rules: [{ field: 'person.age', operator: '>', value: 50 }] };
const title = `Patients by age band (${stamp})`;
// One line each, so the editor's auto-indent has nothing to change.
const WRITE_SMALL = "open('by_age.csv', 'w').write('age_band,patients\\n50-59,120\\n60-69,7\\n'); print('written')";
const WRITE_FIXED = "open('by_age.csv', 'w').write('age_band,patients\\n50-69,127\\n'); print('fixed')";

let workbenchId = '';
let notebookId = '';
let requestUrl = '';

/** Runs one line in a fresh cell of the Jupyter editor and waits for what it prints. */
async function runCell(editor: Page, code: string, printed: string): Promise<void> {
  // Running a cell adds an empty one below it: the cell to watch is the one typed into, found by its place.
  const cell = editor.locator('.cell').nth((await editor.locator('.cell').count()) - 1);
  await cell.locator('.CodeMirror').click();
  await editor.keyboard.insertText(code);
  await editor.keyboard.press('Shift+Enter');
  await expect(cell.locator('.output')).toContainText(printed, { timeout: 60_000 });
}

async function signedIn(browser: Browser, account: (typeof ACCOUNTS)[keyof typeof ACCOUNTS]): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, account);
  await expect(page.getByTestId('current-user')).toBeVisible();
  return page;
}

test.describe.serial('safe outputs', () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const { executionId } = await savedAndRunQuery(ACCOUNTS.researcher, `Over fifty for outputs (${stamp})`, OVER_FIFTY);
    const researcher = await apiAs(ACCOUNTS.researcher);
    const cohort = await researcher.call<{ id: string }>('POST', '/cohorts/', { name: `Over fifty (${stamp})`, tags: ['outputs'], executionId });
    await (await apiAs(ACCOUNTS.steward)).call('PATCH', `/cohorts/${cohort.id}/`, { status: 'PUBLISHED' });
    const workbench = await researcher.call<{ id: string }>('POST', '/workbenches/', {
      name: `Outputs workbench (${stamp})`,
      purpose: 'To count patients over fifty by age band for a service review, and release the table.',
      cohorts: [{ id: cohort.id }],
    });
    workbenchId = workbench.id;
    const notebook = await researcher.call<{ id: string }>('POST', `/workbenches/${workbenchId}/notebooks/`, { name: `Tables (${stamp})`, environment: 'python3-datascience' });
    notebookId = notebook.id;
    for (let attempt = 0; attempt < 240; attempt++) {
      const list = await researcher.call<{ notebooks: { id: string; status: string; status_reason: string | null }[] }>('GET', `/workbenches/${workbenchId}/notebooks/`);
      const current = list.notebooks.find((n) => n.id === notebookId)!;
      if (current.status === 'RUNNING') return;
      if (current.status === 'FAILED') throw new Error(`the notebook failed: ${current.status_reason}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the notebook did not start');
  });

  test('a researcher writes a table in Jupyter, sees its small count flagged before submitting, fixes it and submits', async ({ page, context }) => {
    test.setTimeout(240_000);
    await signIn(page, ACCOUNTS.researcher);
    await page.goto(`/workbenches/${workbenchId}`);
    await page.getByRole('tab', { name: 'Outputs' }).click();
    const tab = page.getByRole('region', { name: 'Outputs' });
    await expect(tab.getByText('No release requests yet.')).toBeVisible({ timeout: 15_000 });
    expect(await seriousViolations(page), 'outputs tab').toEqual([]);
    await tab.getByRole('button', { name: 'New release request' }).click();
    const dialog = page.getByRole('dialog', { name: 'New release request' });
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/workbenches\/[0-9a-f-]{36}\/outputs\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    requestUrl = new URL(page.url()).pathname;
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByTestId('release-state')).toHaveText('Being prepared');

    // The table, written in the notebook by its kernel.
    const opened = await (await apiAs(ACCOUNTS.researcher)).call<NotebookOpen>('POST', `/workbenches/${workbenchId}/notebooks/${notebookId}/open/`);
    const jupyter = await context.newPage();
    await openFromWebApp(jupyter, process.env.E2E_WEB_URL!, opened);
    await expect(jupyter).toHaveURL(/\/jupyter\/[0-9a-f-]{36}\/tree/, { timeout: 30_000 });
    await jupyter.getByRole('button', { name: 'New' }).click();
    const python = jupyter.locator('#new-menu [id^="kernel-"] [role="menuitem"]').filter({ hasText: /^Python 3/ }).first();
    const [editor] = await Promise.all([context.waitForEvent('page'), python.click()]);
    await expect(editor.locator('#kernel_indicator_icon.kernel_idle_icon')).toBeAttached({ timeout: 30_000 });
    await runCell(editor, WRITE_SMALL, 'written');

    // A group with its context and controls, then the file from the notebook.
    await page.getByLabel('Group name').fill('Table 1');
    await page.getByLabel('Context: what these files are').fill('Patients over fifty by age band, from the workbench cohort.');
    await page.getByLabel('Controls: what was done to make them safe').fill('Counts under 20 are combined with the next band.');
    await page.getByRole('button', { name: 'Add group' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Table 1' })).toBeVisible();
    // antd draws each option twice: a hidden one for assistive technology and the one on screen.
    const option = (text: string) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: text }).first();
    const addFile = async () => {
      await page.getByLabel('File', { exact: true }).click();
      await option('by_age.csv').click();
      await page.getByLabel('Group', { exact: true }).click();
      await option('Table 1').click();
      await page.getByRole('button', { name: 'Add file' }).click();
    };
    await addFile();
    const file = page.getByTestId('release-file').filter({ hasText: 'by_age.csv' });
    await expect(file.getByTestId('file-verdict')).toHaveText('Checks fail', { timeout: 15_000 });
    await expect(file).toContainText('below the minimum of 20');
    await file.getByText('Show the file').click();
    await expect(file.locator('[data-flagged="true"]')).toHaveText(/^7/);
    await expect(page.getByTestId('next-step')).toContainText('fail the automatic checks');
    expect(await seriousViolations(page), 'request page with a flagged cell').toEqual([]);

    // Fixed in the notebook, added again: a new version, checked again.
    await runCell(editor, WRITE_FIXED, 'fixed');
    await addFile();
    await expect(file).toContainText('Version 2');
    await expect(file.getByTestId('file-verdict')).toHaveText('Checks pass', { timeout: 15_000 });
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect(page.getByTestId('release-state')).toHaveText('Submitted for review');
    await expect(page.getByTestId('next-step')).toContainText('0 of 2 in');
  });

  test('two data stewards from outside the workbench review it blind, approve and release it', async ({ browser }) => {
    test.setTimeout(120_000);
    for (const [index, account] of [ACCOUNTS.steward, ACCOUNTS.checker].entries()) {
      const page = await signedIn(browser, account);
      await page.goto('/review-outputs');
      await expect(page.getByRole('heading', { level: 1, name: 'Review outputs' })).toBeVisible();
      await page.getByRole('link', { name: title }).click();
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      if (index === 0) expect(await seriousViolations(page), 'review page').toEqual([]);
      await page.getByRole('button', { name: 'Approve by_age.csv' }).click();
      await expect(page.getByText('Your vote: approve')).toBeVisible();
      await page.getByRole('button', { name: 'Submit my review' }).click();
      await expect(page.getByTestId('release-state')).toHaveText(index === 0 ? 'Partly reviewed' : 'Reviewed, awaiting decision');
      if (index === 1) {
        // Both reviews in: the votes are shown to each other.
        const file = page.getByTestId('release-file').filter({ hasText: 'by_age.csv' });
        await expect(file.getByRole('list', { name: 'Votes on by_age.csv' })).toContainText(ACCOUNTS.steward.name);
        await page.getByRole('button', { name: 'Approve', exact: true }).click();
        await expect(page.getByTestId('release-state')).toHaveText('Approved');
        await page.getByRole('button', { name: 'Release', exact: true }).click();
        await expect(page.getByTestId('release-state')).toHaveText('Released');
      }
      await page.context().close();
    }
  });

  test('the researcher downloads the package, whose manifest matches its files', async ({ page }) => {
    await signIn(page, ACCOUNTS.researcher);
    await page.goto(requestUrl);
    await expect(page.getByTestId('release-state')).toHaveText('Released');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the package' }).click()]);
    const entries = unzipSync(new Uint8Array(fs.readFileSync((await download.path())!)));
    expect(Object.keys(entries).sort()).toEqual(['files/by_age.csv', 'manifest.json']);
    const manifest = JSON.parse(Buffer.from(entries['manifest.json']!).toString('utf8'));
    const csv = entries['files/by_age.csv']!;
    expect(Buffer.from(csv).toString('utf8')).toBe('age_band,patients\n50-69,127\n');
    expect(manifest.files[0]).toMatchObject({ name: 'by_age.csv', sha256: createHash('sha256').update(csv).digest('hex'), version: 2, checks: { verdict: 'PASS' } });
    expect(manifest.files[0].reviews).toHaveLength(2);
  });
});
