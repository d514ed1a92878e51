import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notebook, NotebookList } from '@hdp/contract';
import { notebookLifecycleHandler } from '../src/notebooks/notebook-lifecycle-job';
import { notebookRepository } from '../src/notebooks/notebook-repository';
import { notebookBasePath } from '../src/notebooks/notebook-proxy';
import { LocalNotebookDriver } from '../src/notebooks/runtime/local-driver';
import { KernelConnection } from './support/jupyter-kernel';
import { notebookOrigin, openedCookie } from './support/notebook-hosts';
import { startTestApp, type TestApp } from './support/test-app';
import type { Account } from './support/workbench-fixtures';

/**
 * The notebook routes over HTTP, with the real local runtime behind them: one notebook is made
 * and taken through its lifecycle by its creator, and every other caller's attempt is checked
 * against it on the way.
 */
let t: TestApp;
let dataDir: string;
let origin: string;
let rita: Account; // creates the workbench (OWNER)
let wendy: Account; // WRITER member: creates the notebook
let otto: Account; // READER member
let bob: Account; // not a member
let workbenchId: string;
let notebook: Notebook;

const PURPOSE = 'To study how type 2 diabetes progresses in women over fifty, for a service review.';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const call = (account: Account, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url: `/api/v1/workbenches/${workbenchId}${url}`, token: account.token, ...(payload && { payload }) });
const rowsOf = async (query: ReturnType<typeof sql>) =>
  ((await t.services.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

/** The notebook once it has left a transitional status. */
async function settled(id: string): Promise<Notebook> {
  for (let i = 0; i < 600; i++) {
    const list = (await call(wendy, 'GET', '/notebooks/')).json() as NotebookList;
    const found = list.notebooks.find((n) => n.id === id);
    if (!found) throw new Error('the notebook is gone');
    if (!['PROVISIONING', 'STARTING', 'STOPPING', 'DELETING'].includes(found.status)) return found;
    await sleep(50);
  }
  throw new Error('the notebook did not settle');
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-notebooks-routes-'));
  t = await startTestApp({ DATA_DIR: dataDir });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  [rita, wendy, otto, bob] = await Promise.all([
    t.userWithRoles(['RESEARCHER'], 'rita@example.org'),
    t.userWithRoles(['RESEARCHER'], 'wendy@example.org'),
    t.userWithRoles(['RESEARCHER'], 'otto@example.org'),
    t.userWithRoles(['RESEARCHER'], 'bob@example.org'),
  ]);
  const created = await t.request({
    method: 'POST',
    url: '/api/v1/workbenches/',
    token: rita.token,
    payload: { name: 'Notebook workbench', purpose: PURPOSE, users: [{ id: wendy.user.id, role: 'WRITER' }, { id: otto.user.id, role: 'READER' }] },
  });
  expect(created.statusCode, created.body).toBe(201);
  workbenchId = created.json().id;
}, 60_000);

afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('creating a notebook', () => {
  it.each([
    [{ name: 'x', environment: 'cobol' }, 400, /^body\.environment: there is no environment "cobol"/],
    [{ name: 'x', environment: 'python3-datascience', zone: 'mars-1a' }, 400, /^body\.zone: /],
    [{ name: 'x', environment: 'python3-datascience', machine_type: 'n9-huge' }, 400, /^body\.machine_type: /],
    [{ name: '', environment: 'python3-datascience' }, 400, /^body\.name: /],
    [{ name: 'x', environment: 'python3-datascience', accelerator_type: 'nvidia-tesla-t4' }, 400, /^body\.accelerator_count: /],
    [{ name: 'x', environment: 'python3-datascience', accelerator_type: 'nvidia-tesla-t4', accelerator_count: 5 }, 400, /^body\.accelerator_count: at most 4/],
    [{ name: 'x', environment: 'python3-datascience', accelerator_type: 'nvidia-tesla-t4', accelerator_count: 1 }, 422, /^accelerator: .*cannot provide 1 × nvidia-tesla-t4/],
  ])('refuses %j with %i and a detail naming the field', async (body, status, detail) => {
    const response = await call(wendy, 'POST', '/notebooks/', body);
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json().detail).toMatch(detail);
  });

  it('is refused to a READER (403) and to a non-member (404)', async () => {
    const body = { name: 'Mine', environment: 'python3-datascience' };
    const reader = await call(otto, 'POST', '/notebooks/', body);
    expect(reader.statusCode).toBe(403);
    expect(reader.json().detail).toMatch(/READERs/);
    expect((await call(bob, 'POST', '/notebooks/', body)).statusCode).toBe(404);
    expect((await call(bob, 'GET', '/notebooks/')).statusCode).toBe(404);
  });

  it('answers 202 PROVISIONING with the catalogue defaults, then the notebook runs', async () => {
    const response = await call(wendy, 'POST', '/notebooks/', { name: 'Diabetes analysis', environment: 'python3-datascience' });
    expect(response.statusCode, response.body).toBe(202);
    notebook = response.json();
    expect(notebook).toMatchObject({
      status: 'PROVISIONING',
      zone: 'australia-southeast1-a',
      machine_type: 'n1-standard-4',
      accelerator_type: null,
      accelerator_count: 0,
      owner: { id: wendy.user.id },
    });
    notebook = await settled(notebook.id);
    expect(notebook.status).toBe('RUNNING');
    expect(notebook.abilities).toEqual({ open: true, start: false, stop: true, delete: true });
  });

  it('lists with search, paging and order, and tells each caller what they may do', async () => {
    const list = (await call(rita, 'GET', '/notebooks/?search=diabetes&order_by=name&limit=5')).json() as NotebookList;
    expect(list).toMatchObject({ total: 1, runtime_available: true, runtime_detail: null });
    // An OWNER of the workbench may stop or delete it, not open it.
    expect(list.notebooks[0]!.abilities).toEqual({ open: false, start: false, stop: true, delete: true });
    expect((await call(otto, 'GET', '/notebooks/?search=nothing-like-this')).json().total).toBe(0);
    expect((await call(otto, 'GET', '/notebooks/?order_by=sideways')).statusCode).toBe(400);
  });
});

