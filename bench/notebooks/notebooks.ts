/**
 * Notebooks on the local runtime (Debian's Jupyter in bubblewrap), through the API's routes (and
 * so the job queue) and the platform's proxy:
 * - create → a cell runs (the create call, its job, the server up, the open URL, a kernel
 *   started, `1 + 1` answered over the kernel WebSocket);
 * - stop; start from stopped → a cell runs;
 * - 10 notebooks running with an idle kernel each: memory per notebook (PSS and RSS of its
 *   processes), and the API's p95 on another call with none and with ten running;
 * - fetching a 1 MB notebook as the notebook page loads it (`api/contents/<name>.ipynb`) through the
 *   proxy against the Jupyter server directly, and the proxy with egress counting against the same
 *   same app without it (a second app on its own port, built without the meter).
 * Usage: npm run bench:notebooks [-- --rounds 10 --running 10 --fetches 200]
 * (`--rounds 0 --running 1` measures only the proxy against the direct fetch.)
 * Goals: create → cell p95 <= 5 s; start → cell p95 <= 3 s; stop <= 2 s; API p95 within 1.2× with
 * ten running; proxy <= 1.2× direct.
 */
import fs from 'node:fs';
import http from 'node:http';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../apps/api/src/app';
import { loadConfig } from '../../apps/api/src/config';
import { openServices } from '../../apps/api/src/services';
import { ensureFirstAdmin } from '../../apps/api/src/users/admin-creator';
import { KernelConnection } from '../../apps/api/test/support/jupyter-kernel';
import { notebookOrigin, openedCookie, resolveLocalhostSubdomains } from '../../apps/api/test/support/notebook-hosts';
import { percentile } from '../support/servers';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rounds = arg('rounds', 10);
const runningCount = arg('running', 10);
const fetches = arg('fetches', 200);
const out = (line: string) => process.stdout.write(`${line}\n`);
const ms = (values: number[], digits = 0) =>
  `p50 ${percentile(values, 50).toFixed(digits).padStart(5)} ms   p95 ${percentile(values, 95).toFixed(digits).padStart(5)} ms`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-notebooks-'));
const password = 'bench-admin-password';
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_PASSWORD: password, DEMO_PERSONS: '0', PUBLIC_URL: 'http://127.0.0.1',
  // Password-only sign-in for the bench's own account (second factors are measured by bench:sign-in).
  MFA_REQUIRED: 'false',
  // Counting costs the same under any limit; a high one keeps the bench's own fetches from a hold.
  NOTEBOOK_EGRESS_HARD_MB_PER_DAY: '100000' });
// Each notebook has its own host, <id>.notebooks.localhost, which browsers resolve to loopback.
resolveLocalhostSubdomains();
const opened = await openServices(config, { inMemory: true });
const app = await buildApp(opened.services);
const { driver } = opened.services.notebooks;

