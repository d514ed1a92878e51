import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS, ROOT } from '../support/stack';
import { apiAs, savedAndRunQuery } from '../support/api';
import { expectShell, seriousViolations, signIn, sideBarItem } from '../support/pages';

const stamp = Date.now();
const queryName = `Women for a workbench (${stamp})`;
const cohortName = `Women, workbench cohort (${stamp})`;
const documentName = `protocol-${stamp}.txt`;
const workbenchName = `Diabetes and kidneys (${stamp})`;
const purpose = 'To study how HbA1c control relates to kidney outcomes in women aged 40 to 65 with type 2 diabetes.';
const WOMEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] };

/** Pictures for docs/web.md: refreshed with UPDATE_SCREENSHOTS=1, else kept with the results. */
async function picture(page: Page, name: string): Promise<void> {
  const dir = process.env.UPDATE_SCREENSHOTS === '1' ? path.join(ROOT, 'docs', 'images') : path.join(ROOT, 'e2e', 'test-results');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, name), fullPage: true });
}

/** The wizard's current step, by the heading each step starts with. */
const stepHeading = (page: Page) => page.getByRole('heading', { level: 2, name: /^Step \d of 4/ });

/** Next, step by step to Review: each click waits for its step, as a click made while a step still renders can be lost. */
async function nextToReview(page: Page): Promise<void> {
  for (const step of [2, 3, 4]) {
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(stepHeading(page)).toHaveText(new RegExp(`^Step ${step} of 4`));
  }
}

async function openWorkbenchesAs(page: Page, account: (typeof ACCOUNTS)[keyof typeof ACCOUNTS]): Promise<void> {
  await signIn(page, account);
  await expectShell(page, account.name);
  await sideBarItem(page, 'Workbenches').click();
  await expect(page.getByRole('heading', { name: 'Workbenches', level: 1 })).toBeVisible();
}

