/**
 * Requests/s and p99 latency of an authenticated GET /api/v1/users/me/ on the real API (embedded
 * defaults, fresh data directory) against a bare Fastify route, in the same run, one after the
 * other, each server in its own process. It also reports the server's own CPU time per request
 * (from /proc), which does not depend on how much of the machine the load generator takes.
 * Usage: npm run bench:api [-- --seconds 10 --connections 10 --rounds 2]
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

/** CPU seconds (user + system) a process has used so far; undefined where /proc is missing. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
  } catch {
    return undefined;
  }
}

async function load(url: string, headers: Record<string, string>, pid: number) {
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const cpuAfter = cpuSeconds(pid);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const cpuUsPerRequest = cpuBefore === undefined || cpuAfter === undefined ? NaN : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total;
  return { rps: result.requests.average, p99: result.latency.p99, p50: result.latency.p50, cpuUsPerRequest };
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
      bare: await load(`http://127.0.0.1:${bare.port}/api/v1/users/me/`, {}, bare.child.pid!),
      api: await load(`http://127.0.0.1:${api.port}/api/v1/users/me/`, auth, api.child.pid!),
    });
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const bareRps = mean(results.map((r) => r.bare.rps));
  const apiRps = mean(results.map((r) => r.api.rps));
  const row = (name: string, rounds: Awaited<ReturnType<typeof load>>[]) =>
    `${name.padEnd(34)} ${mean(rounds.map((r) => r.rps)).toFixed(0).padStart(8)} req/s   p50 ${mean(rounds.map((r) => r.p50)).toFixed(1).padStart(5)} ms` +
    `   p99 ${mean(rounds.map((r) => r.p99)).toFixed(1).padStart(5)} ms   server CPU ${mean(rounds.map((r) => r.cpuUsPerRequest)).toFixed(1).padStart(5)} µs/request`;
  process.stdout.write(`GET /api/v1/users/me/ — ${connections} connections, ${seconds} s x ${rounds} rounds, API LOG_LEVEL=${logLevel}\n`);
  process.stdout.write(`${row('bare Fastify', results.map((r) => r.bare))}\n`);
  process.stdout.write(`${row('platform API (authenticated)', results.map((r) => r.api))}\n`);
  process.stdout.write(`ratio (API / bare, requests/s): ${(apiRps / bareRps).toFixed(2)}  (goal >= 0.80)\n`);
} finally {
  await stop(bare.child);
  await stop(api.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
