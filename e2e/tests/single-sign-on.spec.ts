import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiAs } from '../support/api';
import { PROVIDER_ACR, startLocalProvider, type LocalProvider, type ProviderAccount } from '../support/oidc-provider';
import { invitationLinkFor } from '../support/outbox';
import { expectShell, seriousViolations } from '../support/pages';
import { ACCOUNTS, startStack, type RunningStack } from '../support/stack';

/**
 * Single sign-on through a real, certified OpenID Provider (`oidc-provider`) run by this test, in
 * front of a platform of its own (API and web app configured with the provider): the invitation
 * accepted through the provider, the authorisation-code flow with PKCE from the sign-in page
 * through the provider's login and consent pages, the renewal of the session with the provider's
 * refresh token, sign-out, keys rotated mid-session, and the refusals with what the person reads.
 */

test.describe.configure({ mode: 'serial' });

const CLIENT = { clientId: 'health-data-platform', clientSecret: randomBytes(24).toString('base64url') };
const PROVIDER_NAME = 'Example Organisation';
const PERSON: ProviderAccount = { email: 'grace.hopper@example.org', name: 'Grace Hopper', password: 'organisation-password-1' };
const STRANGER: ProviderAccount = { email: 'stranger@example.org', name: 'Sam Stranger', password: 'organisation-password-2' };
/**
 * The provider's id tokens live 185 s; the web app renews a token with less than 180 s left, so a
 * token is due for renewal 5 s after it was issued: the test sees real expiry-driven refreshes.
 */
const ID_TOKEN_TTL_SECONDS = 185;

let provider: LocalProvider;
let stack: RunningStack;
let personId: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  provider = await startLocalProvider({ idTokenTtlSeconds: ID_TOKEN_TTL_SECONDS });
  stack = await startStack((line) => process.stdout.write(`[sso] ${line}\n`), {
    apiEnv: { OIDC_ISSUER: provider.issuer, OIDC_AUDIENCE: CLIENT.clientId, OIDC_REQUIRED_ACR: PROVIDER_ACR.multiFactor },
    webEnv: { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: CLIENT.clientId, OIDC_CLIENT_SECRET: CLIENT.clientSecret, OIDC_NAME: PROVIDER_NAME },
  });
  provider.registerPlatform(stack.webUrl, CLIENT);
  provider.addAccount(PERSON);
  provider.addAccount(STRANGER);
  const admin = await apiAs(ACCOUNTS.admin, stack.apiUrl);
  await admin.call('POST', '/users/', { invitations: [{ email: PERSON.email, name: PERSON.name, roles: ['RESEARCHER'], user_source: 'EXTERNAL' }] });
});

test.afterAll(async () => {
  if (process.env.E2E_SSO_SERVER_LOG) process.stdout.write(fs.readFileSync(path.join(stack.dataDir, 'servers.log'), 'utf8'));
  await stack?.stop();
  await provider?.close();
});

/** The provider's login page, then its consent page when it asks. Ends back at the platform. */
async function signInAtProvider(page: Page, account: ProviderAccount) {
  await expect(page.getByRole('heading', { name: 'Sign in to Example Organisation' })).toBeVisible();
  await expect(page.getByText('to continue to Health Data Platform')).toBeVisible();
  await page.getByLabel('Organisation email').fill(account.email);
  await page.getByLabel('Organisation password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.origin === stack.webUrl || url.pathname.startsWith('/interaction/'));
  if (new URL(page.url()).origin !== stack.webUrl) {
    await expect(page.getByRole('heading', { name: 'Allow access' })).toBeVisible();
    await page.getByRole('button', { name: 'Allow' }).click();
  }
  await page.waitForURL((url) => url.origin === stack.webUrl);
}

/** From the platform's sign-in page through the provider. */
async function signInWithOrganisation(page: Page, account: ProviderAccount) {
  await page.goto(`${stack.webUrl}/api/auth/signin`);
  await page.getByRole('button', { name: `Sign in with ${PROVIDER_NAME}` }).click();
  await signInAtProvider(page, account);
}

async function sessionOf(page: Page): Promise<{ idToken?: string; error?: string }> {
  return (await page.request.get(`${stack.webUrl}/api/auth/session`)).json();
}

const headerOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString('utf8')) as { kid: string };
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

