import { expect, test, type Locator, type Page } from '@playwright/test';
import { ACCOUNTS, startApi, stopApi } from '../support/stack';
import { apiAs, savedAndRunQuery } from '../support/api';
import { expectShell, seriousViolations, signIn, sideBarItem } from '../support/pages';
import { addRootRule, expectResults, pick, rules } from '../support/explorer';

const stamp = Date.now();
const WOMEN_40_65 = {
  combinator: 'and',
  rules: [
    { field: 'person.gender_concept_id', operator: '=', value: 8532 },
    { field: 'person.age', operator: 'between', value: [40, 65] },
  ],
};
const ADULTS = { combinator: 'and', rules: [{ field: 'person.age', operator: 'between', value: [30, 60] }] };

async function openExplorer(page: Page): Promise<void> {
  await signIn(page, ACCOUNTS.researcher);
  await expectShell(page, ACCOUNTS.researcher.name);
  await sideBarItem(page, 'Data Explorer').click();
  await expect(page.locator('.queryBuilder')).toBeVisible();
}

async function openSaved(page: Page, name: string): Promise<void> {
  await page.getByLabel('Search saved queries by name').fill(name);
  await page.getByLabel('Search saved queries by name').press('Enter');
  await page.getByRole('button', { name: `Open ${name}` }).click();
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
}

const toasts = (page: Page) => page.locator('.ant-notification-notice');

/** Pairs of text boxes in a chart that overlap (labels, values, ticks): none should. */
async function overlappingTexts(chart: Locator): Promise<string[]> {
  return chart.evaluate((element) => {
    const boxes = Array.from(element.querySelectorAll('text'))
      .filter((t) => (t.textContent ?? '').trim() !== '')
      .map((t) => ({ text: t.textContent!.trim(), box: t.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0);
    const clashes: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!.box;
        const b = boxes[j]!.box;
        const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
        if (overlap) clashes.push(`"${boxes[i]!.text}" × "${boxes[j]!.text}"`);
      }
    }
    return clashes;
  });
}

/** The texts a chart draws. */
const chartTexts = (chart: Locator) => chart.evaluate((element) => Array.from(element.querySelectorAll('text')).map((t) => (t.textContent ?? '').trim()));

