import {
  NOTEBOOK_TRANSITIONS,
  notebookActionAllowed,
  type Notebook,
  type NotebookAction,
  type NotebookCreate,
  type NotebookOpen,
  type WorkbenchMemberRole,
} from '@hdp/contract';
import type { AppServices } from '../app-services';
import { workbenchLabel } from '../audit/audit-labels';
import { appendAuditEntry, recordAuditEvent, type AuditContext } from '../audit/audit-trail';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/api-error';
import { jobRepository } from '../jobs/job-repository';
import type { UserRow } from '../users/user-repository';
import { loadVisibleWorkbench } from '../workbenches/workbench-commands';
import { workbenchRepository } from '../workbenches/workbench-repository';
import { notebookBasePath, type OpenAttempt } from './notebook-proxy';
import { notebookRepository, type NotebookRow, type NotebookView } from './notebook-repository';
import type { NotebookSession } from './notebook-sessions';
import { holdRepository, refuseWhileHeld } from './egress/egress-holds';
import { userRepository } from '../users/user-repository';
import { RuntimeRequestError, RuntimeUnavailableError, type NotebookRef, type NotebookRuntimeSpec } from './runtime/runtime-driver';

export const NOTEBOOK_NOT_FOUND = 'Notebook does not exist.';
/** The one job kind of the lifecycle: the payload says which step. */
export const NOTEBOOK_JOB = 'notebook-lifecycle';
export type LifecycleStep = 'create' | 'start' | 'stop' | 'delete';
export interface LifecyclePayload {
  notebookId: string;
  step: LifecycleStep;
  /** Why a stop was asked for, when not by a user (idle). */
  reason?: string;
}

const TICKET_TTL_MS = 60_000;

/** What the caller may do with a notebook now: who they are to it, and what its status allows. */
export function abilitiesOf(notebook: NotebookRow, actor: UserRow, myRole: WorkbenchMemberRole | null): Notebook['abilities'] {
  const mine = myRole !== null && notebook.ownerId === actor.id;
  const manages = mine || myRole === 'OWNER';
  return {
    open: mine && notebookActionAllowed('open', notebook.status),
    start: mine && notebookActionAllowed('start', notebook.status),
    stop: manages && notebookActionAllowed('stop', notebook.status),
    delete: manages && notebookActionAllowed('delete', notebook.status),
  };
}

/** The fields of a notebook that leave the server. */
export function presentNotebook(notebook: NotebookView, actor: UserRow, myRole: WorkbenchMemberRole | null): Notebook {
  return {
    id: notebook.id,
    workbench_id: notebook.workbenchId,
    name: notebook.name,
    environment: notebook.environment,
    zone: notebook.zone,
    machine_type: notebook.machineType,
    accelerator_type: notebook.acceleratorType,
    accelerator_count: notebook.acceleratorCount,
    status: notebook.status,
    status_reason: notebook.statusReason,
    owner: { id: notebook.ownerId, email: notebook.ownerEmail, name: notebook.ownerName ?? notebook.ownerEmail },
    created_at: notebook.createdAt.toISOString(),
    updated_at: notebook.updatedAt.toISOString(),
    abilities: abilitiesOf(notebook, actor, myRole),
  };
}

/** The runtime spec of a notebook row, its limits from the catalogue's machine type. */
export function runtimeSpecOf(services: Pick<AppServices, 'computeCatalogue'>, notebook: NotebookRow): NotebookRuntimeSpec {
  const machine = services.computeCatalogue.machineTypes(notebook.zone).find((m) => m.name === notebook.machineType);
  if (!machine) throw new RuntimeRequestError(`machine_type: ${notebook.machineType} is no longer offered in ${notebook.zone}.`);
  return {
    notebookId: notebook.id,
    workbenchId: notebook.workbenchId,
    environment: notebook.environment,
    limits: { cpuLimit: machine.runtime.cpu_limit, memoryLimitMb: machine.runtime.memory_limit_mb, maxProcesses: machine.runtime.max_processes },
    accelerator: notebook.acceleratorType && notebook.acceleratorCount > 0 ? { type: notebook.acceleratorType, count: notebook.acceleratorCount } : undefined,
  };
}

