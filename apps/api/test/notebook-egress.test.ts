import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { auditLog } from '../src/db/schema';
import { notebookRepository } from '../src/notebooks/notebook-repository';
import type { LocalNotebookDriver } from '../src/notebooks/runtime/local-driver';
import type { NotebookRuntimeSpec } from '../src/notebooks/runtime/runtime-driver';
import { KernelConnection } from './support/jupyter-kernel';
import { notebookOrigin, openedCookie, resolveLocalhostSubdomains } from './support/notebook-hosts';
import { unmountNotebookHomes } from './support/notebook-mounts';
import { ADMIN_EMAIL, startTestApp, type TestApp } from './support/test-app';

/**
 * Safe outputs at the notebook proxy, attacked as a workbench member would: every route by which
 * Jupyter hands a file to the browser is refused (for the released data and for a file the member
 * wrote) and audited; what the notebook page needs still works (the file list, notebooks, uploads,
 * a plot); and what reaches the browser is counted, with an alert past the soft limit and a stop
 * and hold past the hard one (limits set low here).
 */
const SOFT_MB = 0.25;
const HARD_MB = 1;
let dataDir: string;
let testApp: TestApp;
let origin: string;
let driver: LocalNotebookDriver;
let researcher: { user: { id: string; email: string }; token: string };
let adminToken: string;
let cookie: string;

const spec: NotebookRuntimeSpec = {
  notebookId: randomUUID(),
  workbenchId: '',
  environment: 'python3-datascience',
  limits: { cpuLimit: 1, memoryLimitMb: 768, maxProcesses: 96 },
};
const base = () => `/jupyter/${spec.notebookId}/`;
/** The notebook's own origin. */
const home = () => notebookOrigin(origin, spec.notebookId);
const RELEASED = 'released/cohorts/demo-v1/person.csv.gz';

function proxied(method: string, rest: string, options: { body?: string; accept?: string; contentType?: string } = {}) {
  return fetch(`${home()}${base()}${rest}`, {
    method,
    redirect: 'manual',
    headers: {
      cookie,
      ...(options.accept && { accept: options.accept }),
      ...(options.body !== undefined && { 'content-type': options.contentType ?? 'application/json' }),
    },
    body: options.body,
  });
}

async function openThroughApi(): Promise<Response> {
  return fetch(`${origin}/api/v1/workbenches/${spec.workbenchId}/notebooks/${spec.notebookId}/open/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${researcher.token}` },
  });
}

async function newCookie(): Promise<string> {
  const opened = await openThroughApi();
  expect(opened.status, await opened.clone().text()).toBe(200);
  return openedCookie(origin, (await opened.json()) as { url: string; ticket: string });
}

