import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ACCOUNTS, ROOT } from '../support/stack';
import { expectShell, seriousViolations, signIn, sideBarItem } from '../support/pages';

/** One of OHDSI's four test definitions (ATLAS JSON), kept beside the repository. */
const DEFINITION = path.join(ROOT, '..', 'shared', 'datasets', 'ohdsi-cohort-definitions', 'celecoxibAge40.json');

test('a researcher imports an ATLAS definition from its file, opens the query, exports it as ATLAS JSON, and sees an unsupported construct refused in words', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ACCOUNTS.researcher);
  await expectShell(page, ACCOUNTS.researcher.name);
  await sideBarItem(page, 'Data Explorer').click();
  await expect(page.getByRole('heading', { name: 'Data Explorer', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Import ATLAS definition' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import ATLAS definition' });
  await dialog.locator('input[type=file]').setInputFiles(DEFINITION);
  // The file's name becomes the query's name; made unique for reruns on one stack.
  await expect(dialog.getByLabel('Query name')).toHaveValue('celecoxibAge40');
  const name = `celecoxibAge40 ${Date.now()}`;
  await dialog.getByLabel('Query name').fill(name);
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByText(`Imported as the saved query “${name}”.`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Open the imported query' }).click();
  await expect(dialog).toBeHidden();

  // The saved query is open: it exports as a file ATLAS imports, holding the same definition.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as ATLAS JSON' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${name.replace(/ /g, '_')}.json`);
  const exported = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
  const original = JSON.parse(fs.readFileSync(DEFINITION, 'utf8'));
  expect(exported.PrimaryCriteria.CriteriaList).toEqual(original.PrimaryCriteria.CriteriaList);
  expect(exported.InclusionRules[0].expression.DemographicCriteriaList).toEqual(original.InclusionRules[0].expression.DemographicCriteriaList);
  expect(exported.ConceptSets[0].expression.items[0].concept.CONCEPT_ID).toBe(1118084);

  // A construct the platform does not hold: refused in words, naming where it is; nothing is made.
  await page.getByRole('button', { name: 'Import ATLAS definition' }).click();
  const again = page.getByRole('dialog', { name: 'Import ATLAS definition' });
  original.PrimaryCriteria.CriteriaList = [{ DoseEra: { CodesetId: 0 } }];
  await again.getByLabel('Or paste the definition (JSON)').fill(JSON.stringify(original));
  await again.getByLabel('Query name').fill(`dose era ${Date.now()}`);
  await again.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(again.getByRole('alert')).toContainText(
    'This definition uses something the platform does not support yet: Dose eras are not supported (at PrimaryCriteria.CriteriaList[0].DoseEra). Nothing was imported.',
  );
  await again.getByLabel('Or paste the definition (JSON)').fill('{ not json');
  await again.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(again.getByRole('alert')).toContainText('This is not JSON.');
});
