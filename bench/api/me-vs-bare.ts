/**
 * Requests/s and p99 latency of an authenticated GET /api/v1/users/me/ on the real API (embedded
 * defaults, fresh data directory) against a bare Fastify route, in the same run, one after the
 * other, each server in its own process. Usage: npm run bench:api [-- --seconds 10 --connections 10]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { repoRoot, startProcess, stop } from '../support/servers';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 10);
const connections = arg('connections', 10);
const rounds = arg('rounds', 2);

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, p50: result.latency.p50 };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-api-'));
const password = 'bench-admin-password';
const logLevel = process.env.LOG_LEVEL ?? 'info';
const bare = await startProcess(['--import', 'tsx', path.join(here, 'bare-server.ts')], here, { PORT: '0' }, /BARE listening (\d+)/);
const apiPort = 18_000 + Math.floor(Math.random() * 1000);
const api = await startProcess(
  ['--import', 'tsx', 'src/main.ts'],
  path.join(repoRoot, 'apps/api'),
  { DATA_DIR: dataDir, API_PORT: String(apiPort), ADMIN_PASSWORD: password, LOG_LEVEL: logLevel },
  /API listening on http:\/\/127\.0\.0\.1:(\d+)/,
);
try {
  const tokenResponse = await fetch(`http://127.0.0.1:${api.port}/api/v1/auth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.org', password }),
  });
  const { id_token } = (await tokenResponse.json()) as { id_token: string };
  const auth = { authorization: `Bearer ${id_token}` };
  // Warm both up (JIT, caches) before measuring.
  await autocannon({ url: `http://127.0.0.1:${bare.port}/api/v1/users/me/`, connections, amount: 2000 });
  await autocannon({ url: `http://127.0.0.1:${api.port}/api/v1/users/me/`, connections, amount: 2000, headers: auth });

  const results: { bare: Awaited<ReturnType<typeof load>>; api: Awaited<ReturnType<typeof load>> }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    results.push({
      bare: await load(`http://127.0.0.1:${bare.port}/api/v1/users/me/`, {}),
      api: await load(`http://127.0.0.1:${api.port}/api/v1/users/me/`, auth),
    });
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const bareRps = mean(results.map((r) => r.bare.rps));
  const apiRps = mean(results.map((r) => r.api.rps));
  const row = (name: string, rps: number, p50: number, p99: number) =>
    `${name.padEnd(34)} ${rps.toFixed(0).padStart(8)} req/s   p50 ${p50.toFixed(1).padStart(5)} ms   p99 ${p99.toFixed(1).padStart(5)} ms`;
  process.stdout.write(`GET /api/v1/users/me/ — ${connections} connections, ${seconds} s x ${rounds} rounds, API LOG_LEVEL=${logLevel}\n`);
  process.stdout.write(`${row('bare Fastify', bareRps, mean(results.map((r) => r.bare.p50)), mean(results.map((r) => r.bare.p99)))}\n`);
  process.stdout.write(`${row('platform API (authenticated)', apiRps, mean(results.map((r) => r.api.p50)), mean(results.map((r) => r.api.p99)))}\n`);
  process.stdout.write(`ratio (API / bare, requests/s): ${(apiRps / bareRps).toFixed(2)}  (goal >= 0.80)\n`);
} finally {
  await stop(bare.child);
  await stop(api.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