async function me(idToken: string) {
  const response = await fetch(`${stack.apiUrl}/api/v1/users/me/`, { headers: { authorization: `Bearer ${idToken}` } });
  return { status: response.status, json: (await response.json()) as { id: string; email: string; user_source: string; detail?: string } };
}

/** What the sign-in page says in its alert. */
const refusalOn = (page: Page) => page.getByRole('alert');

test('an invited person accepts through their organisation: authorisation code with PKCE, login, consent, callback', async ({ page }) => {
  const authorisations: URL[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === provider.issuer && url.pathname === '/auth') authorisations.push(url);
  });
  await page.goto(await invitationLinkFor(PERSON.email, { dataDir: stack.dataDir }));
  await page.getByRole('button', { name: 'Sign in with your organisation to accept' }).click();
  await signInAtProvider(page, PERSON);
  await expect(page.getByText('Your account is ready.')).toBeVisible();

  // The web app asked for the code flow with PKCE (S256), at its exact callback.
  const authorise = authorisations[0]!;
  expect(authorise.searchParams.get('response_type')).toBe('code');
  expect(authorise.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorise.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
  expect(authorise.searchParams.get('redirect_uri')).toBe(`${stack.webUrl}/api/auth/callback/oidc`);
  expect(authorise.searchParams.get('scope')).toBe('openid email profile offline_access');

  await page.getByRole('link', { name: /Continue to/ }).click();
  await expectShell(page, PERSON.name);
  const { idToken } = await sessionOf(page);
  expect(claimsOf(idToken!)).toMatchObject({ iss: provider.issuer, aud: CLIENT.clientId, email: PERSON.email, acr: PROVIDER_ACR.multiFactor });
  const answer = await me(idToken!);
  expect(answer.status).toBe(200);
  expect(answer.json).toMatchObject({ email: PERSON.email, user_source: 'EXTERNAL' });
  personId = answer.json.id;
});

test("signs in from the sign-in page, renews the session with the provider's refresh token, and signs out", async ({ page }) => {
  await signInWithOrganisation(page, PERSON);
  await expectShell(page, PERSON.name);
  const first = (await sessionOf(page)).idToken!;
  expect((await me(first)).status).toBe(200);

  // Once the id token is close to expiry, reading the session renews it at the provider.
  const refreshesBefore = provider.refreshGrants();
  const dueAt = (claimsOf(first).iat as number) * 1000 + (ID_TOKEN_TTL_SECONDS - 180) * 1000;
  await page.waitForTimeout(Math.max(0, dueAt - Date.now()) + 1_000);
  expect(await sessionOf(page)).not.toHaveProperty('error');
  await page.reload();
  await expectShell(page, PERSON.name);
  const renewed = (await sessionOf(page)).idToken!;
  expect(renewed).not.toBe(first);
  expect(provider.refreshGrants()).toBeGreaterThan(refreshesBefore);
  expect(claimsOf(renewed)).toMatchObject({ iss: provider.issuer, aud: CLIENT.clientId, email: PERSON.email });
  expect((await me(renewed)).status).toBe(200);

  // Sign-out ends the platform's session and revokes the refresh token at the provider.
  const revokedBefore = provider.revokedGrants();
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signout$/);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/api\/auth\/signin/);
  expect(await sessionOf(page)).toEqual({});
  await expect.poll(() => provider.revokedGrants()).toBeGreaterThan(revokedBefore);
  await page.goto(`${stack.webUrl}/users`);
  await expect(page).toHaveURL(/\/api\/auth\/signin\?.*error=SessionRequired/);
});

test('keeps the session when the provider rotates its signing keys mid-session', async ({ page }) => {
  await signInWithOrganisation(page, PERSON);
  await expectShell(page, PERSON.name);
  const before = (await sessionOf(page)).idToken!;
  const oldKid = headerOf(before).kid;
  expect(oldKid).toBe(provider.currentKid());

  // The old key is withdrawn at once, as after a compromise: the session goes on with the new one.
  const newKid = provider.rotateKeys({ keepOld: false });
  // The API fetches a provider's key set again at most once a second.
  await page.waitForTimeout(1_100);
  // What the app does when the API refuses its token: ask the session to renew at once.
  const renewed = await renewNow(page);
  expect(headerOf(renewed.idToken!).kid).toBe(newKid);
  expect((await me(renewed.idToken!)).status).toBe(200);
  await page.goto(`${stack.webUrl}/`);
  await expectShell(page, PERSON.name);
  await expect(page.getByRole('heading', { name: 'Welcome, Grace' })).toBeVisible();
});