/** The runtime's refusals as the API answers them: 503 when it cannot run notebooks, 422 for a request it cannot meet. */
export function runtimeError(error: unknown): unknown {
  if (error instanceof RuntimeUnavailableError) return new ApiError(503, error.detail);
  if (error instanceof RuntimeRequestError) return new ApiError(422, error.detail);
  return error;
}

/** A notebook of a workbench the actor may see; non-members get the workbench's 404. */
async function loadNotebook(services: AppServices, actor: UserRow, workbenchId: string, notebookId: string, context: AuditContext) {
  const { myRole } = await loadVisibleWorkbench(services, actor, workbenchId, context);
  const notebook = await notebookRepository.findInWorkbench(services.db, workbenchId, notebookId);
  if (!notebook) throw notFound(NOTEBOOK_NOT_FOUND);
  return { notebook, myRole };
}

const DENIALS: Record<NotebookAction, string> = {
  open: 'Only the creator of this notebook may open it.',
  start: 'Only the creator of this notebook may start it.',
  stop: 'Only the creator of this notebook or an OWNER of its workbench may stop it.',
  delete: 'Only the creator of this notebook or an OWNER of its workbench may delete it.',
};

/** Who may: open and start, the creator (still a member); stop and delete, the creator or a workbench OWNER. */
async function authorize(services: AppServices, actor: UserRow, notebook: NotebookView, myRole: WorkbenchMemberRole | null, action: NotebookAction, context: AuditContext) {
  const mine = myRole !== null && notebook.ownerId === actor.id;
  const allowed = action === 'open' || action === 'start' ? mine : mine || myRole === 'OWNER';
  if (allowed) return;
  await recordAuditEvent(services.db, context, {
    eventType: 'ACCESS_DENIED',
    outcome: 'DENIED',
    message: `${actor.email} was denied ${action} on notebook ${notebook.id}`,
    resourceType: 'notebook',
    resourceId: notebook.id,
    details: { action, workbench_id: notebook.workbenchId, role: myRole },
  });
  throw forbidden(DENIALS[action]);
}

const PAST: Record<NotebookAction, string> = { open: 'opened', start: 'started', stop: 'stopped', delete: 'deleted' };

function refuseTransition(action: NotebookAction, notebook: NotebookRow): ApiError {
  const from = NOTEBOOK_TRANSITIONS[action].from.join(' or ');
  return conflict(`The notebook "${notebook.name}" is ${notebook.status}; it can be ${PAST[action]} only when it is ${from}.`);
}

