import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@hdp/contract';
import { CLIENT_ADDRESS_HEADER, CLIENT_ADDRESS_SIGNATURE_HEADER, signClientAddress } from '@hdp/contract/client-address';
import { signInThrottle } from '../src/db/schema';
import { backoffSeconds } from '../src/identity/sign-in-throttle';
import { createUser } from '../src/users/admin-creator';
import { startTestApp, ADMIN_EMAIL, TEST_PASSWORD, type TestApp } from './support/test-app';

/** The secret the web app and the API share in these tests. */
const SECRET = 'a-client-address-secret-of-32-characters-or-more';
const WEB_SERVER = '127.0.0.1';

/**
 * One app for the file: each test starts from no counted attempts (the throttle's counters are its
 * only state these tests change), and reads the audit log only from its own start.
 */
let t: TestApp | undefined;
let testStarted = new Date();
beforeAll(async () => {
  t = await startTestApp({ CLIENT_ADDRESS_SECRET: SECRET });
});
beforeEach(async () => {
  await t!.services.db.delete(signInThrottle);
  testStarted = new Date();
});
afterAll(() => t?.close());

const attempt = (email: string, password: string, address = '10.0.0.1', headers: Record<string, string> = {}, app = t!.app) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/token/', payload: { email, password }, remoteAddress: address, headers });

/** A sign-in as the web server makes it: from its own address, naming the browser's. */
const viaWeb = (email: string, password: string, browser: string, secret = SECRET) =>
  attempt(email, password, WEB_SERVER, signClientAddress(secret, browser));

/** The client addresses of the failed sign-ins audited since the test started. */
async function auditedAddresses(): Promise<string[]> {
  const { id_token } = await t!.signIn(ADMIN_EMAIL);
  const since = encodeURIComponent(testStarted.toISOString());
  const logs = await t!.request({ method: 'GET', url: `/api/v1/logs/?event_type=AUTH_SIGN_IN_FAILED&start_date=${since}&page_size=100`, token: id_token });
  return (logs.json() as { entries: { client_address: string }[] }).entries.map((entry) => entry.client_address);
}

/**
 * Checks the back-off schedule lets through in `elapsedMs`: the first failures freely, then one
 * more each time a wait of 1, 2, 4, … seconds has passed.
 */
function allowedWithin(elapsedMs: number): number {
  let allowed = LIMITS.signInFailuresBeforeBackoff;
  for (let wait = 1, total = 1; total * 1000 <= elapsedMs; wait *= 2, total += wait) allowed += 1;
  return allowed;
}