/** What the app does when the API refuses its token: ask the session to renew at once. */
async function renewNow(page: Page): Promise<{ idToken?: string }> {
  const csrf = ((await (await page.request.get(`${stack.webUrl}/api/auth/csrf`)).json()) as { csrfToken: string }).csrfToken;
  return (await page.request.post(`${stack.webUrl}/api/auth/session`, { data: { csrfToken: csrf } })).json();
}

/** A token the provider really issued, for its other application: `aud` is not the platform. */
async function tokenForOtherApplication(page: Page) {
  const verifier = randomBytes(32).toString('base64url');
  const authorise = new URL(`${provider.issuer}/auth`);
  authorise.search = new URLSearchParams({
    client_id: provider.otherApp.clientId,
    redirect_uri: provider.otherApp.redirectUri,
    response_type: 'code',
    scope: 'openid email',
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  await page.goto(authorise.toString());
  await page.waitForURL((url) => url.pathname.startsWith('/interaction/'));
  if (await page.getByRole('heading', { name: 'Sign in to Example Organisation' }).isVisible()) {
    await page.getByLabel('Organisation email').fill(PERSON.email);
    await page.getByLabel('Organisation password').fill(PERSON.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL((url) => url.href.startsWith(provider.otherApp.redirectUri));
  const code = new URL(page.url()).searchParams.get('code')!;
  const tokens = await fetch(`${provider.issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${provider.otherApp.clientId}:${provider.otherApp.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: provider.otherApp.redirectUri, code_verifier: verifier }),
  });
  const { id_token: idToken } = (await tokens.json()) as { id_token: string };
  expect(claimsOf(idToken)).toMatchObject({ iss: provider.issuer, aud: provider.otherApp.clientId, email: PERSON.email });
  return me(idToken);
}

test("refuses a token the provider issued for another application", async ({ page }) => {
  const answer = await tokenForOtherApplication(page);
  expect(answer.status).toBe(401);
  expect(answer.json.detail).toBe('The token is not valid here: its "aud" claim does not match.');
});

test('refuses a person the platform does not know, and says so on the sign-in page', async ({ page }) => {
  await signInWithOrganisation(page, STRANGER);
  await expect(page).toHaveURL(/\/api\/auth\/signin\?error=SsoNoAccount/);
  await expect(refusalOn(page)).toHaveText(/no account on this platform belongs to that email address\. Ask an administrator of this platform to invite you\./);
  expect(await sessionOf(page)).toEqual({});
  expect(await seriousViolations(page)).toEqual([]);
});

test('refuses a sign-in without the second factor the platform requires (OIDC_REQUIRED_ACR), saying why', async ({ page }) => {
  provider.setAssurance('password');
  try {
    await signInWithOrganisation(page, PERSON);
    await expect(page).toHaveURL(/\/api\/auth\/signin\?error=SsoWeakAuthentication/);
    await expect(refusalOn(page)).toHaveText(/signed you in without a second factor .* and this platform requires one\./);
    expect(await sessionOf(page)).toEqual({});
  } finally {
    provider.setAssurance('multiFactor');
  }
});

test('signs out a person disabled mid-session, and refuses their next sign-in, saying so', async ({ page }) => {
  await signInWithOrganisation(page, PERSON);
  await expectShell(page, PERSON.name);
  const admin = await apiAs(ACCOUNTS.admin, stack.apiUrl);
  await admin.call('POST', `/users/disable/${personId}/`);

  // The provider still renews the tokens; the platform does not take them any more.
  expect(await renewNow(page)).toMatchObject({ error: 'AccountDisabled' });
  await page.goto(`${stack.webUrl}/`);
  await expect(page).toHaveURL(/\/api\/auth\/signin\?.*error=AccountDisabled/);
  await expect(refusalOn(page)).toHaveText(/Your account has been disabled, so you were signed out\./);

  await page.getByRole('button', { name: `Sign in with ${PROVIDER_NAME}` }).click();
  await page.waitForURL((url) => url.origin === stack.webUrl && url.pathname === '/api/auth/signin' && url.searchParams.get('error') === 'SsoAccountDisabled');
  await expect(refusalOn(page)).toHaveText(/your account on this platform is disabled/);
  expect(await sessionOf(page)).toEqual({});
});
