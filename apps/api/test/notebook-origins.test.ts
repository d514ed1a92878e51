import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema';
import { notebookRepository } from '../src/notebooks/notebook-repository';
import { notebookBaseUrl, notebookOrigins } from '../src/notebooks/notebook-origin';
import type { LocalNotebookDriver } from '../src/notebooks/runtime/local-driver';
import type { NotebookRuntimeSpec } from '../src/notebooks/runtime/runtime-driver';
import { KernelConnection } from './support/jupyter-kernel';
import { notebookBase, notebookOrigin, redeemOpen, resolveLocalhostSubdomains, TEST_WEB_ORIGIN } from './support/notebook-hosts';
import { ADMIN_EMAIL, startTestApp, type TestApp } from './support/test-app';

/**
 * One origin per notebook, and the open flow bound to the person (security review N1): each
 * notebook is served only at `<id>.notebooks.localhost`, its cookie is host-only, a ticket sets a
 * session only when the web app's page posts it, a page of another notebook can neither change
 * this one nor open its kernels, and members are not shown the ids of notebooks they cannot open.
 * Against a real Jupyter in its sandbox.
 */
let dataDir: string;
let testApp: TestApp;
let api: string;
let driver: LocalNotebookDriver;
let adminToken: string;
let owner: { user: { id: string; email: string }; token: string };
let reader: { user: { id: string; email: string }; token: string };
let writer: { user: { id: string; email: string }; token: string };
let workbenchId: string;
let readersWorkbenchId: string;
/** The owner's notebook (running), the writer's in the same workbench, and the reader's own elsewhere. */
const victim: NotebookRuntimeSpec = { notebookId: randomUUID(), workbenchId: '', environment: 'python3-datascience', limits: { cpuLimit: 1, memoryLimitMb: 768, maxProcesses: 96 } };
const writersId = randomUUID();
const attackersId = randomUUID();
let ownerCookie: string;

async function workbench(name: string, members: { id: string; role: string }[]): Promise<string> {
  const created = await testApp.request({ method: 'POST', url: '/api/v1/workbenches/', token: adminToken, payload: { name, purpose: 'To check that notebooks cannot be turned against each other.' } });
  expect(created.statusCode, created.body).toBe(201);
  const { id, version, purpose } = created.json();
  const put = await testApp.request({ method: 'PUT', url: `/api/v1/workbenches/${id}/`, token: adminToken, payload: { name, purpose, version, users: [{ id: testApp.admin.id, role: 'OWNER' }, ...members] } });
  expect(put.statusCode, put.body).toBe(200);
  return id;
}

async function notebookRow(id: string, wb: string, ownerId: string, status: 'RUNNING' | 'STOPPED') {
  await notebookRepository.insert(testApp.services.db, { id, workbenchId: wb, ownerId, name: `Notebook ${id.slice(0, 8)}`, environment: 'python3-datascience', zone: 'australia-southeast1-a', machineType: 'n1-standard-4', status });
}

const auditOf = (eventType: 'NOTEBOOK_SESSION_STARTED' | 'NOTEBOOK_OPEN_REFUSED', notebookId: string) =>
  testApp.services.db.select().from(auditLog).where(and(eq(auditLog.eventType, eventType), eq(auditLog.resourceId, notebookId)));

