import { createHash } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  OUTPUT_FILE_TYPES,
  OUTPUT_LIMITS,
  RELEASE_REQUEST_TRANSITIONS,
  releaseActionAllowed,
  type AuditEventType,
  type ReleaseCommentInput,
  type ReleaseFileAdd,
  type ReleaseGroupInput,
  type ReleaseRequest,
  type ReleaseRequestAction,
  type ReleaseRequestCreate,
  type ReleaseRequestList,
  type ReleaseVoteInput,
} from '@hdp/contract';
import type { AppServices } from '../app-services';
import { appendAuditEntry, recordAuditEvent, type AuditContext } from '../audit/audit-trail';
import type { DbOrTx } from '../db/database';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/api-error';
import { jobRepository } from '../jobs/job-repository';
import { openHomeFile } from '../notebooks/home-files';
import { notebookRepository } from '../notebooks/notebook-repository';
import type { UserRow } from '../users/user-repository';
import { loadVisibleWorkbench } from '../workbenches/workbench-commands';
import { OUTPUT_CHECKS_JOB } from './output-checks-job';
import { loadRequest, requireAuthor, requireChecker, type RequestAccess } from './release-access';
import { notifyAuthor, notifyCheckers } from './release-mail';
import { buildPackage } from './release-package';
import { presentRequest, presentSummary } from './release-presenter';
import { releaseRepository, type ReleaseFileRow, type ReleaseRequestRow } from './release-repository';

/** Where a notebook's home is in the workbench's storage (see workbench-storage.ts). */
export const notebookHomeKey = (workbenchId: string, notebookId: string) => `${workbenchId}/notebooks/${notebookId}/home`;
const requestKey = (workbenchId: string, requestId: string) => `${workbenchId}/outputs/${requestId}`;

/** The content types of the name endings this server accepts. */
export function acceptedTypes(services: AppServices): Record<string, string> {
  return Object.fromEntries(services.config.outputs.fileTypes.map((ending) => [ending, OUTPUT_FILE_TYPES[ending]!.contentType]));
}

/** The request as this caller sees it, read again. */
export async function requestDetail(services: AppServices, actor: UserRow, access: RequestAccess): Promise<ReleaseRequest> {
  const { db } = services;
  const request = (await releaseRepository.find(db, access.request.id))!;
  const [groups, files, votes, comments, reviewers] = await Promise.all([
    releaseRepository.groups(db, request.id),
    releaseRepository.files(db, request.id),
    releaseRepository.votes(db, request.id),
    releaseRepository.comments(db, request.id),
    releaseRepository.reviewers(db, request.id, request.round),
  ]);
  return presentRequest({ ...access, request }, { groups, files, votes, comments, reviewers }, actor);
}

const PAST: Record<ReleaseRequestAction, string> = {
  edit: 'changed',
  submit: 'submitted',
  withdraw: 'withdrawn',
  review: 'reviewed',
  return: 'returned',
  reject: 'rejected',
  approve: 'approved',
  release: 'released',
};

/** 409 with the table's own words: the state now and the states the action needs. */
function refuse(action: ReleaseRequestAction, request: Pick<ReleaseRequestRow, 'title' | 'state'>): ApiError {
  const from = RELEASE_REQUEST_TRANSITIONS[action].from.join(' or ');
  return conflict(`The release request "${request.title}" is ${request.state}; it can be ${PAST[action]} only when it is ${from}.`);
}

/**
 * Runs `change` on the locked request when `action` is allowed from its state, with the audit entry
 * in the same transaction.
 */
async function withRequest<T>(
  services: AppServices,
  access: RequestAccess,
  action: ReleaseRequestAction,
  change: (tx: DbOrTx, current: ReleaseRequestRow) => Promise<T>,
): Promise<T> {
  return services.db.transaction(async (tx) => {
    const current = await releaseRepository.lock(tx, access.request.id);
    if (!current) throw notFound('Release request does not exist.');
    if (!releaseActionAllowed(action, current.state)) throw refuse(action, current);
    return change(tx, current);
  });
}

const audit = (tx: DbOrTx, context: AuditContext, eventType: AuditEventType, requestId: string, message: string, details: Record<string, unknown> = {}) =>
  appendAuditEntry(tx, context, { eventType, outcome: 'SUCCESS', message, resourceType: 'release_request', resourceId: requestId, details });

