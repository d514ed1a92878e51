import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Workbench, type WorkbenchList, type WorkbenchSubmittedWithErrors } from '@hdp/contract';
import { notebookRepository } from '../src/notebooks/notebook-repository';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { multipartFile } from './support/multipart';
import { expectReleasedRowsMatch, provisioned, publishedCohort as publishCohort, type Account } from './support/workbench-fixtures';
import { ADMIN_EMAIL, startTestApp, type TestApp } from './support/test-app';
import { MEMBER_NOT_ADDABLE } from '../src/workbenches/workbench-commands';

let t: TestApp;
let dataDir: string;
let rita: Account; // researcher: creates the workbench (OWNER)
let otto: Account; // researcher: a READER member
let wendy: Account; // researcher: a WRITER member
let bob: Account; // researcher: no member
let stella: Account; // data steward: publishes cohorts
let audrey: Account; // auditor
let dora: Account; // researcher, disabled during the tests
let adminToken: string;
let cohortId: string;
let otherCohortId: string;
let queryId: string;
let documentId: string;

const PURPOSE = 'To study how type 2 diabetes progresses in women over fifty, for a service review.';
const WOMEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] };
const MEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8507 }] };

const rowsOf = async (query: ReturnType<typeof sql>) =>
  ((await t.services.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
const call = (account: Account | string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.request({ method, url: `/api/v1${url}`, token: typeof account === 'string' ? account : account.token, ...(payload !== undefined && { payload: payload as object }) });

const publishedCohort = (name: string, query: unknown) => publishCohort(t, rita, stella, name, query);
const waitReady = (account: Account, id: string) => provisioned(t, account, id);

const create = (account: Account, body: Record<string, unknown>) => call(account, 'POST', '/workbenches/', { purpose: PURPOSE, ...body });
const auditOf = (id: string) =>
  rowsOf(sql`select event_type, outcome, actor_email, details from audit_log where resource_type = 'workbench' and resource_id = ${id} order by seq`);
const countWorkbenches = async () => Number((await rowsOf(sql`select count(*)::int as n from workbenches`))[0]!.n);
const released = (...parts: string[]) => path.join(dataDir, 'workbenches', ...parts);

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-workbenches-'));
  t = await startTestApp({ DATA_DIR: dataDir, CLAMAV: 'none', QUERY_TIMEOUT_MS: '20000' });
  adminToken = (await t.signIn(ADMIN_EMAIL)).id_token;
  [rita, otto, wendy, bob, stella, audrey, dora] = await Promise.all([
    t.userWithRoles(['RESEARCHER'], 'rita@example.org'),
    t.userWithRoles(['RESEARCHER'], 'otto@example.org'),
    t.userWithRoles(['RESEARCHER'], 'wendy@example.org'),
    t.userWithRoles(['RESEARCHER'], 'bob@example.org'),
    t.userWithRoles(['DATA_STEWARD'], 'stella@example.org'),
    t.userWithRoles(['AUDITOR'], 'audrey@example.org'),
    t.userWithRoles(['RESEARCHER'], 'dora@example.org'),
  ]);
  await loadWarehouse(t.services, { kind: 'synthetic', persons: 1500, seed: 7 }, { actorEmail: 'test' });
  cohortId = await publishedCohort('Women of the sample', WOMEN);
  otherCohortId = await publishedCohort('Men of the sample', MEN);
  queryId = (await call(rita, 'POST', '/queries/', { name: 'Women, saved', description: 'every woman', query: WOMEN })).json().id;
  const upload = await t.request({ method: 'POST', url: '/api/v1/documents/', token: rita.token, ...multipartFile('file', 'protocol v1.txt', 'text/plain', Buffer.from('The study protocol.\n')) });
  expect(upload.statusCode, upload.body).toBe(201);
  documentId = upload.json().id;
}, 120_000);
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('creating a workbench', () => {
  let workbench: Workbench;

  it('makes the creator an OWNER, adds members, copies the query and the document, and provisions the cohort (201)', async () => {
    const response = await create(rita, {
      name: 'Diabetes in women',
      cohorts: [{ id: cohortId }],
      queries: [queryId],
      documents: [documentId],
      users: [
        { id: otto.user.id, role: 'READER' },
        { id: wendy.user.id, role: 'WRITER' },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    workbench = response.json();
    expect(workbench).toMatchObject({
      name: 'Diabetes in women',
      purpose: PURPOSE,
      version: 1,
      my_role: 'OWNER',
      created_by: { id: rita.user.id, email: 'rita@example.org' },
      queries: [{ source_query_id: queryId, name: 'Women, saved', description: 'every woman', query: WOMEN }],
      documents: [{ source_document_id: documentId, name: 'protocol v1.txt', content_type: 'text/plain', size_bytes: 20 }],
    });
    expect(workbench.members.map((m) => [m.email, m.role])).toEqual([
      ['otto@example.org', 'READER'],
      ['rita@example.org', 'OWNER'],
      ['wendy@example.org', 'WRITER'],
    ]);
    expect(workbench.cohorts).toEqual([expect.objectContaining({ id: cohortId, name: 'Women of the sample', version: 1, latest_version: 1 })]);
    expect(['PENDING', 'PROVISIONING', 'READY']).toContain(workbench.cohorts[0]!.state);
    expect(fs.readFileSync(released(workbench.id, 'released', 'documents', 'protocol v1.txt'), 'utf8')).toBe('The study protocol.\n');
    expect(JSON.parse(fs.readFileSync(released(workbench.id, 'released', 'queries', 'women-saved.json'), 'utf8'))).toMatchObject({ name: 'Women, saved', query: WOMEN });
  });

  it("writes exactly the cohort's persons' rows, table by table, with concept names, a dictionary and a README", async () => {
    const ready = await waitReady(rita, workbench.id);
    const release = ready.cohorts[0]!;
    expect(ready.state).toBe('READY');
    const folder = released(workbench.id, 'released', 'cohorts', 'women-of-the-sample-v1');
    await expectReleasedRowsMatch(t, folder, ready, cohortId);
    const person = gunzipSync(fs.readFileSync(path.join(folder, 'person.csv.gz'))).toString('utf8').split('\n');
    expect(person[0]).toMatch(/^person_id,gender_concept_id,gender_concept_name,/);
    expect(person[1]).toMatch(/^\d+,8532,FEMALE,/);
    // The secret record key, a column of the warehouse's person table, never leaves it.
    expect(person[0]).not.toMatch(/record_key/);
    expect(person[0]!.split(',').at(-1)).toBe('ethnicity_source_concept_id');
    const dictionary = fs.readFileSync(path.join(folder, 'data_dictionary.csv'), 'utf8');
    expect(dictionary).not.toMatch(/record_key/);
    expect(dictionary.split('\n')[0]).toBe('table,column,type,description');
    expect(dictionary).toMatch(/^person,gender_concept_name,VARCHAR,/m);
    expect(fs.readFileSync(path.join(folder, 'README.txt'), 'utf8')).toMatch(/Women of the sample/);
    // No staging leftovers are visible.
    expect(fs.readdirSync(path.join(dataDir, 'workbenches', '.staging'))).toEqual([]);

    const audit = await auditOf(workbench.id);
    expect(audit.map((a) => a.event_type)).toEqual(
      expect.arrayContaining(['WORKBENCH_CREATED', 'WORKBENCH_MEMBER_ADDED', 'WORKBENCH_DATA_RELEASED']),
    );
    const releasedEntry = audit.find((a) => a.event_type === 'WORKBENCH_DATA_RELEASED' && (a.details as { kind: string }).kind === 'cohort')!;
    expect(releasedEntry).toMatchObject({ actor_email: 'rita@example.org', details: { row_counts: release.row_counts } });
    expect(audit.filter((a) => a.event_type === 'WORKBENCH_MEMBER_ADDED')).toHaveLength(3);
  });

  it('refuses bad input with a detail naming the field, and writes nothing', async () => {
    const before = await countWorkbenches();
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ name: 'ab' }, 400, /^body\.name: /],
      [{ name: 'A good name', purpose: 'Too short.' }, 400, /^body\.purpose: /],
      [{ name: 'A good name', cohorts: [{ id: cohortId }, { id: cohortId }] }, 400, /^body\.cohorts: each cohort may be given once/],
      [{ name: 'A good name', users: [{ id: otto.user.id, role: 'BOSS' }] }, 400, /^body\.users\.0\.role: /],
      [{ name: 'A good name', queries: ['not-an-id'] }, 400, /^body\.queries\.0: /],
      [{ name: 'diabetes IN WOMEN' }, 409, /^name: you already have a workbench called "Diabetes in women"/],
    ];
    for (const [body, status, detail] of cases) {
      const response = await create(rita, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().detail).toMatch(detail);
    }
    expect(await countWorkbenches()).toBe(before);
    // The same name is free for somebody who belongs to no workbench of that name.
    const bobs = await create(bob, { name: 'Diabetes in women' });
    expect(bobs.statusCode, bobs.body).toBe(201);
    expect((await call(bob, 'DELETE', `/workbenches/${bobs.json().id}/`)).statusCode).toBe(204);
    const auditor = await create(audrey, { name: 'Auditing' });
    expect(auditor.statusCode).toBe(403);
  });

  it('applies what it can and answers 418 with the refusals: an archived cohort, a disabled user, a document not mine', async () => {
    const archived = await publishedCohort('Archived soon', MEN);
    expect((await t.request({ method: 'PATCH', url: `/api/v1/cohorts/${archived}/`, token: stella.token, payload: { status: 'ARCHIVED' } })).statusCode).toBe(200);
    const bobsDocument = await t.request({ method: 'POST', url: '/api/v1/documents/', token: bob.token, ...multipartFile('file', 'b.txt', 'text/plain', Buffer.from('b')) });
    const bobsDraft = await publishCohort(t, bob, null, "Bob's draft", MEN);
    const response = await create(rita, {
      name: 'Partly refused',
      cohorts: [{ id: archived }, { id: bobsDraft }],
      documents: [bobsDocument.json().id],
      users: [{ id: audrey.user.id, role: 'READER' }, { id: otto.user.id, role: 'WRITER' }],
    });
    expect(response.statusCode, response.body).toBe(418);
    expect(response.body).not.toContain('audrey@example.org');
    const body = response.json() as WorkbenchSubmittedWithErrors;
    expect(body.refused).toEqual([
      // Neither the person's email nor their account's state is told (an auditor here).
      { kind: 'user', id: audrey.user.id, reason: MEMBER_NOT_ADDABLE },
      { kind: 'cohort', id: archived, reason: 'cohort "Archived soon" is archived, not published' },
      // Somebody else's draft is not named.
      { kind: 'cohort', id: bobsDraft, reason: 'no published cohort has this id' },
      { kind: 'document', id: bobsDocument.json().id, reason: expect.stringMatching(/not one of your documents/) },
    ]);
    expect(body.detail).toMatch(/4 parts were not applied/);
    expect(body.workbench.members.map((m) => m.email)).toEqual(['otto@example.org', 'rita@example.org']);
    expect(body.workbench.cohorts).toEqual([]);
    await call(rita, 'DELETE', `/workbenches/${body.workbench.id}/`);
  });
});

describe('a cohort with a version awaiting review', () => {
  it('releases the published version, refuses the unreviewed one, and offers the newer one once published', async () => {
    const id = await publishedCohort('Re-run awaiting review', WOMEN);
    const rerun = await t.request({ method: 'POST', url: `/api/v1/cohorts/${id}/refresh/`, token: stella.token });
    expect(rerun.json()).toMatchObject({ version: 2, published_version: 1 });
    const response = await create(rita, { name: 'Published versions only', cohorts: [{ id }] });
    expect(response.statusCode, response.body).toBe(201);
    const workbench = response.json() as Workbench;
    expect(workbench.cohorts).toEqual([expect.objectContaining({ id, version: 1, latest_version: 1 })]);
    // Asking for the version awaiting review is refused; the released version stays.
    const pinned = await call(rita, 'PUT', `/workbenches/${workbench.id}/`, {
      name: workbench.name,
      purpose: workbench.purpose,
      version: workbench.version,
      cohorts: [{ id, version: 2 }],
      users: workbench.members.map((m) => ({ id: m.id, role: m.role })),
    });
    expect(pinned.statusCode, pinned.body).toBe(418);
    expect((pinned.json() as WorkbenchSubmittedWithErrors).refused).toEqual([
      { kind: 'cohort', id, reason: 'version 2 of cohort "Re-run awaiting review" is not its published version (1)' },
    ]);
    expect((pinned.json() as WorkbenchSubmittedWithErrors).workbench.cohorts).toEqual([expect.objectContaining({ id, version: 1 })]);
    // Once a steward publishes version 2, it is the one offered.
    expect((await t.request({ method: 'PATCH', url: `/api/v1/cohorts/${id}/`, token: stella.token, payload: { published_version: 2 } })).statusCode).toBe(200);
    const after = (await call(rita, 'GET', `/workbenches/${workbench.id}/`)).json() as Workbench;
    expect(after.cohorts).toEqual([expect.objectContaining({ id, version: 1, latest_version: 2 })]);
    await waitReady(rita, workbench.id);
    await call(rita, 'DELETE', `/workbenches/${workbench.id}/`);
  });
});

describe('who sees what', () => {
  let id: string;
  beforeAll(async () => {
    const response = await create(rita, { name: 'Visibility', users: [{ id: otto.user.id, role: 'READER' }] });
    id = response.json().id;
  });

  it('lists members their workbenches, an ADMIN all, others none; AUDITORs are refused', async () => {
    const names = async (account: Account | string, query = '') => {
      const response = await call(account, 'GET', `/workbenches/${query}`);
      expect(response.statusCode, response.body).toBe(200);
      const list = response.json() as WorkbenchList;
      return { names: list.workbenches.map((w) => w.name), list };
    };
    expect((await names(rita)).names).toEqual(expect.arrayContaining(['Visibility', 'Diabetes in women']));
    const ottos = await names(otto);
    expect(ottos.names).toEqual(expect.arrayContaining(['Visibility', 'Diabetes in women']));
    expect(ottos.list.workbenches.find((w) => w.name === 'Visibility')).toMatchObject({ my_role: 'READER', member_count: 2, cohort_count: 0, state: 'READY' });
    expect(ottos.list).toMatchObject({ total: ottos.names.length, total_capped: false });
    expect((await names(bob)).names).toEqual([]);
    expect((await names(stella)).names).toEqual([]);
    const admin = await names(adminToken);
    expect(admin.names).toEqual(expect.arrayContaining(['Visibility', 'Diabetes in women']));
    expect(admin.list.workbenches.find((w) => w.name === 'Visibility')!.my_role).toBeNull();
    expect((await names(rita, '?search=visib')).names).toEqual(['Visibility']);
    expect((await names(rita, '?search=DIABETES%20PROGRESSES')).names.length).toBeGreaterThanOrEqual(2);
    expect((await names(rita, '?limit=1')).list.workbenches).toHaveLength(1);
    expect((await call(audrey, 'GET', '/workbenches/')).statusCode).toBe(403);
    expect((await call(rita, 'GET', '/workbenches/?limit=0')).json().detail).toMatch(/^query\.limit/);
  });

  it('shows a workbench to members and an ADMIN; others are told it does not exist, and that is audited', async () => {
    expect((await call(otto, 'GET', `/workbenches/${id}/`)).json()).toMatchObject({ id, my_role: 'READER' });
    expect((await call(adminToken, 'GET', `/workbenches/${id}/`)).json()).toMatchObject({ id, my_role: null });
    for (const outsider of [bob, stella]) {
      const response = await call(outsider, 'GET', `/workbenches/${id}/`);
      expect(response.statusCode).toBe(404);
      expect(response.json().detail).toBe('Workbench does not exist.');
    }
    const missing = await call(bob, 'GET', '/workbenches/00000000-0000-4000-8000-000000000000/');
    expect(missing.json()).toEqual({ detail: 'Workbench does not exist.' });
    expect((await call(audrey, 'GET', `/workbenches/${id}/`)).statusCode).toBe(403);
    expect((await call(rita, 'GET', '/workbenches/nope/')).json().detail).toMatch(/^path\.workbenchId/);
    const denials = (await auditOf(id)).filter((a) => a.event_type === 'ACCESS_DENIED');
    expect(denials.map((d) => d.actor_email)).toEqual(['bob@example.org', 'stella@example.org']);
  });

  it('answers every read route by role and membership: members and ADMIN 200, other data users 404, AUDITOR 403', async () => {
    const withSteward = await create(stella, { name: 'A steward owns it', users: [{ id: otto.user.id, role: 'READER' }] });
    expect(withSteward.statusCode, withSteward.body).toBe(201);
    const stewardsId = withSteward.json().id as string;
    const routes = ['/', '/zones/', '/zone/australia-southeast1-a/machine-types/', '/zone/australia-southeast1-a/accelerator-types/', '/environments/'];
    const expected: [Account | string, number][] = [
      [adminToken, 200],
      [stella, 200],
      [otto, 200],
      [bob, 404],
      [rita, 404],
      [audrey, 403],
    ];
    for (const route of routes) {
      for (const [account, status] of expected) {
        const response = await call(account, 'GET', `/workbenches/${stewardsId}${route}`);
        expect(response.statusCode, `${route} ${typeof account === 'string' ? 'admin' : account.user.email}`).toBe(status);
      }
    }
    expect((await call(stella, 'DELETE', `/workbenches/${stewardsId}/`)).statusCode).toBe(204);
  });

  it('serves the compute catalogue to members only', async () => {
    const zones = (await call(otto, 'GET', `/workbenches/${id}/zones/`)).json();
    expect(zones.zones.map((z: { name: string }) => z.name)).toEqual(['australia-southeast1-a', 'australia-southeast1-b', 'australia-southeast1-c']);
    expect(zones.zones.find((z: { is_default: boolean }) => z.is_default).name).toBe('australia-southeast1-a');
    const machines = (await call(otto, 'GET', `/workbenches/${id}/zone/australia-southeast1-b/machine-types/`)).json();
    expect(machines.machine_types.find((m: { is_default: boolean }) => m.is_default)).toMatchObject({ name: 'n1-standard-4', vcpus: 4, runtime: { cpu_limit: 4 } });
    expect((await call(otto, 'GET', `/workbenches/${id}/zone/australia-southeast1-a/accelerator-types/`)).json()).toEqual({
      accelerator_types: [{ name: 'nvidia-tesla-t4', description: 'NVIDIA Tesla T4', max_count: 4 }],
    });
    expect((await call(otto, 'GET', `/workbenches/${id}/zone/australia-southeast1-c/accelerator-types/`)).json()).toEqual({ accelerator_types: [] });
    const environments = (await call(otto, 'GET', `/workbenches/${id}/environments/`)).json();
    expect(environments.environments.map((e: { id: string }) => e.id)).toEqual(['python3-datascience', 'r-tidyverse']);
    const unknown = await call(otto, 'GET', `/workbenches/${id}/zone/mars-1/machine-types/`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toMatch(/^zone: /);
    expect((await call(bob, 'GET', `/workbenches/${id}/zones/`)).statusCode).toBe(404);
    expect((await call(bob, 'GET', `/workbenches/${id}/environments/`)).statusCode).toBe(404);
  });
});

describe('editing a workbench', () => {
  let current: Workbench;
  beforeAll(async () => {
    current = (await create(rita, { name: 'Edited', users: [{ id: otto.user.id, role: 'READER' }, { id: wendy.user.id, role: 'WRITER' }] })).json();
  });
  const put = (account: Account | string, body: Record<string, unknown>) =>
    call(account, 'PUT', `/workbenches/${current.id}/`, {
      name: current.name,
      purpose: current.purpose,
      version: current.version,
      cohorts: current.cohorts.map((c) => ({ id: c.id })),
      queries: current.queries.map((q) => q.id),
      documents: current.documents.map((d) => d.id),
      users: current.members.map((m) => ({ id: m.id, role: m.role })),
      ...body,
    });

  it('lets OWNERs and ADMINs edit; other members get 403, others 404', async () => {
    expect((await put(otto, { name: 'By a reader' })).statusCode).toBe(403);
    expect((await put(wendy, { name: 'By a writer' })).statusCode).toBe(403);
    expect((await put(bob, { name: 'By an outsider' })).statusCode).toBe(404);
    expect((await put(audrey, { name: 'By an auditor' })).statusCode).toBe(403);
    const response = await put(rita, { name: 'Edited again', purpose: `${PURPOSE} Second phase.`, users: [...current.members.map((m) => ({ id: m.id, role: m.role === 'READER' ? 'WRITER' : m.role })), { id: bob.user.id, role: 'READER' }] });
    expect(response.statusCode, response.body).toBe(200);
    current = response.json();
    expect(current).toMatchObject({ name: 'Edited again', version: 2, updated_by: { email: 'rita@example.org' } });
    expect(current.members.map((m) => [m.email, m.role])).toEqual([
      ['bob@example.org', 'READER'],
      ['otto@example.org', 'WRITER'],
      ['rita@example.org', 'OWNER'],
      ['wendy@example.org', 'WRITER'],
    ]);
    const byAdmin = await put(adminToken, { users: current.members.filter((m) => m.email !== 'bob@example.org').map((m) => ({ id: m.id, role: m.role })) });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    current = byAdmin.json();
    expect(current.version).toBe(3);
    expect((await call(bob, 'GET', `/workbenches/${current.id}/`)).statusCode).toBe(404);
    const events = (await auditOf(current.id)).map((a) => a.event_type);
    expect(events).toEqual(expect.arrayContaining(['WORKBENCH_UPDATED', 'WORKBENCH_MEMBER_ROLE_CHANGED', 'WORKBENCH_MEMBER_ADDED', 'WORKBENCH_MEMBER_REMOVED']));
    const updated = (await auditOf(current.id)).find((a) => a.event_type === 'WORKBENCH_UPDATED')!;
    expect(updated.details).toMatchObject({ version: 2, changed: ['name', 'purpose', 'users'], name: { from: 'Edited', to: 'Edited again' } });
  });

  it('refuses an edit based on a stale version with 409 naming who changed it and when', async () => {
    const stale = await put(rita, { version: current.version - 1, name: 'From a stale tab' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toMatch(
      new RegExp(`^version: this workbench was changed by (.+ \\()?admin@example\\.org\\)? at ${current.updated_at.slice(0, 16)}.*version ${current.version}; your edits were based on version ${current.version - 1}`),
    );
    expect((await call(rita, 'GET', `/workbenches/${current.id}/`)).json().name).toBe('Edited again');
  });

  it('keeps at least one OWNER', async () => {
    const response = await put(rita, { users: current.members.map((m) => ({ id: m.id, role: 'READER' })) });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/^body\.users: a workbench keeps at least one OWNER/);
    const removed = await put(rita, { users: current.members.filter((m) => m.role !== 'OWNER').map((m) => ({ id: m.id, role: m.role })) });
    expect(removed.statusCode).toBe(400);
    expect((await call(rita, 'GET', `/workbenches/${current.id}/`)).json().version).toBe(current.version);
  });

  it('applies the rest and answers 418 when a cohort was archived mid-way and a user was disabled', async () => {
    // The edit was prepared while the cohort was published and the user active; both changed before it was sent.
    const archivedMidway = await publishedCohort('Archived mid-way', MEN);
    const disabled = await call(adminToken, 'POST', `/users/disable/${dora.user.id}/`);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect((await t.request({ method: 'PATCH', url: `/api/v1/cohorts/${archivedMidway}/`, token: stella.token, payload: { status: 'ARCHIVED' } })).statusCode).toBe(200);
    const response = await put(rita, {
      purpose: `${PURPOSE} Third phase.`,
      cohorts: [{ id: archivedMidway }, { id: otherCohortId }],
      queries: [queryId],
      users: [...current.members.map((m) => ({ id: m.id, role: m.role })), { id: dora.user.id, role: 'READER' }],
    });
    expect(response.statusCode, response.body).toBe(418);
    const body = response.json() as WorkbenchSubmittedWithErrors;
    expect(body.refused).toEqual([
      { kind: 'user', id: dora.user.id, reason: MEMBER_NOT_ADDABLE },
      { kind: 'cohort', id: archivedMidway, reason: 'cohort "Archived mid-way" is archived, not published' },
    ]);
    expect(body.workbench).toMatchObject({ version: current.version + 1, purpose: `${PURPOSE} Third phase.` });
    expect(body.workbench.cohorts.map((c) => c.id)).toEqual([otherCohortId]);
    expect(body.workbench.queries.map((q) => q.source_query_id)).toEqual([queryId]);
    expect(body.workbench.members.map((m) => m.email)).not.toContain('dora@example.org');
    current = await waitReady(rita, body.workbench.id);
    expect(current.cohorts[0]!.state, current.cohorts[0]!.error ?? '').toBe('READY');
  });

  it('removes the files of data taken out, and re-pins nothing it was not asked to', async () => {
    const folder = released(current.id, 'released', 'cohorts', 'men-of-the-sample-v1');
    expect(fs.existsSync(path.join(folder, 'person.csv.gz'))).toBe(true);
    const copy = current.queries[0]!;
    // Editing the original leaves the copy alone.
    await t.request({ method: 'PATCH', url: `/api/v1/queries/${queryId}/`, token: rita.token, payload: { name: 'Renamed original' } });
    const kept = await put(rita, {});
    expect(kept.statusCode, kept.body).toBe(200);
    current = kept.json();
    expect(current.queries).toEqual([expect.objectContaining({ id: copy.id, name: 'Women, saved' })]);
    const response = await put(rita, { cohorts: [], queries: [] });
    expect(response.statusCode, response.body).toBe(200);
    current = response.json();
    expect(fs.existsSync(folder)).toBe(false);
    expect(fs.readdirSync(released(current.id, 'released', 'queries'))).toEqual([]);
    const removals = (await auditOf(current.id)).filter((a) => a.event_type === 'WORKBENCH_DATA_REMOVED');
    expect(removals.map((r) => (r.details as { kind: string }).kind).sort()).toEqual(['cohort', 'query']);
    expect((removals.find((r) => (r.details as { kind: string }).kind === 'cohort')!.details as { row_counts: object }).row_counts).toHaveProperty('person');
  });
});

describe('deleting a workbench', () => {
  it('is for OWNERs and ADMINs, refused while a notebook runs, then removes its files for good and members lose access', async () => {
    const workbench = (await create(rita, { name: 'To delete', documents: [documentId], users: [{ id: otto.user.id, role: 'WRITER' }] })).json() as Workbench;
    expect(fs.existsSync(released(workbench.id, 'released', 'documents'))).toBe(true);
    expect((await call(otto, 'DELETE', `/workbenches/${workbench.id}/`)).statusCode).toBe(403);
    expect((await call(bob, 'DELETE', `/workbenches/${workbench.id}/`)).statusCode).toBe(404);
    expect((await call(audrey, 'DELETE', `/workbenches/${workbench.id}/`)).statusCode).toBe(403);

    // The notebook runtime is not part of this API yet: the notebook's state is set through its repository.
    const notebook = await notebookRepository.insert(t.services.db, {
      workbenchId: workbench.id,
      ownerId: rita.user.id,
      name: 'Analysis',
      environment: 'python3-datascience',
      zone: 'australia-southeast1-a',
      machineType: 'n1-standard-4',
      status: 'RUNNING',
    });
    const refused = await call(rita, 'DELETE', `/workbenches/${workbench.id}/`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('This workbench cannot be deleted while its notebooks are running: "Analysis" (running). Stop them and try again.');
    await notebookRepository.setStatus(t.services.db, notebook.id, 'STOPPING');
    expect((await call(rita, 'DELETE', `/workbenches/${workbench.id}/`)).statusCode).toBe(409);
    await notebookRepository.setStatus(t.services.db, notebook.id, 'STOPPED');

    const deleted = await call(rita, 'DELETE', `/workbenches/${workbench.id}/`);
    expect(deleted.statusCode).toBe(204);
    expect(fs.existsSync(released(workbench.id))).toBe(false);
    // A former member is told it was deleted, by whom and when; anyone else only that it does not exist.
    const gone = await call(otto, 'GET', `/workbenches/${workbench.id}/`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().detail).toMatch(
      /^This workbench "To delete" was deleted by rita@example\.org at \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z, with its released data and notebooks\.$/,
    );
    expect((await call(bob, 'GET', `/workbenches/${workbench.id}/`)).json().detail).toBe('Workbench does not exist.');
    expect((await call(rita, 'DELETE', `/workbenches/${workbench.id}/`)).json().detail).toMatch(/was deleted by you at/);
    expect((await call(otto, 'GET', '/workbenches/')).json().workbenches.map((w: Workbench) => w.id)).not.toContain(workbench.id);
    expect((await auditOf(workbench.id)).map((a) => a.event_type)).toContain('WORKBENCH_DELETED');
    // The original document is untouched.
    expect((await call(rita, 'GET', `/documents/${documentId}/`)).statusCode).toBe(200);
  });

  it('lets an ADMIN delete a workbench with a released cohort', async () => {
    const workbench = (await create(rita, { name: 'Deleted by an admin', cohorts: [{ id: cohortId }] })).json() as Workbench;
    await waitReady(rita, workbench.id);
    expect((await call(adminToken, 'DELETE', `/workbenches/${workbench.id}/`)).statusCode).toBe(204);
    expect(fs.existsSync(released(workbench.id))).toBe(false);
    expect(await rowsOf(sql`select * from workbench_cohorts where workbench_id = ${workbench.id}`)).toEqual([]);
  });
});

describe('the catalogue file', () => {
  it('is checked at start, and a bad one is refused with the field named', async () => {
    const file = path.join(dataDir, 'catalogue.json');
    const catalogue = JSON.parse(fs.readFileSync(t.config.workbenches.catalogueFile, 'utf8'));
    catalogue.machine_types[1].vcpus = 0;
    catalogue.accelerator_types[0].max_count_by_zone = { 'mars-1': 2 };
    fs.writeFileSync(file, JSON.stringify(catalogue));
    await expect(startTestApp({ WORKBENCH_CATALOGUE_FILE: file })).rejects.toThrow(
      /^Invalid configuration: WORKBENCH_CATALOGUE_FILE .*catalogue\.json: machine_types\.1\.vcpus: .*; accelerator_types\.0\.max_count_by_zone\.mars-1: no zone is named "mars-1"$/,
    );
    fs.writeFileSync(file, '{ not json');
    await expect(startTestApp({ WORKBENCH_CATALOGUE_FILE: file })).rejects.toThrow(/cannot be read as JSON/);
  });
});