/** Audit entries are written just after the answer: wait for them. */
async function eventually<T>(read: () => Promise<T[]>, count: number): Promise<T[]> {
  for (let i = 0; i < 50; i += 1) {
    const rows = await read();
    if (rows.length >= count) return rows;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return read();
}

function webSocketStatus(url: string, headers: Record<string, string>): Promise<number> {
  return KernelConnection.open(url, headers).then(
    (kernel) => {
      kernel.close();
      return 101;
    },
    (error: Error) => Number(/(\d{3})/.exec(error.message)?.[1] ?? 0),
  );
}

beforeAll(async () => {
  resolveLocalhostSubdomains();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hdp-origins-'));
  // The base URL with the listener's port is set once the port is known: first listen, then build.
  testApp = await startTestApp({ DATA_DIR: dataDir, NOTEBOOK_BASE_URL: 'http://notebooks.localhost', WEB_URL: TEST_WEB_ORIGIN });
  adminToken = (await testApp.signIn(ADMIN_EMAIL)).id_token;
  owner = await testApp.userWithRoles(['RESEARCHER']);
  reader = await testApp.userWithRoles(['RESEARCHER']);
  writer = await testApp.userWithRoles(['RESEARCHER']);
  workbenchId = await workbench('Victim workbench', [
    { id: owner.user.id, role: 'OWNER' },
    { id: reader.user.id, role: 'READER' },
    { id: writer.user.id, role: 'WRITER' },
  ]);
  readersWorkbenchId = await workbench("Reader's own workbench", [{ id: reader.user.id, role: 'OWNER' }]);
  victim.workbenchId = workbenchId;
  await notebookRow(victim.notebookId, workbenchId, owner.user.id, 'RUNNING');
  await notebookRow(writersId, workbenchId, writer.user.id, 'STOPPED');
  await notebookRow(attackersId, readersWorkbenchId, reader.user.id, 'RUNNING');
  driver = testApp.services.notebooks.driver as LocalNotebookDriver;
  await driver.create(victim);
  await testApp.app.listen({ host: '127.0.0.1', port: 0 });
  api = `http://127.0.0.1:${(testApp.app.server.address() as { port: number }).port}`;
}, 90_000);

afterAll(async () => {
  for (const ref of driver?.runningNotebooks() ?? []) await driver.delete(ref).catch(() => undefined);
  await testApp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** An open call as the web app makes it, for the notebook's creator. */
async function openCall(token: string, wb: string, notebookId: string) {
  const opened = await testApp.request({ method: 'POST', url: `/api/v1/workbenches/${wb}/notebooks/${notebookId}/open/`, token });
  expect(opened.statusCode, opened.body).toBe(200);
  return opened.json() as { url: string; ticket: string; expires_at: string };
}

describe('one origin per notebook, and the open flow bound to the person', () => {
  it("the open call names the notebook's own origin; the web app's POST sets a host-only, HttpOnly, Strict cookie there, audited", async () => {
    const opened = await openCall(owner.token, workbenchId, victim.notebookId);
    expect(opened.url).toBe(`http://${victim.notebookId}.notebooks.localhost/jupyter/${victim.notebookId}/_open`);
    expect(opened.url).not.toContain(opened.ticket);
    const answer = await redeemOpen(api, opened);
    expect(answer.status).toBe(200);
    const cookie = answer.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^hdp_notebook=[\w-]{43}; /);
    expect(cookie).not.toMatch(/domain=/i);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\//);
    ownerCookie = cookie.split(';')[0]!;
    const started = await eventually(() => auditOf('NOTEBOOK_SESSION_STARTED', victim.notebookId), 1);
    expect(started.at(-1)).toMatchObject({ actorEmail: owner.user.email, outcome: 'SUCCESS' });
    // The ticket is single use.
    expect((await redeemOpen(api, opened)).status).toBe(403);
  });

  it("serves a notebook only at its own host: not on the API's origin, not at another notebook's host", async () => {
    const base = notebookBase(api, victim.notebookId);
    expect((await fetch(`${base}api/status`, { headers: { cookie: ownerCookie } })).status).toBe(200);
    // The old shared path on the API's own origin is gone.
    const shared = await fetch(`${api}/jupyter/${victim.notebookId}/api/status`, { headers: { cookie: ownerCookie } });
    expect(shared.status).toBe(404);
    expect(((await shared.json()) as { detail: string }).detail).toContain(`${victim.notebookId}.notebooks.localhost`);
    // Another notebook's host does not reach this one, even with the cookie.
    expect((await fetch(`${notebookOrigin(api, attackersId)}/jupyter/${victim.notebookId}/api/status`, { headers: { cookie: ownerCookie } })).status).toBe(404);
    // A notebook's host serves nothing of the API.
    expect((await fetch(`${notebookOrigin(api, victim.notebookId)}/api/v1/users/me/`, { headers: { authorization: `Bearer ${owner.token}` } })).status).toBe(404);
    // The kernel WebSocket likewise.
    const created = await fetch(`${base}api/kernels`, { method: 'POST', headers: { cookie: ownerCookie, 'content-type': 'application/json' }, body: '{}' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(await webSocketStatus(`${api.replace('http', 'ws')}/jupyter/${victim.notebookId}/api/kernels/${id}/channels`, { cookie: ownerCookie })).toBe(404);
  });

  it("refuses a ticket followed as a link, or posted by any page but the web app's, and spends it; audited with whose ticket it was", async () => {
    // The reader mints a ticket for their own notebook (as the attack did) and sends it on.
    const ticket = testApp.services.notebooks.sessions.issueTicket({ notebookId: attackersId, userId: reader.user.id, workbenchId: readersWorkbenchId });
    const url = `${notebookBase(api, attackersId)}_open`;
    const link = await fetch(`${url}?ticket=${ticket}`, { redirect: 'manual' });
    expect(link.status).toBe(403);
    expect(link.headers.get('set-cookie')).toBeNull();
    for (const origin of [notebookOrigin(api, attackersId), 'https://evil.example', 'null']) {
      const posted = await redeemOpen(api, { url, ticket }, { origin });
      expect(posted.status).toBe(403);
      expect(posted.headers.get('set-cookie')).toBeNull();
    }
    // Spent by the first refused post: not even the web app's page can use it now.
    const late = await redeemOpen(api, { url, ticket });
    expect(late.status).toBe(403);
    const refused = await eventually(() => auditOf('NOTEBOOK_OPEN_REFUSED', attackersId), 5);
    expect(refused.map((row) => row.details)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reason: 'method' }),
        expect.objectContaining({ reason: 'origin', origin: notebookOrigin(api, attackersId) }),
        expect.objectContaining({ reason: 'ticket' }),
      ]),
    );
    // The first refused post spent the ticket, so it is the one that knows whose ticket it was (the
    // audit rows' order within one second is not fixed, so it is found by its origin).
    const firstRefusal = refused.find((row) => {
      const details = row.details as { reason?: string; origin?: string };
      return details.reason === 'origin' && details.origin === notebookOrigin(api, attackersId);
    });
    expect(firstRefusal?.actorEmail).toBe(reader.user.email);
    // A ticket is good at its own notebook's host only.
    const other = testApp.services.notebooks.sessions.issueTicket({ notebookId: attackersId, userId: reader.user.id });
    const misdirected = await fetch(`${notebookOrigin(api, victim.notebookId)}/jupyter/${attackersId}/_open`, {
      method: 'POST',
      headers: { origin: TEST_WEB_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: `ticket=${other}`,
    });
    expect(misdirected.status).toBe(404);
  });

  it("lets only the notebook's own pages change it or open its kernels", async () => {
    const base = notebookBase(api, victim.notebookId);
    const own = notebookOrigin(api, victim.notebookId).replace(/:\d+$/, '');
    const foreign = notebookOrigin(api, attackersId).replace(/:\d+$/, '');
    const post = (headers: Record<string, string>) =>
      fetch(`${base}api/kernels`, { method: 'POST', headers: { cookie: ownerCookie, 'content-type': 'application/json', ...headers }, body: '{}' });
    // Another notebook's page (same site, so SameSite lets the cookie through): refused.
    expect((await post({ origin: foreign })).status).toBe(403);
    expect((await post({ 'sec-fetch-site': 'same-site' })).status).toBe(403);
    const write = await fetch(`${base}api/contents/planted.txt`, {
      method: 'PUT',
      headers: { cookie: ownerCookie, 'content-type': 'application/json', origin: foreign },
      body: JSON.stringify({ type: 'file', format: 'text', content: 'written by another page' }),
    });
    expect(write.status).toBe(403);
    expect((await fetch(`${base}api/contents/planted.txt?content=0`, { headers: { cookie: ownerCookie } })).status).toBe(404);
    // Its own page: allowed.
    const created = await post({ origin: own });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const channels = `${base.replace('http', 'ws')}api/kernels/${id}/channels`;
    expect(await webSocketStatus(channels, { cookie: ownerCookie, origin: foreign })).toBe(403);
    expect(await webSocketStatus(channels, { cookie: ownerCookie, origin: api })).toBe(403);
    const kernel = await KernelConnection.open(channels, { cookie: ownerCookie, origin: own });
    expect((await kernel.execute('6 * 7')).result).toBe('42');
    kernel.close();
  });

  it('lists to each member only the notebooks they can act on: a READER sees no other member\'s notebook id', async () => {
    const list = async (token: string) => {
      const answer = await testApp.request({ method: 'GET', url: `/api/v1/workbenches/${workbenchId}/notebooks/`, token });
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json() as { notebooks: { id: string }[]; total: number }).notebooks.map((n) => n.id).sort();
    };
    expect(await list(reader.token)).toEqual([]);
    expect(await list(writer.token)).toEqual([writersId]);
    expect(await list(owner.token)).toEqual([victim.notebookId, writersId].sort());
    expect(await list(adminToken)).toEqual([victim.notebookId, writersId].sort());
  });
});

