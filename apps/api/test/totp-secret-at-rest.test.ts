import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { mfaFactors } from '../src/db/schema';
import { TotpSecretBox } from '../src/identity/mfa/totp-secret-box';
import { createUser } from '../src/users/admin-creator';
import { startTestApp, TEST_PASSWORD, type TestApp } from './support/test-app';

/**
 * Authenticator-app secrets are encrypted at rest (AES-256-GCM, key from MFA_SECRET_KEY): the
 * stored column holds nothing a code can be computed from, sign-in still works, a secret stored
 * in plaintext before this is still read and sealed on use, and a sealed secret moved onto
 * another person's row does not open there.
 */
const KEY = 'a-test-mfa-secret-key-of-at-least-32-characters';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ MFA_REQUIRED: 'true', MFA_SECRET_KEY: KEY, WEB_URL: 'http://web.test' });
});
afterAll(() => t.close());

let counter = 0;
async function newPerson() {
  const email = `totp-at-rest-${++counter}@example.org`;
  const { user } = await createUser(t.services.db, { email, roles: ['RESEARCHER'], password: TEST_PASSWORD }, 'test');
  return { id: user.id, email, address: `10.79.${counter}.1` };
}

const post = (url: string, payload: unknown, remoteAddress: string) =>
  t.request({ method: 'POST', url, payload: payload as Record<string, unknown>, remoteAddress });
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

async function challengeFor(person: { email: string; address: string }): Promise<string> {
  const step = await post('/api/v1/auth/token/', { email: person.email, password: TEST_PASSWORD }, person.address);
  expect(step.statusCode, step.body).toBe(200);
  return step.json().challenge;
}

async function enrol(person: { email: string; address: string }): Promise<string> {
  const challenge = await challengeFor(person);
  const enrolment = await post('/api/v1/auth/mfa/enrol/', { challenge, kind: 'TOTP' }, person.address);
  const { secret } = enrolment.json().totp as { secret: string };
  const done = await post('/api/v1/auth/token/mfa/', { challenge, totp_code: await codeAt(secret, -1) }, person.address);
  expect(done.statusCode, done.body).toBe(200);
  return secret;
}

const storedSecretOf = async (userId: string) =>
  (await t.services.db.select({ id: mfaFactors.id, totpSecret: mfaFactors.totpSecret }).from(mfaFactors).where(eq(mfaFactors.userId, userId)))[0]!;

describe('authenticator-app secrets at rest', () => {
  it('stores a versioned ciphertext, not the secret, and sign-in with the app still works', async () => {
    const person = await newPerson();
    const secret = await enrol(person);
    const { totpSecret: stored } = await storedSecretOf(person.id);
    expect(stored).toMatch(/^v1:[\w-]{16}:[\w-]+:[\w-]{22}$/);
    expect(stored).not.toContain(secret);
    // Nothing in the row opens it without the key: another key fails GCM's authentication.
    expect(() => TotpSecretBox.fromKeyMaterial('another-key-of-at-least-32-characters!!').open(stored!, person.id)).toThrow();
    const challenge = await challengeFor(person);
    const signedIn = await post('/api/v1/auth/token/mfa/', { challenge, totp_code: await codeAt(secret, 0) }, person.address);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().id_token).toBeTruthy();
  });

  it('reads a secret stored in plaintext before encryption, and seals it on its first use', async () => {
    const person = await newPerson();
    const secret = await enrol(person);
    const { id } = await storedSecretOf(person.id);
    await t.services.db.update(mfaFactors).set({ totpSecret: secret }).where(eq(mfaFactors.id, id));
    const challenge = await challengeFor(person);
    const signedIn = await post('/api/v1/auth/token/mfa/', { challenge, totp_code: await codeAt(secret, 0) }, person.address);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const { totpSecret: resealed } = await storedSecretOf(person.id);
    expect(resealed).toMatch(/^v1:/);
    expect(resealed).not.toContain(secret);
  });

  it('does not let a sealed secret copied onto another person open there', async () => {
    const victim = await newPerson();
    const victimSecret = await enrol(victim);
    const attacker = await newPerson();
    await enrol(attacker);
    const { totpSecret: victimSealed } = await storedSecretOf(victim.id);
    const { id: attackerFactor } = await storedSecretOf(attacker.id);
    await t.services.db.update(mfaFactors).set({ totpSecret: victimSealed }).where(eq(mfaFactors.id, attackerFactor));
    const challenge = await challengeFor(attacker);
    const refused = await post('/api/v1/auth/token/mfa/', { challenge, totp_code: await codeAt(victimSecret, 0) }, attacker.address);
    expect(refused.statusCode).toBe(401);
  });

  it('seals every plaintext secret at start-up', async () => {
    const person = await newPerson();
    const secret = await enrol(person);
    const { id } = await storedSecretOf(person.id);
    await t.services.db.update(mfaFactors).set({ totpSecret: secret }).where(eq(mfaFactors.id, id));
    const { factorRepository } = await import('../src/identity/mfa/factor-repository');
    expect(await factorRepository.sealAllPlaintext(t.services.db, t.services.totpSecrets)).toBe(1);
    const { totpSecret } = await storedSecretOf(person.id);
    expect(t.services.totpSecrets.open(totpSecret!, person.id)).toBe(secret);
  });
});
