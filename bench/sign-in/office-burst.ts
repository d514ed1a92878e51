/**
 * An office behind one address signing in at once: 200 people with correct passwords through the
 * API's token endpoint, all from one client address (signed as the web app signs it), sent at a
 * steady rate (default 20 a second), on the embedded database (PGlite) and on PostgreSQL. Counts
 * the sign-ins refused (429) and reports the latency. Before successful sign-ins stopped counting
 * against the address, 130 of 200 were refused at 20 a second.
 * Usage: npm run bench:sign-in-office [-- --people 200 --rate 20]   (--rate 0: all at once)
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signClientAddress } from '@hdp/contract/client-address';
import { loadConfig } from '../../apps/api/src/config';
import { openServices } from '../../apps/api/src/services';
import { createUser, ensureFirstAdmin } from '../../apps/api/src/users/admin-creator';
import { createBenchDatabase } from '../support/postgres';
import { percentile, startApi, stop } from '../support/servers';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const people = arg('people', 200);
const rate = arg('rate', 20);
const password = 'an office password of some length';
const secret = randomBytes(32).toString('base64url');
const officeAddress = '198.51.100.42';
const emailOf = (i: number) => `office-${i}@example.org`;

/** Creates the office's accounts directly in the database, as `hdp user create` does, before the API starts. */
async function createOffice(env: Record<string, string>): Promise<void> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_PASSWORD: password, ...env });
  const opened = await openServices(config, { startWorker: false, warehouse: false });
  try {
    await ensureFirstAdmin(opened.services.db, config.admin);
    for (let i = 0; i < people; i += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, people - i) }, (_, j) =>
          createUser(opened.services.db, { email: emailOf(i + j), roles: ['RESEARCHER'], password }, 'bench'),
        ),
      );
    }
  } finally {
    await opened.close();
  }
}

async function burst(apiUrl: string): Promise<{ statuses: number[]; latencies: number[]; ms: number }> {
  const started = performance.now();
  const latencies: number[] = [];
  const answers = Array.from({ length: people }, async (_, i) => {
    if (rate > 0) await new Promise((resolve) => setTimeout(resolve, (i * 1000) / rate));
    const sent = performance.now();
    const response = await fetch(`${apiUrl}/api/v1/auth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signClientAddress(secret, officeAddress) },
      body: JSON.stringify({ email: emailOf(i), password }),
    });
    await response.arrayBuffer();
    latencies.push(performance.now() - sent);
    return response.status;
  });
  const statuses = await Promise.all(answers);
  return { statuses, latencies, ms: performance.now() - started };
}

async function measure(engine: string, env: Record<string, string>): Promise<void> {
  await createOffice(env);
  // Password only: the office's accounts have no second factor enrolled (the throttle is the same either way).
  const api = await startApi({ ...env, ADMIN_PASSWORD: password, DEMO_PERSONS: '0', CLIENT_ADDRESS_SECRET: secret, MFA_REQUIRED: 'false' });
  try {
    const { statuses, latencies, ms } = await burst(api.url);
    const ok = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 429).length;
    process.stdout.write(
      `  ${engine.padEnd(10)} ${people} correct sign-ins from one address ${rate > 0 ? `at ${rate}/s` : 'all at once'}: ` +
        `${ok} signed in (200), ${refused} refused (429), ${people - ok - refused} other; ` +
        `${(ms / 1000).toFixed(1)} s in all, latency p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms\n`,
    );
  } finally {
    await stop(api.child);
  }
}

process.stdout.write(`Sign-in throttle: an office of ${people} behind one address\n`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-office-'));
try {
  await measure('PGlite', { DATA_DIR: dataDir });
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const database = await createBenchDatabase();
const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-office-pg-'));
try {
  await measure('PostgreSQL', { DATABASE_URL: database.url, DATA_DIR: pgDir });
} finally {
  await database.drop();
  fs.rmSync(pgDir, { recursive: true, force: true });
}