/** Creates a notebook: checked against the catalogue and the runtime, then PROVISIONING until a job has started it. */
export async function createNotebook(services: AppServices, actor: UserRow, workbenchId: string, input: NotebookCreate, context: AuditContext): Promise<Notebook> {
  const { myRole } = await loadVisibleWorkbench(services, actor, workbenchId, context);
  if (myRole === null) throw forbidden('Only members of this workbench may create notebooks in it.');
  if (myRole === 'READER') throw forbidden('READERs of a workbench may not create notebooks; ask an OWNER for the WRITER role.');
  const catalogue = services.computeCatalogue;
  if (!catalogue.hasZone(input.zone)) throw badRequest(`body.zone: there is no zone named "${input.zone}".`);
  const machine = catalogue.machineTypes(input.zone).find((m) => m.name === input.machine_type);
  if (!machine) throw badRequest(`body.machine_type: ${input.machine_type} is not offered in ${input.zone}.`);
  if (!catalogue.environments().some((e) => e.id === input.environment)) throw badRequest(`body.environment: there is no environment "${input.environment}".`);
  if (input.accelerator_type) {
    const accelerator = catalogue.acceleratorTypes(input.zone).find((a) => a.name === input.accelerator_type);
    if (!accelerator) throw badRequest(`body.accelerator_type: ${input.accelerator_type} is not offered in ${input.zone}.`);
    if (input.accelerator_count > accelerator.max_count) {
      throw badRequest(`body.accelerator_count: at most ${accelerator.max_count} × ${accelerator.name} in ${input.zone}.`);
    }
  }
  const row = await services.db.transaction(async (tx) => {
    const created = await notebookRepository.insert(tx, {
      workbenchId,
      ownerId: actor.id,
      name: input.name,
      environment: input.environment,
      zone: input.zone,
      machineType: input.machine_type,
      acceleratorType: input.accelerator_type ?? null,
      acceleratorCount: input.accelerator_count,
      status: 'PROVISIONING',
    });
    try {
      services.notebooks.driver.validate(runtimeSpecOf(services, created));
    } catch (error) {
      throw runtimeError(error);
    }
    await jobRepository.enqueue(tx, { kind: NOTEBOOK_JOB, payload: { notebookId: created.id, step: 'create' }, subject: workbenchId });
    await appendAuditEntry(tx, context, {
      eventType: 'NOTEBOOK_CREATED',
      outcome: 'SUCCESS',
      message: `${actor.email} created notebook "${input.name}" in ${await workbenchLabel(tx, workbenchId)}`,
      resourceType: 'notebook',
      resourceId: created.id,
      details: {
        workbench_id: workbenchId,
        environment: input.environment,
        zone: input.zone,
        machine_type: input.machine_type,
        accelerator_type: input.accelerator_type ?? null,
        accelerator_count: input.accelerator_count,
      },
    });
    return created;
  });
  services.jobs.wake();
  return presentNotebook({ ...row, ownerEmail: actor.email, ownerName: actor.name }, actor, myRole);
}

const STEP_EVENT = { start: 'NOTEBOOK_STARTED', stop: 'NOTEBOOK_STOPPED', delete: 'NOTEBOOK_DELETED' } as const;

/**
 * Start, stop or delete: the status moves at once (STARTING, STOPPING, DELETING) with its audit
 * entry, in one transaction with the job that does the work.
 */
export async function changeNotebook(
  services: AppServices,
  actor: UserRow,
  workbenchId: string,
  notebookId: string,
  step: 'start' | 'stop' | 'delete',
  context: AuditContext,
): Promise<Notebook> {
  const { notebook, myRole } = await loadNotebook(services, actor, workbenchId, notebookId, context);
  await authorize(services, actor, notebook, myRole, step, context);
  if (step === 'start') {
    await refuseWhileHeld(services, actor.id);
    try {
      services.notebooks.driver.validate(runtimeSpecOf(services, notebook));
    } catch (error) {
      throw runtimeError(error);
    }
  }
  const to = NOTEBOOK_TRANSITIONS[step].to;
  await services.db.transaction(async (tx) => {
    const current = await notebookRepository.findByIdForUpdate(tx, notebookId);
    if (!current) throw notFound(NOTEBOOK_NOT_FOUND);
    if (!notebookActionAllowed(step, current.status)) throw refuseTransition(step, current);
    await notebookRepository.setStatus(tx, notebookId, to);
    await jobRepository.enqueue(tx, { kind: NOTEBOOK_JOB, payload: { notebookId, step }, subject: workbenchId });
    await appendAuditEntry(tx, context, {
      eventType: STEP_EVENT[step],
      outcome: 'SUCCESS',
      message: `${actor.email} ${PAST[step]} notebook "${current.name}" in ${await workbenchLabel(tx, workbenchId)}`,
      resourceType: 'notebook',
      resourceId: notebookId,
      details: { workbench_id: workbenchId, from: current.status, owner_id: current.ownerId },
    });
  });
  if (step !== 'start') {
    services.notebooks.sessions.revokeNotebook(notebookId);
    services.notebooks.connections.closeNotebook(notebookId, 'The notebook is stopping.');
  }
  services.jobs.wake();
  return presentNotebook({ ...notebook, status: to, statusReason: null, updatedAt: new Date() }, actor, myRole);
}

