import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { LIMITS } from '@hdp/contract/limits';
import { ACCOUNTS } from '../support/stack';
import { expectShell, seriousViolations, signIn, sideBarItem } from '../support/pages';

/** A 1×1 PNG; random bytes after its end make each run's file unique and binary. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const fileName = `scan-${Date.now()}.png`;
const fileBytes = Buffer.concat([PNG_1X1, randomBytes(300_000)]);
const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-e2e-documents-'));

test.afterAll(() => fs.rmSync(tempDir, { recursive: true, force: true }));

/** Drops a file on the upload area the way a browser does: a drop event carrying a DataTransfer. */
async function dropFile(page: Page, name: string, bytes: Buffer, type: string): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ base64, name, type }) => {
      const binary = atob(base64);
      const data = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i += 1) data[i] = binary.charCodeAt(i);
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name, { type }));
      return transfer;
    },
    { base64: bytes.toString('base64'), name, type },
  );
  const area = page.getByText('Drop a file here, or click to choose one');
  await area.dispatchEvent('dragenter', { dataTransfer });
  await area.dispatchEvent('dragover', { dataTransfer });
  await area.dispatchEvent('drop', { dataTransfer });
}

async function openDocuments(page: Page): Promise<void> {
  await signIn(page, ACCOUNTS.researcher);
  await expectShell(page, ACCOUNTS.researcher.name);
  await sideBarItem(page, 'Documents').click();
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  await expect(page.getByText('Drop a file here, or click to choose one')).toBeVisible();
}

test.describe.serial('documents', () => {
  test('a researcher uploads a document by drag and drop, sees it listed, downloads the same bytes and deletes it', async ({ page }) => {
    await openDocuments(page);
    await dropFile(page, fileName, fileBytes, 'image/png');
    await expect(page.getByRole('status').filter({ hasText: `"${fileName}" was uploaded.` })).toBeVisible();

    const row = page.getByRole('row').filter({ hasText: fileName });
    await expect(row).toBeVisible();
    await expect(row).toContainText('PNG image');
    await expect(row).toContainText('300 kB');
    await expect(row).toContainText('Not scanned');
    await expect(row).toContainText(ACCOUNTS.researcher.email);

    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: `Download ${fileName}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(fileName);
    const saved = fs.readFileSync(await download.path());
    expect(saved.length).toBe(fileBytes.length);
    expect(saved.equals(fileBytes)).toBe(true);

    await row.getByRole('button', { name: `Delete ${fileName}` }).click();
    const confirm = page.getByRole('tooltip').filter({ hasText: `Delete "${fileName}"?` });
    await expect(confirm).toBeVisible();
    expect(await seriousViolations(page), 'the delete confirmation').toEqual([]);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('row').filter({ hasText: fileName })).toHaveCount(0);
  });

  test('a file one byte over the cap is refused in the browser, naming the cap; a file of exactly the cap goes through', async ({ page }) => {
    const over = path.join(tempDir, 'over-the-cap.txt');
    const atCap = path.join(tempDir, 'at-the-cap.txt');
    fs.writeFileSync(over, Buffer.alloc(LIMITS.uploadMaxBytes + 1, 'a'));
    fs.writeFileSync(atCap, Buffer.alloc(LIMITS.uploadMaxBytes, 'a'));
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/documents/') uploads.push(request.url());
    });

    await openDocuments(page);
    await page.locator('input[type=file]').setInputFiles(over);
    const refusal = page.getByRole('alert').filter({ hasText: 'The file was not uploaded' });
    await expect(refusal).toContainText('"over-the-cap.txt" is 20,000,001 bytes. A document can be at most 20,000,000 bytes (20 MB).');
    expect(uploads).toEqual([]);
    expect(await seriousViolations(page), 'the refusal').toEqual([]);

    // Through the web app's forwarding of /api/v1 to the API: 20,000,000 bytes arrive whole.
    await page.locator('input[type=file]').setInputFiles(atCap);
    await expect(page.getByRole('status').filter({ hasText: '"at-the-cap.txt" was uploaded.' })).toBeVisible({ timeout: 30_000 });
    expect(uploads).toHaveLength(1);
    const row = page.getByRole('row').filter({ hasText: 'at-the-cap.txt' });
    await expect(row).toContainText('20 MB');
    await row.getByRole('button', { name: 'Delete at-the-cap.txt' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
    await expect(row).toHaveCount(0);
  });

  test('an auditor finds the upload, download and delete in the audit log, filtered by event type and date', async ({ page }) => {
    await signIn(page, ACCOUNTS.auditor);
    await expectShell(page, ACCOUNTS.auditor.name);
    await sideBarItem(page, 'Audit Log').click();
    await expect(page.getByRole('heading', { name: 'Audit Log', level: 1 })).toBeVisible();
    await expect(page.getByTestId('chain-integrity')).toContainText(/Integrity verified up to entry \d+/);

    // Event types: the three document events.
    await page.getByLabel('Event types').click();
    for (const label of ['Document uploaded', 'Document downloaded', 'Document deleted']) {
      await page.getByLabel('Event types').fill(label);
      await page.locator(`.ant-select-item-option[title="${label}"]`).click();
    }
    await page.keyboard.press('Escape');

    // Date: the "Today" preset.
    const dateRange = page.getByRole('group', { name: 'Date range' });
    await dateRange.getByPlaceholder('Start date').click();
    await page.locator('.ant-picker-presets li', { hasText: 'Today' }).click();
    const today = new Date().toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
    await expect(dateRange.getByPlaceholder('Start date')).toHaveValue(today);
    await expect(dateRange.getByPlaceholder('End date')).toHaveValue(today);

    const rows = page.getByRole('row').filter({ hasText: fileName });
    await expect(rows).toHaveCount(3);
    for (const event of ['Document uploaded', 'Document downloaded', 'Document deleted']) {
      await expect(rows.filter({ hasText: event })).toHaveCount(1);
    }
    await expect(rows.first()).toContainText(ACCOUNTS.researcher.email);
    // Nothing but document events is listed.
    await expect(page.getByRole('row').filter({ hasText: 'Auth sign in' })).toHaveCount(0);

    // The entry's details.
    await rows.filter({ hasText: 'Document uploaded' }).getByRole('button', { name: /show details/ }).click();
    const drawer = page.getByRole('dialog');
    await expect(drawer).toContainText('Request id');
    await expect(drawer).toContainText('Client address');
    await expect(drawer).toContainText('User agent');
    await expect(page.getByTestId('audit-entry-details')).toContainText(`"name": "${fileName}"`);
    await expect(page.getByTestId('audit-entry-details')).toContainText('"sha256"');
    expect(await seriousViolations(page), 'the entry drawer').toEqual([]);
    await drawer.getByRole('button', { name: 'Close' }).click();

    // The CSV export holds the same entries.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{8}-\d{6}\.csv$/);
    const lines = fs.readFileSync(await download.path(), 'utf8').trim().split('\r\n');
    expect(lines[0]).toMatch(/^seq,timestamp,event_type,outcome,actor_email,/);
    const ours = lines.filter((line) => line.includes(fileName));
    expect(ours.map((line) => line.split(',')[2]).sort()).toEqual(['DOCUMENT_DELETED', 'DOCUMENT_DOWNLOADED', 'DOCUMENT_UPLOADED']);
    expect(lines.slice(1).every((line) => /,DOCUMENT_(UPLOADED|DOWNLOADED|DELETED),/.test(line))).toBe(true);
  });
});