describe('opening a notebook', () => {
  it('gives its creator a single-use URL through which a cell runs, and audits it', async () => {
    const opened = await call(wendy, 'POST', `/notebooks/${notebook.id}/open/`);
    expect(opened.statusCode, opened.body).toBe(200);
    const { url, ticket } = opened.json() as { url: string; ticket: string };
    expect(url).toBe(`http://${notebook.id}.notebooks.localhost/jupyter/${notebook.id}/_open`);
    const cookie = await openedCookie(origin, { url, ticket });
    const base = `${notebookOrigin(origin, notebook.id)}/jupyter/${notebook.id}/`;
    const kernel = await fetch(`${base}api/kernels`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{"name":"python3"}' });
    expect(kernel.status).toBe(201);
    const connection = await KernelConnection.open(`${base.replace('http', 'ws')}api/kernels/${((await kernel.json()) as { id: string }).id}/channels`, { cookie });
    expect((await connection.execute('1 + 1')).result).toBe('2');
    await connection.close();
    const audit = await rowsOf(sql`select actor_email from audit_log where event_type = 'NOTEBOOK_OPENED' and resource_id = ${notebook.id}`);
    expect(audit).toEqual([{ actor_email: 'wendy@example.org' }]);
  });

  it('hands no file of the home to the browser, nor anything a link in the home points to outside it', async () => {
    const opened = (await call(wendy, 'POST', `/notebooks/${notebook.id}/open/`)).json() as { url: string; ticket: string };
    const cookie = await openedCookie(origin, opened);
    const base = `${notebookOrigin(origin, notebook.id)}/jupyter/${notebook.id}/files/`;
    const home = path.join(t.config.workbenches.dir, workbenchId, 'notebooks', notebook.id, 'home');
    const secret = path.join(dataDir, 'host-secret.csv');
    fs.writeFileSync(secret, 'id\nTOP SECRET HOST FILE\n');
    fs.mkdirSync(path.join(home, 'results'), { recursive: true });
    const table = 'age_band,persons\n40-49,123\n'.repeat(2000);
    fs.writeFileSync(path.join(home, 'results', 'summary by band.csv'), table);
    fs.symlinkSync(secret, path.join(home, 'leak.csv'));
    fs.symlinkSync(dataDir, path.join(home, 'outside'));
    for (const made of ['results', 'results/summary by band.csv']) fs.chownSync(path.join(home, made), 65534, 65534);

    // Files leave only through a release request (docs/outputs.md): the proxy refuses them.
    for (const asked of ['results/summary%20by%20band.csv', 'results/summary%20by%20band.csv?download=1']) {
      const answer = await fetch(`${base}${asked}`, { headers: { cookie } });
      expect(answer.status, asked).toBe(403);
      expect(await answer.text()).not.toContain('40-49');
    }
    // Without the notebook's session: refused, as for every other path.
    expect((await fetch(`${base}results/summary%20by%20band.csv`)).status).toBe(401);
    // A link to a host file, a linked folder, an escape by `..`: never the host file's content.
    for (const escape of ['leak.csv', 'outside/host-secret.csv', '..%2F..%2F..%2F..%2F..%2F..%2Fhost-secret.csv', 'results/..%2F..%2F..%2F..%2F..%2F..%2Fhost-secret.csv']) {
      const answer = await fetch(`${base}${escape}`, { headers: { cookie } });
      expect(await answer.text(), escape).not.toContain('TOP SECRET');
      expect(answer.status, escape).not.toBe(200);
    }
  });

  it('is refused to another member (403, audited) and to a non-member (404)', async () => {
    const owner = await call(rita, 'POST', `/notebooks/${notebook.id}/open/`);
    expect(owner.statusCode).toBe(403);
    expect(owner.json().detail).toBe('Only the creator of this notebook may open it.');
    expect((await call(bob, 'POST', `/notebooks/${notebook.id}/open/`)).statusCode).toBe(404);
    const denied = await rowsOf(sql`select actor_email from audit_log where event_type = 'ACCESS_DENIED' and resource_id = ${notebook.id}`);
    expect(denied).toEqual([{ actor_email: 'rita@example.org' }]);
  });

  it('answers 404 for a notebook of another workbench or none', async () => {
    expect((await call(wendy, 'POST', '/notebooks/00000000-0000-4000-8000-000000000000/open/')).statusCode).toBe(404);
  });
});

describe('stopping, starting and deleting', () => {
  it('refuses a stop to a READER who did not create it (403) and to a non-member (404)', async () => {
    expect((await call(otto, 'POST', `/notebooks/${notebook.id}/stop/`)).statusCode).toBe(403);
    expect((await call(bob, 'POST', `/notebooks/${notebook.id}/stop/`)).statusCode).toBe(404);
  });

  it('lets a workbench OWNER stop it (202 STOPPING, then STOPPED); a second stop is a 409', async () => {
    const stopped = await call(rita, 'POST', `/notebooks/${notebook.id}/stop/`);
    expect(stopped.statusCode, stopped.body).toBe(202);
    expect(stopped.json().status).toBe('STOPPING');
    expect((await settled(notebook.id)).status).toBe('STOPPED');
    const again = await call(wendy, 'POST', `/notebooks/${notebook.id}/stop/`);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('The notebook "Diabetes analysis" is STOPPED; it can be stopped only when it is RUNNING.');
    expect((await call(wendy, 'POST', `/notebooks/${notebook.id}/open/`)).statusCode).toBe(409);
  });

  it('lets only its creator start it again', async () => {
    expect((await call(rita, 'POST', `/notebooks/${notebook.id}/start/`)).statusCode).toBe(403);
    const started = await call(wendy, 'POST', `/notebooks/${notebook.id}/start/`);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json().status).toBe('STARTING');
    expect((await settled(notebook.id)).status).toBe('RUNNING');
  });

  it('keeps a workbench with a running notebook from being deleted', async () => {
    const response = await t.request({ method: 'DELETE', url: `/api/v1/workbenches/${workbenchId}/`, token: rita.token });
    expect(response.statusCode).toBe(409);
  });

  it('deletes it with its files (202 DELETING, then gone), audited at every step', async () => {
    const home = path.join(dataDir, 'workbenches', workbenchId, 'notebooks', notebook.id);
    expect(fs.existsSync(home)).toBe(true);
    const deleted = await call(wendy, 'DELETE', `/notebooks/${notebook.id}/`);
    expect(deleted.statusCode, deleted.body).toBe(202);
    expect(deleted.json().status).toBe('DELETING');
    await expect.poll(async () => (await call(wendy, 'GET', '/notebooks/')).json().total, { timeout: 10_000 }).toBe(0);
    expect(fs.existsSync(home)).toBe(false);
    const events = await rowsOf(sql`select event_type, message from audit_log where resource_type = 'notebook' and resource_id = ${notebook.id} and outcome = 'SUCCESS' order by seq`);
    expect(events.map((e) => e.event_type)).toEqual([
      'NOTEBOOK_CREATED',
      'NOTEBOOK_OPENED',
      'NOTEBOOK_SESSION_STARTED',
      'NOTEBOOK_OPENED',
      'NOTEBOOK_SESSION_STARTED',
      'NOTEBOOK_STOPPED',
      'NOTEBOOK_STARTED',
      'NOTEBOOK_DELETED',
    ]);
    // Every notebook event names its workbench, so a search for the workbench finds who worked on its data.
    for (const event of events) expect(event.message).toContain('in workbench "Notebook workbench" (');
  });
});