test.describe.serial('workbenches', () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    // What the researcher brings: a saved query, a cohort made from its run that a data steward
    // published, and a document they uploaded.
    const { executionId } = await savedAndRunQuery(ACCOUNTS.researcher, queryName, WOMEN);
    const researcher = await apiAs(ACCOUNTS.researcher);
    const cohort = await researcher.call<{ id: string }>('POST', '/cohorts/', { name: cohortName, tags: ['women'], executionId });
    const steward = await apiAs(ACCOUNTS.steward);
    await steward.call('PATCH', `/cohorts/${cohort.id}/`, { status: 'PUBLISHED' });
    const form = new FormData();
    form.append('file', new Blob(['Study protocol: HbA1c and kidney outcomes.\n'], { type: 'text/plain' }), documentName);
    await researcher.call('POST', '/documents/', form);
  });

  test('a researcher creates a workbench with a cohort, a query, a document and a second member through the four steps', async ({ page }) => {
    test.setTimeout(180_000);
    await openWorkbenchesAs(page, ACCOUNTS.researcher);
    await expect(page.getByRole('status').filter({ hasText: /workbench/ })).toBeVisible();
    expect(await seriousViolations(page), 'workbenches list').toEqual([]);
    await page.getByRole('link', { name: 'Create workbench' }).click();

    // Description
    await expect(stepHeading(page)).toHaveText('Step 1 of 4: Description');
    await expect(page.locator('.ant-steps-item-title')).toHaveText(['Description', 'Add Data', 'Add Users', 'Review']);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Give the workbench a name.')).toBeVisible();
    expect(await seriousViolations(page), 'description step with problems').toEqual([]);
    await page.getByLabel('Name').fill(workbenchName);
    await page.getByLabel('Research purpose').fill(purpose.slice(0, 30));
    await expect(page.getByTestId('purpose-count')).toHaveText('Describe the research purpose in at least 50 characters (30 so far).');
    await page.getByLabel('Research purpose').fill(purpose);
    // By keyboard: from the purpose past Cancel (Back is disabled) to Next; the new step's heading takes the focus.
    await page.getByLabel('Research purpose').press('Tab');
    await expect(page.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Next' })).toBeFocused();
    await page.keyboard.press('Enter');

    // Add Data
    await expect(stepHeading(page)).toHaveText('Step 2 of 4: Add Data');
    await expect(stepHeading(page)).toBeFocused();
    await page.getByRole('searchbox', { name: 'Search published cohorts' }).fill(cohortName);
    await page.keyboard.press('Enter');
    await page.getByRole('checkbox', { name: cohortName }).check();
    await page.getByRole('searchbox', { name: 'Search your saved queries' }).fill(queryName);
    await page.keyboard.press('Enter');
    await page.getByRole('checkbox', { name: queryName }).check();
    await page.getByRole('checkbox', { name: documentName }).check();
    await expect(page.getByRole('list', { name: 'Chosen cohorts' })).toContainText(cohortName);
    expect(await seriousViolations(page), 'data step').toEqual([]);
    await picture(page, 'workbench-wizard.png');
    await page.getByRole('button', { name: 'Next' }).click();

    // Add Users: a researcher (not an administrator) finds colleagues in the member directory by
    // part of their name or email; an auditor, who cannot be a member, is not found.
    await expect(stepHeading(page)).toHaveText('Step 3 of 4: Add Users');
    await expect(page.getByRole('button', { name: `Remove ${ACCOUNTS.researcher.email}` })).toBeDisabled();
    const person = page.getByRole('combobox', { name: 'Person (name or email)' });
    const option = (account: (typeof ACCOUNTS)[keyof typeof ACCOUNTS]) =>
      page.locator('.ant-select-item-option').filter({ hasText: `${account.name} (${account.email})` });
    await person.fill('a');
    await expect(page.getByText('Type at least 3 characters of a name or an email.')).toBeVisible();
    await person.fill(ACCOUNTS.admin.name.slice(0, 3));
    await expect(option(ACCOUNTS.admin)).toBeVisible();
    await person.fill(ACCOUNTS.auditor.name);
    await expect(page.getByText(`No one found for “${ACCOUNTS.auditor.name}”.`)).toBeVisible();
    await person.fill(ACCOUNTS.steward.name.split(' ')[0]!);
    await option(ACCOUNTS.steward).click();
    await page.getByRole('button', { name: 'Add member' }).click();
    await expect(page.getByRole('combobox', { name: `Role of ${ACCOUNTS.steward.email}` })).toBeVisible();
    expect(await seriousViolations(page), 'users step').toEqual([]);

    // A reload mid-way: the draft comes back on the same step.
    await page.reload();
    await expect(stepHeading(page)).toHaveText('Step 3 of 4: Add Users');
    await expect(page.getByRole('combobox', { name: `Role of ${ACCOUNTS.steward.email}` })).toBeVisible();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('checkbox', { name: documentName })).toBeChecked();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();

    // Review
    await expect(stepHeading(page)).toHaveText('Step 4 of 4: Review');
    await expect(page.getByTestId('review-name')).toHaveText(workbenchName);
    await expect(page.getByRole('list', { name: 'Cohorts to release' })).toContainText(cohortName);
    await expect(page.getByRole('list', { name: 'Queries to copy' })).toHaveText(queryName);
    await expect(page.getByRole('list', { name: 'Documents to copy' })).toContainText(documentName);
    await expect(page.getByRole('list', { name: 'Members and roles' })).toContainText(`${ACCOUNTS.steward.name} (${ACCOUNTS.steward.email}): Reader`);
    expect(await seriousViolations(page), 'review step').toEqual([]);
    await page.getByRole('button', { name: 'Create' }).click();

    // The new workbench opens.
    await expect(page).toHaveURL(/\/workbenches\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: workbenchName, level: 1 })).toBeVisible();
    await expect(page.getByTestId('workbench-purpose')).toHaveText(purpose);
    const members = page.getByRole('region', { name: 'Members (2)' });
    await expect(members.getByRole('row').filter({ hasText: ACCOUNTS.steward.email })).toContainText('Reader');
    await expect(members.getByRole('row').filter({ hasText: ACCOUNTS.researcher.email })).toContainText('Owner');
    await expect(page.getByText('1 cohort · 1 saved query · 1 document')).toBeVisible();
    // Provisioning finishes while the page watches.
    await expect(page.getByTestId('workbench-state')).toHaveText('Ready', { timeout: 60_000 });
    expect(await seriousViolations(page), 'workbench page').toEqual([]);
    await picture(page, 'workbench.png');
    await page.getByRole('tab', { name: 'Data' }).click();
    await page.getByRole('button', { name: 'Rows per table' }).click();
    await expect(page.getByRole('table', { name: `Rows of ${cohortName} per table` })).toContainText('person');
    expect(await seriousViolations(page), 'workbench data tab').toEqual([]);
  });

  test('the second member sees it, without Edit or Delete', async ({ page }) => {
    await openWorkbenchesAs(page, ACCOUNTS.steward);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: workbenchName, exact: true }) });
    await expect(card).toContainText('Your role: Reader');
    expect(await seriousViolations(page), 'workbenches as cards').toEqual([]);
    await page.getByRole('radiogroup', { name: 'View' }).getByText('Table', { exact: true }).click();
    await expect(page).toHaveURL(/\/workbenches\?view=table$/);
    await expect(page.getByRole('row').filter({ hasText: workbenchName })).toContainText('Reader');
    expect(await seriousViolations(page), 'workbenches as a table').toEqual([]);
    await page.getByRole('radiogroup', { name: 'View' }).getByText('Cards', { exact: true }).click();
    await card.getByRole('link', { name: workbenchName }).click();
    await expect(page.getByRole('heading', { name: workbenchName, level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  });

  test('an edit from a stale tab is refused above the buttons, keeping the edits', async ({ page, context }) => {
    test.setTimeout(120_000);
    await openWorkbenchesAs(page, ACCOUNTS.researcher);
    await page.getByRole('link', { name: workbenchName, exact: true }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
    await expect(stepHeading(page)).toHaveText('Step 1 of 4: Description');
    await expect(page.locator('.ant-steps-item-title')).toHaveText(['Description', 'Manage Data', 'Manage Users', 'Review']);
    await expect(page.getByLabel('Name')).toHaveValue(workbenchName);
    const editUrl = page.url();

    // Another tab saves a change first.
    const other = await context.newPage();
    await other.goto(editUrl);
    await other.getByLabel('Research purpose').fill(`${purpose} Renal function is measured by eGFR.`);
    await nextToReview(other);
    await expect(stepHeading(other)).toHaveText('Step 4 of 4: Review');
    await other.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(other.getByTestId('workbench-purpose')).toContainText('eGFR');
    await other.close();

    // The first tab's edit was based on the older version.
    await page.getByLabel('Name').fill(`${workbenchName} (renamed)`);
    await nextToReview(page);
    expect(await seriousViolations(page), 'edit review step').toEqual([]);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // Said above the buttons, not in a toast over them: who, and when in local time (no field name,
    // no UTC timestamp), and that the edits are kept.
    const stale = page.getByRole('alert').filter({ hasText: 'Someone else saved this workbench while you were editing it' });
    await expect(stale).toBeVisible();
    await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
    await expect(stale).toContainText(`This workbench was changed by ${ACCOUNTS.researcher.name} (${ACCOUNTS.researcher.email}) on `);
    await expect(stale).toContainText('Your edits are kept.');
    await expect(stale).not.toContainText('version:');
    await expect(stale).not.toContainText(/\d{2}:\d{2}:\d{2}\.\d{3}Z/);
    const [alertBox, backBox, saveBox] = await Promise.all([
      stale.boundingBox(),
      page.getByRole('button', { name: 'Back' }).boundingBox(),
      page.getByRole('button', { name: 'Save', exact: true }).boundingBox(),
    ]);
    for (const button of [backBox!, saveBox!]) expect(alertBox!.y + alertBox!.height, 'the alert ends above the buttons').toBeLessThanOrEqual(button.y);
    await expect(page.getByRole('button', { name: 'Back' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
    await expect(page).toHaveURL(editUrl);
    expect(await seriousViolations(page), 'stale edit said above the buttons').toEqual([]);

    // Loading the saved version shows the one saved in the other tab, and offers the user's own edits again.
    await stale.getByRole('button', { name: 'Load the saved version' }).click();
    await expect(page.getByLabel('Name')).toHaveValue(workbenchName);
    await expect(page.getByLabel('Research purpose')).toHaveValue(/eGFR/);
    const unsaved = page.getByRole('status').filter({ hasText: 'Your earlier edits were not saved' });
    await expect(unsaved).toContainText(`Your edits changed the name “${workbenchName} (renamed)”, the research purpose.`);
    expect(await seriousViolations(page), 'unsaved edits offered again').toEqual([]);
    await unsaved.getByRole('button', { name: 'Apply my edits again' }).click();
    await expect(page.getByLabel('Name')).toHaveValue(`${workbenchName} (renamed)`);
    await expect(unsaved).toHaveCount(0);
  });

  test('a name taken by another of my workbenches, in other capitals, is caught on step 1 quoting the existing name', async ({ page }) => {
    await openWorkbenchesAs(page, ACCOUNTS.researcher);
    await page.getByRole('link', { name: 'Create workbench' }).click();
    await page.getByLabel('Name').fill(workbenchName.toUpperCase());
    await page.getByLabel('Research purpose').fill(purpose);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(stepHeading(page)).toHaveText('Step 1 of 4: Description');
    await expect(page.getByText(`You already have a workbench called “${workbenchName}”. Choose another name.`)).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
    expect(await seriousViolations(page), 'name taken on step 1').toEqual([]);
    await page.getByLabel('Name').fill(`${workbenchName} second`);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(stepHeading(page)).toHaveText('Step 2 of 4: Add Data');
  });
});
