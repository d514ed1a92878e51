import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { expectShell, signIn } from '../support/pages';

async function asAdmin(request: APIRequestContext, action: 'disable' | 'enable', email: string): Promise<void> {
  const api = process.env.E2E_API_URL!;
  const tokens = await (await request.post(`${api}/api/v1/auth/token/`, { data: { email: ACCOUNTS.admin.email, password: ACCOUNTS.admin.password } })).json();
  const headers = { authorization: `Bearer ${tokens.id_token}` };
  const { users } = await (await request.get(`${api}/api/v1/users/`, { headers, params: { search: email } })).json();
  const response = await request.post(`${api}/api/v1/users/${action}/${users[0].id}/`, { headers });
  expect(response.status(), `${action} ${email}`).toBe(200);
}

/** What the web app does when an API call answers 401: it asks next-auth to renew the session now. */
async function renewSessionNow(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const { csrfToken } = (await (await fetch('/api/auth/csrf')).json()) as { csrfToken: string };
    await fetch('/api/auth/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ csrfToken, data: {} }) });
  });
}

test('a disabled user loses access at the next API call, and the sign-in page says the account was disabled', async ({ page, request }) => {
  const { researcher } = ACCOUNTS;
  await signIn(page, researcher);
  await expectShell(page, researcher.name);
  await asAdmin(request, 'disable', researcher.email);
  try {
    // The API refuses the id token of a disabled account; the session's renewal is refused too.
    await page.reload();
    await expect(page).toHaveURL(/\/api\/auth\/signin\?.*error=AccountDisabled/);
    await expect(page.getByRole('alert')).toHaveText(/Your account has been disabled/);
    await expect(page.getByText('Please sign in to access this page.')).toHaveCount(0);
    expect(await (await page.request.get('/api/auth/session')).json()).toEqual({});
  } finally {
    await asAdmin(request, 'enable', researcher.email);
  }
});

test('a session whose refresh token was revoked elsewhere ends with a sign-in page that says so', async ({ page, request }) => {
  const { auditor } = ACCOUNTS;
  await signIn(page, auditor);
  await expectShell(page, auditor.name);
  // Signing out in another browser revokes every refresh token of the account.
  const api = process.env.E2E_API_URL!;
  const elsewhere = await (await request.post(`${api}/api/v1/auth/token/`, { data: { email: auditor.email, password: auditor.password } })).json();
  const logout = await request.post(`${api}/api/v1/users/me/logout/`, { headers: { authorization: `Bearer ${elsewhere.id_token}` } });
  expect(logout.status()).toBe(204);

  await renewSessionNow(page);
  await page.reload();
  await expect(page).toHaveURL(/\/api\/auth\/signin\?.*error=SessionRevoked/);
  await expect(page.getByRole('alert')).toHaveText(/Your session was ended elsewhere/);
  await expect(page.getByText('Please sign in to access this page.')).toHaveCount(0);

  // Signing in again returns to where the user was.
  await signIn(page, auditor, '');
  await expectShell(page, auditor.name);
});
