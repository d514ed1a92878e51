import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@hdp/contract';
import { backoffSeconds } from '../src/identity/sign-in-throttle';
import { startTestApp, ADMIN_EMAIL, TEST_PASSWORD, type TestApp } from './support/test-app';

let t: TestApp | undefined;
beforeEach(async () => {
  await t?.close();
  t = await startTestApp();
});
afterAll(() => t?.close());

const attempt = (email: string, password: string, address = '10.0.0.1') =>
  t!.app.inject({ method: 'POST', url: '/api/v1/auth/token/', payload: { email, password }, remoteAddress: address });

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

  it('counts parallel guesses from one address across accounts', async () => {
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => attempt(`nobody${i}@example.org`, 'wrong-password', '10.2.0.1')));
    const checked = answers.filter((a) => a.statusCode === 401).length;
    expect(checked).toBeLessThanOrEqual(allowedWithin(Date.now() - started));
    // Another address is not affected.
    expect((await attempt(ADMIN_EMAIL, TEST_PASSWORD, '10.2.0.2')).statusCode).toBe(200);
  });

  it('gives a successful attempt its count back, so parallel good sign-ins from one address pass', async () => {
    for (let i = 0; i < LIMITS.signInFailuresBeforeBackoff - 1; i += 1) {
      expect((await attempt(`nobody${i}@example.org`, 'wrong-password', '10.3.0.1')).statusCode).toBe(401);
    }
    for (let i = 0; i < 3; i += 1) expect((await attempt(ADMIN_EMAIL, TEST_PASSWORD, '10.3.0.1')).statusCode).toBe(200);
    expect((await attempt('nobody@example.org', 'wrong-password', '10.3.0.1')).statusCode).toBe(401);
    expect((await attempt('nobody@example.org', 'wrong-password', '10.3.0.1')).statusCode).toBe(429);
  });

  it('never locks out for good: the wait is capped', () => {
    expect(backoffSeconds(LIMITS.signInFailuresBeforeBackoff - 1, 900)).toBe(0);
    expect(backoffSeconds(LIMITS.signInFailuresBeforeBackoff, 900)).toBe(1);
    expect(backoffSeconds(LIMITS.signInFailuresBeforeBackoff + 3, 900)).toBe(8);
    expect(backoffSeconds(10_000, 60)).toBe(60);
  });
});