// ---------------------------------------------------------------------------------------------
// The author's side

export async function listRequests(services: AppServices, actor: UserRow, workbenchId: string, page: { skip: number; limit: number }, context: AuditContext): Promise<ReleaseRequestList> {
  await loadVisibleWorkbench(services, actor, workbenchId, context);
  const { rows, total } = await releaseRepository.listForWorkbench(services.db, workbenchId, page);
  return { requests: rows.map(presentSummary), total, total_capped: false };
}

export async function createRequest(services: AppServices, actor: UserRow, workbenchId: string, input: ReleaseRequestCreate, context: AuditContext): Promise<ReleaseRequest> {
  const { myRole } = await loadVisibleWorkbench(services, actor, workbenchId, context);
  if (myRole === null) throw forbidden('Only members of this workbench may request the release of its outputs.');
  if (myRole === 'READER') throw forbidden('READERs of a workbench may not request releases; ask an OWNER for the WRITER role.');
  const created = await services.db.transaction(async (tx) => {
    const row = await releaseRepository.insertRequest(tx, { workbenchId, authorId: actor.id, title: input.title, requiredReviews: services.config.outputs.requiredReviews });
    await audit(tx, context, 'OUTPUT_REQUEST_CREATED', row.id, `${actor.email} started release request "${input.title}"`, { workbench_id: workbenchId });
    return row;
  });
  return requestDetail(services, actor, await loadRequest(services, actor, created.id, context));
}

export async function saveGroup(services: AppServices, actor: UserRow, requestId: string, groupId: string | null, input: ReleaseGroupInput, context: AuditContext): Promise<ReleaseRequest> {
  const access = await loadRequest(services, actor, requestId, context);
  await requireAuthor(services, actor, access, 'change', context);
  await withRequest(services, access, 'edit', async (tx) => {
    const groups = await releaseRepository.groups(tx, requestId);
    if (groups.some((g) => g.name === input.name && g.id !== groupId)) throw conflict(`body.name: this request already has a group named "${input.name}".`);
    if (groupId === null) {
      if (groups.length >= OUTPUT_LIMITS.maxGroups) throw conflict(`A request holds at most ${OUTPUT_LIMITS.maxGroups} groups.`);
      groupId = (await releaseRepository.insertGroup(tx, { requestId, ...input })).id;
    } else {
      if (!groups.some((g) => g.id === groupId)) throw notFound('This request has no such group.');
      await releaseRepository.updateGroup(tx, groupId, input);
    }
    await releaseRepository.update(tx, requestId, {});
    await audit(tx, context, 'OUTPUT_GROUP_SAVED', requestId, `${actor.email} saved group "${input.name}" of release request "${access.request.title}"`, {
      group_id: groupId,
      name: input.name,
      context: input.context,
      controls: input.controls,
    });
  });
  return requestDetail(services, actor, access);
}

/** Reads a home file whole (it is at most the configured size), refusing what the airlock does not take. */
async function readHomeFile(services: AppServices, workbenchId: string, notebookId: string, relative: string): Promise<{ bytes: Buffer; contentType: string; name: string }> {
  const ending = path.extname(relative).toLowerCase();
  const types = acceptedTypes(services);
  if (!types[ending]) throw badRequest(`body.path: ${ending || 'a file without an ending'} cannot be released; the airlock takes ${Object.keys(types).join(', ')}.`);
  const file = await openHomeFile(services.workbenchStore.localPath(notebookHomeKey(workbenchId, notebookId)), relative, types);
  if (!file) throw badRequest(`body.path: "${relative}" is not a file of this notebook's home (hidden files, links and the released data cannot be added).`);
  try {
    const limit = services.config.outputs.maxFileBytes;
    if (file.size > limit) throw new ApiError(413, `body.path: "${relative}" has ${file.size} bytes; the airlock takes files of at most ${limit} bytes.`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of file.stream) {
      size += (chunk as Buffer).length;
      if (size > limit) throw new ApiError(413, `body.path: "${relative}" grew past ${limit} bytes while it was read.`);
      chunks.push(chunk as Buffer);
    }
    return { bytes: Buffer.concat(chunks), contentType: file.contentType, name: file.name };
  } finally {
    await file.close();
  }
}

