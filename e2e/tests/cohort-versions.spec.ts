import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { apiAs, savedAndRunQuery } from '../support/api';
import { invitationLinkFor } from '../support/outbox';
import { reloadWarehouse } from '../support/warehouse';
import { expectShell, seriousViolations, signIn } from '../support/pages';

/**
 * Cohort versions where they meet workbenches: a published cohort with a newer version awaiting
 * review shows the published version's count wherever it reads "Published" (home, table, wizard),
 * and the wizard releases exactly what it says; a released cohort moves to a newer published version
 * in one action; a reader who may release a cohort reads its criteria; a workbench deleted while open
 * says so; and after a warehouse reload nothing offers a version that can no longer be released.
 */

const stamp = Date.now();
const WOMEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] };
const MEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8507 }] };
const cohortName = `Versioned cohort (${stamp})`;
const purpose = 'To check that a workbench releases exactly the published cohort version that the screens name before it is created.';
const colleague = { email: `reader-${stamp}@example.org`, password: `colleague-password-${stamp}`, name: 'Rudi Reader' };

let cohortId = '';
let count1 = '';
let count2 = '';

interface CohortAnswer {
  id: string;
  version: number;
  person_count_display: string;
  published_person_count_display: string | null;
}

const stepHeading = (page: Page) => page.getByRole('heading', { level: 2, name: /^Step \d of 4/ });
const cohortRow = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });

async function waitForRelease(workbenchId: string, version: number): Promise<void> {
  const researcher = await apiAs(ACCOUNTS.researcher);
  for (let attempt = 0; attempt < 240; attempt++) {
    const workbench = await researcher.call<{ cohorts: { version: number; state: string; error: string | null }[] }>('GET', `/workbenches/${workbenchId}/`);
    const release = workbench.cohorts[0];
    if (release?.version === version && release.state === 'READY') return;
    if (release?.state === 'FAILED') throw new Error(`release failed: ${release.error}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the release did not finish');
}

test.describe.serial('cohort versions and workbench releases', () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    // Version 1 (women) is published; the query is then changed (men) and a steward re-runs the
    // cohort: version 2, with another count, awaits review.
    const { queryId, executionId } = await savedAndRunQuery(ACCOUNTS.researcher, `Versioned query (${stamp})`, WOMEN);
    const researcher = await apiAs(ACCOUNTS.researcher);
    const steward = await apiAs(ACCOUNTS.steward);
    const cohort = await researcher.call<CohortAnswer>('POST', '/cohorts/', { name: cohortName, executionId });
    cohortId = cohort.id;
    count1 = cohort.person_count_display;
    await steward.call('PATCH', `/cohorts/${cohortId}/`, { status: 'PUBLISHED', published_version: 1 });
    await researcher.call('PATCH', `/queries/${queryId}/`, { query: MEN });
    const refreshed = await steward.call<CohortAnswer>('POST', `/cohorts/${cohortId}/refresh/`);
    count2 = refreshed.person_count_display;
    expect(refreshed.version).toBe(2);
    expect(count2).not.toBe(count1);
  });

  test('"Published" goes with the published version\'s count on the home page, the table and the cards, with the pending version named', async ({ page }) => {
    await signIn(page, ACCOUNTS.researcher);
    await expectShell(page, ACCOUNTS.researcher.name);
    const recent = page.getByRole('region', { name: 'Recent cohorts' }).getByRole('listitem').filter({ hasText: cohortName });
    await expect(recent).toContainText(`${count1} persons · Published (version 1) · version 2 (${count2} persons) awaits review`);

    await page.goto(`/cohorts?view=table&search=${encodeURIComponent(cohortName)}`);
    const row = cohortRow(page, cohortName);
    await expect(row.getByRole('cell').nth(1)).toContainText('Version 2 awaits review');
    await expect(row.getByRole('cell').nth(2)).toHaveText(`${count1}v2: ${count2}`);
    await expect(row.getByRole('cell').nth(3)).toHaveText('1 (published)');
    expect(await seriousViolations(page), 'cohorts table').toEqual([]);
  });

  test("a data steward sees what awaits their review: a home panel and a filter, each with the count", async ({ page }) => {
    await signIn(page, ACCOUNTS.steward);
    await expectShell(page, ACCOUNTS.steward.name);
    const panel = page.getByRole('region', { name: /^Awaiting your review \(\d+\)$/ });
    await expect(panel.getByRole('listitem').filter({ hasText: cohortName })).toContainText(
      `version 2 (${count2} persons) awaits a data steward's review; version 1 (${count1} persons) is published`,
    );
    expect(await seriousViolations(page), 'steward home').toEqual([]);
    await panel.getByRole('link', { name: 'All cohorts awaiting review' }).click();
    await expect(page.getByRole('radio', { name: /^Awaiting review \(\d+\)$/ })).toBeChecked();
    await expect(page.getByRole('link', { name: cohortName, exact: true })).toBeVisible();
    // The Draft filter does not hold it (it is published); Awaiting review does.
    await page.getByRole('radiogroup', { name: 'Status' }).getByText('Draft', { exact: true }).click();
    await expect(page.getByRole('radio', { name: 'Draft', exact: true })).toBeChecked();
    await expect(page.getByRole('link', { name: cohortName, exact: true })).toHaveCount(0);
  });

  test('links on the home page look like links', async ({ page }) => {
    await signIn(page, ACCOUNTS.researcher);
    await expectShell(page, ACCOUNTS.researcher.name);
    const link = page.getByRole('link', { name: 'All cohorts' });
    await expect(link).toBeVisible();
    const style = await link.evaluate((element) => {
      const computed = getComputedStyle(element);
      return { color: computed.color, underline: computed.textDecorationLine, body: getComputedStyle(document.body).color };
    });
    expect(style.color).not.toBe(style.body);
    expect(style.color).toBe('rgb(11, 79, 108)');
    expect(style.underline).toBe('underline');
    const recent = page.getByRole('region', { name: 'Recent cohorts' }).getByRole('link', { name: cohortName });
    expect(await recent.evaluate((element) => getComputedStyle(element).textDecorationLine)).toBe('underline');
  });

  test('the wizard offers the published version and its count, names the version awaiting review, and creates exactly that', async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, ACCOUNTS.researcher);
    await expectShell(page, ACCOUNTS.researcher.name);
    await page.goto('/workbenches/new');
    await expect(stepHeading(page)).toHaveText('Step 1 of 4: Description');
    await page.getByLabel('Name').fill(`Released version (${stamp})`);
    await page.getByLabel('Research purpose').fill(purpose);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(stepHeading(page)).toHaveText('Step 2 of 4: Add Data');
    await page.getByRole('searchbox', { name: 'Search published cohorts' }).fill(cohortName);
    await page.getByRole('searchbox', { name: 'Search published cohorts' }).press('Enter');
    const item = page.getByRole('list', { name: 'Published cohorts' }).getByRole('listitem').filter({ hasText: cohortName });
    await expect(item).toContainText(`${count1} persons · version 1 (published) · version 2 (${count2} persons) awaits a data steward's review`);
    await item.getByRole('checkbox').check();
    await expect(page.getByRole('list', { name: 'Chosen cohorts' })).toContainText(`${count1} persons, version 1`);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(stepHeading(page)).toHaveText('Step 4 of 4: Review');
    await expect(page.getByRole('list', { name: 'Cohorts to release' })).toHaveText(
      `${cohortName}: ${count1} persons, version 1; version 2 awaits a data steward's review and is not released`,
    );
    expect(await seriousViolations(page), 'review step').toEqual([]);
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Released version (${stamp})` })).toBeVisible();
    await page.getByRole('tab', { name: 'Data' }).click();
    const released = page.getByRole('tabpanel').getByRole('row').filter({ hasText: cohortName });
    // The Data tab's table starts with the "Rows per table" column: then cohort, persons, version.
    await expect(released.getByRole('cell').nth(2)).toHaveText(count1);
    await expect(released.getByRole('cell').nth(3)).toHaveText('1');
  });

  test('a released cohort moves to its newer published version in one action, in Manage Data and on the Data tab', async ({ page }) => {
    test.setTimeout(180_000);
    const researcher = await apiAs(ACCOUNTS.researcher);
    const steward = await apiAs(ACCOUNTS.steward);
    const workbench = await researcher.call<{ id: string; version: number }>('POST', '/workbenches/', {
      name: `Moves on (${stamp})`, purpose, cohorts: [{ id: cohortId }], queries: [], documents: [], users: [],
    });
    await waitForRelease(workbench.id, 1);
    // The steward publishes version 2.
    await steward.call('PATCH', `/cohorts/${cohortId}/`, { published_version: 2 });

    await signIn(page, ACCOUNTS.researcher);
    await expectShell(page, ACCOUNTS.researcher.name);
    await page.goto(`/workbenches/${workbench.id}/edit`);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(stepHeading(page)).toHaveText('Step 2 of 4: Manage Data');
    const newer = page.getByRole('list', { name: 'Newer published versions' });
    await expect(newer).toContainText(`version 2 (${count2} persons) is published; this workbench has version 1`);
    await newer.getByRole('button', { name: 'Update to version 2' }).click();
    await expect(page.getByRole('list', { name: 'Chosen cohorts' })).toContainText(`${count2} persons, version 2 (replaces version 1 on save)`);
    expect(await seriousViolations(page), 'manage data with a newer version').toEqual([]);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('list', { name: 'Cohorts to release' })).toHaveText(`${cohortName}: ${count2} persons, version 2 (replaces version 1)`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Moves on (${stamp})` })).toBeVisible();
    await waitForRelease(workbench.id, 2);

    // Version 3 (a re-run, published): the Data tab offers the move itself.
    await steward.call('POST', `/cohorts/${cohortId}/refresh/`);
    await steward.call('PATCH', `/cohorts/${cohortId}/`, { published_version: 3 });
    await page.reload();
    await page.getByRole('tab', { name: 'Data' }).click();
    const row = page.getByRole('tabpanel').getByRole('row').filter({ hasText: cohortName });
    await expect(row).toContainText('Version 3');
    await row.getByRole('button', { name: `Update ${cohortName} to version 3` }).click();
    await expect(row.getByTestId('cohort-release-state')).toHaveText('Ready', { timeout: 60_000 });
    await expect(row.getByRole('cell').nth(3)).toHaveText('3');
    await expect(row.getByRole('button', { name: /Update .* to version/ })).toHaveCount(0);
  });

  test('a researcher who is not the author reads the published version\'s criteria', async ({ page }) => {
    test.setTimeout(120_000);
    const admin = await apiAs(ACCOUNTS.admin);
    const before = Date.now();
    await admin.call('POST', '/users/', { invitations: [{ email: colleague.email, name: colleague.name, roles: ['RESEARCHER'] }] });
    const link = await invitationLinkFor(colleague.email, { after: before - 1000 });
    const token = new URL(link).hash.replace('#token=', '');
    const accept = await fetch(`${process.env.E2E_API_URL}/api/v1/invitations/accept/`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, password: colleague.password }),
    });
    expect(accept.status).toBe(200);

    await signIn(page, colleague);
    await expectShell(page, colleague.name);
    await page.goto(`/cohorts/${cohortId}`);
    await expect(page.getByRole('heading', { level: 1, name: cohortName })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Definition of version 3' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Criteria' })).toContainText('Male');
    expect(await seriousViolations(page), 'cohort page of another researcher').toEqual([]);
  });

  test('a workbench deleted while a member has it open says so, by whom and when, with a way back', async ({ page }) => {
    const researcher = await apiAs(ACCOUNTS.researcher);
    const me = await (await apiAs(ACCOUNTS.steward)).call<{ id: string }>('GET', '/users/me/');
    const workbench = await researcher.call<{ id: string }>('POST', '/workbenches/', {
      name: `Deleted while open (${stamp})`, purpose, cohorts: [], queries: [], documents: [], users: [{ id: me.id, role: 'READER' }],
    });
    await signIn(page, ACCOUNTS.steward);
    await expectShell(page, ACCOUNTS.steward.name);
    await page.goto(`/workbenches/${workbench.id}`);
    await expect(page.getByRole('heading', { level: 1, name: `Deleted while open (${stamp})` })).toBeVisible();

    await researcher.call('DELETE', `/workbenches/${workbench.id}/`);
    await page.getByRole('tab', { name: 'Notebooks' }).click();
    const deleted = page.getByTestId('workbench-deleted');
    await expect(deleted).toContainText(`This workbench "Deleted while open (${stamp})" was deleted by ${ACCOUNTS.researcher.name} (${ACCOUNTS.researcher.email}) on `);
    await expect(deleted).not.toContainText('Z,');
    await expect(page.getByRole('heading', { level: 1, name: 'Workbench deleted' })).toBeVisible();
    await expect(page.getByText('No notebooks in this workbench yet.')).toHaveCount(0);
    await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
    expect(await seriousViolations(page), 'deleted workbench').toEqual([]);
    await deleted.getByRole('link', { name: 'Back to your workbenches' }).click();
    await expect(page.getByRole('heading', { name: 'Workbenches', level: 1 })).toBeVisible();
  });

  // Last: the reload makes every cohort version taken before unreleasable.
  test('after a warehouse reload the picker marks the published version as not releasable, says who can fix it, and Create refuses it', async ({ page }) => {
    test.setTimeout(180_000);
    await reloadWarehouse();
    const researcher = await apiAs(ACCOUNTS.researcher);
    const cohort = await researcher.call<{ published_on_current_data: boolean | null }>('GET', `/cohorts/${cohortId}/`);
    expect(cohort.published_on_current_data).toBe(false);

    await signIn(page, ACCOUNTS.researcher);
    await expectShell(page, ACCOUNTS.researcher.name);
    await page.goto('/workbenches/new');
    await page.getByLabel('Name').fill(`After the reload (${stamp})`);
    await page.getByLabel('Research purpose').fill(purpose);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('searchbox', { name: 'Search published cohorts' }).fill(cohortName);
    await page.getByRole('searchbox', { name: 'Search published cohorts' }).press('Enter');
    const item = page.getByRole('list', { name: 'Published cohorts' }).getByRole('listitem').filter({ hasText: cohortName });
    await expect(item.getByTestId('cohort-not-releasable')).toContainText('A data steward can re-run the cohort on the current data and publish the new version.');
    await expect(item.getByRole('checkbox')).toBeDisabled();
    expect(await seriousViolations(page), 'picker with a version that cannot be released').toEqual([]);

    // A pick made before the reload (or by another client) is refused at once, not "created" and failed later.
    const created = await researcher.answer<{ refused: { kind: string; reason: string }[]; workbench: { cohorts: unknown[] } }>('POST', '/workbenches/', {
      name: `Refused release (${stamp})`, purpose, cohorts: [{ id: cohortId }], queries: [], documents: [], users: [],
    });
    expect(created.status).toBe(418);
    expect(created.json.workbench.cohorts).toEqual([]);
    expect(created.json.refused[0]!.reason).toContain('a data steward must re-run the cohort on the current data and publish the new version');
  });
});
