import { endNotebookAccess, stopNotebooksOfUser } from '../notebooks/notebook-revocation';
import { Readable } from 'node:stream';
import {
  can,
  hasRole,
  type Workbench,
  type WorkbenchCreate,
  type WorkbenchMemberRole,
  type WorkbenchRefusal,
  type WorkbenchUpdate,
} from '@hdp/contract';
import type { AppServices } from '../app-services';
import { auditLogRepository } from '../audit/audit-log-repository';
import { appendAuditEntry, recordAuditEvent, type AuditContext, type AuditEvent } from '../audit/audit-trail';
import { cohortRepository } from '../cohorts/cohort-repository';
import { canSeeCohort } from '../cohorts/cohort-rules';
import type { DbOrTx } from '../db/database';
import { documentRepository } from '../documents/document-repository';
import { badRequest, conflict, forbidden, notFound } from '../http/api-error';
import { jobRepository } from '../jobs/job-repository';
import { notebookRepository } from '../notebooks/notebook-repository';
import { queryRepository } from '../queries/query-repository';
import { userRepository, type UserRow } from '../users/user-repository';
import { presentWorkbench } from './workbench-presenter';
import { workbenchRepository, type WorkbenchRow, type WorkbenchView } from './workbench-repository';
import { PROVISION_JOB, PROVISION_ATTEMPTS } from './workbench-provisioner';
import { documentFileName, releasedCohortKey, releasedDocumentKey, releasedQueryKey, slugify, uniqueName, workbenchKey } from './workbench-storage';

export const WORKBENCH_NOT_FOUND = 'Workbench does not exist.';
/** How a 404's detail starts when the workbench existed and was deleted (told to its former members only). */
export const WORKBENCH_DELETED_PREFIX = 'This workbench';
const NOT_AN_OWNER = 'Only an OWNER of this workbench or an administrator may change or delete it.';

/** The workbench and the actor's role in it (null for an ADMIN who is not a member). */
export interface VisibleWorkbench {
  workbench: WorkbenchView;
  myRole: WorkbenchMemberRole | null;
}

/**
 * A workbench the actor may see: members see theirs, an ADMIN every one. Anyone else is told it
 * does not exist, so its existence does not leak, and the attempt is audited as a denial.
 */
export async function loadVisibleWorkbench(services: AppServices, actor: UserRow, workbenchId: string, context: AuditContext): Promise<VisibleWorkbench> {
  const { db } = services;
  const [workbench, myRole] = await Promise.all([
    workbenchRepository.findById(db, workbenchId),
    workbenchRepository.memberRole(db, workbenchId, actor.id),
  ]);
  if (workbench && (myRole || hasRole(actor, 'ADMIN'))) return { workbench, myRole: myRole ?? null };
  if (workbench) {
    await recordAuditEvent(db, context, {
      eventType: 'ACCESS_DENIED',
      outcome: 'DENIED',
      message: `${actor.email} was denied workbench ${workbenchId}`,
      resourceType: 'workbench',
      resourceId: workbenchId,
    });
  }
  if (!workbench) {
    const deleted = await whyGone(services, actor, workbenchId);
    if (deleted) throw notFound(deleted);
  }
  throw notFound(WORKBENCH_NOT_FOUND);
}

/**
 * Who deleted a workbench and when, for someone who was one of its members (or an ADMIN): a member
 * who still has it open is told it was deleted rather than that it never existed. Anyone else learns
 * nothing more than "does not exist". The time is UTC (ISO 8601); the web app shows it in local time.
 */
async function whyGone(services: AppServices, actor: UserRow, workbenchId: string): Promise<string | null> {
  const entry = await auditLogRepository.lastEventOn(services.db, 'WORKBENCH_DELETED', workbenchId);
  if (!entry) return null;
  const members = ((entry.details as { members?: { id?: string }[] } | null)?.members ?? []).map((member) => member.id);
  if (!members.includes(actor.id) && !hasRole(actor, 'ADMIN')) return null;
  const name = (entry.details as { name?: string } | null)?.name;
  const by = entry.actorId ? await userRepository.findById(services.db, entry.actorId) : undefined;
  const who = by ? (by.id === actor.id ? 'you' : by.name ? `${by.name} (${by.email})` : by.email) : (entry.actorEmail ?? 'someone');
  return `${WORKBENCH_DELETED_PREFIX}${name ? ` "${name}"` : ''} was deleted by ${who} at ${entry.occurredAt.toISOString()}, with its released data and notebooks.`;
}

