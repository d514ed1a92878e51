import { expect, test, type Page } from '@playwright/test';
import { expectShell, seriousViolations, signIn } from '../support/pages';
import { invitationLinkFor } from '../support/outbox';
import { acceptInvitation, addVirtualAuthenticator, inviteResearcher, MFA_REQUIRED, totpCode } from '../support/second-factor';

/**
 * Multi-factor sign-in in the browser, on a stack that requires it as production does
 * (E2E_MFA_REQUIRED=true npx playwright test tests/second-factor.spec.ts): a new person enrols a
 * passkey or an authenticator app at their first sign-in, then signs in with it; recovery codes
 * work once. On the suite's default stack (MFA_REQUIRED=false) the sign-in page says so instead.
 * `npm test` runs this file twice: with the suite's default stack, then on a stack that requires a
 * second factor (the e2e workspace's test script), so neither half is skipped in the whole suite.
 */

const PASSKEY_PERSON = { email: 'petra.passkey@example.org', name: 'Petra Passkey', password: 'violet kettles under snow 7' };
const APP_PERSON = { email: 'otto.authenticator@example.org', name: 'Otto Authenticator', password: 'amber ferries at dawn 19' };

/** The claims of the session's id token (what the embedded issuer says about how the person signed in). */
async function sessionClaims(page: Page): Promise<{ amr?: string[]; acr?: string } | null> {
  const session = (await (await page.request.get('/api/auth/session')).json()) as { idToken?: string };
  if (!session.idToken) return null;
  return JSON.parse(Buffer.from(session.idToken.split('.')[1]!, 'base64url').toString('utf8')) as { amr?: string[]; acr?: string };
}

async function signOut(page: Page): Promise<void> {
  await page.goto('/signout');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/api\/auth\/signin/);
}

/** The recovery codes shown once after enrolling, then on into the platform. */
async function saveRecoveryCodes(page: Page): Promise<string[]> {
  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
  const codes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allInnerTexts();
  expect(codes).toHaveLength(10);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'I have saved them: continue' }).click();
  return codes.map((code) => code.trim());
}

