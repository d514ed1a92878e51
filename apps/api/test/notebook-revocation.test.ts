import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../src/db/schema';
import { notebookRepository } from '../src/notebooks/notebook-repository';
import type { LocalNotebookDriver } from '../src/notebooks/runtime/local-driver';
import type { NotebookRuntimeSpec } from '../src/notebooks/runtime/runtime-driver';
import { KernelConnection } from './support/jupyter-kernel';
import { notebookOrigin, openedCookie, resolveLocalhostSubdomains } from './support/notebook-hosts';
import { ADMIN_EMAIL, startTestApp, type TestApp } from './support/test-app';

/**
 * Revocation reaches notebooks at once: a user signed out, removed from the workbench or disabled
 * loses their open kernel WebSocket (closed with 1008), their cookie is refused, and (removed or
 * disabled) their notebook stops, audited.
 */
let dataDir: string;
let testApp: TestApp;
let origin: string;
let driver: LocalNotebookDriver;
let adminToken: string;
let workbench: { id: string; name: string; purpose: string; version: number };

type Member = { user: { id: string; email: string }; token: string; spec: NotebookRuntimeSpec };

async function member(): Promise<Member> {
  const account = await testApp.userWithRoles(['RESEARCHER']);
  const spec: NotebookRuntimeSpec = {
    notebookId: randomUUID(),
    workbenchId: workbench.id,
    environment: 'python3-datascience',
    limits: { cpuLimit: 1, memoryLimitMb: 768, maxProcesses: 96 },
  };
  return { ...account, spec };
}

async function putMembers(members: Member[]) {
  const current = (await testApp.request({ method: 'GET', url: `/api/v1/workbenches/${workbench.id}/`, token: adminToken })).json();
  const answer = await testApp.request({
    method: 'PUT',
    url: `/api/v1/workbenches/${workbench.id}/`,
    token: adminToken,
    payload: {
      name: current.name,
      purpose: current.purpose,
      version: current.version,
      users: [{ id: testApp.admin.id, role: 'OWNER' }, ...members.map((m) => ({ id: m.user.id, role: 'WRITER' }))],
    },
  });
  expect(answer.statusCode, answer.body).toBe(200);
}