describe('on a host without Jupyter', () => {
  it('lists with what to install, and answers a create with 503 and that detail', async () => {
    const installed = t.services.notebooks.driver;
    t.services.notebooks.driver = new LocalNotebookDriver({
      workbenchesDir: t.config.workbenches.dir,
      basePath: notebookBasePath,
      hostCheck: { missingBase: ['jupyter-notebook', 'bubblewrap'], missingByEnvironment: { 'python3-datascience': ['python3-pandas'] }, isRoot: true },
    });
    try {
      const list = (await call(wendy, 'GET', '/notebooks/')).json() as NotebookList;
      expect(list.runtime_available).toBe(false);
      expect(list.runtime_detail).toMatch(/apt-get install -y jupyter-notebook bubblewrap python3-pandas/);
      const created = await call(wendy, 'POST', '/notebooks/', { name: 'Not here', environment: 'python3-datascience' });
      expect(created.statusCode).toBe(503);
      expect(created.json().detail).toBe(list.runtime_detail);
      expect((await call(wendy, 'GET', '/notebooks/?search=Not%20here')).json().total).toBe(0);
    } finally {
      t.services.notebooks.driver = installed;
    }
  });
});

describe('after a restart', () => {
  it('leaves no notebook between states: running ones become STOPPED with the reason, DELETING ones are finished', async () => {
    const make = (name: string, status: 'RUNNING' | 'STARTING' | 'DELETING') =>
      notebookRepository.insert(t.services.db, {
        workbenchId,
        ownerId: wendy.user.id,
        name,
        environment: 'python3-datascience',
        zone: 'australia-southeast1-a',
        machineType: 'n1-standard-4',
        status,
      });
    // What a process killed with -9 leaves behind: statuses that no server backs any more.
    const running = await make('Was running', 'RUNNING');
    const starting = await make('Was starting', 'STARTING');
    const deleting = await make('Was deleting', 'DELETING');
    fs.mkdirSync(path.join(dataDir, 'workbenches', workbenchId, 'notebooks', running.id, 'home'), { recursive: true });
    const handler = notebookLifecycleHandler({ notebooks: t.services.notebooks, catalogue: t.services.computeCatalogue, config: t.config, logger: t.services.logger });
    await handler.recover!(t.services.db, { singleOwner: true });
    expect(await notebookRepository.findById(t.services.db, running.id)).toMatchObject({ status: 'STOPPED', statusReason: expect.stringMatching(/restarted/) });
    expect(await notebookRepository.findById(t.services.db, starting.id)).toMatchObject({ status: 'FAILED' });
    expect(await notebookRepository.findById(t.services.db, deleting.id)).toBeUndefined();
  });
});
