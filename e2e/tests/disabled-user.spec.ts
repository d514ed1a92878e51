import { expect, test, type APIRequestContext } from '@playwright/test';
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

test('a disabled user loses access at the next token refresh', async ({ page, request }) => {
  const { researcher } = ACCOUNTS;
  await signIn(page, researcher);
  await expectShell(page, researcher.name);
  await asAdmin(request, 'disable', researcher.email);
  try {
    // The API refuses the id token of a disabled account; the session's renewal is refused too.
    await page.reload();
    await expect(page).toHaveURL(/\/api\/auth\/signin\?.*error=SessionRequired/);
    expect(await (await page.request.get('/api/auth/session')).json()).toEqual({});
  } finally {
    await asAdmin(request, 'enable', researcher.email);
  }
});