/** The workbench as the API answers it. */
export async function workbenchDetail(services: AppServices, workbenchId: string, myRole: WorkbenchMemberRole | null): Promise<Workbench> {
  const { db, config, warehouse } = services;
  const [workbench, members, releases, queries, documents] = await Promise.all([
    workbenchRepository.findById(db, workbenchId),
    workbenchRepository.members(db, workbenchId),
    workbenchRepository.releases(db, workbenchId),
    workbenchRepository.queries(db, workbenchId),
    workbenchRepository.documents(db, workbenchId),
  ]);
  if (!workbench) throw notFound(WORKBENCH_NOT_FOUND);
  return presentWorkbench(workbench, { myRole, members, releases, queries, documents }, config.suppressionThreshold, warehouse.state?.schema ?? null);
}

/** What a create or update did: the workbench, and what was refused (then the answer is 418). */
export interface WorkbenchChangeOutcome {
  workbenchId: string;
  refused: WorkbenchRefusal[];
}

/** One member of the wished-for list, with the user row it names. */
interface MemberPlan {
  add: { user: UserRow; role: WorkbenchMemberRole }[];
  change: { user: UserRow; from: WorkbenchMemberRole; to: WorkbenchMemberRole }[];
  remove: { userId: string; email: string; role: WorkbenchMemberRole }[];
}

/** Why a user named as a member was not added: the same for every cause (see planMembers). */
export const MEMBER_NOT_ADDABLE =
  'this user cannot be added: only active researchers, data stewards and administrators can be members of a workbench';

/**
 * Decides who the members will be. Users added or given another role must be ACTIVE holders of a
 * data role; others are refused and left as they were. Members not listed are removed. The result
 * must keep an OWNER (else 400, nothing written).
 */
async function planMembers(
  db: DbOrTx,
  wanted: WorkbenchCreate['users'],
  current: Map<string, { email: string; role: WorkbenchMemberRole }>,
  refused: WorkbenchRefusal[],
): Promise<MemberPlan> {
  const plan: MemberPlan = { add: [], change: [], remove: [] };
  const kept = new Map<string, WorkbenchMemberRole>();
  for (const pick of wanted) {
    const existing = current.get(pick.id);
    if (existing && existing.role === pick.role) {
      kept.set(pick.id, pick.role);
      continue;
    }
    const user = await userRepository.findById(db, pick.id);
    // One sentence whatever the cause (no such user, not active, no data role): the refusal must
    // not tell the caller who an id belongs to, nor the state of that person's account.
    const addable = user && user.status === 'ACTIVE' && can(user, 'workbenches:read');
    if (!addable || !user) {
      refused.push({ kind: 'user', id: pick.id, reason: MEMBER_NOT_ADDABLE });
      if (existing) kept.set(pick.id, existing.role);
      continue;
    }
    kept.set(pick.id, pick.role);
    if (existing) plan.change.push({ user, from: existing.role, to: pick.role });
    else plan.add.push({ user, role: pick.role });
  }
  for (const [userId, member] of current) {
    if (!kept.has(userId)) plan.remove.push({ userId, email: member.email, role: member.role });
  }
  if (![...kept.values()].includes('OWNER')) {
    throw badRequest('body.users: a workbench keeps at least one OWNER; the last OWNER cannot be removed or given another role.');
  }
  return plan;
}

interface Effects {
  events: AuditEvent[];
  /** Files written during the change: removed again if it does not commit. */
  written: string[];
  /** Files of data taken out: removed once the change has committed. */
  toRemove: string[];
  /** Provisioning was queued: wake the worker after commit. */
  queued: boolean;
  /** What must follow once the change has committed (a removed member's notebook sessions end). */
  afterCommit: ((services: AppServices) => Promise<void>)[];
}

