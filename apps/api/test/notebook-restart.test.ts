import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notebook, NotebookList } from '@hdp/contract';
import { startApiProcess, stopApiProcess } from './support/api-process';
import { notebookOrigin, openedCookie, resolveLocalhostSubdomains } from './support/notebook-hosts';
import { createPostgresDatabase } from './support/test-database';

/**
 * `kill -9` of the API with a notebook running, then a restart on the same data: the notebook's
 * server died with the API, its file is kept, and the restarted API shows it STOPPED (not stuck
 * RUNNING) and starts it again. Run once, on the PostgreSQL server: on the embedded database the
 * data-directory lock of the killed process would hold the restart back until it goes stale.
 */
const PASSWORD = 'a-long-test-password';
let dataDir: string;
let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
let api: ReturnType<typeof startApiProcess> | undefined;
let base: string;
let token: string;
let workbenchId: string;
let notebook: Notebook;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function start(): Promise<void> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  api = startApiProcess({
    PATH: process.env.PATH,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    API_PORT: String(port),
    ADMIN_PASSWORD: PASSWORD,
    DEMO_PERSONS: '0',
    LOG_LEVEL: 'warn',
  });
  await api.ready;
  base = `http://127.0.0.1:${port}`;
  const signIn = await fetch(`${base}/api/v1/auth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.org', password: PASSWORD }),
  });
  token = ((await signIn.json()) as { id_token: string }).id_token;
}

async function call(method: string, url: string, body?: unknown) {
  const response = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function settled(): Promise<Notebook> {
  for (let i = 0; i < 600; i++) {
    const list = (await call('GET', `/workbenches/${workbenchId}/notebooks/`)).json as unknown as NotebookList;
    const found = list.notebooks.find((n) => n.id === notebook.id)!;
    if (found.status === 'RUNNING' || found.status === 'STOPPED' || found.status === 'FAILED') return found;
    await sleep(50);
  }
  throw new Error('the notebook did not settle');
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hdp-notebook-restart-'));
  database = await createPostgresDatabase();
  await start();
}, 60_000);

afterAll(async () => {
  if (api) await stopApiProcess(api.child);
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 of the API with a notebook running', () => {
  it('loses no notebook file and leaves no notebook stuck after the restart', async () => {
    const workbench = await call('POST', '/workbenches/', {
      name: 'Restart test',
      purpose: 'To check that a notebook survives a crash of the API with its files intact.',
    });
    expect(workbench.status).toBe(201);
    workbenchId = workbench.json.id as string;
    const created = await call('POST', `/workbenches/${workbenchId}/notebooks/`, { name: 'Survivor', environment: 'python3-datascience' });
    expect(created.status).toBe(202);
    notebook = created.json as unknown as Notebook;
    expect((await settled()).status).toBe('RUNNING');

    const opened = await call('POST', `/workbenches/${workbenchId}/notebooks/${notebook.id}/open/`);
    resolveLocalhostSubdomains();
    const cookie = await openedCookie(base, opened.json as { url: string; ticket: string });
    const saved = await fetch(`${notebookOrigin(base, notebook.id)}/jupyter/${notebook.id}/api/contents/kept.ipynb`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'notebook', format: 'json', content: { cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 } }),
    });
    expect(saved.status).toBe(201);

    const notebookDir = path.join(dataDir, 'workbenches', workbenchId, 'notebooks', notebook.id);
    const { pid } = JSON.parse(readFileSync(path.join(notebookDir, 'runtime', 'state.json'), 'utf8')) as { pid: number };
    const exited = new Promise((resolve) => api!.child.once('exit', resolve));
    api!.child.kill('SIGKILL');
    await exited;
    // The sandbox dies with the API (--die-with-parent).
    await expect.poll(() => existsSync(`/proc/${pid}`), { timeout: 5000 }).toBe(false);

    await start();
    const after = await settled();
    expect(after.status).toBe('STOPPED');
    expect(after.status_reason).toMatch(/restarted/);
    // The home's volume is unmounted while the notebook is stopped: its files are read once it runs again.
    expect(existsSync(path.join(notebookDir, 'home.img'))).toBe(true);
    expect(existsSync(path.join(notebookDir, 'runtime', 'state.json'))).toBe(false);

    expect((await call('POST', `/workbenches/${workbenchId}/notebooks/${notebook.id}/start/`)).status).toBe(202);
    expect((await settled()).status).toBe('RUNNING');
    const reopened = await call('POST', `/workbenches/${workbenchId}/notebooks/${notebook.id}/open/`);
    const again = await openedCookie(base, reopened.json as { url: string; ticket: string });
    const kept = await fetch(`${notebookOrigin(base, notebook.id)}/jupyter/${notebook.id}/api/contents/kept.ipynb?content=0`, {
      headers: { cookie: again },
    });
    expect(kept.status).toBe(200);
    expect((await call('POST', `/workbenches/${workbenchId}/notebooks/${notebook.id}/stop/`)).status).toBe(202);
    expect((await settled()).status).toBe('STOPPED');
  }, 120_000);
});
