import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReleaseFile, ReleaseRequest, ReleaseRequestList } from '@hdp/contract';
import { notebookRepository } from '../src/notebooks/notebook-repository';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { startTestApp, type TestApp } from './support/test-app';
import { provisioned, publishedCohort, type Account } from './support/workbench-fixtures';

/**
 * The airlock over HTTP: release requests, their automatic checks on fixed tables whose verdicts
 * are known, the independent blinded review, the state machine and the released package.
 *
 * The files are written into a notebook's home on disk, where the airlock reads them whether the
 * notebook runs or not (notebooks.test.ts covers Jupyter itself); the released data the checks
 * compare with is a real cohort release, provisioned from the synthetic warehouse.
 */
let t: TestApp;
let dataDir: string;
let rita: Account; // OWNER of the workbench, author of the requests
let wendy: Account; // WRITER member
let otto: Account; // READER member
let mona: Account; // DATA_STEWARD and WRITER member: may not check this workbench's outputs
let stella: Account; // DATA_STEWARD outside the workbench: a checker
let sam: Account; // DATA_STEWARD outside the workbench: the second checker
let bob: Account; // RESEARCHER outside the workbench
let workbenchId: string;
let notebookId: string;
let home: string;
let personIds: string[];
let releasedPersonCsv: string;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const GOOD = 'age_band,patients\n40-49,120\n50-59,85\n60-69,40\n';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const api = (account: Account, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url: `/api/v1${url}`, token: account.token, ...(payload && { payload }) });
const rowsOf = async (query: ReturnType<typeof sql>) => ((await t.services.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
const writeHome = (name: string, content: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(home, name)), { recursive: true });
  fs.writeFileSync(path.join(home, name), content);
};
const filesOf = (request: ReleaseRequest) => request.groups.flatMap((g) => g.files);
const fileNamed = (request: ReleaseRequest, name: string) => filesOf(request).find((f) => f.name === name)!;

async function newRequest(title: string): Promise<{ id: string; groupId: string }> {
  const created = await api(rita, 'POST', `/workbenches/${workbenchId}/release-requests/`, { title });
  expect(created.statusCode, created.body).toBe(201);
  const grouped = await api(rita, 'POST', `/release-requests/${created.json().id}/groups/`, {
    name: 'Tables',
    context: 'Counts of patients by age band in the diabetes cohort.',
    controls: 'Counts under 20 suppressed; no person-level rows.',
  });
  expect(grouped.statusCode, grouped.body).toBe(201);
  return { id: created.json().id, groupId: grouped.json().groups[0].id };
}