/**
 * Brings the workbench's data to the wished-for picks, in the caller's transaction. Cohorts must
 * be PUBLISHED (a cohort already released and not re-pinned stays as it is); queries and documents
 * must be the actor's own. What cannot be applied is refused and the rest is applied.
 */
async function applyData(
  tx: DbOrTx,
  services: AppServices,
  actor: UserRow,
  workbench: WorkbenchRow,
  wanted: Pick<WorkbenchCreate, 'cohorts' | 'queries' | 'documents'>,
  refused: WorkbenchRefusal[],
  effects: Effects,
  context: AuditContext,
): Promise<void> {
  const wbId = workbench.id;
  const subject = { resourceType: 'workbench', resourceId: wbId } as const;

  // Cohorts
  const releases = await workbenchRepository.releases(tx, wbId);
  const byCohort = new Map(releases.map((r) => [r.cohortId, r]));
  const directories = new Set(await workbenchRepository.releaseDirectories(tx, wbId));
  const keepCohorts = new Set<string>();
  for (const pick of wanted.cohorts) {
    const existing = byCohort.get(pick.id);
    if (existing && (pick.version === undefined || pick.version === existing.cohortVersion)) {
      keepCohorts.add(pick.id);
      continue;
    }
    const found = await cohortRepository.findById(tx, pick.id);
    // A cohort the actor may not see (somebody else's draft) is not named in the refusal.
    const cohort = found && canSeeCohort(actor, found) ? found : undefined;
    if (!cohort || cohort.status !== 'PUBLISHED') {
      refused.push({ kind: 'cohort', id: pick.id, reason: cohort ? `cohort "${cohort.name}" is ${cohort.status.toLowerCase()}, not published` : 'no published cohort has this id' });
      if (existing) keepCohorts.add(pick.id);
      continue;
    }
    // Only the version a data steward reviewed and published is released; a newer one awaits review.
    const versionNumber = pick.version ?? cohort.publishedVersion ?? cohort.version;
    const version = versionNumber === (cohort.publishedVersion ?? cohort.version) ? await cohortRepository.findVersion(tx, cohort.id, versionNumber) : undefined;
    if (!version) {
      refused.push({
        kind: 'cohort',
        id: pick.id,
        reason: `version ${versionNumber} of cohort "${cohort.name}" is not its published version (${cohort.publishedVersion ?? cohort.version})`,
      });
      if (existing) keepCohorts.add(pick.id);
      continue;
    }
    // A version taken from data the warehouse no longer serves cannot be provisioned: refused now,
    // rather than accepted and failed later by the release job.
    if (version.datasetSchema !== services.warehouse.state?.schema) {
      refused.push({
        kind: 'cohort',
        id: pick.id,
        reason: `version ${versionNumber} of cohort "${cohort.name}" was taken from data the platform no longer serves (the warehouse was reloaded): a data steward must re-run the cohort on the current data and publish the new version before it can be released`,
      });
      if (existing) keepCohorts.add(pick.id);
      continue;
    }
    if (existing) {
      // A newer (or older) version is a deliberate change: the old files go, the new version is released.
      await workbenchRepository.deleteRelease(tx, existing.id);
      directories.delete(existing.directory);
      effects.toRemove.push(releasedCohortKey(wbId, existing.directory));
      effects.events.push({
        eventType: 'WORKBENCH_DATA_REMOVED',
        outcome: 'SUCCESS',
        message: `${actor.email} replaced cohort "${cohort.name}" version ${existing.cohortVersion} in workbench "${workbench.name}" by version ${versionNumber}`,
        ...subject,
        details: { kind: 'cohort', cohort_id: cohort.id, version: existing.cohortVersion, row_counts: existing.rowCounts },
      });
    }
    const directory = uniqueName(`${slugify(cohort.name, 'cohort')}-v${versionNumber}`, directories);
    directories.add(directory);
    const release = await workbenchRepository.insertRelease(tx, {
      workbenchId: wbId,
      cohortId: cohort.id,
      cohortVersionId: version.id,
      cohortVersion: versionNumber,
      directory,
    });
    await jobRepository.enqueue(tx, { kind: PROVISION_JOB, payload: { releaseId: release.id, workbenchId: wbId, auditContext: context }, subject: wbId, maxAttempts: PROVISION_ATTEMPTS });
    effects.queued = true;
    keepCohorts.add(pick.id);
  }
  for (const release of releases) {
    if (keepCohorts.has(release.cohortId)) continue;
    await workbenchRepository.deleteRelease(tx, release.id);
    effects.toRemove.push(releasedCohortKey(wbId, release.directory));
    effects.events.push({
      eventType: 'WORKBENCH_DATA_REMOVED',
      outcome: 'SUCCESS',
      message: `${actor.email} removed cohort "${release.cohortName}" (version ${release.cohortVersion}) from workbench "${workbench.name}"`,
      ...subject,
      details: { kind: 'cohort', cohort_id: release.cohortId, version: release.cohortVersion, row_counts: release.rowCounts },
    });
  }

  // Queries: a copy is named by its own id, or added by the original's id.
  const copies = await workbenchRepository.queries(tx, wbId);
  const keepQueries = new Set<string>();
  const queryFiles = new Set(copies.map((q) => q.fileName));
  for (const id of wanted.queries) {
    const copy = copies.find((q) => q.id === id) ?? copies.find((q) => q.sourceQueryId === id);
    if (copy) {
      keepQueries.add(copy.id);
      continue;
    }
    const query = await queryRepository.findById(tx, id);
    if (!query || query.ownerId !== actor.id) {
      refused.push({ kind: 'query', id, reason: 'not one of your saved queries (it may have been deleted)' });
      continue;
    }
    const fileName = uniqueName(slugify(query.name, 'query'), queryFiles, '.json');
    queryFiles.add(fileName);
    const row = await workbenchRepository.insertQuery(tx, {
      workbenchId: wbId,
      sourceQueryId: query.id,
      name: query.name,
      description: query.description,
      query: query.query,
      fileName,
    });
    keepQueries.add(row.id);
    const body = JSON.stringify(
      { name: row.name, description: row.description, source_query_id: query.id, source_query_version: query.version, copied_at: row.copiedAt.toISOString(), query: row.query },
      null,
      2,
    );
    const key = releasedQueryKey(wbId, fileName);
    effects.written.push(key);
    await services.workbenchStore.write(key, Readable.from([body]));
    effects.events.push({
      eventType: 'WORKBENCH_DATA_RELEASED',
      outcome: 'SUCCESS',
      message: `${actor.email} copied query "${query.name}" (version ${query.version}) into workbench "${workbench.name}"`,
      ...subject,
      details: { kind: 'query', query_id: query.id, version: query.version, file: `released/queries/${fileName}` },
    });
  }
  const droppedQueries = copies.filter((q) => !keepQueries.has(q.id));
  await workbenchRepository.deleteQueries(tx, droppedQueries.map((q) => q.id));
  for (const q of droppedQueries) {
    effects.toRemove.push(releasedQueryKey(wbId, q.fileName));
    effects.events.push({
      eventType: 'WORKBENCH_DATA_REMOVED',
      outcome: 'SUCCESS',
      message: `${actor.email} removed query "${q.name}" from workbench "${workbench.name}"`,
      ...subject,
      details: { kind: 'query', query_id: q.sourceQueryId, file: `released/queries/${q.fileName}` },
    });
  }

  // Documents: copied byte for byte into the workbench's own storage.
  const docCopies = await workbenchRepository.documents(tx, wbId);
  const keepDocuments = new Set<string>();
  const documentFiles = new Set(docCopies.map((d) => d.storageKey.split('/').pop()!));
  for (const id of wanted.documents) {
    const copy = docCopies.find((d) => d.id === id) ?? docCopies.find((d) => d.sourceDocumentId === id);
    if (copy) {
      keepDocuments.add(copy.id);
      continue;
    }
    const document = await documentRepository.findById(tx, id);
    if (!document || document.ownerId !== actor.id) {
      refused.push({ kind: 'document', id, reason: 'not one of your documents (it may have been deleted)' });
      continue;
    }
    const fileName = documentFileName(document.originalName, documentFiles);
    documentFiles.add(fileName);
    const key = releasedDocumentKey(wbId, fileName);
    effects.written.push(key);
    const size = await services.workbenchStore.write(key, await services.documentStore.open(document.storageKey));
    const row = await workbenchRepository.insertDocument(tx, {
      workbenchId: wbId,
      sourceDocumentId: document.id,
      name: document.originalName,
      contentType: document.contentType,
      sizeBytes: size,
      storageKey: `released/documents/${fileName}`,
    });
    keepDocuments.add(row.id);
    effects.events.push({
      eventType: 'WORKBENCH_DATA_RELEASED',
      outcome: 'SUCCESS',
      message: `${actor.email} copied document "${document.originalName}" into workbench "${workbench.name}"`,
      ...subject,
      details: { kind: 'document', document_id: document.id, size_bytes: size, sha256: document.sha256, file: row.storageKey },
    });
  }
  const droppedDocuments = docCopies.filter((d) => !keepDocuments.has(d.id));
  await workbenchRepository.deleteDocuments(tx, droppedDocuments.map((d) => d.id));
  for (const d of droppedDocuments) {
    effects.toRemove.push(`${wbId}/${d.storageKey}`);
    effects.events.push({
      eventType: 'WORKBENCH_DATA_REMOVED',
      outcome: 'SUCCESS',
      message: `${actor.email} removed document "${d.name}" from workbench "${workbench.name}"`,
      ...subject,
      details: { kind: 'document', document_id: d.sourceDocumentId, file: d.storageKey },
    });
  }
}

