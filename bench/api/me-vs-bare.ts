/**
 * Requests/s and p99 latency of an authenticated GET /api/v1/users/me/ on the real API (embedded
 * defaults, fresh data directory) against a bare Fastify route, in the same run, each server in its
 * own process, and the same bare server holding the API contract's whole route table as well
 * (what the size of the route table alone costs). Rounds alternate between them, so that a slow spell of the machine hits both,
 * and the ratio is taken per round. Where the machine has two cores or more and `taskset` exists,
 * the server under load gets core 0 and the load generator core 1, so neither takes the other's.
 * It also reports the server's own CPU time per request (from /proc), which does not depend on how
 * much of the machine the load generator takes.
 * Usage: npm run bench:api [-- --seconds 5 --connections 10 --rounds 5]; ACCESS_LOG and LOG_LEVEL
 * are passed to the API.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ROUTES } from '@hdp/contract';
import { repoRoot, startProcess, stop } from '../support/servers';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 5);
const connections = arg('connections', 10);
const rounds = arg('rounds', 5);

/** CPU seconds (user + system) a process has used so far; undefined where /proc is missing. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
  } catch {
    return undefined;
  }
}

/** Pins every thread of a process to one core; false where that cannot be done here. */
function pin(pid: number, core: number): boolean {
  if (os.cpus().length < 2) return false;
  try {
    execFileSync('taskset', ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

type Round = { rps: number; p50: number; p99: number; cpuUsPerRequest: number };

async function load(url: string, headers: Record<string, string>, pid: number): Promise<Round> {
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
const accessLog = process.env.ACCESS_LOG ?? '(default)';
const bare = await startProcess(['--import', 'tsx', path.join(here, 'bare-server.ts')], here, { PORT: '0' }, /BARE listening (\d+)/);
const bareRoutes = await startProcess(['--import', 'tsx', path.join(here, 'bare-server.ts')], here, { PORT: '0', ROUTE_TABLE: 'contract' }, /BARE listening (\d+)/);
const apiPort = 18_000 + Math.floor(Math.random() * 1000);
const api = await startProcess(
  ['--import', 'tsx', 'src/main.ts'],
  path.join(repoRoot, 'apps/api'),
  { DATA_DIR: dataDir, API_PORT: String(apiPort), ADMIN_PASSWORD: password, LOG_LEVEL: logLevel, MFA_REQUIRED: 'false' },
  /API listening on http:\/\/127\.0\.0\.1:(\d+)/,
);
try {
  const pinned = pin(bare.child.pid!, 0) && pin(bareRoutes.child.pid!, 0) && pin(api.child.pid!, 0) && pin(process.pid, 1);
  const tokenResponse = await fetch(`http://127.0.0.1:${api.port}/api/v1/auth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.org', password }),
  });
  const { id_token } = (await tokenResponse.json()) as { id_token: string };
  const auth = { authorization: `Bearer ${id_token}` };
  const bareUrl = `http://127.0.0.1:${bare.port}/api/v1/users/me/`;
  const bareRoutesUrl = `http://127.0.0.1:${bareRoutes.port}/api/v1/users/me/`;
  const apiUrl = `http://127.0.0.1:${api.port}/api/v1/users/me/`;
  // Warm them up (JIT, caches) before measuring.
  await autocannon({ url: bareUrl, connections, duration: 3 });
  await autocannon({ url: bareRoutesUrl, connections, duration: 3 });
  await autocannon({ url: apiUrl, connections, duration: 3, headers: auth });

  const results: { bare: Round; bareRoutes: Round; api: Round }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    results.push({
      bare: await load(bareUrl, {}, bare.child.pid!),
      bareRoutes: await load(bareRoutesUrl, {}, bareRoutes.child.pid!),
      api: await load(apiUrl, auth, api.child.pid!),
    });
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const row = (name: string, of: Round[]) =>
    `${name.padEnd(30)} ${mean(of.map((r) => r.rps)).toFixed(0).padStart(7)} req/s   p50 ${mean(of.map((r) => r.p50)).toFixed(1).padStart(4)} ms` +
    `   p99 ${mean(of.map((r) => r.p99)).toFixed(1).padStart(4)} ms   server CPU ${mean(of.map((r) => r.cpuUsPerRequest)).toFixed(1).padStart(5)} µs/request`;
  const ratios = results.map((r) => r.api.rps / r.bare.rps);
  process.stdout.write(
    `GET /api/v1/users/me/ — ${connections} connections, ${rounds} rounds of ${seconds} s each, ` +
      `API LOG_LEVEL=${logLevel} ACCESS_LOG=${accessLog}, ${pinned ? 'server on core 0, load generator on core 1' : 'not pinned to cores'}\n`,
  );
  process.stdout.write(`${row('bare Fastify', results.map((r) => r.bare))}\n`);
  process.stdout.write(`${row('bare Fastify, contract routes', results.map((r) => r.bareRoutes))}\n`);
  process.stdout.write(`${row('platform API (authenticated)', results.map((r) => r.api))}\n`);
  process.stdout.write(`ratio per round (API / bare, requests/s): ${ratios.map((r) => r.toFixed(2)).join(' ')}\n`);
  process.stdout.write(`ratio, median of rounds: ${median(ratios).toFixed(2)}  (goal >= 0.80)\n`);
  const tableRatio = median(results.map((r) => r.bareRoutes.rps / r.bare.rps));
  const apiVsTable = median(results.map((r) => r.api.rps / r.bareRoutes.rps));
  process.stdout.write(`the same bare server with the contract's ${Object.keys(ROUTES).length} routes / bare: ${tableRatio.toFixed(2)}; API / that server: ${apiVsTable.toFixed(2)} (medians)\n`);
} finally {
  await stop(bare.child);
  await stop(bareRoutes.child);
  await stop(api.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
