import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { ACCOUNTS } from './stack';

/** Whether the suite's stack requires a second factor (E2E_MFA_REQUIRED=true). */
export const MFA_REQUIRED = process.env.E2E_MFA_REQUIRED === 'true';

/** The code an authenticator app shows for `secret`, `steps` 30-second steps from now. */
export function totpCode(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/**
 * Chromium's virtual authenticator through the DevTools protocol: a platform authenticator
 * (internal, CTAP2) with resident keys and user verification, which answers without a prompt.
 */
export async function addVirtualAuthenticator(page: Page): Promise<{ credentials(): Promise<unknown[]> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials };
}

async function post(pathname: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${process.env.E2E_API_URL}${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/**
 * The administrator's id token on a stack that requires a second factor, through the API's two
 * steps. The first time, an authenticator app is enrolled at sign-in; its secret is kept in the
 * data directory so that a retried test signs in with it again.
 */
export async function adminIdToken(): Promise<string> {
  const { email, password } = ACCOUNTS.admin;
  const first = await post('/api/v1/auth/token/', { email, password });
  if (first.status !== 200) throw new Error(`admin password step: ${first.status}`);
  if (!first.json.mfa_required) return first.json.id_token as string;
  const challenge = first.json.challenge as string;
  const file = path.join(process.env.E2E_DATA_DIR!, 'admin-authenticator-secret');
  if (first.json.enrolment_required) {
    const enrolment = await post('/api/v1/auth/mfa/enrol/', { challenge, kind: 'TOTP' });
    fs.writeFileSync(file, (enrolment.json.totp as { secret: string }).secret);
  }
  const secret = fs.readFileSync(file, 'utf8');
  // A code works once: when this step's was used already, the next step's is taken.
  for (const steps of [0, 1]) {
    const answer = await post('/api/v1/auth/token/mfa/', { challenge, totp_code: await totpCode(secret, steps) });
    if (answer.status === 200) return answer.json.id_token as string;
  }
  throw new Error('admin second step refused');
}

/** Invites a researcher through the API as the administrator; resolves when the invitation is sent. */
export async function inviteResearcher(person: { email: string; name: string }): Promise<void> {
  const response = await fetch(`${process.env.E2E_API_URL}/api/v1/users/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await adminIdToken()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ invitations: [{ email: person.email, name: person.name, roles: ['RESEARCHER'] }] }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

/** Accepts an invitation link in the browser with a new password; ends on the sign-in page. */
export async function acceptInvitation(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Set password and activate account' }).click();
  await expect(page.getByText('Your account is ready.')).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page.getByLabel('Password')).toBeVisible();
}
