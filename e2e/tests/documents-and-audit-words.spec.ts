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
  const message = page.getByTestId('audit-message').filter({ hasText: 'ran query' }).first();
  await expect(message).toContainText(`ran query "${queryName}" (${queryId}) (version 1)`);
  // In full: the text is not cut off by an ellipsis.
  expect(await message.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);
  expect(await seriousViolations(page), 'audit log').toEqual([]);
});