/**
 * Copies a file of the author's own notebook into the request (the bytes reviewed are the bytes
 * copied now), and queues its automatic checks in the same transaction. The same path of the
 * same notebook added again to the same group is a new version: its votes are reset.
 */
export async function addFile(services: AppServices, actor: UserRow, requestId: string, input: ReleaseFileAdd, context: AuditContext): Promise<ReleaseRequest> {
  const access = await loadRequest(services, actor, requestId, context);
  await requireAuthor(services, actor, access, 'add files to', context);
  const { workbenchId } = access.request;
  if (!releaseActionAllowed('edit', access.request.state)) throw refuse('edit', access.request);
  const notebook = await notebookRepository.findInWorkbench(services.db, workbenchId, input.notebook_id);
  if (!notebook || notebook.ownerId !== actor.id) throw badRequest('body.notebook_id: not one of your notebooks in this workbench.');
  const relative = input.path.replace(/^\/+/, '');
  const { bytes, contentType, name } = await readHomeFile(services, workbenchId, notebook.id, relative);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const store = services.workbenchStore;
  let storedKey: string | undefined;
  let replacedKey: string | undefined;
  try {
    await withRequest(services, access, 'edit', async (tx) => {
      const groups = await releaseRepository.groups(tx, requestId);
      if (!groups.some((g) => g.id === input.group_id)) throw badRequest('body.group_id: this request has no such group.');
      const files = await releaseRepository.files(tx, requestId);
      const existing = files.find((f) => f.groupId === input.group_id && f.notebookId === notebook.id && f.sourcePath === relative);
      const clash = files.find((f) => f !== existing && f.name === name);
      if (clash) throw conflict(`body.path: a file named "${name}" is already in this request; rename one of them in your notebook.`);
      if (!existing && files.length >= OUTPUT_LIMITS.maxFiles) throw conflict(`A request holds at most ${OUTPUT_LIMITS.maxFiles} files.`);
      const version = (existing?.version ?? 0) + 1;
      const fields = {
        kind: input.kind,
        contentType,
        sizeBytes: bytes.length,
        sha256,
        version,
        magnitudeColumn: input.magnitude_column ?? null,
        addedAt: new Date(),
        checkState: 'PENDING' as const,
        checkVerdict: null,
        checkFindings: [],
        checkParameters: {},
        checksVersion: null,
        checkedAt: null,
        checkError: null,
      };
      let file: Pick<ReleaseFileRow, 'id'>;
      if (existing) {
        storedKey = `${requestKey(workbenchId, requestId)}/files/${existing.id}-v${version}${path.extname(name).toLowerCase()}`;
        await store.write(storedKey, Readable.from(bytes));
        replacedKey = existing.storageKey;
        await releaseRepository.updateFile(tx, existing.id, { ...fields, storageKey: storedKey });
        await releaseRepository.deleteVotesOfFile(tx, existing.id);
        file = existing;
      } else {
        file = await releaseRepository.insertFile(tx, { requestId, groupId: input.group_id, notebookId: notebook.id, sourcePath: relative, name, storageKey: 'pending', ...fields });
        storedKey = `${requestKey(workbenchId, requestId)}/files/${file.id}-v1${path.extname(name).toLowerCase()}`;
        await store.write(storedKey, Readable.from(bytes));
        await releaseRepository.updateFile(tx, file.id, { storageKey: storedKey });
      }
      await releaseRepository.update(tx, requestId, {});
      await jobRepository.enqueue(tx, { kind: OUTPUT_CHECKS_JOB, payload: { fileId: file.id, version }, subject: workbenchId, maxAttempts: 2 });
      await audit(tx, context, 'OUTPUT_FILE_ADDED', requestId, `${actor.email} added "${name}" (version ${version}) to release request "${access.request.title}"`, {
        file_id: file.id,
        notebook_id: notebook.id,
        path: relative,
        kind: input.kind,
        version,
        sha256,
        size_bytes: bytes.length,
        votes_reset: existing !== undefined,
      });
    });
  } catch (error) {
    if (storedKey) await store.remove(storedKey).catch(() => undefined);
    throw error;
  }
  if (replacedKey) await store.remove(replacedKey).catch(() => undefined);
  services.jobs.wake();
  return requestDetail(services, actor, access);
}