test.describe('with a second factor required', () => {
  test.skip(!MFA_REQUIRED, 'needs the stack to require a second factor: E2E_MFA_REQUIRED=true');

  test('a new researcher enrols a passkey at first sign-in and signs in with it', async ({ page }) => {
    test.setTimeout(120_000);
    const authenticator = await addVirtualAuthenticator(page);
    const invitedAt = Date.now() - 1_000;
    await inviteResearcher(PASSKEY_PERSON);
    await acceptInvitation(page, await invitationLinkFor(PASSKEY_PERSON.email, { after: invitedAt }), PASSKEY_PERSON.password);

    // The password alone makes no session: the second step asks for a factor to be set up.
    await signIn(page, PASSKEY_PERSON, '');
    await expect(page).toHaveURL(/\/sign-in\/second-factor$/);
    await expect(page.getByRole('heading', { name: 'Set up a second factor' })).toBeVisible();
    expect(await sessionClaims(page)).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Set up a passkey or security key' }).click();
    await saveRecoveryCodes(page);
    await expectShell(page, PASSKEY_PERSON.name);
    expect(await authenticator.credentials()).toHaveLength(1);
    expect(await sessionClaims(page)).toMatchObject({ acr: 'urn:hdp:acr:aal2', amr: expect.arrayContaining(['pwd', 'mfa', 'hwk']) });

    // The next sign-in: password, then the passkey (offered first).
    await signOut(page);
    await signIn(page, PASSKEY_PERSON, '');
    await expect(page.getByRole('heading', { name: 'Second factor' })).toBeVisible();
    expect(await sessionClaims(page)).toBeNull();
    await page.getByRole('button', { name: 'Use passkey' }).click();
    await expectShell(page, PASSKEY_PERSON.name);
    expect(await sessionClaims(page)).toMatchObject({ acr: 'urn:hdp:acr:aal2', amr: expect.arrayContaining(['hwk']) });

    // The account page, opened from the name in the header: add an app, rename it, remove the passkey.
    await page.getByTestId('current-user').click();
    await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
    const factors = page.getByRole('list', { name: 'Your second factors' });
    await expect(factors.getByRole('listitem')).toHaveCount(1);
    await page.getByRole('button', { name: 'Add an authenticator app' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an authenticator app' });
    const secret = (await dialog.getByTestId('totp-secret').innerText()).trim();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel('Name').fill('Work phone');
    await dialog.getByLabel('Code from the app').fill(await totpCode(secret));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(factors.getByRole('listitem')).toHaveCount(2);
    await expect(factors).toContainText('Work phone');
    await factors.getByRole('button', { name: 'Rename Work phone' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename second factor' });
    await rename.getByLabel('Name').fill('Old phone');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect(factors).toContainText('Old phone');
    await factors.getByRole('button', { name: 'Remove Passkey' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(factors.getByRole('listitem')).toHaveCount(1);
    await expect(factors).not.toContainText('Passkey or security key');

    // New recovery codes, shown once; then every session ends and this browser is signed out.
    await page.getByRole('button', { name: 'Make new recovery codes' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Make new codes' }).click();
    await expect(page.getByRole('dialog', { name: 'Your new recovery codes' }).getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect(page.getByText('10 of 10 unused.')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Your active sessions' }).getByText('This browser')).toBeVisible();
    await page.getByRole('button', { name: 'End all sessions' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'End all' }).click();
    await expect(page).toHaveURL(/\/api\/auth\/signin/);
    expect(await sessionClaims(page)).toBeNull();
  });

  test('a new researcher enrols an authenticator app, signs in with its codes (once each) and with a recovery code (once)', async ({ page }) => {
    test.setTimeout(150_000);
    const invitedAt = Date.now() - 1_000;
    await inviteResearcher(APP_PERSON);
    await acceptInvitation(page, await invitationLinkFor(APP_PERSON.email, { after: invitedAt }), APP_PERSON.password);

    await signIn(page, APP_PERSON, '');
    await page.getByRole('button', { name: 'Use an authenticator app' }).click();
    await expect(page.getByRole('img', { name: 'QR code to add this account to an authenticator app' })).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Code from your authenticator app').fill(await totpCode(secret));
    await page.getByRole('button', { name: 'Confirm and sign in' }).click();
    const codes = await saveRecoveryCodes(page);
    await expectShell(page, APP_PERSON.name);
    expect(await sessionClaims(page)).toMatchObject({ acr: 'urn:hdp:acr:aal2', amr: expect.arrayContaining(['pwd', 'mfa', 'otp']) });

    // A wrong code is refused in words; the next step's code signs in.
    await signOut(page);
    await signIn(page, APP_PERSON, '');
    await expect(page.getByRole('heading', { name: 'Second factor' })).toBeVisible();
    await page.getByLabel('Code from your authenticator app').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'That code or passkey was not accepted' })).toBeVisible();
    expect(await sessionClaims(page)).toBeNull();
    const next = await totpCode(secret, 1);
    await page.getByLabel('Code from your authenticator app').fill(next);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectShell(page, APP_PERSON.name);

    // The same code again is a replay: refused.
    await signOut(page);
    await signIn(page, APP_PERSON, '');
    await page.getByLabel('Code from your authenticator app').fill(next);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'A code works once only' })).toBeVisible();
    expect(await sessionClaims(page)).toBeNull();

    // A recovery code signs in once.
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectShell(page, APP_PERSON.name);
    expect(await sessionClaims(page)).toMatchObject({ amr: expect.arrayContaining(['recovery']) });
    await signOut(page);
    await signIn(page, APP_PERSON, '');
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'That code or passkey was not accepted' })).toBeVisible();
    expect(await sessionClaims(page)).toBeNull();
    await page.getByLabel('Recovery code').fill(codes[1]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectShell(page, APP_PERSON.name);

    // The account page on a phone: the factor, the refusal to remove the only one, the sessions.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/account');
    await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
    const factors = page.getByRole('list', { name: 'Your second factors' });
    await expect(factors.getByRole('listitem')).toHaveCount(1);
    await expect(factors).toContainText('Authenticator app');
    await expect(page.getByText('8 of 10 unused.')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Your active sessions' }).getByText('This browser')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Your active sessions' })).toContainText('Chrome on Linux');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await factors.getByRole('button', { name: 'Remove Authenticator app' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(page.getByText('This is your only second factor and the platform requires one: add another before removing it.')).toBeVisible();
    await expect(factors.getByRole('listitem')).toHaveCount(1);
  });
});

test('without a second factor required, the sign-in page says so', async ({ page }) => {
  test.skip(MFA_REQUIRED, 'the stack requires a second factor');
  await page.goto('/api/auth/signin');
  await expect(page.getByRole('note')).toContainText('This platform runs without a second factor (MFA_REQUIRED=false)');
});
