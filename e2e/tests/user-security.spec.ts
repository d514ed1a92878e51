import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { apiAs } from '../support/api';
import { expectHydrated, expectShell, seriousViolations, signIn } from '../support/pages';
import { totpCode } from '../support/second-factor';
import { userRow } from '../support/users';

/** What the web app does when an API call answers 401: it asks next-auth to renew the session now. */
async function renewSessionNow(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const { csrfToken } = (await (await fetch('/api/auth/csrf')).json()) as { csrfToken: string };
    await fetch('/api/auth/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ csrfToken, data: {} }) });
  });
}

/** Confirms one of the row's sign-in security actions in its Popconfirm, after checking what it says. */
async function confirmSecurityAction(page: Page, email: string, button: string, says: string, okText: string): Promise<void> {
  await userRow(page, email).getByRole('button', { name: button }).click();
  const question = page.locator('.ant-popconfirm:visible');
  await expect(question).toContainText(says);
  await question.getByRole('button', { name: okText, exact: true }).click();
}

test("an administrator ends a researcher's sessions and resets their second factors from the Users page; the audit log shows it", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { admin, researcher } = ACCOUNTS;
  const toast = (title: string) => page.locator('.ant-notification-notice').filter({ hasText: title });

  // The researcher is signed in in their own browser.
  const researcherContext = await browser.newContext();
  const researcherPage = await researcherContext.newPage();
  await signIn(researcherPage, researcher);
  await expectShell(researcherPage, researcher.name);

  // They add an authenticator app (from then on sign-in asks for it, even where the platform does not require one).
  const asResearcher = await apiAs(researcher);
  const enrolment = await asResearcher.call<{ factor_id: string; secret: string }>('POST', '/users/me/mfa/totp/', { name: 'Lost phone' });
  await asResearcher.call('POST', `/users/me/mfa/totp/${enrolment.factor_id}/confirm/`, { code: await totpCode(enrolment.secret) });
  const asAdmin = await apiAs(admin);
  const { users } = await asAdmin.call<{ users: { id: string }[] }>('GET', `/users/?search=${encodeURIComponent(researcher.email)}`);
  const researcherId = users[0]!.id;

  try {
    await signIn(page, admin);
    await expectShell(page, admin.name);
    await page.goto('/users');
    await expect(userRow(page, researcher.email)).toBeVisible();
    await expectHydrated(page);

    // 1. End sessions: the answer says how many; the researcher's browser is signed out at its next renewal.
    await confirmSecurityAction(
      page, researcher.email, `End sessions of ${researcher.name}`,
      `Every browser and script signed in as ${researcher.name} is signed out at its next request. Their second factors stay as they are.`, 'End sessions',
    );
    await expect(toast('Sessions ended')).toContainText(new RegExp(`\\d+ sessions? of ${researcher.name} ended`));
    await renewSessionNow(researcherPage);
    await researcherPage.reload();
    await expect(researcherPage).toHaveURL(/\/api\/auth\/signin\?.*error=SessionRevoked/);

    // With the app still enrolled, the password alone does not sign the researcher in.
    await signIn(researcherPage, researcher, '');
    await expect(researcherPage).toHaveURL(/\/sign-in\/second-factor$/);

    // 2. Reset second factors: the question says in plain words what happens, and the answer says it happened.
    await confirmSecurityAction(
      page, researcher.email, `Reset second factors of ${researcher.name}`,
      `${researcher.name} will set up a second factor again at their next sign-in; their passkeys, authenticator apps and recovery codes stop working.`, 'Reset',
    );
    await expect(toast('Second factors reset')).toContainText(`${researcher.name} will set up a second factor again at their next sign-in.`);
    expect(await seriousViolations(page), 'users page').toEqual([]);

    // The app is gone: on this platform, which does not require a second factor, the password alone signs them in again.
    await signIn(researcherPage, researcher);
    await expectShell(researcherPage, researcher.name);
    const factors = await (await apiAs(researcher)).call<{ factors: unknown[] }>('GET', '/users/me/mfa/');
    expect(factors.factors).toEqual([]);

    // 3. The audit log shows the reset and the ended sessions, by the administrator.
    await page.goto('/audit-log');
    await expectHydrated(page);
    await page.getByRole('searchbox', { name: 'Search the audit log' }).fill(researcher.email);
    await page.keyboard.press('Enter');
    const reset = page.getByRole('row').filter({ hasText: `${admin.email} reset the second factors of ${researcher.email}` }).first();
    await expect(reset.locator('span[title="MFA_RESET"]')).toBeVisible();
    const ended = page.getByRole('row').filter({ hasText: `${admin.email} ended all sessions of ${researcher.email}` }).first();
    await expect(ended.locator('span[title="SESSION_ENDED"]')).toBeVisible();
  } finally {
    // Whatever failed above, the researcher signs in with a password alone again for the other tests.
    await asAdmin.answer('POST', `/users/mfa-reset/${researcherId}/`);
    await researcherContext.close();
  }
});
