import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { IdleMonitor } from '../src/notebooks/idle-monitor';
import { notebookRepository } from '../src/notebooks/notebook-repository';
import { NOTEBOOK_COOKIE } from '../src/notebooks/notebook-proxy';
import { LocalNotebookDriver } from '../src/notebooks/runtime/local-driver';
import { NOTEBOOK_UID_BASE } from '../src/notebooks/runtime/notebook-identity';
import { RuntimeRequestError, type NotebookRuntimeSpec } from '../src/notebooks/runtime/runtime-driver';
import { KernelConnection } from './support/jupyter-kernel';
import { notebookOrigin, redeemOpen, resolveLocalhostSubdomains } from './support/notebook-hosts';
import { ADMIN_EMAIL, startTestApp, type TestApp } from './support/test-app';

/**
 * The local notebook runtime for real: Debian's Jupyter in bubblewrap, reached through the
 * platform's proxy over HTTP and the kernel WebSocket. One notebook is shared by the assertions
 * that need a running server, in order, to keep the suite's time down.
 */
const COHORT_PERSONS = 137;
const SECRET = 'the-api-environment-must-not-leak';

let dataDir: string;
let testApp: TestApp;
let origin: string;
let driver: LocalNotebookDriver;
let cookie: string;
let kernelId: string;

const spec: NotebookRuntimeSpec = {
  notebookId: '0b6a3f5e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  // The workbench made in beforeAll.
  workbenchId: '',
  environment: 'python3-datascience',
  limits: { cpuLimit: 1, memoryLimitMb: 768, maxProcesses: 96 },
};
const base = `/jupyter/${spec.notebookId}/`;