/** Applies a member plan in the caller's transaction, with an audit event per change. */
async function applyMembers(tx: DbOrTx, actor: UserRow, workbench: WorkbenchRow, plan: MemberPlan, effects: Effects): Promise<void> {
  const subject = { resourceType: 'workbench', resourceId: workbench.id } as const;
  for (const { user, role } of plan.add) {
    await workbenchRepository.setMember(tx, workbench.id, user.id, role);
    effects.events.push({
      eventType: 'WORKBENCH_MEMBER_ADDED',
      outcome: 'SUCCESS',
      message: `${actor.email} added ${user.email} to workbench "${workbench.name}" as ${role}`,
      ...subject,
      details: { user_id: user.id, email: user.email, role },
    });
  }
  for (const { user, from, to } of plan.change) {
    await workbenchRepository.setMember(tx, workbench.id, user.id, to);
    effects.events.push({
      eventType: 'WORKBENCH_MEMBER_ROLE_CHANGED',
      outcome: 'SUCCESS',
      message: `${actor.email} made ${user.email} ${to} (was ${from}) in workbench "${workbench.name}"`,
      ...subject,
      details: { user_id: user.id, email: user.email, from, to },
    });
  }
  for (const member of plan.remove) {
    await workbenchRepository.removeMember(tx, workbench.id, member.userId);
    effects.events.push({
      eventType: 'WORKBENCH_MEMBER_REMOVED',
      outcome: 'SUCCESS',
      message: `${actor.email} removed ${member.email} (${member.role}) from workbench "${workbench.name}"`,
      ...subject,
      details: { user_id: member.userId, email: member.email, role: member.role },
    });
    // Their notebooks here stop, and their open sessions on them end (notebook-revocation.ts).
    const context = { actorId: actor.id, actorEmail: actor.email };
    const stopped = await stopNotebooksOfUser(tx, context, member.userId, 'member-removed', workbench.id);
    effects.afterCommit.push((services) =>
      endNotebookAccess(services, context, { id: member.userId, email: member.email }, 'member-removed', { workbenchId: workbench.id, stopped }),
    );
  }
}