export async function removeFile(services: AppServices, actor: UserRow, requestId: string, fileId: string, context: AuditContext): Promise<ReleaseRequest> {
  const access = await loadRequest(services, actor, requestId, context);
  await requireAuthor(services, actor, access, 'remove files from', context);
  const removed = await withRequest(services, access, 'edit', async (tx) => {
    const file = await releaseRepository.findFile(tx, requestId, fileId);
    if (!file) throw notFound('This request has no such file.');
    await releaseRepository.deleteFile(tx, fileId);
    await releaseRepository.update(tx, requestId, {});
    await audit(tx, context, 'OUTPUT_FILE_REMOVED', requestId, `${actor.email} removed "${file.name}" from release request "${access.request.title}"`, { file_id: fileId, sha256: file.sha256 });
    return file;
  });
  await services.workbenchStore.remove(removed.storageKey).catch(() => undefined);
  return requestDetail(services, actor, access);
}

export async function submitRequest(services: AppServices, actor: UserRow, requestId: string, context: AuditContext): Promise<ReleaseRequest> {
  const access = await loadRequest(services, actor, requestId, context);
  await requireAuthor(services, actor, access, 'submit', context);
  const resubmitted = await withRequest(services, access, 'submit', async (tx, current) => {
    const files = await releaseRepository.files(tx, requestId);
    if (!files.some((f) => f.kind === 'OUTPUT')) throw conflict('The request has no output file: add at least one before submitting.');
    const running = files.filter((f) => f.checkState === 'PENDING');
    if (running.length > 0) throw conflict(`The automatic checks of ${running.map((f) => `"${f.name}"`).join(', ')} are still running; submit once they are done.`);
    const again = current.state === 'RETURNED';
    const round = current.round + 1;
    await releaseRepository.update(tx, requestId, { state: 'SUBMITTED', round, submittedAt: new Date() });
    await audit(tx, context, again ? 'OUTPUT_REQUEST_RESUBMITTED' : 'OUTPUT_REQUEST_SUBMITTED', requestId, `${actor.email} ${again ? 'resubmitted' : 'submitted'} release request "${current.title}"`, {
      from: current.state,
      round,
      files: files.map((f) => ({ id: f.id, name: f.name, kind: f.kind, version: f.version, sha256: f.sha256, verdict: f.checkVerdict })),
    });
    return again;
  });
  await notifyCheckers(services, access.request, resubmitted);
  return requestDetail(services, actor, access);
}

export async function withdrawRequest(services: AppServices, actor: UserRow, requestId: string, context: AuditContext): Promise<ReleaseRequest> {
  const access = await loadRequest(services, actor, requestId, context);
  await requireAuthor(services, actor, access, 'withdraw', context);
  await withRequest(services, access, 'withdraw', async (tx, current) => {
    await releaseRepository.update(tx, requestId, { state: 'WITHDRAWN' });
    await audit(tx, context, 'OUTPUT_REQUEST_WITHDRAWN', requestId, `${actor.email} withdrew release request "${current.title}"`, { from: current.state });
  });
  return requestDetail(services, actor, access);
}

// ---------------------------------------------------------------------------------------------
// The checkers' side

export async function reviewQueue(services: AppServices, actor: UserRow, page: { skip: number; limit: number }): Promise<ReleaseRequestList> {
  const { rows, total } = await releaseRepository.listForReviewer(services.db, actor.id, page);
  return { requests: rows.map(presentSummary), total, total_capped: false };
}

export async function vote(services: AppServices, actor: UserRow, requestId: string, fileId: string, input: ReleaseVoteInput, context: AuditContext): Promise<ReleaseRequest> {
  const access = await loadRequest(services, actor, requestId, context);
  await requireChecker(services, actor, access, 'vote on', context);
  await withRequest(services, access, 'review', async (tx, current) => {
    if ((await releaseRepository.reviewers(tx, requestId, current.round)).includes(actor.id)) throw conflict('Your review of this round is already submitted; votes can no longer change.');
    const file = await releaseRepository.findFile(tx, requestId, fileId);
    if (!file) throw notFound('This request has no such file.');
    if (file.kind !== 'OUTPUT') throw conflict(`"${file.name}" is a supporting file: it is not released, so it takes no vote.`);
    const against = (file.checkVerdict === 'PASS' && input.vote === 'CHANGES') || (file.checkVerdict === 'FAIL' && input.vote === 'APPROVE');
    if (against && !input.comment) throw badRequest(`body.comment: your vote goes against the automatic checks (${file.checkVerdict}); say why.`);
    await releaseRepository.upsertVote(tx, { fileId, reviewerId: actor.id, vote: input.vote, comment: input.comment ?? null });
    await audit(tx, context, 'OUTPUT_VOTE_CAST', requestId, `${actor.email} voted ${input.vote} on "${file.name}"`, {
      file_id: fileId,
      version: file.version,
      vote: input.vote,
      automatic_verdict: file.checkVerdict,
      against_automatic: against,
      comment: input.comment ?? null,
    });
  });
  return requestDetail(services, actor, access);
}