describe('sign-in throttling', () => {
  it(`backs off after ${LIMITS.signInFailuresBeforeBackoff} failures, even for the right password`, async () => {
    for (let i = 0; i < LIMITS.signInFailuresBeforeBackoff; i += 1) {
      expect((await attempt(ADMIN_EMAIL, 'wrong-password')).statusCode).toBe(401);
    }
    const blocked = await attempt(ADMIN_EMAIL, TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().detail).toMatch(/Too many failed sign-in attempts\. Try again in \d+ seconds\./);
  });

  it('throttles per address across accounts', async () => {
    for (let i = 0; i < LIMITS.signInFailuresBeforeBackoff; i += 1) {
      await attempt(`nobody${i}@example.org`, 'wrong-password', '10.0.0.9');
    }
    expect((await attempt('someone-else@example.org', 'wrong-password', '10.0.0.9')).statusCode).toBe(429);
    // The account itself was not attacked: from another address it signs in.
    expect((await attempt(ADMIN_EMAIL, TEST_PASSWORD, '10.0.0.10')).statusCode).toBe(200);
  });

  it('says the same for an unknown account as for a wrong password', async () => {
    const unknown = await attempt('nobody@example.org', 'wrong-password');
    const wrong = await attempt(ADMIN_EMAIL, 'wrong-password');
    expect(unknown.json()).toEqual(wrong.json());
    expect(unknown.statusCode).toBe(401);
  });

  it('counts parallel guesses for one account: a burst of 60 gets no more checks than the back-off allows', async () => {
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => attempt(ADMIN_EMAIL, `guess-${i}-wrong`, `10.1.${Math.floor(i / 250)}.${i % 250}`)),
    );
    const checked = answers.filter((a) => a.statusCode === 401).length;
    expect(checked + answers.filter((a) => a.statusCode === 429).length).toBe(60);
    expect(checked).toBeLessThanOrEqual(allowedWithin(Date.now() - started));
    expect(checked).toBeGreaterThanOrEqual(LIMITS.signInFailuresBeforeBackoff);
  });

  it('counts every failure from one address across accounts, parallel ones included', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => attempt(`nobody${i}@example.org`, 'wrong-password', '10.2.0.1')));
    expect(answers.every((a) => a.statusCode === 401 || a.statusCode === 429)).toBe(true);
    // Each failure was charged to the address: it now waits the longest back-off, even for a right password.
    const after = await attempt(ADMIN_EMAIL, TEST_PASSWORD, '10.2.0.1');
    expect(after.statusCode).toBe(429);
    expect(Number(after.headers['retry-after'])).toBeGreaterThan(60);
    // Another address is not affected.
    expect((await attempt(ADMIN_EMAIL, TEST_PASSWORD, '10.2.0.2')).statusCode).toBe(200);
  });

  it('lets an office behind one address sign in at once: correct sign-ins never use the address budget', async () => {
    const people = 30;
    const emails = Array.from({ length: people }, (_, i) => `office${i}@example.org`);
    for (const email of emails) await createUser(t!.services.db, { email, roles: ['RESEARCHER'], password: TEST_PASSWORD }, 'test');
    // Four typos in the office earlier: one more failure and the address would be in back-off.
    for (let i = 0; i < LIMITS.signInFailuresBeforeBackoff - 1; i += 1) {
      expect((await attempt(`typo${i}@example.org`, 'wrong-password', '10.5.0.1')).statusCode).toBe(401);
    }
    const answers = await Promise.all(emails.map((email) => attempt(email, TEST_PASSWORD, '10.5.0.1')));
    expect(answers.map((a) => a.statusCode)).toEqual(emails.map(() => 200));
    // The budget is still there for failures: the fifth failure puts the address in back-off.
    expect((await attempt('typo@example.org', 'wrong-password', '10.5.0.1')).statusCode).toBe(401);
    expect((await attempt(emails[0]!, TEST_PASSWORD, '10.5.0.1')).statusCode).toBe(429);
  });

  it('gives a successful attempt its count back, so parallel good sign-ins from one address pass', async () => {
    for (let i = 0; i < LIMITS.signInFailuresBeforeBackoff - 1; i += 1) {
      expect((await attempt(`nobody${i}@example.org`, 'wrong-password', '10.3.0.1')).statusCode).toBe(401);
    }
    for (let i = 0; i < 3; i += 1) expect((await attempt(ADMIN_EMAIL, TEST_PASSWORD, '10.3.0.1')).statusCode).toBe(200);
    expect((await attempt('nobody@example.org', 'wrong-password', '10.3.0.1')).statusCode).toBe(401);
    expect((await attempt('nobody@example.org', 'wrong-password', '10.3.0.1')).statusCode).toBe(429);
  });

  it("counts the web app's sign-ins per browser: failures from one browser do not lock out another", async () => {
    for (let i = 0; i < LIMITS.signInFailuresBeforeBackoff; i += 1) {
      expect((await viaWeb(`nobody${i}@example.org`, 'wrong-password', '203.0.113.7')).statusCode).toBe(401);
    }
    expect((await viaWeb('someone@example.org', 'wrong-password', '203.0.113.7')).statusCode).toBe(429);
    expect((await viaWeb(ADMIN_EMAIL, TEST_PASSWORD, '198.51.100.20')).statusCode).toBe(200);
    expect(await auditedAddresses()).toContain('203.0.113.7');
  });

  it('does not trust a client address without a valid signature', async () => {
    const forged: Record<string, string>[] = [
      { [CLIENT_ADDRESS_HEADER]: '203.0.113.1' },
      { ...signClientAddress('another-secret-of-thirty-two-characters!!', '203.0.113.2') },
      { ...signClientAddress(SECRET, '203.0.113.3', Date.now() - 10 * 60_000) },
      { ...signClientAddress(SECRET, '203.0.113.4'), [CLIENT_ADDRESS_HEADER]: '203.0.113.5' },
      { [CLIENT_ADDRESS_HEADER]: 'not-an-address', [CLIENT_ADDRESS_SIGNATURE_HEADER]: signClientAddress(SECRET, 'not-an-address')[CLIENT_ADDRESS_SIGNATURE_HEADER]! },
    ];
    // Each forged header names a fresh address, yet all count against the caller's own.
    for (const headers of forged) expect((await attempt(`nobody@example.org`, 'wrong-password', '10.4.0.1', headers)).statusCode).toBe(401);
    expect((await attempt('someone@example.org', 'wrong-password', '10.4.0.1', { [CLIENT_ADDRESS_HEADER]: '203.0.113.6' })).statusCode).toBe(429);
    const addresses = await auditedAddresses();
    expect(addresses.filter((a) => a === '10.4.0.1')).toHaveLength(forged.length + 1);
    expect(addresses.some((a) => a.startsWith('203.0.113.'))).toBe(false);
  });

  it('trusts no client address at all when no secret is configured', async () => {
    const plain = await startTestApp();
    try {
      for (let i = 0; i < LIMITS.signInFailuresBeforeBackoff; i += 1) {
        await attempt('nobody@example.org', 'wrong-password', WEB_SERVER, signClientAddress(SECRET, `203.0.113.${i}`), plain.app);
      }
      const next = await attempt(ADMIN_EMAIL, TEST_PASSWORD, WEB_SERVER, signClientAddress(SECRET, '198.51.100.1'), plain.app);
      expect(next.statusCode).toBe(429);
    } finally {
      await plain.close();
    }
  });

  it('behind a proxy (TRUST_PROXY) counts the address the proxy saw, not one the client wrote before it', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: 'true' });
    try {
      for (let i = 0; i < LIMITS.signInFailuresBeforeBackoff; i += 1) {
        const headers = { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.9` };
        expect((await attempt('nobody@example.org', 'wrong-password', '10.0.0.1', headers, proxied.app)).statusCode).toBe(401);
      }
      const next = await attempt('someone@example.org', 'wrong-password', '10.0.0.1', { 'x-forwarded-for': '203.0.113.99, 198.51.100.9' }, proxied.app);
      expect(next.statusCode).toBe(429);
      const other = await attempt(ADMIN_EMAIL, TEST_PASSWORD, '10.0.0.1', { 'x-forwarded-for': '198.51.100.10' }, proxied.app);
      expect(other.statusCode, other.body).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('never locks out for good: the wait is capped', () => {
    expect(backoffSeconds(LIMITS.signInFailuresBeforeBackoff - 1, 900)).toBe(0);
    expect(backoffSeconds(LIMITS.signInFailuresBeforeBackoff, 900)).toBe(1);
    expect(backoffSeconds(LIMITS.signInFailuresBeforeBackoff + 3, 900)).toBe(8);
    expect(backoffSeconds(10_000, 60)).toBe(60);
  });
});