/**
 * Runs a change of a workbench in one transaction with all its audit entries. Files it wrote are
 * removed again when it does not commit; files of data it took out are removed once it has.
 */
async function runChange<T>(services: AppServices, change: (tx: DbOrTx, effects: Effects) => Promise<T>): Promise<T> {
  const effects: Effects = { events: [], written: [], toRemove: [], queued: false, afterCommit: [] };
  let result: T;
  try {
    result = await services.db.transaction(async (tx) => change(tx, effects));
  } catch (error) {
    await Promise.all(effects.written.map((key) => services.workbenchStore.remove(key).catch(() => undefined)));
    throw error;
  }
  for (const key of effects.toRemove) {
    await services.workbenchStore.remove(key).catch((error: unknown) => services.logger.error({ err: error, key }, 'could not remove a released file'));
  }
  if (effects.queued) services.jobs.wake();
  for (const then of effects.afterCommit) {
    await then(services).catch((error: unknown) => services.logger.error({ err: error }, 'ending a removed member\'s notebook access failed'));
  }
  return result;
}

async function appendAll(tx: DbOrTx, context: AuditContext, events: AuditEvent[]): Promise<void> {
  for (const event of events) await appendAuditEntry(tx, context, event);
}

/** A taken name, quoting the existing workbench's name as it is written (names are compared ignoring case). */
const nameTakenDetail = (existing: string) => `name: you already have a workbench called "${existing}" (names differing only in capitals count as the same); choose another name.`;