try {
  await ensureFirstAdmin(opened.services.db, config.admin);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const tokenResponse = await fetch(`${origin}/api/v1/auth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: config.admin.email, password }),
  });
  const idToken = ((await tokenResponse.json()) as { id_token: string }).id_token;

  const api = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${origin}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${idToken}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${String(json.detail)}`);
    return json;
  };
  const workbench = await api('POST', '/workbenches/', { name: 'Notebook benchmark', purpose: 'To measure how quickly notebooks start, stop and answer through the proxy.' });
  const workbenchId = workbench.id as string;
  const notebooksUrl = `/workbenches/${workbenchId}/notebooks/`;
  /** Waits until the notebook reaches `status` (the list, as the web app follows it). */
  const reach = async (notebookId: string, status: string) => {
    for (;;) {
      const list = (await api('GET', `${notebooksUrl}?limit=100`)) as { notebooks: { id: string; status: string; status_reason: string | null }[] };
      const found = list.notebooks.find((n) => n.id === notebookId);
      if (found?.status === status) return;
      if (found?.status === 'FAILED') throw new Error(`notebook FAILED: ${found.status_reason}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const cookies = new Map<string, string>();
  const cookieFor = async (notebookId: string) => {
    const known = cookies.get(notebookId);
    if (known) return known;
    // Redeemed as the web app's page does: a form posted from its origin to the notebook's own.
    const cookie = await openedCookie(origin, (await api('POST', `${notebooksUrl}${notebookId}/open/`)) as { url: string; ticket: string });
    cookies.set(notebookId, cookie);
    return cookie;
  };
  /** What a user waits for after the server is up: a kernel, its WebSocket, a cell's answer. */
  const runCell = async (notebookId: string) => {
    const cookie = await cookieFor(notebookId);
    const base = `${notebookOrigin(origin, notebookId)}/jupyter/${notebookId}/`;
    const kernel = await fetch(`${base}api/kernels`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{"name":"python3"}' });
    const { id } = (await kernel.json()) as { id: string };
    const connection = await KernelConnection.open(`${base.replace('http', 'ws')}api/kernels/${id}/channels`, { cookie });
    const cell = await connection.execute('1 + 1');
    await connection.close();
    if (cell.result !== '2') throw new Error(`the cell gave ${JSON.stringify(cell)}`);
  };
  const createRunning = async (name: string) => {
    const created = await api('POST', notebooksUrl, { name, environment: 'python3-datascience' });
    const notebookId = created.id as string;
    await reach(notebookId, 'RUNNING');
    return notebookId;
  };

  out(`Notebooks on the local runtime (${driver.availability().enforcement.memory}); ${os.cpus().length} cores; machine type n1-standard-4`);
  const createTimes: number[] = [];
  const stopTimes: number[] = [];
  const startTimes: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    let t0 = performance.now();
    const notebookId = await createRunning(`Round ${i}`);
    await runCell(notebookId);
    createTimes.push(performance.now() - t0);
    cookies.delete(notebookId);
    t0 = performance.now();
    await api('POST', `${notebooksUrl}${notebookId}/stop/`);
    await reach(notebookId, 'STOPPED');
    stopTimes.push(performance.now() - t0);
    t0 = performance.now();
    await api('POST', `${notebooksUrl}${notebookId}/start/`);
    await reach(notebookId, 'RUNNING');
    await runCell(notebookId);
    startTimes.push(performance.now() - t0);
    await api('DELETE', `${notebooksUrl}${notebookId}/`);
  }
  if (rounds > 0) {
    out(`  create → a cell runs (${rounds})            ${ms(createTimes)}   (goal p95 <= 5000 ms)`);
    out(`  start from stopped → a cell runs (${rounds})  ${ms(startTimes)}   (goal p95 <= 3000 ms)`);
    out(`  stop (${rounds})                              ${ms(stopTimes)}   (goal <= 2000 ms)`);
  }

  const apiP95 = async () => {
    const times: number[] = [];
    for (let i = 0; i < 520; i += 1) {
      const t0 = performance.now();
      const response = await fetch(`${origin}/api/v1/users/me/`, { headers: { authorization: `Bearer ${idToken}` } });
      await response.text();
      if (i >= 20) times.push(performance.now() - t0);
    }
    return percentile(times, 95);
  };
  const idleP95 = await apiP95();

  const running: string[] = [];
  for (let i = 0; i < runningCount; i += 1) {
    const notebookId = await createRunning(`Idle ${i}`);
    await runCell(notebookId);
    running.push(notebookId);
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const pss: number[] = [];
  const rss: number[] = [];
  for (const notebookId of running) {
    const procs = fs.readFileSync(`/sys/fs/cgroup/pids/hdp-notebooks/${notebookId}/cgroup.procs`, 'utf8').split('\n').filter(Boolean);
    let notebookPss = 0;
    let notebookRss = 0;
    for (const pid of procs) {
      const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      notebookPss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      notebookRss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    }
    pss.push(notebookPss / 1024);
    rss.push(notebookRss / 1024);
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  out(`  memory per idle notebook (${runningCount} running, one idle kernel each)   PSS ${mean(pss).toFixed(0)} MB   RSS ${mean(rss).toFixed(0)} MB`);
  const busyP95 = await apiP95();
  out(`  API GET /users/me/ p95: none running ${idleP95.toFixed(2)} ms, ${runningCount} running ${busyP95.toFixed(2)} ms   ${(busyP95 / idleP95).toFixed(2)}× (goal <= 1.2×)`);

  // A 1 MB notebook file in the first running notebook's home.
  const target = running[0]!;
  const cells = Array.from({ length: 64 }, (_v, i) => ({ cell_type: 'code', execution_count: i, metadata: {}, outputs: [], source: 'x'.repeat(16_000) }));
  const file = path.join(dataDir, 'workbenches', workbenchId, 'notebooks', target, 'home', 'large.ipynb');
  fs.writeFileSync(file, JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: 5 }));
  // The notebook's own user (each notebook has one): the home's owner.
  const home = fs.statSync(path.dirname(file));
  fs.chownSync(file, home.uid, home.gid);
  const size = fs.statSync(file).size;
  const upstream = driver.upstream(target)!;
  // The floor: a bare Node HTTP relay in the API's process to the same socket, with a keep-alive
  // agent, that checks and rewrites nothing. What the proxy costs beyond it is the proxy's own.
  const relayAgent = new http.Agent({ keepAlive: true });
  const relay = http.createServer((request, response) => {
    const forwarded = http.request(
      { socketPath: upstream.socketPath, path: request.url, method: request.method, agent: relayAgent, headers: { host: 'localhost', authorization: `token ${upstream.token}` } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  // The same app without egress counting (built while the services have no meter): what counting
  // costs is the difference between the two.
  const meter = opened.services.notebooks.egress;
  opened.services.notebooks.egress = undefined;
  const uncounted = await buildApp(opened.services);
  opened.services.notebooks.egress = meter;
  await uncounted.listen({ host: '127.0.0.1', port: 0 });
  const plan = {
    socketPath: upstream.socketPath,
    token: upstream.token,
    proxyPort: Number(new URL(origin).port),
    relayPort: (relay.address() as { port: number }).port,
    uncountedPort: (uncounted.server.address() as { port: number }).port,
    cookie: await cookieFor(target),
    // The proxy serves a notebook only at its own host.
    host: `${target}.notebooks.localhost`,
    path: `/jupyter/${target}/api/contents/large.ipynb?type=notebook`,
    // Jupyter answers the notebook inside its contents model: at least the file's size, less a margin for its own JSON spacing.
    size: Math.floor(size * 0.9),
    fetches,
  };
  const client = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fetch-client.ts'), JSON.stringify(plan)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  client.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise((resolve) => client.once('exit', resolve));
  relay.close();
  relayAgent.destroy();
  await uncounted.close();
  const { direct, proxied, relayed, uncountedTimes } = JSON.parse(output) as { direct: number[]; proxied: number[]; relayed: number[]; uncountedTimes: number[] };
  out(`  load a ${(size / 1_048_576).toFixed(2)} MB notebook (api/contents, ${fetches}): direct ${ms(direct, 2)}`);
  out(`                                  proxy  ${ms(proxied, 2)}   ${(percentile(proxied, 50) / percentile(direct, 50)).toFixed(2)}× at p50, ${(percentile(proxied, 95) / percentile(direct, 95)).toFixed(2)}× at p95 (goal <= 1.2×)`);
  out(`                                  bare relay ${ms(relayed, 2)}   ${(percentile(relayed, 50) / percentile(direct, 50)).toFixed(2)}× at p50, ${(percentile(relayed, 95) / percentile(direct, 95)).toFixed(2)}× at p95 (the floor of a Node proxy)`);
  out(`                                  proxy without egress counting ${ms(uncountedTimes, 2)}   counting costs ${((percentile(proxied, 50) / percentile(uncountedTimes, 50) - 1) * 100).toFixed(1)} % at p50, ${((percentile(proxied, 95) / percentile(uncountedTimes, 95) - 1) * 100).toFixed(1)} % at p95 (goal <= 5 %)`);
} finally {
  await app.close();
  await opened.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