export async function submitReview(services: AppServices, actor: UserRow, requestId: string, context: AuditContext): Promise<ReleaseRequest> {
  const access = await loadRequest(services, actor, requestId, context);
  await requireChecker(services, actor, access, 'review', context);
  await withRequest(services, access, 'review', async (tx, current) => {
    const reviewers = await releaseRepository.reviewers(tx, requestId, current.round);
    if (reviewers.includes(actor.id)) throw conflict('Your review of this round is already submitted.');
    const outputs = (await releaseRepository.files(tx, requestId)).filter((f) => f.kind === 'OUTPUT');
    const mine = new Set((await releaseRepository.votes(tx, requestId)).filter((v) => v.reviewer.id === actor.id).map((v) => v.fileId));
    const missing = outputs.filter((f) => !mine.has(f.id));
    if (missing.length > 0) throw conflict(`Vote on every output file first: ${missing.map((f) => `"${f.name}"`).join(', ')} ${missing.length === 1 ? 'has' : 'have'} no vote of yours.`);
    await releaseRepository.insertReview(tx, { requestId, reviewerId: actor.id, round: current.round });
    const inNow = reviewers.length + 1;
    const state = inNow >= current.requiredReviews ? 'REVIEWED' : 'PARTIALLY_REVIEWED';
    await releaseRepository.update(tx, requestId, { state });
    await audit(tx, context, 'OUTPUT_REVIEW_SUBMITTED', requestId, `${actor.email} submitted a review of release request "${current.title}" (${inNow} of ${current.requiredReviews})`, {
      round: current.round,
      from: current.state,
      to: state,
    });
  });
  return requestDetail(services, actor, access);
}

export async function comment(services: AppServices, actor: UserRow, requestId: string, input: ReleaseCommentInput, context: AuditContext): Promise<ReleaseRequest> {
  const access = await loadRequest(services, actor, requestId, context);
  if (!access.isAuthor && !access.isChecker) {
    await requireAuthor(services, actor, access, 'comment on', context);
  }
  if (input.visibility === 'PRIVATE' && !access.isChecker) throw badRequest('body.visibility: only checkers may write private comments.');
  await services.db.transaction(async (tx) => {
    const current = await releaseRepository.lock(tx, requestId);
    if (!current || ['RELEASED', 'REJECTED', 'WITHDRAWN'].includes(current.state)) throw conflict(`The release request is ${current?.state}; it takes no more comments.`);
    if (input.file_id && !(await releaseRepository.findFile(tx, requestId, input.file_id))) throw badRequest('body.file_id: this request has no such file.');
    await releaseRepository.insertComment(tx, { requestId, fileId: input.file_id ?? null, authorId: actor.id, visibility: input.visibility, body: input.body });
    await audit(tx, context, 'OUTPUT_COMMENT_ADDED', requestId, `${actor.email} commented (${input.visibility}) on release request "${current.title}"`, {
      file_id: input.file_id ?? null,
      visibility: input.visibility,
      body: input.body,
    });
  });
  return requestDetail(services, actor, access);
}

const DECISIONS = {
  return: { state: 'RETURNED', event: 'OUTPUT_REQUEST_RETURNED' },
  reject: { state: 'REJECTED', event: 'OUTPUT_REQUEST_REJECTED' },
  approve: { state: 'APPROVED', event: 'OUTPUT_REQUEST_APPROVED' },
} as const;

