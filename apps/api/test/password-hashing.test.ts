import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { users } from '../src/db/schema';
import { configurePasswordHashing } from '../src/identity/passwords';
import { startTestApp, TEST_PASSWORD, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PASSWORD_HASH_COST: '11' });
});
afterAll(async () => {
  await t.close();
  configurePasswordHashing(10);
});

const storedHash = async (id: string) => (await t.services.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id)))[0]!.hash!;

describe('password hashing cost (PASSWORD_HASH_COST)', () => {
  it('hashes new passwords at the configured cost, and each hash keeps its own parameters', async () => {
    const { user } = await t.userWithRoles(['RESEARCHER']);
    expect((await storedHash(user.id)).split('$').slice(0, 4)).toEqual(['scrypt', String(2 ** 11), '8', '1']);

    // Raised later: new hashes get the new cost, and an account hashed before still signs in.
    configurePasswordHashing(12);
    const later = await t.userWithRoles(['RESEARCHER']);
    expect((await storedHash(later.user.id)).split('$')[1]).toBe(String(2 ** 12));
    await expect(t.signIn(user.email, TEST_PASSWORD)).resolves.toHaveProperty('id_token');
    const wrong = await t.request({ method: 'POST', url: '/api/v1/auth/token/', payload: { email: user.email, password: 'not the password at all' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('defaults to 2^15 and refuses a cost below 10 with the setting named', () => {
    expect(loadConfig({}).passwordHashCost).toBe(15);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '9' })).toThrow(/PASSWORD_HASH_COST/);
  });
});