/** workbenchCreate: the creator becomes an OWNER; what cannot be applied is refused, the rest applied. */
export async function createWorkbench(services: AppServices, actor: UserRow, input: WorkbenchCreate, context: AuditContext): Promise<WorkbenchChangeOutcome> {
  const taken = await workbenchRepository.nameTaken(services.db, actor.id, input.name);
  if (taken !== null) {
    throw conflict(nameTakenDetail(taken));
  }
  return runChange(services, async (tx, effects) => {
    const refused: WorkbenchRefusal[] = [];
    const workbench = await workbenchRepository.insert(tx, { name: input.name, purpose: input.purpose, createdBy: actor.id });
    // The creator is an OWNER whatever the list says.
    const users = [{ id: actor.id, role: 'OWNER' as const }, ...input.users.filter((u) => u.id !== actor.id)];
    const plan = await planMembers(tx, users, new Map(), refused);
    await applyMembers(tx, actor, workbench, plan, effects);
    await applyData(tx, services, actor, workbench, input, refused, effects, context);
    await appendAuditEntry(tx, context, {
      eventType: 'WORKBENCH_CREATED',
      outcome: 'SUCCESS',
      message: `${actor.email} created workbench "${workbench.name}"${refused.length ? ` (${refused.length} part(s) refused)` : ''}`,
      resourceType: 'workbench',
      resourceId: workbench.id,
      details: {
        name: workbench.name,
        purpose: workbench.purpose,
        members: users.filter((u) => !refused.some((r) => r.id === u.id)),
        cohorts: input.cohorts,
        queries: input.queries,
        documents: input.documents,
        refused,
      },
    });
    await appendAll(tx, context, effects.events);
    return { workbenchId: workbench.id, refused };
  });
}

/**
 * workbenchUpdate (PUT): the whole workbench as it should be, based on `version`. A stale version
 * is refused (409, naming who changed it and when); only OWNERs and ADMINs may change it.
 */