/** Return, reject or approve a REVIEWED request; approval needs the required approvals on every output file. */
export async function decide(services: AppServices, actor: UserRow, requestId: string, decision: keyof typeof DECISIONS, reason: string | null, context: AuditContext): Promise<ReleaseRequest> {
  const access = await loadRequest(services, actor, requestId, context);
  await requireChecker(services, actor, access, decision, context);
  await withRequest(services, access, decision, async (tx, current) => {
    if (decision === 'approve') {
      const reviewers = new Set(await releaseRepository.reviewers(tx, requestId, current.round));
      const votes = await releaseRepository.votes(tx, requestId);
      const outputs = (await releaseRepository.files(tx, requestId)).filter((f) => f.kind === 'OUTPUT');
      const short = outputs
        .map((f) => ({ f, approvals: votes.filter((v) => v.fileId === f.id && v.vote === 'APPROVE' && reviewers.has(v.reviewer.id)).length }))
        .filter(({ approvals }) => approvals < current.requiredReviews);
      if (short.length > 0) {
        throw conflict(`Every output file needs ${current.requiredReviews} approvals: ${short.map(({ f, approvals }) => `"${f.name}" has ${approvals}`).join(', ')}. Return the request to its author or reject it.`);
      }
    }
    if (reason) await releaseRepository.insertComment(tx, { requestId, fileId: null, authorId: actor.id, visibility: 'PUBLIC', body: reason });
    const { state, event } = DECISIONS[decision];
    await releaseRepository.update(tx, requestId, { state });
    await audit(tx, context, event, requestId, `${actor.email} ${PAST[decision]} release request "${current.title}"`, { from: current.state, round: current.round, reason });
  });
  await notifyAuthor(services, access.request, DECISIONS[decision].state, reason);
  return requestDetail(services, actor, access);
}

/** Release: the approved output files and manifest.json become the package, kept in the file store. */
export async function release(services: AppServices, actor: UserRow, requestId: string, context: AuditContext): Promise<ReleaseRequest> {
  const access = await loadRequest(services, actor, requestId, context);
  await requireChecker(services, actor, access, 'release', context);
  const key = `${requestKey(access.request.workbenchId, requestId)}/package.zip`;
  await withRequest(services, access, 'release', async (tx, current) => {
    const releasedAt = new Date();
    const built = await buildPackage(services, tx, { ...access.request, ...current, releasedAt }, actor);
    await services.workbenchStore.write(key, Readable.from(built.zip));
    await releaseRepository.update(tx, requestId, { state: 'RELEASED', releasedAt, packageKey: key, packageSha256: built.sha256, packageSizeBytes: built.zip.length });
    await audit(tx, context, 'OUTPUT_REQUEST_RELEASED', requestId, `${actor.email} released release request "${current.title}"`, {
      package_sha256: built.sha256,
      package_size_bytes: built.zip.length,
      files: built.manifest.files.map((f) => ({ name: f.name, sha256: f.sha256, size_bytes: f.size_bytes })),
    });
  });
  await notifyAuthor(services, access.request, 'RELEASED', null);
  return requestDetail(services, actor, access);
}

/** The package, for its author and the workbench's OWNERs; each download audited. */
export async function openPackage(services: AppServices, actor: UserRow, requestId: string, context: AuditContext): Promise<{ stream: Readable; size: number; fileName: string }> {
  const access = await loadRequest(services, actor, requestId, context);
  if (!(access.isAuthor || access.myRole === 'OWNER')) {
    await recordAuditEvent(services.db, context, {
      eventType: 'ACCESS_DENIED',
      outcome: 'DENIED',
      message: `${actor.email} was denied the package of release request ${requestId}`,
      resourceType: 'release_request',
      resourceId: requestId,
      details: { action: 'download', workbench_id: access.request.workbenchId, role: access.myRole },
    });
    throw forbidden('Only the author of this release request and the OWNERs of its workbench may download its package.');
  }
  const request = access.request;
  if (request.state !== 'RELEASED' || !request.packageKey) throw conflict(`The release request "${request.title}" is ${request.state}; only a RELEASED request has a package.`);
  const stream = await services.workbenchStore.open(request.packageKey);
  await services.db.transaction((tx) =>
    audit(tx, context, 'OUTPUT_PACKAGE_DOWNLOADED', requestId, `${actor.email} downloaded the package of release request "${request.title}"`, {
      package_sha256: request.packageSha256,
      workbench_id: request.workbenchId,
    }),
  );
  return { stream, size: request.packageSizeBytes ?? 0, fileName: `release-${requestId}.zip` };
}