/** Stops a notebook nobody has used for the idle time, audited as the platform's doing. */
export async function stopIdleNotebook(services: AppServices, ref: NotebookRef, idleForMs: number): Promise<void> {
  const minutes = Math.round(idleForMs / 60_000);
  const reason = `Stopped after ${minutes} minute${minutes === 1 ? '' : 's'} without activity; its files are kept.`;
  const moved = await services.db.transaction(async (tx) => {
    const current = await notebookRepository.findByIdForUpdate(tx, ref.notebookId);
    if (!current || current.status !== 'RUNNING') return false;
    await notebookRepository.setStatus(tx, ref.notebookId, 'STOPPING', reason);
    await jobRepository.enqueue(tx, { kind: NOTEBOOK_JOB, payload: { notebookId: ref.notebookId, step: 'stop', reason }, subject: ref.workbenchId });
    await appendAuditEntry(tx, { actorEmail: 'system (idle stop)' }, {
      eventType: 'NOTEBOOK_STOPPED',
      outcome: 'SUCCESS',
      message: `notebook "${current.name}" was stopped after ${minutes} idle minute(s)`,
      resourceType: 'notebook',
      resourceId: ref.notebookId,
      details: { workbench_id: ref.workbenchId, reason: 'idle', idle_seconds: Math.round(idleForMs / 1000) },
    });
    return true;
  });
  if (!moved) return;
  services.notebooks.sessions.revokeNotebook(ref.notebookId);
  services.notebooks.connections.closeNotebook(ref.notebookId, 'The notebook stopped after its idle time.');
  services.jobs.wake();
}

/**
 * The workbench's notebooks, with what the runtime can do here. Each caller sees only the
 * notebooks they can act on: a workbench OWNER (who may stop and delete any) and an
 * administrator outside it see them all; every other member sees their own. Another member's
 * notebook id is of no use to them, and was the first step of one user's page being brought
 * into another's browser (security review N1).
 */
export async function listNotebooks(
  services: AppServices,
  actor: UserRow,
  workbenchId: string,
  query: Parameters<typeof notebookRepository.list>[1] extends infer F ? Omit<F, 'workbenchId'> : never,
  context: AuditContext,
) {
  const { myRole } = await loadVisibleWorkbench(services, actor, workbenchId, context);
  const ownerId = myRole === null || myRole === 'OWNER' ? undefined : actor.id;
  const { rows, ...total } = await notebookRepository.list(services.db, { ...query, workbenchId, ownerId });
  const availability = services.notebooks.driver.availability();
  return {
    notebooks: rows.map((row) => presentNotebook(row, actor, myRole)),
    ...total,
    runtime_available: availability.available,
    runtime_detail: availability.detail ?? null,
  };
}

/**
 * The open flow's first half: a single-use URL that sets the notebook's session cookie in the
 * new tab (see notebook-proxy.ts). Audited as NOTEBOOK_OPENED.
 */
export async function openNotebook(services: AppServices, actor: UserRow, workbenchId: string, notebookId: string, context: AuditContext): Promise<NotebookOpen> {
  const { notebook, myRole } = await loadNotebook(services, actor, workbenchId, notebookId, context);
  await authorize(services, actor, notebook, myRole, 'open', context);
  await refuseWhileHeld(services, actor.id);
  if (!notebookActionAllowed('open', notebook.status) || !services.notebooks.driver.upstream(notebookId)) throw refuseTransition('open', notebook);
  const ticket = services.notebooks.sessions.issueTicket({ notebookId, userId: actor.id, workbenchId });
  await recordAuditEvent(services.db, context, {
    eventType: 'NOTEBOOK_OPENED',
    outcome: 'SUCCESS',
    message: `${actor.email} opened notebook "${notebook.name}" in ${await workbenchLabel(services.db, workbenchId)}`,
    resourceType: 'notebook',
    resourceId: notebookId,
    details: { workbench_id: workbenchId },
  });
  return {
    url: `${services.notebooks.origins.originOf(notebookId)}${notebookBasePath(notebookId)}_open`,
    ticket,
    expires_at: new Date(Date.now() + TICKET_TTL_MS).toISOString(),
  };
}

