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

  it('never locks out for good: the wait is capped', () => {
    expect(backoffSeconds(LIMITS.signInFailuresBeforeBackoff - 1, 900)).toBe(0);
    expect(backoffSeconds(LIMITS.signInFailuresBeforeBackoff, 900)).toBe(1);
    expect(backoffSeconds(LIMITS.signInFailuresBeforeBackoff + 3, 900)).toBe(8);
    expect(backoffSeconds(10_000, 60)).toBe(60);
  });
});