export async function updateWorkbench(
  services: AppServices,
  actor: UserRow,
  workbenchId: string,
  input: WorkbenchUpdate,
  context: AuditContext,
): Promise<WorkbenchChangeOutcome> {
  const { myRole } = await loadVisibleWorkbench(services, actor, workbenchId, context);
  if (myRole !== 'OWNER' && !hasRole(actor, 'ADMIN')) throw forbidden(NOT_AN_OWNER);
  return runChange(services, async (tx, effects) => {
    const current = await workbenchRepository.findByIdForUpdate(tx, workbenchId);
    if (!current) throw notFound(WORKBENCH_NOT_FOUND);
    if (current.version !== input.version) {
      const who = await userRepository.findById(tx, current.updatedBy);
      throw conflict(
        `version: this workbench was changed by ${who ? (who.name ? `${who.name} (${who.email})` : who.email) : 'another user'} at ${current.updatedAt.toISOString()} (it is now at version ${current.version}; your edits were based on version ${input.version}). Reload it and make your edits again.`,
      );
    }
    const taken = input.name.toLowerCase() !== current.name.toLowerCase() ? await workbenchRepository.nameTaken(tx, actor.id, input.name, workbenchId) : null;
    if (taken !== null) {
      throw conflict(nameTakenDetail(taken));
    }
    const refused: WorkbenchRefusal[] = [];
    const members = await workbenchRepository.members(tx, workbenchId);
    const plan = await planMembers(tx, input.users, new Map(members.map((m) => [m.userId, { email: m.email, role: m.role }])), refused);
    await applyMembers(tx, actor, current, plan, effects);
    await applyData(tx, services, actor, current, input, refused, effects, context);
    await workbenchRepository.update(tx, workbenchId, { name: input.name, purpose: input.purpose, updatedBy: actor.id });
    const changed = [
      ...(input.name !== current.name ? ['name'] : []),
      ...(input.purpose !== current.purpose ? ['purpose'] : []),
      ...(plan.add.length || plan.change.length || plan.remove.length ? ['users'] : []),
      ...effects.events.filter((e) => e.eventType.startsWith('WORKBENCH_DATA')).map((e) => `${String(e.details?.kind)}s`),
      ...(effects.queued ? ['cohorts'] : []),
    ];
    await appendAuditEntry(tx, context, {
      eventType: 'WORKBENCH_UPDATED',
      outcome: 'SUCCESS',
      message: `${actor.email} updated workbench "${input.name}" to version ${current.version + 1}${refused.length ? ` (${refused.length} part(s) refused)` : ''}`,
      resourceType: 'workbench',
      resourceId: workbenchId,
      details: {
        version: current.version + 1,
        changed: [...new Set(changed)],
        ...(input.name !== current.name && { name: { from: current.name, to: input.name } }),
        ...(input.purpose !== current.purpose && { purpose: { from: current.purpose, to: input.purpose } }),
        refused,
      },
    });
    await appendAll(tx, context, effects.events);
    return { workbenchId, refused };
  });
}

/**
 * Deletes a workbench for good: its rows, its queued jobs and, once that has committed, its files.
 * Refused (409) while any of its notebooks runs or is between states.
 */
export async function deleteWorkbench(services: AppServices, actor: UserRow, workbenchId: string, context: AuditContext): Promise<void> {
  const { myRole } = await loadVisibleWorkbench(services, actor, workbenchId, context);
  if (myRole !== 'OWNER' && !hasRole(actor, 'ADMIN')) throw forbidden(NOT_AN_OWNER);
  await services.db.transaction(async (tx) => {
    const current = await workbenchRepository.findByIdForUpdate(tx, workbenchId);
    if (!current) throw notFound(WORKBENCH_NOT_FOUND);
    const active = await notebookRepository.activeInWorkbench(tx, workbenchId);
    if (active.length) {
      const names = active.map((n) => `"${n.name}" (${n.status.toLowerCase()})`).join(', ');
      throw conflict(`This workbench cannot be deleted while its notebooks are running: ${names}. Stop them and try again.`);
    }
    // One after the other: a transaction is one connection.
    const members = await workbenchRepository.members(tx, workbenchId);
    const releases = await workbenchRepository.releases(tx, workbenchId);
    const queries = await workbenchRepository.queries(tx, workbenchId);
    const documents = await workbenchRepository.documents(tx, workbenchId);
    await jobRepository.cancelPending(tx, workbenchId);
    await workbenchRepository.delete(tx, workbenchId);
    await appendAuditEntry(tx, context, {
      eventType: 'WORKBENCH_DELETED',
      outcome: 'SUCCESS',
      message: `${actor.email} deleted workbench "${current.name}" and its files`,
      resourceType: 'workbench',
      resourceId: workbenchId,
      details: {
        name: current.name,
        version: current.version,
        members: members.map((m) => ({ id: m.userId, email: m.email, role: m.role })),
        cohorts: releases.map((r) => ({ cohort_id: r.cohortId, version: r.cohortVersion, row_counts: r.rowCounts })),
        query_count: queries.length,
        document_count: documents.length,
      },
    });
  });
  await services.workbenchStore.remove(workbenchKey(workbenchId));
}
