import { expect, type Page } from '@playwright/test';

/** The users table's row of one address. */
export function userRow(page: Page, email: string) {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name: email, exact: true }) });
}

/** Invites people through the Users page's dialog and waits for the per-address outcome. */
export async function inviteThroughDialog(page: Page, addresses: string): Promise<void> {
  await page.getByRole('button', { name: 'Invite users' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite users' });
  await dialog.getByLabel('Email addresses').fill(addresses);
  await dialog.getByRole('button', { name: 'Send invitations' }).click();
  await expect(dialog.getByRole('table')).toBeVisible();
}

/** Runs a row action of the users table and confirms it. */
export async function confirmRowAction(page: Page, email: string, action: 'Re-send' | 'Revoke' | 'Disable' | 'Enable'): Promise<void> {
  await userRow(page, email).getByRole('button', { name: new RegExp(`^${action} `) }).click();
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: action, exact: true }).click();
}
