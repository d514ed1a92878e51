import { expect, test } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { apiAs, savedAndRunQuery } from '../support/api';
import { expectShell, seriousViolations, signIn } from '../support/pages';

/**
 * Words for people at 1440 px: documents name their types in words, keep both actions on the card
 * and say why they are "Not scanned"; the audit log names what it records and shows it in full.
 */
test.use({ viewport: { width: 1440, height: 900 } });

const stamp = Date.now();
const WOMEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] };

test('documents: types in words, Download and Delete within the card, and Not scanned explained', async ({ page }) => {
  const researcher = await apiAs(ACCOUNTS.researcher);
  const form = new FormData();
  form.append('file', new Blob([`Protocol ${stamp}\n`], { type: 'text/csv' }), `table-${stamp}.csv`);
  await researcher.call('POST', '/documents/', form);
  // A refusal names the types in words, not MIME types.
  const gif = new FormData();
  gif.append('file', new Blob([Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')], { type: 'image/gif' }), `picture-${stamp}.gif`);
  const refusal = await researcher.call('POST', '/documents/', gif).then(() => '', (error: unknown) => String(error));
  expect(refusal).toContain('Files of type GIF image are not accepted. Accepted types: PDF, PNG image, JPEG image, plain text, CSV table, JSON, Word document (.docx)');

  await signIn(page, ACCOUNTS.researcher);
  await expectShell(page, ACCOUNTS.researcher.name);
  await page.goto('/documents');
  const row = page.getByRole('row').filter({ hasText: `table-${stamp}.csv` });
  await expect(row).toContainText('CSV table');
  await expect(row).not.toContainText('text/csv');
  const card = (await page.locator('.ant-table').first().boundingBox())!;
  for (const name of [`Download table-${stamp}.csv`, `Delete table-${stamp}.csv`]) {
    const box = (await row.getByRole('button', { name }).boundingBox())!;
    expect(box.x + box.width, name).toBeLessThanOrEqual(card.x + card.width);
  }
  await expect(page.getByTestId('not-scanned-note')).toContainText('Not scanned: this platform has no virus scanner set up');
  expect(await seriousViolations(page), 'documents at 1440 px').toEqual([]);
});

test('the audit log names the query it ran, beside its id, and shows messages in full', async ({ page }) => {
  const queryName = `Audited by name (${stamp})`;
  const { queryId } = await savedAndRunQuery(ACCOUNTS.researcher, queryName, WOMEN);
  await signIn(page, ACCOUNTS.auditor);
  await expectShell(page, ACCOUNTS.auditor.name);
  await page.goto('/audit-log');
  await page.getByPlaceholder('Search messages, actors, resources').fill(queryName);
  await page.getByPlaceholder('Search messages, actors, resources').press('Enter');
  // The rows before the search stay on screen until its answer comes: wait until only matches are listed.
  await expect(page.getByTestId('audit-message').filter({ hasNotText: queryName })).toHaveCount(0);
  const message = page.getByTestId('audit-message').filter({ hasText: 'ran query' }).first();
  await expect(message).toContainText(`ran query "${queryName}" (${queryId}) (version 1)`);
  // In full: the text is not cut off by an ellipsis.
  expect(await message.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);
  expect(await seriousViolations(page), 'audit log').toEqual([]);
});

test('the audit log names the cohort and the workbench of a release, and the workbench of a notebook event', async ({ page }) => {
  // A release, a notebook's start (Jupyter) and its stop.
  test.setTimeout(180_000);
  const cohortName = `Audited cohort (${stamp})`;
  const workbenchName = `Audited workbench (${stamp})`;
  const notebookName = `Audited notebook (${stamp})`;
  const { executionId } = await savedAndRunQuery(ACCOUNTS.researcher, `Audited release (${stamp})`, WOMEN);
  const researcher = await apiAs(ACCOUNTS.researcher);
  const cohort = await researcher.call<{ id: string }>('POST', '/cohorts/', { name: cohortName, tags: ['audit'], executionId });
  await (await apiAs(ACCOUNTS.steward)).call('PATCH', `/cohorts/${cohort.id}/`, { status: 'PUBLISHED' });
  const workbench = await researcher.call<{ id: string }>('POST', '/workbenches/', {
    name: workbenchName,
    purpose: 'To check that the audit log names the cohort and workbench of every release it records.',
    cohorts: [{ id: cohort.id }],
  });
  for (let attempt = 0; ; attempt++) {
    const { state } = await researcher.call<{ state: string }>('GET', `/workbenches/${workbench.id}/`);
    if (state === 'READY') break;
    if (state === 'FAILED' || attempt > 240) throw new Error(`the release did not finish (${state})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const notebook = await researcher.call<{ id: string }>('POST', `/workbenches/${workbench.id}/notebooks/`, { name: notebookName, environment: 'python3-datascience' });

  try {
    await signIn(page, ACCOUNTS.auditor);
    await expectShell(page, ACCOUNTS.auditor.name);
    await page.goto('/audit-log');
    // Searching the workbench's name finds the release and the notebook made in it.
    await page.getByPlaceholder('Search messages, actors, resources').fill(workbenchName);
    await page.getByPlaceholder('Search messages, actors, resources').press('Enter');
    const messages = page.getByTestId('audit-message');
    // The latest entries (these two among them) stay listed until the search answers; a count of
    // them taken then outlives the rows it counts. Wait until only the workbench's entries are listed.
    await expect(messages.filter({ hasNotText: workbenchName })).toHaveCount(0);
    await expect(messages.filter({ hasText: 'was released to' }).first()).toContainText(
      new RegExp(`Cohort "${cohortName.replace(/[()]/g, '\\$&')}" \\(version 1, [\\d,]+ persons\\) was released to workbench "${workbenchName.replace(/[()]/g, '\\$&')}" \\(${workbench.id}\\)`),
    );
    await expect(messages.filter({ hasText: 'created notebook' }).first()).toContainText(
      `${ACCOUNTS.researcher.email} created notebook "${notebookName}" in workbench "${workbenchName}" (${workbench.id})`,
    );
    // In full, every one: read in one pass over the rows listed now.
    const cutOff = await messages.evaluateAll((elements) => elements.filter((element) => element.scrollWidth > element.clientWidth + 1).map((element) => element.textContent));
    expect(cutOff).toEqual([]);
  } finally {
    // Stopped once started (a start under way cannot be stopped), so that its home is unmounted.
    await notebookReaches(researcher, workbench.id, notebook.id, ['RUNNING', 'FAILED', 'STOPPED']);
    const stop = await researcher.answer('POST', `/workbenches/${workbench.id}/notebooks/${notebook.id}/stop/`);
    // Accepted, or refused as already stopped (it failed); any other refusal is said now, not after the wait below.
    expect.soft([202, 409], `stop: ${JSON.stringify(stop.json)}`).toContain(stop.status);
    await notebookReaches(researcher, workbench.id, notebook.id, ['STOPPED', 'FAILED']);
  }
});

async function notebookReaches(api: Awaited<ReturnType<typeof apiAs>>, workbenchId: string, notebookId: string, states: readonly string[]): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt++) {
    const list = await api.call<{ notebooks: { id: string; status: string }[] }>('GET', `/workbenches/${workbenchId}/notebooks/`);
    if (states.includes(list.notebooks.find((n) => n.id === notebookId)?.status ?? '')) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the notebook did not reach ${states.join(' or ')}`);
}
