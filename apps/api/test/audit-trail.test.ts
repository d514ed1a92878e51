import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../src/audit/audit-trail';
import { auditLog } from '../src/db/schema';
import { loadConfig } from '../src/config';
import { openServices } from '../src/services';
import { createUser } from '../src/users/admin-creator';
import { recordAuditEvent } from '../src/audit/audit-trail';
import { startTestApp, ADMIN_EMAIL, TEST_PASSWORD, type TestApp } from './support/test-app';
import { createPostgresDatabase, testDbKind } from './support/test-database';

const run = promisify(execFile);
const API_DIR = path.resolve(import.meta.dirname, '..');

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const entries = () => t.services.db.select().from(auditLog).orderBy(asc(auditLog.seq));

describe('audit entries', () => {
  it('records sign-in, failed sign-in, denial, change and sign-out, chained', async () => {
    const before = (await entries()).length;
    await t.request({ method: 'POST', url: '/api/v1/auth/token/', payload: { email: ADMIN_EMAIL, password: 'wrong-password' } });
    const admin = await t.signIn(ADMIN_EMAIL);
    const researcher = await t.userWithRoles(['RESEARCHER']);
    await t.request({ method: 'GET', url: '/api/v1/users/', token: researcher.token, headers: { 'user-agent': 'audit-test' } });
    await t.request({ method: 'POST', url: `/api/v1/users/disable/${researcher.user.id}/`, token: admin.id_token });
    await t.request({ method: 'POST', url: '/api/v1/users/me/logout/', token: admin.id_token });

    const rows = (await entries()).slice(before);
    expect(rows.map((r) => [r.eventType, r.outcome])).toEqual([
      ['AUTH_SIGN_IN_FAILED', 'FAILURE'],
      ['AUTH_SIGN_IN', 'SUCCESS'],
      ['USER_CREATED', 'SUCCESS'],
      ['AUTH_SIGN_IN', 'SUCCESS'],
      ['ACCESS_DENIED', 'DENIED'],
      ['USER_DISABLED', 'SUCCESS'],
      ['AUTH_SIGN_OUT', 'SUCCESS'],
    ]);
    const denial = rows[4]!;
    expect(denial).toMatchObject({
      actorId: researcher.user.id,
      actorEmail: researcher.user.email,
      userAgent: 'audit-test',
      clientAddress: '127.0.0.1',
    });
    expect(denial.requestId).toBeTruthy();
    expect(denial.message).toContain('GET /api/v1/users/');
    expect(rows[5]).toMatchObject({ resourceType: 'user', resourceId: researcher.user.id, actorId: t.admin.id });
    for (let i = 1; i < rows.length; i += 1) expect(rows[i]!.prevHash).toBe(rows[i - 1]!.hash);
    expect(await verifyAuditChain(t.services.db)).toMatchObject({ ok: true });
  });

  it('writes no entry when the change fails (same transaction)', async () => {
    const admin = await t.signIn(ADMIN_EMAIL);
    const before = (await entries()).length;
    const response = await t.request({ method: 'POST', url: `/api/v1/users/disable/${t.admin.id}/`, token: admin.id_token });
    expect(response.statusCode).toBe(409);
    expect((await entries()).length).toBe(before);
  });

  it('rejects UPDATE and DELETE on the log', async () => {
    await expect(t.services.db.execute(sql`update audit_log set message = 'edited'`)).rejects.toThrow();
    await expect(t.services.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    await expect(t.services.db.execute(sql`truncate audit_log`)).rejects.toThrow();
  });

  it('verification finds an entry edited behind the trigger', async () => {
    const rows = await entries();
    const victim = rows[Math.floor(rows.length / 2)]!;
    // A superuser can switch triggers off; the hash chain still tells.
    await t.services.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update audit_log set message = 'nothing happened' where seq = ${victim.seq}`);
    });
    const report = await verifyAuditChain(t.services.db);
    expect(report).toMatchObject({ ok: false, verifiedUpTo: victim.seq - 1, firstBroken: { seq: victim.seq } });
    expect(report.firstBroken!.reason).toMatch(/hash mismatch/);
  });
});

/** A data directory (and, on PostgreSQL, a database) for a run of the command line. */
async function commandLineEnvironment() {
  const postgres = testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-audit-'));
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '10', ...(postgres && { DATABASE_URL: postgres.url }) };
  return {
    env,
    cleanUp: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await postgres?.drop();
    },
  };
}

describe('hdp audit verify', () => {
  it('reports an intact chain, then the first broken link after tampering', async () => {
    const { env, cleanUp } = await commandLineEnvironment();
    try {
      const opened = await openServices(loadConfig(env));
      await createUser(opened.services.db, { email: 'a@example.org', roles: ['ADMIN'], password: TEST_PASSWORD }, 'test');
      for (let i = 0; i < 5; i += 1) {
        await recordAuditEvent(opened.services.db, { actorEmail: 'a@example.org' }, {
          eventType: 'AUTH_SIGN_IN', outcome: 'SUCCESS', message: `entry ${i}`, details: { i, nested: { b: 1, a: [1, 2] } },
        });
      }
      await opened.services.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`delete from audit_log where seq = 2`);
      });
      await opened.close();

      const cli = run(process.execPath, ['--import', 'tsx', 'src/cli/hdp.ts', 'audit', 'verify'], { cwd: API_DIR, env });
      await expect(cli).rejects.toMatchObject({ code: 2, stdout: expect.stringContaining('BROKEN at entry 2: entries 2 to 2 are missing') });
    } finally {
      await cleanUp();
    }
  });

  // The intact case, on the entries hardest to re-hash (a chain of ordinary entries takes the same path).
  it('says the chain is intact, for entries with deeply nested details and unpaired surrogates, in a fresh process with a small stack', async () => {
    const { env, cleanUp } = await commandLineEnvironment();
    try {
      const opened = await openServices(loadConfig(env));
      await createUser(opened.services.db, { email: 'a@example.org', roles: ['ADMIN'], password: TEST_PASSWORD }, 'test');
      // Details as deep as the audit log held before bodies were limited: re-hashing them must not need the stack.
      let deep: unknown = 1;
      for (let i = 0; i < 3000; i++) deep = { a: deep };
      await recordAuditEvent(opened.services.db, { actorEmail: 'a@example.org' }, {
        eventType: 'QUERY_EXECUTED', outcome: 'SUCCESS', message: 'deep', details: { query: deep },
      });
      // What the database stores for an unpaired surrogate (U+FFFD) is what is hashed.
      await recordAuditEvent(opened.services.db, { actorEmail: 'a@example.org' }, {
        eventType: 'COHORT_UPDATED', outcome: 'SUCCESS', message: 'renamed to "a\ud800b"', details: { name: 'a\udc00\u0000', ['k\ud800']: 1 },
      });
      await opened.close();
      const { stdout } = await run(process.execPath, ['--stack-size=250', '--import', 'tsx', 'src/cli/hdp.ts', 'audit', 'verify'], { cwd: API_DIR, env });
      expect(stdout).toContain('Audit chain intact: 4 entries verified (up to entry 4).');
    } finally {
      await cleanUp();
    }
  }, 90_000);
});