async function auditEntries(eventType: 'EGRESS_REFUSED' | 'EGRESS_ALERT' | 'EGRESS_HOLD_PLACED' | 'EGRESS_HOLD_LIFTED' | 'NOTEBOOK_STOPPED') {
  return testApp.services.db.select().from(auditLog).where(eq(auditLog.eventType, eventType));
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hdp-egress-'));
  resolveLocalhostSubdomains();
  testApp = await startTestApp({ DATA_DIR: dataDir, NOTEBOOK_EGRESS_SOFT_MB_PER_HOUR: String(SOFT_MB), NOTEBOOK_EGRESS_HARD_MB_PER_DAY: String(HARD_MB) });
  adminToken = (await testApp.signIn(ADMIN_EMAIL)).id_token;
  researcher = await testApp.userWithRoles(['RESEARCHER']);
  const workbench = await testApp.request({
    method: 'POST',
    url: '/api/v1/workbenches/',
    token: researcher.token,
    payload: { name: 'Egress tests', purpose: 'To check that row-level data cannot leave through the browser.' },
  });
  expect(workbench.statusCode, workbench.body).toBe(201);
  spec.workbenchId = workbench.json().id;
  await notebookRepository.insert(testApp.services.db, {
    id: spec.notebookId,
    workbenchId: spec.workbenchId,
    ownerId: researcher.user.id,
    name: 'Egress notebook',
    environment: spec.environment,
    zone: 'australia-southeast1-a',
    machineType: 'n1-standard-4',
    status: 'RUNNING',
  });
  const released = path.join(dataDir, 'workbenches', spec.workbenchId, path.dirname(RELEASED));
  mkdirSync(released, { recursive: true });
  const rows = ['person_id,gender,year_of_birth', ...Array.from({ length: 50 }, (_v, i) => `${i + 1},F,${1950 + i}`)];
  writeFileSync(path.join(released, 'person.csv.gz'), gzipSync(rows.join('\n') + '\n'), { mode: 0o600 });
  driver = testApp.services.notebooks.driver as LocalNotebookDriver;
  await driver.create(spec);
  await testApp.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(testApp.app.server.address() as { port: number }).port}`;
  cookie = await newCookie();
}, 90_000);

afterAll(async () => {
  await driver?.delete(spec).catch(() => undefined);
  // A kernel WebSocket or a proxied stream a test left open would hold the close for Fastify's
  // keep-alive time (72 s): the notebook is gone, so its connections are ended first.
  testApp?.app.server.closeAllConnections();
  await testApp?.close();
  unmountNotebookHomes(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
}, 180_000);

describe('what the notebook page needs still works', () => {
  it('uploads a file the researcher wrote, saves a notebook, lists folders, loads the notebook', async () => {
    const csv = 'region,count\nnorth,4\nsouth,17\n';
    const upload = await proxied('PUT', 'api/contents/results.csv', {
      body: JSON.stringify({ type: 'file', format: 'text', content: csv }),
    });
    expect(upload.status, await upload.clone().text()).toBe(201);
    const notebook = { cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 };
    expect((await proxied('PUT', 'api/contents/analysis.ipynb', { body: JSON.stringify({ type: 'notebook', format: 'json', content: notebook }) })).status).toBe(201);

    expect((await proxied('GET', 'tree')).status).toBe(200);
    const listing = await proxied('GET', 'api/contents?type=directory');
    expect(listing.status).toBe(200);
    const names = ((await listing.json()) as { content: { name: string; content: unknown }[] }).content;
    expect(names.map((entry) => entry.name)).toEqual(expect.arrayContaining(['results.csv', 'analysis.ipynb', 'released']));
    expect(names.every((entry) => entry.content === null)).toBe(true);
    const released = await proxied('GET', `api/contents/${path.dirname(RELEASED)}?type=directory`);
    expect(released.status).toBe(200);

    const metadata = await proxied('GET', 'api/contents/results.csv?content=0');
    expect(metadata.status).toBe(200);
    expect(((await metadata.json()) as { content: unknown }).content).toBeNull();
    const loaded = await proxied('GET', 'api/contents/analysis.ipynb?type=notebook');
    expect(loaded.status).toBe(200);
    expect(((await loaded.json()) as { content: { nbformat: number } }).content.nbformat).toBe(4);
    expect((await proxied('GET', 'notebooks/analysis.ipynb')).status).toBe(200);
  });

  it('renders a plot in an output cell (an image/png display over the kernel WebSocket)', async () => {
    const started = await proxied('POST', 'api/kernels', { body: '{"name":"python3"}' });
    const { id } = (await started.json()) as { id: string };
    const kernel = await KernelConnection.open(`${home().replace('http', 'ws')}${base()}api/kernels/${id}/channels`, { cookie });
    try {
      const cell = await kernel.execute(
        "import matplotlib\nmatplotlib.use('module://matplotlib_inline.backend_inline')\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [4, 1, 7])\nplt.show()",
        30_000,
      );
      expect(cell.error).toBeUndefined();
      expect(cell.mimeTypes).toContain('image/png');
    } finally {
      await kernel.close();
    }
  }, 40_000);
});

describe('every route that hands a file to the browser is refused and audited', () => {
  const RESULTS = 'results.csv';
  const refused: [string, string, string?][] = [
    ['GET', `files/${RELEASED}?download=1`],
    ['GET', `files/${RELEASED}`],
    ['HEAD', `files/${RELEASED}`],
    ['GET', `files/${RESULTS}?download=1`],
    ['GET', `files/${RESULTS}`],
    ['GET', 'files/analysis.ipynb?download=1'],
    ['GET', `view/${RESULTS}`],
    ['GET', `view/${RELEASED}`],
    ['GET', `edit/${RESULTS}`],
    ['GET', 'nbconvert/html/analysis.ipynb?download=true'],
    ['GET', 'nbconvert/script/analysis.ipynb'],
    ['POST', 'nbconvert/html', JSON.stringify({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 })],
    ['GET', 'bundle/analysis.ipynb?bundler=zip'],
    ['GET', `api/contents/${RESULTS}`],
    ['GET', `api/contents/${RESULTS}?content=1`],
    ['GET', `api/contents/${RESULTS}?type=file&format=text`],
    ['GET', `api/contents/${RELEASED}?content=1`],
    ['GET', `api/contents/${RELEASED}?type=file&format=base64`],
    ['GET', `api/contents/${encodeURIComponent(RELEASED)}?format=base64&content=1`],
    ['GET', 'api/contents/analysis.ipynb?type=file&format=text'],
    ['GET', 'api/contents/analysis.ipynb?type=notebook&type=file'],
    ['GET', `api/contents/${RESULTS}?content=0&content=1`],
    ['GET', `api/contents/released?type=directory&format=text`],
  ];

  it.each(refused)('%s %s', async (method, rest, body) => {
    const before = (await auditEntries('EGRESS_REFUSED')).length;
    const answer = await proxied(method, rest, { body, accept: 'application/json' });
    expect(answer.status).toBe(403);
    if (method !== 'HEAD') {
      const { detail } = (await answer.json()) as { detail: string };
      expect(detail).toMatch(/stays in the workbench/);
      expect(detail).toMatch(/release request/);
      expect(detail).not.toContain('person_id');
    }
    await expect.poll(async () => (await auditEntries('EGRESS_REFUSED')).length).toBe(before + 1);
    const entry = (await auditEntries('EGRESS_REFUSED')).at(-1)!;
    expect(entry).toMatchObject({ outcome: 'DENIED', actorId: researcher.user.id, resourceId: spec.notebookId });
    expect((entry.details as { path: string }).path).toBe(rest.split('?')[0]);
    expect(JSON.stringify(entry)).not.toMatch(/person_id|north,4/);
  });

  it("answers Jupyter's Download (a navigation) with a page that says how to request a release", async () => {
    const page = await proxied('GET', `files/${RELEASED}?download=1`, { accept: 'text/html,application/xhtml+xml' });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-disposition')).toBeNull();
    const html = await page.text();
    expect(html).toContain('This file stays in the workbench');
    expect(html).toContain("Outputs tab");
  });

  it('does not offer what it does not know, disguised routes and dot segments included', async () => {
    for (const rest of ['fil%65s/results.csv', 'FILES/results.csv', 'api/shutdown', 'api/notebooks/analysis.ipynb', 'metrics', 'api/contents/..%2F..%2Fetc%2Fpasswd', '/files/results.csv']) {
      const answer = await proxied('GET', rest);
      expect(answer.status, rest).toBe(404);
    }
  });

  it('keeps terminals off by default, over HTTP and WebSocket', async () => {
    const created = await proxied('POST', 'api/terminals', { body: '{}' });
    expect(created.status).toBe(403);
    expect(((await created.json()) as { detail: string }).detail).toMatch(/Terminals are turned off/);
    expect((await proxied('GET', 'terminals/1', { accept: 'text/html' })).status).toBe(403);
    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`${home().replace('http', 'ws')}${base()}terminals/websocket/1`, { headers: { cookie } });
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => resolve(101));
      socket.once('error', () => resolve(0));
    });
    expect(status).toBe(403);
  });
});

describe('counting what reaches the browser', () => {
  it('alerts past the soft limit, then stops the notebook and holds the user past the hard limit until an administrator lifts it', async () => {
    const started = await proxied('POST', 'api/kernels', { body: '{"name":"python3"}' });
    const { id } = (await started.json()) as { id: string };
    const kernel = await KernelConnection.open(`${home().replace('http', 'ws')}${base()}api/kernels/${id}/channels`, { cookie });
    // Printing a table to the screen: each chunk reaches the browser as a WebSocket message.
    const chunk = 'x'.repeat(100_000);
    await kernel.execute(`for _ in range(4): print(${JSON.stringify(chunk)})`).catch(() => undefined);
    await expect.poll(async () => (await auditEntries('EGRESS_ALERT')).length, { timeout: 5000 }).toBe(1);
    const alert = (await auditEntries('EGRESS_ALERT'))[0]!;
    expect(alert.details).toMatchObject({ notebook_id: spec.notebookId, workbench_id: spec.workbenchId });
    expect((alert.details as { notified: string[] }).notified.sort()).toEqual([ADMIN_EMAIL, researcher.user.email].sort());
    await expect.poll(() => readdirSync(path.join(dataDir, 'outbox')).filter((f) => f.endsWith('.eml')).length, { timeout: 5000 }).toBe(2);
    const mail = readdirSync(path.join(dataDir, 'outbox')).map((f) => readFileSync(path.join(dataDir, 'outbox', f), 'utf8')).join('\n');
    expect(mail).toContain('Notebook data alert');
    expect(kernel.closedWith).toBeUndefined();

    // Past the day's hard limit: the notebook stops, the open WebSocket closes, the user is held.
    await kernel.execute(`for _ in range(8): print(${JSON.stringify(chunk)})`).catch(() => undefined);
    await expect.poll(async () => (await auditEntries('EGRESS_HOLD_PLACED')).length, { timeout: 5000 }).toBe(1);
    await expect.poll(() => kernel.closedWith?.code, { timeout: 5000 }).toBe(1008);
    const stops = await auditEntries('NOTEBOOK_STOPPED');
    expect(stops.map((e) => (e.details as { reason: string }).reason)).toContain('egress-limit');
    expect((await proxied('GET', 'api/status')).status).toBe(401);
    await expect.poll(async () => (await notebookRepository.findById(testApp.services.db, spec.notebookId))?.status, { timeout: 20_000 }).toBe('STOPPED');
    const start = await testApp.request({ method: 'POST', url: `/api/v1/workbenches/${spec.workbenchId}/notebooks/${spec.notebookId}/start/`, token: researcher.token });
    expect(start.statusCode).toBe(403);
    expect(start.json().detail).toMatch(/on hold/);

    // Only an administrator sees and lifts holds.
    expect((await testApp.request({ method: 'GET', url: '/api/v1/notebook-holds/', token: researcher.token })).statusCode).toBe(403);
    const holds = await testApp.request({ method: 'GET', url: '/api/v1/notebook-holds/', token: adminToken });
    expect(holds.statusCode).toBe(200);
    const [hold] = holds.json().holds as { id: string; user: { id: string }; bytes: number; limit_bytes: number }[];
    expect(hold).toMatchObject({ user: { id: researcher.user.id }, limit_bytes: HARD_MB * 1024 * 1024 });
    expect(hold!.bytes).toBeGreaterThan(HARD_MB * 1024 * 1024);
    expect((await testApp.request({ method: 'POST', url: `/api/v1/notebook-holds/${hold!.id}/lift/`, token: researcher.token })).statusCode).toBe(403);
    const lifted = await testApp.request({ method: 'POST', url: `/api/v1/notebook-holds/${hold!.id}/lift/`, token: adminToken });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json().lifted_at).not.toBeNull();
    expect((await testApp.request({ method: 'POST', url: `/api/v1/notebook-holds/${hold!.id}/lift/`, token: adminToken })).statusCode).toBe(409);
    expect(await auditEntries('EGRESS_HOLD_LIFTED')).toHaveLength(1);
    const again = await testApp.request({ method: 'POST', url: `/api/v1/workbenches/${spec.workbenchId}/notebooks/${spec.notebookId}/start/`, token: researcher.token });
    expect(again.statusCode, again.body).toBe(202);
  }, 60_000);
});