/** A running notebook of the member's, opened through the API: its cookie and an open kernel WebSocket. */
async function openNotebook(m: Member): Promise<{ cookie: string; kernel: KernelConnection }> {
  await notebookRepository.insert(testApp.services.db, {
    id: m.spec.notebookId,
    workbenchId: workbench.id,
    ownerId: m.user.id,
    name: `Notebook of ${m.user.email}`,
    environment: m.spec.environment,
    zone: 'australia-southeast1-a',
    machineType: 'n1-standard-4',
    status: 'RUNNING',
  });
  await driver.create(m.spec);
  const opened = await testApp.request({ method: 'POST', url: `/api/v1/workbenches/${workbench.id}/notebooks/${m.spec.notebookId}/open/`, token: m.token });
  expect(opened.statusCode, opened.body).toBe(200);
  const cookie = await openedCookie(origin, opened.json());
  const base = `${notebookOrigin(origin, m.spec.notebookId)}/jupyter/${m.spec.notebookId}/`;
  const created = await fetch(`${base}api/kernels`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{"name":"python3"}' });
  const { id } = (await created.json()) as { id: string };
  const kernel = await KernelConnection.open(`${base.replace('http', 'ws')}api/kernels/${id}/channels`, { cookie });
  expect((await kernel.execute('1 + 1')).result).toBe('2');
  return { cookie, kernel };
}

const status = (m: Member, cookie: string) => fetch(`${notebookOrigin(origin, m.spec.notebookId)}/jupyter/${m.spec.notebookId}/api/status`, { headers: { cookie } }).then((r) => r.status);
const notebookStatus = async (m: Member) => (await notebookRepository.findById(testApp.services.db, m.spec.notebookId))?.status;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hdp-revocation-'));
  resolveLocalhostSubdomains();
  testApp = await startTestApp({ DATA_DIR: dataDir });
  adminToken = (await testApp.signIn(ADMIN_EMAIL)).id_token;
  const created = await testApp.request({
    method: 'POST',
    url: '/api/v1/workbenches/',
    token: adminToken,
    payload: { name: 'Revocation', purpose: 'To check that ending access ends it in notebooks too.' },
  });
  expect(created.statusCode, created.body).toBe(201);
  workbench = created.json();
  driver = testApp.services.notebooks.driver as LocalNotebookDriver;
  await testApp.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(testApp.app.server.address() as { port: number }).port}`;
}, 60_000);

afterAll(async () => {
  for (const ref of driver?.runningNotebooks() ?? []) await driver.delete(ref).catch(() => undefined);
  await testApp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('ending access ends it in notebooks', () => {
  it('signing out closes the open kernel WebSocket and refuses the cookie; the notebook keeps running', async () => {
    const m = await member();
    await putMembers([m]);
    const { cookie, kernel } = await openNotebook(m);
    const out = await testApp.request({ method: 'POST', url: '/api/v1/users/me/logout/', token: m.token });
    expect(out.statusCode).toBe(204);
    await expect.poll(() => kernel.closedWith?.code, { timeout: 3000 }).toBe(1008);
    expect(await status(m, cookie)).toBe(401);
    expect(await notebookStatus(m)).toBe('RUNNING');
    const [entry] = await testApp.services.db.select().from(auditLog).where(eq(auditLog.eventType, 'NOTEBOOK_ACCESS_REVOKED'));
    expect(entry).toMatchObject({ resourceId: m.user.id, details: expect.objectContaining({ reason: 'signed-out', connections_closed: 1 }) });
    await driver.delete(m.spec);
  }, 60_000);

  it('removing a member closes their kernel WebSocket, refuses their cookie and stops their notebook, audited', async () => {
    const m = await member();
    await putMembers([m]);
    const { cookie, kernel } = await openNotebook(m);
    await putMembers([]);
    await expect.poll(() => kernel.closedWith?.code, { timeout: 3000 }).toBe(1008);
    expect(await status(m, cookie)).toBe(401);
    await expect.poll(() => notebookStatus(m), { timeout: 20_000 }).toBe('STOPPED');
    const stops = await testApp.services.db.select().from(auditLog).where(eq(auditLog.eventType, 'NOTEBOOK_STOPPED'));
    expect(stops.find((e) => e.resourceId === m.spec.notebookId)?.details).toMatchObject({ reason: 'member-removed' });
  }, 60_000);

  it('disabling a user closes their kernel WebSocket, refuses their cookie and stops their notebook, audited', async () => {
    const m = await member();
    await putMembers([m]);
    const { cookie, kernel } = await openNotebook(m);
    const disabled = await testApp.request({ method: 'POST', url: `/api/v1/users/disable/${m.user.id}/`, token: adminToken });
    expect(disabled.statusCode, disabled.body).toBe(200);
    await expect.poll(() => kernel.closedWith?.code, { timeout: 3000 }).toBe(1008);
    expect(await status(m, cookie)).toBe(401);
    await expect.poll(() => notebookStatus(m), { timeout: 20_000 }).toBe('STOPPED');
    const stops = await testApp.services.db.select().from(auditLog).where(eq(auditLog.eventType, 'NOTEBOOK_STOPPED'));
    expect(stops.find((e) => e.resourceId === m.spec.notebookId)?.details).toMatchObject({ reason: 'user-disabled' });
  }, 60_000);

  it('re-checks open WebSockets within seconds, whatever changed the database', async () => {
    const m = await member();
    await putMembers([m]);
    const { kernel } = await openNotebook(m);
    // A change made behind the API's back (another API process on the same database): only the re-check sees it.
    await testApp.services.db.update(users).set({ status: 'DISABLED' }).where(eq(users.id, m.user.id));
    await expect.poll(() => kernel.closedWith?.code, { timeout: 12_000 }).toBe(1008);
    await driver.delete(m.spec);
  }, 60_000);
});
