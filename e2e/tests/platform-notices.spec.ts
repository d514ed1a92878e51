import { expect, test } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { apiAs } from '../support/api';
import { expectShell, seriousViolations, signIn } from '../support/pages';

/**
 * What the platform tells people about what is not set up: a researcher is never shown setting
 * names (only an administrator can act on them), and an administrator cannot send an invitation
 * that could not be accepted.
 */

const stamp = Date.now();

test('a researcher is told dashboards are not available, without the settings an administrator would set', async ({ page }) => {
  const researcher = await apiAs(ACCOUNTS.researcher);
  const workbench = await researcher.call<{ id: string }>('POST', '/workbenches/', {
    name: `Dashboards notice (${stamp})`,
    purpose: 'To check what a researcher reads on the Dashboards tab when dashboards are not set up here.',
    cohorts: [], queries: [], documents: [], users: [],
  });
  await signIn(page, ACCOUNTS.researcher);
  await expectShell(page, ACCOUNTS.researcher.name);
  await page.goto(`/workbenches/${workbench.id}`);
  await page.getByRole('tab', { name: 'Dashboards' }).click();
  const panel = page.getByRole('tabpanel');
  await expect(panel).toContainText('Dashboards are not available on this platform yet. Ask your administrator if you need them.');
  await expect(panel).not.toContainText('VIZZLY');
  await expect(panel).not.toContainText('The server says');
  expect(await seriousViolations(page), 'dashboards tab').toEqual([]);
});

test('without organisation sign-in, an administrator cannot choose External identity, and is told why', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expectShell(page, ACCOUNTS.admin.name);
  await page.goto('/users');
  await page.getByRole('button', { name: 'Invite users' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite users' });
  await expect(dialog.getByRole('radio', { name: 'External identity' })).toBeDisabled();
  await expect(dialog.getByRole('radio', { name: 'Local account' })).toBeChecked();
  await expect(dialog.getByTestId('no-organisation-sign-in')).toContainText('sign-in with an organisation is not set up on this platform');
  expect(await seriousViolations(page), 'invite dialog').toEqual([]);
});