/**
 * Audits the open flow's second half: a ticket redeemed in the browser (NOTEBOOK_SESSION_STARTED)
 * or refused (NOTEBOOK_OPEN_REFUSED: a link followed, a page of another origin, a spent ticket).
 */
export function auditNotebookOpen(services: AppServices): (attempt: OpenAttempt) => void {
  const WHY: Record<NonNullable<OpenAttempt['reason']>, string> = {
    ticket: 'the ticket was unknown, used or expired',
    origin: "the ticket did not come from the web app's page",
    method: 'the open link was followed directly',
  };
  return (attempt) => {
    void (async () => {
      const user = attempt.userId ? await userRepository.findById(services.db, attempt.userId) : undefined;
      const who = user?.email ?? 'a browser';
      const notebook = await notebookRepository.findById(services.db, attempt.notebookId);
      const workbenchId = attempt.workbenchId ?? notebook?.workbenchId;
      // Every notebook event names its workbench, so a search for it finds who worked on its data.
      const where = workbenchId ? ` in ${await workbenchLabel(services.db, workbenchId)}` : '';
      const what = `${notebook ? `notebook "${notebook.name}"` : `notebook ${attempt.notebookId}`}${where}`;
      await recordAuditEvent(
        services.db,
        { actorId: user?.id ?? null, actorEmail: user?.email ?? null, clientAddress: attempt.clientAddress ?? null, userAgent: attempt.userAgent ?? null },
        {
          eventType: attempt.outcome === 'SUCCESS' ? 'NOTEBOOK_SESSION_STARTED' : 'NOTEBOOK_OPEN_REFUSED',
          outcome: attempt.outcome,
          message:
            attempt.outcome === 'SUCCESS'
              ? `${who} started a browser session on ${what}`
              : `${who} was refused a browser session on ${what}: ${WHY[attempt.reason ?? 'ticket']}`,
          resourceType: 'notebook',
          resourceId: attempt.notebookId,
          details: {
            workbench_id: workbenchId ?? null,
            ...(attempt.reason && { reason: attempt.reason }),
            ...(attempt.origin && { origin: attempt.origin.slice(0, 200) }),
          },
        },
      );
    })().catch((error: unknown) => services.logger.error({ err: error, notebookId: attempt.notebookId }, 'recording a notebook open failed'));
  };
}

/**
 * The proxy's check on every request: the session's user is still ACTIVE, not held by the egress
 * limit, the notebook's creator and a member of its workbench, and the notebook is RUNNING.
 * Answers are kept for five seconds; `fresh` asks the database (the re-check of open WebSockets).
 * Revocations (disable, removal, sign-out) also end the sessions and connections at once.
 */
export function proxyGate(services: AppServices): (session: NotebookSession, fresh?: boolean) => Promise<boolean> {
  const cache = new Map<string, { allowed: boolean; until: number }>();
  return async (session, fresh = false) => {
    const key = `${session.notebookId}:${session.userId}`;
    const cached = cache.get(key);
    if (!fresh && cached && cached.until > Date.now()) return cached.allowed;
    const notebook = await notebookRepository.findById(services.db, session.notebookId);
    const allowed =
      notebook !== undefined &&
      notebook.status === 'RUNNING' &&
      notebook.ownerId === session.userId &&
      (await userRepository.findById(services.db, session.userId))?.status === 'ACTIVE' &&
      (await workbenchRepository.memberRole(services.db, notebook.workbenchId, session.userId)) !== undefined &&
      !(await holdRepository.active(services.db, session.userId));
    if (cache.size > 10_000) cache.clear();
    cache.set(key, { allowed, until: Date.now() + 5000 });
    return allowed;
  };
}