async function add(requestId: string, groupId: string, filePath: string, extra: object = {}) {
  const response = await api(rita, 'POST', `/release-requests/${requestId}/files/`, { notebook_id: notebookId, path: filePath, group_id: groupId, ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ReleaseRequest;
}

/** The request once every file's automatic checks have finished. */
async function checked(requestId: string, account: Account = rita): Promise<ReleaseRequest> {
  for (let i = 0; i < 400; i++) {
    const request = (await api(account, 'GET', `/release-requests/${requestId}/`)).json() as ReleaseRequest;
    if (filesOf(request).every((f) => f.checks.state !== 'PENDING')) return request;
    await sleep(25);
  }
  throw new Error('the checks did not finish');
}

async function reviewAll(requestId: string, checker: Account, votes: Record<string, 'APPROVE' | 'CHANGES'> = {}) {
  const request = (await api(checker, 'GET', `/release-requests/${requestId}/`)).json() as ReleaseRequest;
  for (const file of filesOf(request).filter((f) => f.kind === 'OUTPUT')) {
    const vote = votes[file.name] ?? 'APPROVE';
    const against = (file.checks.verdict === 'FAIL' && vote === 'APPROVE') || (file.checks.verdict === 'PASS' && vote === 'CHANGES');
    const response = await api(checker, 'PUT', `/release-requests/${requestId}/files/${file.id}/vote/`, { vote, ...(against && { comment: 'Checked by hand.' }) });
    expect(response.statusCode, response.body).toBe(200);
  }
  const submitted = await api(checker, 'POST', `/release-requests/${requestId}/review/`);
  expect(submitted.statusCode, submitted.body).toBe(200);
  return submitted.json() as ReleaseRequest;
}

const findingsOf = (file: ReleaseFile) => file.checks.findings.map((f) => [f.check, f.verdict]);

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-outputs-'));
  t = await startTestApp({ DATA_DIR: dataDir, QUERY_TIMEOUT_MS: '20000' });
  [rita, wendy, otto, mona, stella, sam, bob] = await Promise.all([
    t.userWithRoles(['RESEARCHER'], 'rita@example.org'),
    t.userWithRoles(['RESEARCHER'], 'wendy@example.org'),
    t.userWithRoles(['RESEARCHER'], 'otto@example.org'),
    t.userWithRoles(['DATA_STEWARD'], 'mona@example.org'),
    t.userWithRoles(['DATA_STEWARD'], 'stella@example.org'),
    t.userWithRoles(['DATA_STEWARD'], 'sam@example.org'),
    t.userWithRoles(['RESEARCHER'], 'bob@example.org'),
  ]);
  await loadWarehouse(t.services, { kind: 'synthetic', persons: 600, seed: 5 }, { actorEmail: 'test' });
  const cohortId = await publishedCohort(t, rita, stella, 'Over forty', { combinator: 'and', rules: [{ field: 'person.age', operator: '>', value: 40 }] });
  const created = await t.request({
    method: 'POST',
    url: '/api/v1/workbenches/',
    token: rita.token,
    payload: {
      name: 'Airlock workbench',
      purpose: 'To study how type 2 diabetes progresses in people over forty, for a service review.',
      cohorts: [{ id: cohortId }],
      users: [
        { id: wendy.user.id, role: 'WRITER' },
        { id: otto.user.id, role: 'READER' },
        { id: mona.user.id, role: 'WRITER' },
      ],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  workbenchId = created.json().id;
  expect((await provisioned(t, rita, workbenchId)).state).toBe('READY');
  const cohorts = path.join(dataDir, 'workbenches', workbenchId, 'released', 'cohorts');
  releasedPersonCsv = gunzipSync(fs.readFileSync(path.join(cohorts, fs.readdirSync(cohorts)[0]!, 'person.csv.gz'))).toString('utf8');
  const lines = releasedPersonCsv.trimEnd().split('\n');
  const idColumn = lines[0]!.split(',').indexOf('person_id');
  personIds = lines.slice(1).map((l) => l.split(',')[idColumn]!);
  const notebook = await notebookRepository.insert(t.services.db, {
    workbenchId,
    ownerId: rita.user.id,
    name: 'Analysis',
    environment: 'python3-datascience',
    zone: 'australia-southeast1-a',
    machineType: 'n1-standard-4',
    status: 'STOPPED',
  });
  notebookId = notebook.id;
  home = path.join(dataDir, 'workbenches', workbenchId, 'notebooks', notebookId, 'home');
  writeHome('good.csv', GOOD);
  writeHome('plot.png', PNG);
  writeHome('notes.txt', 'How the tables were made.\n');
  writeHome('out/small.csv', 'age_band,patients\n40-49,120\n50-59,7\n60-69,40\n');
  writeHome('out/zero.csv', 'age_band,patients\n40-49,120\n50-59,0\n60-69,40\n');
  writeHome(
    'out/cost.csv',
    'region,patients,cost [magnitude],cost__max1,cost__max2\nNorth,30,10000,900,800\nSouth,25,50000,46000,1000\n',
  );
  writeHome('out/ids.csv', `person_id,visits\n${personIds.slice(0, 30).map((id, i) => `${id},${i + 1}`).join('\n')}\n`);
  writeHome('out/person-copy.csv', releasedPersonCsv);
  writeHome('out/person-subset.csv', `${lines[0]}\n${lines.slice(1, 4).join('\n')}\n`);
  writeHome('.hidden.csv', GOOD);
  writeHome('program.exe', 'MZ');
  fs.symlinkSync('/etc/passwd', path.join(home, 'link.csv'));
}, 180_000);

afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a release request and its files', () => {
  it('is created by OWNER and WRITER members only; a READER gets 403, an outsider 404', async () => {
    expect((await api(otto, 'POST', `/workbenches/${workbenchId}/release-requests/`, { title: 'Mine' })).statusCode).toBe(403);
    expect((await api(bob, 'POST', `/workbenches/${workbenchId}/release-requests/`, { title: 'Mine' })).statusCode).toBe(404);
    expect((await api(bob, 'GET', `/workbenches/${workbenchId}/release-requests/`)).statusCode).toBe(404);
    const created = await api(wendy, 'POST', `/workbenches/${workbenchId}/release-requests/`, { title: 'Wendy’s tables' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ state: 'PENDING', author: { id: wendy.user.id }, required_reviews: 2, abilities: { edit: true, submit: true } });
    // Another member sees it but may not change it.
    const byRita = await api(rita, 'POST', `/release-requests/${created.json().id}/groups/`, { name: 'x', context: 'Some context here.', controls: 'Some controls here.' });
    expect(byRita.statusCode).toBe(403);
    expect((await api(bob, 'GET', `/release-requests/${created.json().id}/`)).statusCode).toBe(404);
  });

  it('lists the files of the caller’s own notebooks, without hidden files, links or the released data', async () => {
    const response = await api(rita, 'GET', `/workbenches/${workbenchId}/outputs/files/`);
    expect(response.statusCode, response.body).toBe(200);
    const paths = response.json().files.map((f: { path: string }) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['good.csv', 'plot.png', 'out/small.csv', 'program.exe']));
    expect(paths.some((p: string) => p.startsWith('.') || p.startsWith('released') || p === 'link.csv')).toBe(false);
    expect(response.json().files.find((f: { path: string }) => f.path === 'program.exe').refusal).toMatch(/cannot be released/);
    // Wendy has no notebook: nothing of Rita's is offered to her.
    expect((await api(wendy, 'GET', `/workbenches/${workbenchId}/outputs/files/`)).json().files).toEqual([]);
  });

  it('refuses a group without context, and files it cannot take, with a detail', async () => {
    const { id, groupId } = await newRequest('Refusals');
    const bad = await api(rita, 'POST', `/release-requests/${id}/groups/`, { name: 'Empty', context: 'short', controls: 'Counts under 20 suppressed.' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^body\.context/);
    for (const [filePath, detail] of [
      ['program.exe', /\.exe cannot be released/],
      ['.hidden.csv', /not a file of this notebook's home/],
      ['link.csv', /not a file of this notebook's home/],
      ['released/cohorts/x/person.csv', /not a file of this notebook's home/],
      ['../../../../etc/passwd.csv', /not a file of this notebook's home/],
    ] as const) {
      const response = await api(rita, 'POST', `/release-requests/${id}/files/`, { notebook_id: notebookId, path: filePath, group_id: groupId });
      expect(response.statusCode, filePath).toBe(400);
      expect(response.json().detail).toMatch(detail);
    }
    // Someone else's notebook is not a source.
    const wendys = await api(wendy, 'POST', `/workbenches/${workbenchId}/release-requests/`, { title: 'Wendy again' });
    const wendyGroup = await api(wendy, 'POST', `/release-requests/${wendys.json().id}/groups/`, { name: 'G', context: 'Some context here.', controls: 'Some controls here.' });
    const stolen = await api(wendy, 'POST', `/release-requests/${wendys.json().id}/files/`, { notebook_id: notebookId, path: 'good.csv', group_id: wendyGroup.json().groups[0].id });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().detail).toMatch(/^body\.notebook_id/);
  });
});

describe('the automatic checks', () => {
  let checksRequest: ReleaseRequest;

  beforeAll(async () => {
    const { id, groupId } = await newRequest('Known verdicts');
    for (const file of ['good.csv', 'out/small.csv', 'out/zero.csv', 'out/ids.csv', 'out/person-copy.csv', 'out/person-subset.csv', 'plot.png']) await add(id, groupId, file);
    await add(id, groupId, 'out/cost.csv');
    checksRequest = await checked(id);
  });

  it('labels each file with its verdict, reasons and cells, and keeps the parameters and version', () => {
    const good = fileNamed(checksRequest, 'good.csv');
    expect(good.checks).toMatchObject({ state: 'DONE', verdict: 'PASS', findings: [], checks_version: '1.0.0' });
    expect(good.checks.parameters).toMatchObject({ min_count: 20, zeros_disclosive: true, rounding_base: 0, dominance_p: 0.1, dominance_n: 2, dominance_k: 0.9 });
    expect(good.sha256).toBe(createHash('sha256').update(GOOD).digest('hex'));

    const small = fileNamed(checksRequest, 'small.csv');
    expect(small.checks.verdict).toBe('FAIL');
    expect(small.checks.findings).toEqual([expect.objectContaining({ check: 'min_count', verdict: 'FAIL', cells: [{ row: 2, column: 'patients' }] })]);

    const zero = fileNamed(checksRequest, 'zero.csv');
    expect(zero.checks.findings).toEqual([expect.objectContaining({ check: 'zeros', verdict: 'FAIL', cells: [{ row: 2, column: 'patients' }] })]);

    const cost = fileNamed(checksRequest, 'cost.csv');
    expect(cost.checks.verdict).toBe('FAIL');
    expect(cost.checks.findings).toEqual([expect.objectContaining({ check: 'dominance', cells: [{ row: 2, column: 'cost [magnitude]' }] })]);

    const ids = fileNamed(checksRequest, 'ids.csv');
    expect(ids.checks.verdict).toBe('FAIL');
    expect(findingsOf(ids)).toContainEqual(['person_ids', 'FAIL']);
    expect(ids.checks.findings.find((f) => f.check === 'person_ids')!.cells).toHaveLength(30);

    const copy = fileNamed(checksRequest, 'person-copy.csv');
    expect(copy.checks.findings.find((f) => f.check === 'released_data')!.message).toMatch(/identical to the released data file released\/cohorts\/.*person\.csv\.gz/);
    const subset = fileNamed(checksRequest, 'person-subset.csv');
    expect(subset.checks.findings.find((f) => f.check === 'released_data')!.message).toMatch(/Every row of the file is a row of the released data/);

    expect(fileNamed(checksRequest, 'plot.png').checks).toMatchObject({ verdict: 'REVIEW', findings: [expect.objectContaining({ check: 'not_a_table' })] });
  });

  it('checks a new version again and audits each result with its parameters', async () => {
    writeHome('out/small.csv', 'age_band,patients\n40-49,120\n50-59,25\n60-69,40\n');
    const groupId = checksRequest.groups[0]!.id;
    await add(checksRequest.id, groupId, 'out/small.csv');
    const again = await checked(checksRequest.id);
    expect(fileNamed(again, 'small.csv')).toMatchObject({ version: 2, checks: { verdict: 'PASS' } });
    const audited = await rowsOf(sql`select details from audit_log where event_type = 'OUTPUT_CHECKS_FINISHED' and resource_id = ${checksRequest.id} order by seq`);
    expect(audited).toHaveLength(9);
    expect(audited.at(-1)!.details).toMatchObject({ verdict: 'PASS', version: 2, checks_version: '1.0.0', parameters: expect.objectContaining({ min_count: 20 }) });
  });

  it('withdraws a request the author no longer wants (PENDING → WITHDRAWN), and then nothing more moves it', async () => {
    const withdrawn = await api(rita, 'POST', `/release-requests/${checksRequest.id}/withdraw/`);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json().state).toBe('WITHDRAWN');
    const submit = await api(rita, 'POST', `/release-requests/${checksRequest.id}/submit/`);
    expect(submit.statusCode).toBe(409);
    expect(submit.json().detail).toBe('The release request "Known verdicts" is WITHDRAWN; it can be submitted only when it is PENDING or RETURNED.');
  });
});

describe('review, the state machine and release', () => {
  let requestId: string;
  let groupId: string;

  it('refuses to submit an empty request, then submits (PENDING → SUBMITTED) and mails the checkers', async () => {
    ({ id: requestId, groupId } = await newRequest('Diabetes by age'));
    const empty = await api(rita, 'POST', `/release-requests/${requestId}/submit/`);
    expect(empty.statusCode).toBe(409);
    expect(empty.json().detail).toMatch(/no output file/);
    await add(requestId, groupId, 'good.csv');
    await add(requestId, groupId, 'plot.png');
    await add(requestId, groupId, 'notes.txt', { kind: 'SUPPORTING' });
    await checked(requestId);
    // A checker cannot see a request that was never submitted.
    expect((await api(stella, 'GET', `/release-requests/${requestId}/`)).statusCode).toBe(404);
    const submitted = await api(rita, 'POST', `/release-requests/${requestId}/submit/`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json()).toMatchObject({ state: 'SUBMITTED', round: 1 });
    const outbox = fs.readdirSync(path.join(dataDir, 'outbox')).map((f) => fs.readFileSync(path.join(dataDir, 'outbox', f), 'utf8'));
    const toReview = outbox.filter((m) => m.includes('Outputs to review: Diabetes by age'));
    // Stella and Sam, not Mona (a member) nor anyone without the role.
    expect(toReview.map((m) => /^To: (.*)$/m.exec(m)![1]).sort()).toEqual(['sam@example.org', 'stella@example.org']);
  });

  it('answers 409 with the table’s words for every action its state does not allow', async () => {
    const cases: [Account, string, object | undefined, RegExp][] = [
      [rita, 'submit', undefined, /is SUBMITTED; it can be submitted only when it is PENDING or RETURNED/],
      [stella, 'approve', undefined, /is SUBMITTED; it can be approved only when it is REVIEWED/],
      [stella, 'return', {}, /is SUBMITTED; it can be returned only when it is REVIEWED/],
      [stella, 'reject', {}, /is SUBMITTED; it can be rejected only when it is REVIEWED/],
      [stella, 'release', undefined, /is SUBMITTED; it can be released only when it is APPROVED/],
    ];
    for (const [account, action, body, detail] of cases) {
      const response = await api(account, 'POST', `/release-requests/${requestId}/${action}/`, body);
      expect(response.statusCode, action).toBe(409);
      expect(response.json().detail).toMatch(detail);
    }
    const edit = await api(rita, 'POST', `/release-requests/${requestId}/files/`, { notebook_id: notebookId, path: 'good.csv', group_id: groupId });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().detail).toMatch(/it can be changed only when it is PENDING or RETURNED/);
  });

  it('lets no author, workbench member or user without outputs:review check it', async () => {
    const request = (await api(stella, 'GET', `/release-requests/${requestId}/`)).json() as ReleaseRequest;
    const fileId = fileNamed(request, 'good.csv').id;
    const byMember = await api(mona, 'PUT', `/release-requests/${requestId}/files/${fileId}/vote/`, { vote: 'APPROVE' });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().detail).toMatch(/members of the workbench may not review/);
    expect((await api(rita, 'PUT', `/release-requests/${requestId}/files/${fileId}/vote/`, { vote: 'APPROVE' })).statusCode).toBe(403);
    expect((await api(bob, 'POST', `/release-requests/${requestId}/review/`)).statusCode).toBe(403);
    expect((await api(bob, 'GET', `/review/release-requests/`)).statusCode).toBe(403);
    // Mona's own request, as a data steward: she may never review it, and it is not in her queue.
    const hers = await api(mona, 'POST', `/workbenches/${workbenchId}/release-requests/`, { title: 'Mona’s table' });
    expect((await api(mona, 'POST', `/release-requests/${hers.json().id}/approve/`)).json().detail).toMatch(/the author of a request may never review it/);
    const queue = (await api(mona, 'GET', '/review/release-requests/')).json() as ReleaseRequestList;
    expect(queue.requests).toEqual([]);
    const stellas = (await api(stella, 'GET', '/review/release-requests/')).json() as ReleaseRequestList;
    expect(stellas.requests.map((r) => r.id)).toContain(requestId);
    const denied = await rowsOf(sql`select count(*)::int as n from audit_log where event_type = 'ACCESS_DENIED' and resource_id = ${requestId}`);
    expect(denied[0]!.n).toBeGreaterThanOrEqual(2);
  });

  it('needs a comment for a vote against the automatic verdict, and keeps votes blind until both reviews are in', async () => {
    const request = (await api(stella, 'GET', `/release-requests/${requestId}/`)).json() as ReleaseRequest;
    const good = fileNamed(request, 'good.csv');
    const against = await api(stella, 'PUT', `/release-requests/${requestId}/files/${good.id}/vote/`, { vote: 'CHANGES' });
    expect(against.statusCode).toBe(400);
    expect(against.json().detail).toMatch(/^body\.comment: your vote goes against the automatic checks \(PASS\)/);
    const supporting = fileNamed(request, 'notes.txt');
    expect((await api(stella, 'PUT', `/release-requests/${requestId}/files/${supporting.id}/vote/`, { vote: 'APPROVE' })).statusCode).toBe(409);
    const early = await api(stella, 'POST', `/release-requests/${requestId}/review/`);
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toMatch(/Vote on every output file first/);

    const afterStella = await reviewAll(requestId, stella, { 'plot.png': 'CHANGES' });
    expect(afterStella).toMatchObject({ state: 'PARTIALLY_REVIEWED', reviews_in: 1, my_review_submitted: true });
    await api(stella, 'POST', `/release-requests/${requestId}/comments/`, { body: 'The axis labels give exact counts.', visibility: 'PRIVATE', file_id: fileNamed(afterStella, 'plot.png').id });
    // Sam sees neither Stella's votes nor her private comment.
    const samSees = (await api(sam, 'GET', `/release-requests/${requestId}/`)).json() as ReleaseRequest;
    expect(filesOf(samSees).flatMap((f) => f.votes)).toEqual([]);
    expect(samSees.comments).toEqual([]);
    expect(samSees.votes_unblinded).toBe(false);
    // Once Sam's review is in (PARTIALLY_REVIEWED → REVIEWED), each sees the other's.
    const afterSam = await reviewAll(requestId, sam);
    expect(afterSam).toMatchObject({ state: 'REVIEWED', reviews_in: 2, votes_unblinded: true });
    expect(fileNamed(afterSam, 'plot.png').votes.map((v) => [v.reviewer.email, v.vote]).sort()).toEqual([
      ['sam@example.org', 'APPROVE'],
      ['stella@example.org', 'CHANGES'],
    ]);
    expect(afterSam.comments.map((c) => c.visibility)).toEqual(['PRIVATE']);
    // The author sees no votes and no private comments.
    const ritaSees = (await api(rita, 'GET', `/release-requests/${requestId}/`)).json() as ReleaseRequest;
    expect(filesOf(ritaSees).flatMap((f) => f.votes)).toEqual([]);
    expect(ritaSees.comments).toEqual([]);
  });

  it('refuses approval while a file lacks approvals, returns it (REVIEWED → RETURNED), and takes a resubmission with fresh votes for a new version', async () => {
    const approve = await api(stella, 'POST', `/release-requests/${requestId}/approve/`);
    expect(approve.statusCode).toBe(409);
    expect(approve.json().detail).toMatch(/"plot\.png" has 1/);
    const returned = await api(stella, 'POST', `/release-requests/${requestId}/return/`, { comment: 'Please take the exact counts off the plot.' });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(returned.json().state).toBe('RETURNED');
    const ritaSees = (await api(rita, 'GET', `/release-requests/${requestId}/`)).json() as ReleaseRequest;
    expect(ritaSees.comments.map((c) => c.body)).toEqual(['Please take the exact counts off the plot.']);
    expect(ritaSees.abilities).toMatchObject({ edit: true, submit: true, download: false });

    writeHome('plot.png', Buffer.concat([PNG, Buffer.from([0])]));
    const replaced = await add(requestId, groupId, 'plot.png');
    expect(fileNamed(replaced, 'plot.png').version).toBe(2);
    await checked(requestId);
    const resubmitted = await api(rita, 'POST', `/release-requests/${requestId}/submit/`);
    expect(resubmitted.json()).toMatchObject({ state: 'SUBMITTED', round: 2 });
    // The new version has no votes; the unchanged file keeps them for its checkers to confirm.
    const stellaSees = (await api(stella, 'GET', `/release-requests/${requestId}/`)).json() as ReleaseRequest;
    expect(fileNamed(stellaSees, 'plot.png').votes).toEqual([]);
    expect(fileNamed(stellaSees, 'good.csv').votes.map((v) => v.vote)).toEqual(['APPROVE']);
  });

  it('approves (REVIEWED → APPROVED) and releases (APPROVED → RELEASED) a package whose manifest matches its files', async () => {
    await reviewAll(requestId, stella);
    await reviewAll(requestId, sam);
    const approved = await api(sam, 'POST', `/release-requests/${requestId}/approve/`);
    expect(approved.json().state).toBe('APPROVED');
    expect((await api(rita, 'GET', `/release-requests/${requestId}/package/`)).statusCode).toBe(409);
    const released = await api(stella, 'POST', `/release-requests/${requestId}/release/`);
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({ state: 'RELEASED', abilities: { download: false } });

    const download = await api(rita, 'GET', `/release-requests/${requestId}/package/`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    const zip = download.rawPayload;
    expect(createHash('sha256').update(zip).digest('hex')).toBe(released.json().package.sha256);
    const entries = unzipSync(new Uint8Array(zip));
    // Output files and the manifest; never the supporting file.
    expect(Object.keys(entries).sort()).toEqual(['files/good.csv', 'files/plot.png', 'manifest.json']);
    const manifest = JSON.parse(Buffer.from(entries['manifest.json']!).toString('utf8'));
    for (const file of manifest.files) {
      const bytes = entries[`files/${file.name}`]!;
      expect(createHash('sha256').update(bytes).digest('hex'), file.name).toBe(file.sha256);
      expect(bytes.length).toBe(file.size_bytes);
      expect(file.reviews.map((r: { reviewer: string }) => r.reviewer).sort()).toEqual(['sam@example.org', 'stella@example.org']);
      expect(file.checks.parameters).toMatchObject({ min_count: 20 });
    }
    expect(Buffer.from(entries['files/good.csv']!).toString('utf8')).toBe(GOOD);
    expect(manifest.groups[0]).toMatchObject({ context: expect.stringMatching(/age band/), controls: expect.stringMatching(/suppressed/) });
    expect(manifest.request).toMatchObject({ author: 'rita@example.org', released_by: 'stella@example.org', round: 2 });

    // The workbench's OWNER is Rita; a WRITER who is not the author, a READER and outsiders get nothing.
    expect((await api(wendy, 'GET', `/release-requests/${requestId}/package/`)).statusCode).toBe(403);
    expect((await api(otto, 'GET', `/release-requests/${requestId}/package/`)).statusCode).toBe(403);
    expect((await api(bob, 'GET', `/release-requests/${requestId}/package/`)).statusCode).toBe(404);
    const withdraw = await api(rita, 'POST', `/release-requests/${requestId}/withdraw/`);
    expect(withdraw.statusCode).toBe(409);
  });

  it('audited every step in order, and mailed the author on return, approval and release', async () => {
    const events = (await rowsOf(sql`select event_type from audit_log where resource_id = ${requestId} and outcome = 'SUCCESS' order by seq`)).map((r) => r.event_type);
    const steps = events.filter((e) => e !== 'OUTPUT_CHECKS_FINISHED' && e !== 'OUTPUT_VOTE_CAST');
    expect(steps).toEqual([
      'OUTPUT_REQUEST_CREATED',
      'OUTPUT_GROUP_SAVED',
      'OUTPUT_FILE_ADDED',
      'OUTPUT_FILE_ADDED',
      'OUTPUT_FILE_ADDED',
      'OUTPUT_REQUEST_SUBMITTED',
      'OUTPUT_REVIEW_SUBMITTED',
      'OUTPUT_COMMENT_ADDED',
      'OUTPUT_REVIEW_SUBMITTED',
      'OUTPUT_REQUEST_RETURNED',
      'OUTPUT_FILE_ADDED',
      'OUTPUT_REQUEST_RESUBMITTED',
      'OUTPUT_REVIEW_SUBMITTED',
      'OUTPUT_REVIEW_SUBMITTED',
      'OUTPUT_REQUEST_APPROVED',
      'OUTPUT_REQUEST_RELEASED',
      'OUTPUT_PACKAGE_DOWNLOADED',
    ]);
    // Two checkers, two output files, two rounds.
    expect(events.filter((e) => e === 'OUTPUT_VOTE_CAST').length).toBe(8);
    expect(events).toContain('OUTPUT_CHECKS_FINISHED');
    const toRita = fs
      .readdirSync(path.join(dataDir, 'outbox'))
      .map((f) => fs.readFileSync(path.join(dataDir, 'outbox', f), 'utf8'))
      .filter((m) => /^To: rita@example\.org$/m.test(m))
      .map((m) => /^Subject: (.*)$/m.exec(m)![1]);
    expect(toRita.sort()).toEqual(['Release request approved: Diabetes by age', 'Release request released: Diabetes by age', 'Release request returned: Diabetes by age']);
  });

  it('fails a new table that differs by a small count from a table already released (differencing)', async () => {
    writeHome('out/diff.csv', 'age_band,patients\n40-49,123\n50-59,85\n60-69,40\n');
    const { id, groupId: group } = await newRequest('A little later');
    await add(id, group, 'out/diff.csv');
    const request = await checked(id);
    const diff = fileNamed(request, 'diff.csv');
    expect(diff.checks.verdict).toBe('FAIL');
    expect(diff.checks.findings).toEqual([
      expect.objectContaining({ check: 'differencing', cells: [{ row: 1, column: 'patients' }], message: expect.stringMatching(/good\.csv \(request "Diabetes by age"\)/) }),
    ]);
    expect(diff.checks.parameters).toMatchObject({ released_tables: 1 });
  });

  it('rejects a reviewed request (REVIEWED → REJECTED) and tells its author', async () => {
    const { id, groupId: group } = await newRequest('Person rows');
    await add(id, group, 'out/ids.csv');
    await checked(id);
    expect((await api(rita, 'POST', `/release-requests/${id}/submit/`)).statusCode).toBe(200);
    await reviewAll(id, stella, { 'ids.csv': 'CHANGES' });
    await reviewAll(id, sam, { 'ids.csv': 'CHANGES' });
    const rejected = await api(sam, 'POST', `/release-requests/${id}/reject/`, { comment: 'Person identifiers may not leave.' });
    expect(rejected.json()).toMatchObject({ state: 'REJECTED', abilities: { withdraw: false, submit: false } });
    expect((await api(rita, 'POST', `/release-requests/${id}/withdraw/`)).statusCode).toBe(409);
    const audited = await rowsOf(sql`select details from audit_log where event_type = 'OUTPUT_REQUEST_REJECTED' and resource_id = ${id}`);
    expect(audited[0]!.details).toMatchObject({ reason: 'Person identifiers may not leave.' });
  });
});