describe("a notebook's host", () => {
  const id = '3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5f';
  it('is `<id>.<base host>`, and no other name is taken for a notebook', () => {
    const origins = notebookOrigins('https://notebooks.example.org');
    expect(origins.originOf(id)).toBe(`https://${id}.notebooks.example.org`);
    expect(origins.secure).toBe(true);
    expect(origins.notebookIdOfHost(`${id}.notebooks.example.org`)).toBe(id);
    expect(origins.notebookIdOfHost(`${id.toUpperCase()}.NOTEBOOKS.example.org:443`)).toBe(id);
    for (const host of [
      'notebooks.example.org',
      `${id}.notebooks.example.org.evil.example`,
      `x${id}.notebooks.example.org`,
      `a.${id}.notebooks.example.org`,
      `${id}.evilnotebooks.example.org`,
      `${id}.example.org`,
      'api.example.org',
      undefined,
    ]) {
      expect(origins.notebookIdOfHost(host), String(host)).toBeUndefined();
    }
  });

  it("defaults to `notebooks.localhost` with the API's scheme and port", () => {
    expect(notebookBaseUrl(undefined, 'http://127.0.0.1:8000')).toBe('http://notebooks.localhost:8000');
    expect(notebookBaseUrl('https://nb.example.org/', 'http://127.0.0.1:8000')).toBe('https://nb.example.org');
    expect(notebookOrigins(notebookBaseUrl(undefined, 'http://127.0.0.1:8000')).originOf(id)).toBe(`http://${id}.notebooks.localhost:8000`);
  });
});