test.describe.serial('data explorer feedback', () => {
  test('an invalid rule is caught before Run and Save: highlighted, explained under it, listed; fixed, it runs', async ({ page }) => {
    test.setTimeout(90_000);
    await openExplorer(page);
    await addRootRule(page);
    await pick(page, rules(page).nth(0).getByLabel('Field'), 'Age (years)');
    await page.getByRole('button', { name: 'Run', exact: true }).click();

    const list = page.locator('.rule-problems');
    await expect(list).toContainText('Rule 1 (Age (years)): Enter an age (years).');
    await expect(rules(page).nth(0)).toHaveClass(/rule-has-problem/);
    await expect(rules(page).nth(0).locator('.rule-problem')).toHaveText('Enter an age (years).');
    await expect(rules(page).nth(0).getByLabel('Age (years) value')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('person-count')).toHaveCount(0);
    expect(await seriousViolations(page), 'a rule marked invalid').toEqual([]);

    // Save is refused the same way: no dialog, no toast.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(toasts(page)).toHaveCount(0);

    // A range upside down.
    await pick(page, rules(page).nth(0).getByLabel('Operator'), 'between');
    await rules(page).nth(0).getByLabel('Age (years) value').nth(0).fill('65');
    await rules(page).nth(0).getByLabel('Age (years) value').nth(1).fill('40');
    await expect(rules(page).nth(0).locator('.rule-problem')).toHaveText('The minimum must not be above the maximum.');
    await expect(list).toContainText('Rule 1 (Age (years)): The minimum must not be above the maximum.');

    // Fixed: the marks go and the query runs.
    await rules(page).nth(0).getByLabel('Age (years) value').nth(0).fill('30');
    await expect(list).toHaveCount(0);
    await expect(rules(page).nth(0)).not.toHaveClass(/rule-has-problem/);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectResults(page);
  });

  test("the server's refusal names the rule in words: the path never shows", async ({ page }) => {
    await openExplorer(page);
    await addRootRule(page);
    await pick(page, rules(page).nth(0).getByLabel('Field'), 'Age (years)');
    await rules(page).nth(0).getByLabel('Age (years) value').fill('40');
    // A refusal the builder did not foresee (as an older web app would send): answered as the API words it.
    await page.route('**/api/v1/queries/', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ detail: 'query.rules[0] (person.age): value must be a number' }) })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save the query' });
    await dialog.getByLabel('Query name').fill(`Refused ${stamp}`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('.rule-problems')).toContainText('Rule 1 (Age (years)): Enter an age (years) as a number.');
    await expect(rules(page).nth(0)).toHaveClass(/rule-has-problem/);
    await expect(dialog).toBeHidden();
    await expect(page.getByText(/rules\[0\]/)).toHaveCount(0);
    await expect(toasts(page)).toHaveCount(0);
  });

  test('a saved query not yet run says so in place, without an error toast', async ({ page }) => {
    const name = `Not yet counted ${stamp}`;
    const { call } = await apiAs(ACCOUNTS.researcher);
    await call('POST', '/queries/', { name, query: WOMEN_40_65 });
    await openExplorer(page);
    await openSaved(page, name);
    await expect(page.getByText('Query has not been executed yet. Run it to see how many persons match.')).toBeVisible();
    await expect(toasts(page)).toHaveCount(0);
    expect(await seriousViolations(page), 'a query never run').toEqual([]);
  });

  test('results name their criteria and dataset; one sex draws plain bars; charts keep their texts apart', async ({ page }) => {
    test.setTimeout(90_000);
    const name = `Women 40–65 feedback ${stamp}`;
    await savedAndRunQuery(ACCOUNTS.researcher, name, WOMEN_40_65);
    await openExplorer(page);
    await openSaved(page, name);
    await expectResults(page);
    const answer = page.locator('.results-answer');
    await expect(answer).toContainText('These results answer: Sex is Female and Age (years) between 40 and 65');
    await expect(answer).toContainText(/Counted in: synthetic: 10000 persons, seed \d+, at \d\d:\d\d/);
    // Women only: bars of the age bands, no half pyramid; sexes in title case.
    await expect(page.getByRole('img', { name: 'Persons by age band, Female only' })).toBeVisible();
    await expect(page.getByText('Age bands (Female only)')).toBeVisible();
    await expect(page.getByRole('img', { name: /Age pyramid/ })).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Sex' }).getByRole('rowheader')).toHaveText(['Female']);
    // Every race bar carries its value, and no text of any chart overlaps another.
    const race = page.getByRole('img', { name: 'Persons by race' });
    await expect(race.locator('text').first()).toBeVisible();
    const shown = await page.getByRole('table', { name: 'Race' }).locator('tbody td').allTextContents();
    const drawn = await chartTexts(race);
    for (const value of shown) expect(drawn).toContain(value.replace(/\*.*$/s, '').trim().replace(/\s*\(.*$/s, ''));
    for (const chart of await page.locator('.result-chart').all()) expect(await overlappingTexts(chart)).toEqual([]);
    // Create cohort is enabled for this saved query's run.
    await expect(page.getByRole('button', { name: 'Create cohort' })).toBeEnabled();
  });

  test('both sexes draw a pyramid whose texts never collide', async ({ page }) => {
    const name = `Adults 30–60 ${stamp}`;
    await savedAndRunQuery(ACCOUNTS.researcher, name, ADULTS);
    await openExplorer(page);
    await openSaved(page, name);
    await expectResults(page);
    const pyramid = page.getByRole('img', { name: /Age pyramid/ });
    await expect(pyramid).toBeVisible();
    const texts = await chartTexts(pyramid);
    expect(texts).toEqual(expect.arrayContaining(['Female', 'Male']));
    expect(texts).not.toContain('FEMALE');
    for (const chart of await page.locator('.result-chart').all()) expect(await overlappingTexts(chart)).toEqual([]);
  });

  test('when every count is hidden, one state replaces each chart', async ({ page }) => {
    const { call } = await apiAs(ACCOUNTS.researcher);
    // The first of these small groups that the dataset holds (but fewer than 20 of).
    const candidates = [20, 25, 30, 35, 40, 45, 50, 55].map((from) => ({
      combinator: 'and',
      rules: [
        { field: 'person.age', operator: 'between', value: [from, from + 4] },
        { field: 'condition_occurrence.condition_concept_id', operator: 'in', value: [201254] },
      ],
    }));
    let small: unknown = null;
    for (const query of candidates) {
      const result = await call<{ person_count_display: string }>('POST', '/queries/execute/', { query });
      if (result.person_count_display === '< 20') {
        small = query;
        break;
      }
    }
    expect(small, 'a small group in the demo data').not.toBeNull();
    const name = `Small group ${stamp}`;
    await savedAndRunQuery(ACCOUNTS.researcher, name, small);
    await openExplorer(page);
    await openSaved(page, name);
    await expect(page.getByTestId('person-count')).toHaveText('< 20');
    const notes = page.locator('.result-charts').getByRole('note');
    await expect(notes.first()).toContainText('All counts are below 20');
    await expect(page.locator('.result-charts .result-chart')).toHaveCount(0);
    expect(await notes.count()).toBe(3);
  });

  test('while a run is under way the results are dimmed; when it fails they stay, marked, and Create cohort says why not', async ({ page }) => {
    test.setTimeout(150_000);
    const name = `Kept results ${stamp}`;
    await savedAndRunQuery(ACCOUNTS.researcher, name, WOMEN_40_65);
    await openExplorer(page);
    await openSaved(page, name);
    await expectResults(page);
    const count = await page.getByTestId('person-count').textContent();

    // In progress: the job's reads are held back a moment, so the running state can be seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/executions\/[0-9a-f-]{36}\/$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.locator('.results-body')).toHaveCSS('opacity', '0.45');
    await expect(page.getByRole('button', { name: 'Create cohort' })).toBeDisabled();
    await expect(page.locator('.create-cohort-why')).toHaveText('Wait for the run to finish: a cohort is made from a finished run.');
    // Released, the held read and the next ones pass straight through.
    release();
    await expect(page.locator('.results-body')).toHaveCSS('opacity', '1');
    await expect(page.getByRole('button', { name: 'Create cohort' })).toBeEnabled();

    // The API stops: the run fails, the last results stay, marked with their time and the reason.
    await stopApi();
    try {
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const stale = page.locator('.stale-results');
      await expect(stale).toContainText(/These results are from \d\d:\d\d; the last run failed\./, { timeout: 20_000 });
      await expect(stale).toContainText('Unable to reach the server');
      await expect(page.getByTestId('person-count')).toHaveText(count!);
      await expect(page.getByRole('button', { name: 'Create cohort' })).toBeDisabled();
      await expect(page.locator('.create-cohort-why')).toHaveText('The last run failed: run the query again to make a cohort from current results.');
      await expect(toasts(page).filter({ hasText: 'Something went wrong' })).toHaveCount(0);
      expect(await seriousViolations(page), 'results kept after a failed run').toEqual([]);
    } finally {
      await startApi();
    }
    // Back up: a new run replaces the mark.
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.locator('.stale-results')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByRole('button', { name: 'Create cohort' })).toBeEnabled();
  });
});