async function proxied(method: string, apiPath: string, options: { body?: unknown; cookie?: string } = {}) {
  return fetch(`${nb(spec.notebookId)}${base}${apiPath}`, {
    method,
    headers: {
      ...(options.cookie !== undefined ? { cookie: options.cookie } : { cookie }),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

/** The notebook's own origin on this test's API. */
const nb = (notebookId: string) => notebookOrigin(origin, notebookId);
/** The open URL of a notebook, as the open call names it. */
const openUrl = (notebookId: string) => `${nb(notebookId)}/jupyter/${notebookId}/_open`;

async function openKernel(): Promise<KernelConnection> {
  return KernelConnection.open(`${nb(spec.notebookId).replace('http', 'ws')}${base}api/kernels/${kernelId}/channels`, { cookie });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hdp-notebooks-test-'));
  process.env.HDP_TEST_SECRET = SECRET;
  resolveLocalhostSubdomains();
  testApp = await startTestApp({ DATA_DIR: dataDir });
  // The proxy lets through only the creator of a RUNNING notebook of a workbench they belong to.
  const workbench = await testApp.request({
    method: 'POST',
    url: '/api/v1/workbenches/',
    token: (await testApp.signIn(ADMIN_EMAIL)).id_token,
    payload: { name: 'Runtime tests', purpose: 'To check that the notebook runtime keeps released data safe inside its sandbox.' },
  });
  expect(workbench.statusCode, workbench.body).toBe(201);
  spec.workbenchId = workbench.json().id;
  await notebookRepository.insert(testApp.services.db, {
    id: spec.notebookId,
    workbenchId: spec.workbenchId,
    ownerId: testApp.admin.id,
    name: 'Runtime test notebook',
    environment: spec.environment,
    zone: 'australia-southeast1-a',
    machineType: 'n1-standard-4',
    status: 'RUNNING',
  });
  const released = path.join(dataDir, 'workbenches', spec.workbenchId, 'released', 'cohorts', 'demo-v1');
  mkdirSync(released, { recursive: true });
  const rows = ['person_id,gender,year_of_birth', ...Array.from({ length: COHORT_PERSONS }, (_v, i) => `${i + 1},F,${1950 + (i % 50)}`)];
  writeFileSync(path.join(released, 'person.csv.gz'), gzipSync(rows.join('\n') + '\n'), { mode: 0o600 });
  const other = path.join(dataDir, 'workbenches', 'other-workbench', 'released');
  mkdirSync(other, { recursive: true });
  writeFileSync(path.join(other, 'secret.csv'), 'person_id\n1\n');
  await testApp.app.listen({ host: '127.0.0.1', port: 0 });
  const address = testApp.app.server.address() as { port: number };
  origin = `http://127.0.0.1:${address.port}`;
  driver = testApp.services.notebooks.driver as LocalNotebookDriver;
});

afterAll(async () => {
  await testApp?.close();
  delete process.env.HDP_TEST_SECRET;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the local notebook runtime', () => {
  it('reports itself available on this host, with how each limit is enforced', () => {
    const availability = driver.availability();
    expect(availability.available).toBe(true);
    expect(availability.environments['python3-datascience']).toEqual({ available: true });
    expect(availability.enforcement.memory).toMatch(/cgroup|RLIMIT/);
  });

  it('refuses an accelerator this host cannot provide, and an unknown environment', async () => {
    const ref = { notebookId: 'f0000000-0000-4000-8000-000000000001', workbenchId: spec.workbenchId };
    await expect(driver.create({ ...spec, ...ref, accelerator: { type: 'nvidia-tesla-t4', count: 1 } })).rejects.toThrow(
      /cannot provide 1 × nvidia-tesla-t4: its host has no GPU/,
    );
    await expect(driver.create({ ...spec, ...ref, environment: 'cobol' })).rejects.toBeInstanceOf(RuntimeRequestError);
  });

  it('creates a notebook whose server answers', async () => {
    await driver.create(spec);
    expect(await driver.status(spec)).toEqual({ state: 'RUNNING' });
    const activity = await driver.activity(spec.notebookId);
    expect(activity?.connections).toBe(0);
  });
});

describe('the proxy and the open flow', () => {
  it('answers 401 without a session, then opens with a single-use ticket that sets a scoped cookie', async () => {
    expect((await proxied('GET', 'api/status', { cookie: '' })).status).toBe(401);
    expect((await proxied('GET', 'api/status', { cookie: `${NOTEBOOK_COOKIE}=forged` })).status).toBe(401);

    const ticket = testApp.services.notebooks.sessions.issueTicket({ notebookId: spec.notebookId, userId: testApp.admin.id });
    const open = await redeemOpen(origin, { url: openUrl(spec.notebookId), ticket });
    expect(open.status).toBe(200);
    const setCookie = open.headers.get('set-cookie')!;
    expect(setCookie).toContain('Path=/;');
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(await open.text()).toContain(`${base}tree`);
    cookie = setCookie.split(';')[0]!;

    const again = await redeemOpen(origin, { url: openUrl(spec.notebookId), ticket });
    expect(again.status).toBe(403);
    expect(((await again.json()) as { detail: string }).detail).toMatch(/opens only from its workbench/);
  });

  it('a ticket for one notebook does not open another', async () => {
    const ticket = testApp.services.notebooks.sessions.issueTicket({ notebookId: spec.notebookId, userId: testApp.admin.id });
    const other = await redeemOpen(origin, { url: openUrl('f0000000-0000-4000-8000-000000000002'), ticket });
    expect(other.status).toBe(403);
  });

  it('serves the Jupyter page and API through the proxy, without the token reaching the browser', async () => {
    const tree = await proxied('GET', 'tree');
    expect(tree.status).toBe(200);
    const html = await tree.text();
    expect(html).toContain('Jupyter');
    const token = driver.upstream(spec.notebookId)!.token;
    expect(html).not.toContain(token);
    expect(JSON.stringify([...tree.headers])).not.toContain(token);

    const kernels = await proxied('POST', 'api/kernels', { body: { name: 'python3' } });
    expect(kernels.status).toBe(201);
    kernelId = ((await kernels.json()) as { id: string }).id;
  });

  it('passes a body larger than the API\'s body limit up, and streams a file down whole and unchanged', async () => {
    const source = 'x'.repeat(testApp.config.bodyLimitBytes);
    const content = { cells: [{ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source }], metadata: {}, nbformat: 4, nbformat_minor: 5 };
    const saved = await proxied('PUT', 'api/contents/large.ipynb', { body: { type: 'notebook', format: 'json', content } });
    expect(saved.status, await saved.clone().text()).toBe(201);
    // As the notebook page loads it (files of the home are not served to the browser: docs/outputs.md).
    const file = await proxied('GET', 'api/contents/large.ipynb?type=notebook');
    expect(file.status).toBe(200);
    const text = await file.text();
    // Not HTML: sent as Jupyter sent it, with its length, and without the hop-by-hop headers of the upstream connection.
    expect(Number(file.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    const cell = (JSON.parse(text) as { content: { cells: { source: string | string[] }[] } }).content.cells[0]!;
    expect([cell.source].flat().join('')).toBe(source);
    expect(file.headers.get('transfer-encoding')).toBeNull();
  });

  it('runs 1 + 1 over the kernel WebSocket and gets 2', async () => {
    const kernel = await openKernel();
    try {
      expect((await kernel.execute('1 + 1')).result).toBe('2');
    } finally {
      await kernel.close();
    }
  });

  it('refuses the kernel WebSocket without the session, or from a page of another origin', async () => {
    const url = `${nb(spec.notebookId).replace('http', 'ws')}${base}api/kernels/${kernelId}/channels`;
    await expect(KernelConnection.open(url)).rejects.toThrow(/401/);
    await expect(KernelConnection.open(url, { cookie, origin: 'https://evil.example' })).rejects.toThrow(/403/);
  });
});

describe('inside the sandbox', () => {
  let kernel: KernelConnection;
  beforeAll(async () => {
    kernel = await openKernel();
  });
  afterAll(async () => {
    await kernel.close();
  });

  it("reads the workbench's released cohort file with pandas", async () => {
    const cell = await kernel.execute("import pandas as pd\nlen(pd.read_csv('released/cohorts/demo-v1/person.csv.gz'))");
    expect(cell.error).toBeUndefined();
    expect(cell.result).toBe(String(COHORT_PERSONS));
  });

  it('runs as the unprivileged user, with no network, no DATA_DIR, no other workbench and no API secrets', async () => {
    const port = new URL(origin).port;
    const cell = await kernel.execute(`
import json, os, socket
def attempt(action):
    try:
        action()
        return 'allowed'
    except Exception as error:
        return type(error).__name__
def connect(host, port):
    socket.create_connection((host, port), timeout=2).close()
def write_released():
    open('released/new.csv', 'w').write('x')
print(json.dumps({
    'uid': os.getuid(), 'gid': os.getgid(),
    'api_port': attempt(lambda: connect('127.0.0.1', ${port})),
    'outside': attempt(lambda: connect('1.1.1.1', 53)),
    'interfaces': sorted(name for _, name in socket.if_nameindex()),
    'data_dir': attempt(lambda: os.listdir(${JSON.stringify(dataDir)})),
    'other_workbench': attempt(lambda: open(${JSON.stringify(path.join(dataDir, 'workbenches', 'other-workbench', 'released', 'secret.csv'))}).read()),
    'released_write': attempt(write_released),
    'secret_in_env': any(${JSON.stringify(SECRET)} in value for value in os.environ.values()),
    'env_names': sorted(os.environ),
}))`);
    expect(cell.error).toBeUndefined();
    const seen = JSON.parse(cell.stdout) as Record<string, unknown>;
    // The notebook's own user, not root and not a user shared with other notebooks (nobody).
    expect(seen.uid).toBeGreaterThanOrEqual(NOTEBOOK_UID_BASE);
    expect(seen.gid).toBe(seen.uid);
    expect(seen).toMatchObject({
      api_port: 'ConnectionRefusedError',
      interfaces: ['lo'],
      data_dir: 'FileNotFoundError',
      other_workbench: 'FileNotFoundError',
      released_write: 'OSError',
      secret_in_env: false,
    });
    expect(seen.outside).not.toBe('allowed');
    expect(seen.env_names).not.toContain('HDP_TEST_SECRET');
    expect(seen.env_names).not.toContain('DATA_DIR');
  });

  it("enforces the machine type's memory and process limits", async () => {
    const cell = await kernel.execute(`
import subprocess, errno
hog = subprocess.run(['python3', '-c', "b = b'x' * (1200 << 20)"])
children, refused = [], None
try:
    for _ in range(200):
        children.append(subprocess.Popen(['sleep', '30']))
except OSError as error:
    refused = errno.errorcode[error.errno]
for child in children:
    child.kill()
    child.wait()
print(hog.returncode, refused, len(children))`);
    expect(cell.error).toBeUndefined();
    const [hogExit, refused, started] = cell.stdout.trim().split(' ');
    // Killed by the OOM killer inside the notebook's memory limit (768 MB), not the kernel itself.
    expect(hogExit).toBe('-9');
    expect(refused).toBe('EAGAIN');
    expect(Number(started)).toBeLessThan(spec.limits.maxProcesses);
  });
});

describe('the R environment', () => {
  it('reads the released cohort file with the tidyverse', async () => {
    const r: NotebookRuntimeSpec = { ...spec, notebookId: 'f0000000-0000-4000-8000-000000000001', environment: 'r-tidyverse' };
    await notebookRepository.insert(testApp.services.db, {
      id: r.notebookId,
      workbenchId: r.workbenchId,
      ownerId: testApp.admin.id,
      name: 'R notebook',
      environment: r.environment,
      zone: 'australia-southeast1-a',
      machineType: 'n1-standard-4',
      status: 'RUNNING',
    });
    await driver.create(r);
    try {
      const rBase = `/jupyter/${r.notebookId}/`;
      const ticket = testApp.services.notebooks.sessions.issueTicket({ notebookId: r.notebookId, userId: testApp.admin.id });
      const rCookie = (await redeemOpen(origin, { url: openUrl(r.notebookId), ticket })).headers.get('set-cookie')!.split(';')[0]!;
      const started = await fetch(`${nb(r.notebookId)}${rBase}api/kernels`, { method: 'POST', headers: { cookie: rCookie, 'content-type': 'application/json' }, body: '{}' });
      const { id, name } = (await started.json()) as { id: string; name: string };
      expect(name).toBe('ir');
      const kernel = await KernelConnection.open(`${nb(r.notebookId).replace('http', 'ws')}${rBase}api/kernels/${id}/channels`, { cookie: rCookie });
      const cell = await kernel.execute(
        "suppressPackageStartupMessages(library(tidyverse)); nrow(read_csv('released/cohorts/demo-v1/person.csv.gz', show_col_types = FALSE))",
        40_000,
      );
      await kernel.close();
      expect(cell.error).toBeUndefined();
      expect(cell.result).toBe(`[1] ${COHORT_PERSONS}`);
    } finally {
      await driver.delete(r);
    }
  }, 60_000);
});

describe('stop, start, idle stop, reconcile and delete', () => {
  it("stops and starts again with the notebook's files kept", async () => {
    const notebook = { cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 };
    const saved = await proxied('PUT', 'api/contents/analysis.ipynb', { body: { type: 'notebook', format: 'json', content: notebook } });
    expect(saved.status).toBe(201);

    await driver.stop(spec);
    expect(await driver.status(spec)).toEqual({ state: 'STOPPED' });
    const whileStopped = await proxied('GET', 'api/contents/analysis.ipynb');
    expect(whileStopped.status).toBe(503);
    expect(((await whileStopped.json()) as { detail: string }).detail).toMatch(/not running/);
    // The home is its own volume, mounted only while the notebook runs.
    const root = path.join(dataDir, 'workbenches', spec.workbenchId, 'notebooks', spec.notebookId);
    expect(existsSync(path.join(root, 'home.img'))).toBe(true);
    expect(existsSync(path.join(root, 'home', 'analysis.ipynb'))).toBe(false);

    await driver.start(spec);
    const kept = await proxied('GET', 'api/contents/analysis.ipynb');
    expect(kept.status).toBe(200);
    expect(((await kept.json()) as { name: string }).name).toBe('analysis.ipynb');
  });

  it('stops a notebook with no open connection and no activity for the idle time, not one in use', async () => {
    const kernels = await proxied('POST', 'api/kernels', { body: { name: 'python3' } });
    kernelId = ((await kernels.json()) as { id: string }).id;
    const stopped: string[] = [];
    const monitor = new IdleMonitor({
      driver,
      activity: testApp.services.notebooks.activity,
      idleMs: 1000,
      onIdle: async (ref) => {
        stopped.push(ref.notebookId);
        await driver.stop(ref);
      },
    });
    const kernel = await openKernel();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await monitor.sweep();
    expect(stopped).toEqual([]);
    await kernel.close();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await monitor.sweep();
    expect(stopped).toEqual([spec.notebookId]);
    expect(await driver.status(spec)).toEqual({ state: 'STOPPED' });
  });

  it("stops an orphan left by a previous API process and reports it; the notebook's files stay", async () => {
    await driver.start(spec);
    const pid = JSON.parse(
      readFileSync(path.join(dataDir, 'workbenches', spec.workbenchId, 'notebooks', spec.notebookId, 'runtime', 'state.json'), 'utf8'),
    ).pid as number;
    // A driver that did not start it stands for the API after a restart.
    const restarted = new LocalNotebookDriver({ workbenchesDir: path.join(dataDir, 'workbenches'), basePath: (id) => `/jupyter/${id}/` });
    const outcomes = await restarted.reconcile();
    expect(outcomes).toEqual([expect.objectContaining({ notebookId: spec.notebookId, outcome: 'orphan-stopped' })]);
    await expect.poll(() => existsSync(`/proc/${pid}`), { timeout: 5000 }).toBe(false);
    expect(await restarted.status(spec)).toEqual({ state: 'STOPPED' });
    expect(await restarted.reconcile()).toEqual([]);
  });

  it('deletes a notebook and its files', async () => {
    await driver.delete(spec);
    expect(existsSync(path.join(dataDir, 'workbenches', spec.workbenchId, 'notebooks', spec.notebookId))).toBe(false);
    expect(existsSync(path.join(dataDir, 'workbenches', spec.workbenchId, 'released', 'cohorts', 'demo-v1', 'person.csv.gz'))).toBe(true);
  });
});

describe('WebSocket upgrades elsewhere', () => {
  it('are refused outside the notebook paths', async () => {
    const socket = new WebSocket(`${origin.replace('http', 'ws')}/api/v1/users/me/`);
    const status = await new Promise<number>((resolve) => {
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('error', () => resolve(0));
    });
    expect(status).toBe(404);
  });
});
