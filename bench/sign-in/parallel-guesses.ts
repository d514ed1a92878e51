/**
 * A burst of parallel wrong passwords for one account, over HTTP, on the embedded database (PGlite)
 * and on PostgreSQL: how many were checked (401) and how many refused by the back-off (429). Each
 * guess comes from its own client address (signed as the web app signs it), as from a botnet, so
 * only the account's counter can stop them. The back-off allows 5 failures, then one more after
 * each wait of 1, 2, 4, … s. Usage: npm run bench:sign-in [-- --burst 60 --rounds 3]
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signClientAddress } from '@hdp/contract/client-address';
import { createBenchDatabase } from '../support/postgres';
import { startApi, stop } from '../support/servers';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const burst = arg('burst', 60);
const rounds = arg('rounds', 3);
const password = 'bench-admin-password';
const secret = randomBytes(32).toString('base64url');

/** Failures the back-off lets through within `ms`: 5, then one per elapsed wait of 1, 2, 4, … s. */
function allowedWithin(ms: number): number {
  let allowed = 5;
  for (let wait = 1, total = 1; total * 1000 <= ms; wait *= 2, total += wait) allowed += 1;
  return allowed;
}

async function round(apiUrl: string, account: string, r: number): Promise<{ checked: number; refused: number; other: number; ms: number }> {
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: burst }, (_, i) =>
      fetch(`${apiUrl}/api/v1/auth/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signClientAddress(secret, `10.${r}.${Math.floor(i / 250)}.${i % 250}`) },
        body: JSON.stringify({ email: account, password: `guess-${i}-wrong` }),
      }).then(async (response) => (await response.arrayBuffer(), response.status)),
    ),
  );
  const ms = performance.now() - started;
  const checked = statuses.filter((s) => s === 401).length;
  const refused = statuses.filter((s) => s === 429).length;
  return { checked, refused, other: burst - checked - refused, ms };
}

async function measure(engine: string, env: NodeJS.ProcessEnv): Promise<void> {
  const api = await startApi({ ...env, ADMIN_PASSWORD: password, DEMO_PERSONS: '0', CLIENT_ADDRESS_SECRET: secret });
  try {
    for (let r = 1; r <= rounds; r += 1) {
      // A fresh account each round: the previous round's counter does not carry over.
      const { checked, refused, other, ms } = await round(api.url, `victim-${r}@example.org`, r);
      process.stdout.write(
        `  ${engine.padEnd(10)} round ${r}: ${burst} parallel wrong passwords -> ${checked} checked (401), ${refused} refused (429), ${other} other; ` +
          `${ms.toFixed(0)} ms; the back-off allows ${allowedWithin(ms)} in that time\n`,
      );
    }
  } finally {
    await stop(api.child);
  }
}

process.stdout.write(`Sign-in throttle: bursts of ${burst} parallel wrong passwords for one account\n`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-sign-in-'));
try {
  await measure('PGlite', { DATA_DIR: dataDir });
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const database = await createBenchDatabase();
const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-sign-in-pg-'));
try {
  await measure('PostgreSQL', { DATABASE_URL: database.url, DATA_DIR: pgDir });
} finally {
  await database.drop();
  fs.rmSync(pgDir, { recursive: true, force: true });
}
