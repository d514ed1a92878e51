import { isOwnerOrAdmin, type QueryGroup, type QueryResult } from '@hdp/contract';
import type { AppServices } from '../app-services';
import { appendAuditEntry, recordAuditEvent, type AuditContext } from '../audit/audit-trail';
import { ApiError, badRequest, conflict, notFound } from '../http/api-error';
import type { UserRow } from '../users/user-repository';
import { compileCohortPredicate, QueryTreeError } from '../warehouse/cohort-compiler';
import { runCohortQuery, WarehouseEmptyError, type DisclosureCost } from '../warehouse/cohort-results';
import { enforceQueryLimits } from './query-limits';
import { WarehouseTimeoutError } from '../warehouse/warehouse-engine';
import { queryExecutionRepository, queryRepository, type QueryExecutionRow, type QueryWithOwner } from './query-repository';
import { resolveSavedConceptSets } from '../concept-sets/concept-set-commands';
import { conceptSetRepository } from '../concept-sets/concept-set-repository';

export const QUERY_NOT_FOUND = 'Query does not exist.';
export const EXECUTION_NOT_FOUND = 'Query execution does not exist.';

/** Checks a tree against the allow-list without running it; a bad tree is a 400 naming the rule. */
export function validateQueryTree(tree: QueryGroup): void {
  try {
    compileCohortPredicate(tree, 'cdm_validation');
  } catch (error) {
    if (error instanceof QueryTreeError) throw badRequest(error.message);
    throw error;
  }
}

/** Why a run failed, in words a researcher can act on (internals stay in the log). */
export function failureReason(error: unknown): string {
  if (error instanceof WarehouseTimeoutError || error instanceof WarehouseEmptyError) return error.message;
  if (error instanceof QueryTreeError) return error.message;
  return 'The warehouse could not run this query.';
}

/** A saved query the actor may see: the owner's or, for an ADMIN, anyone's. Others get 404. */
export async function loadVisibleQuery(services: AppServices, actor: UserRow, queryId: string): Promise<QueryWithOwner> {
  const row = await queryRepository.findById(services.db, queryId);
  if (!row || !isOwnerOrAdmin(actor, row.ownerId)) throw notFound(QUERY_NOT_FOUND);
  return row;
}

/** Saves a new query (queryCreate). */
export async function createQuery(
  services: AppServices,
  actor: UserRow,
  input: { name: string; description: string; query: QueryGroup },
  context: AuditContext,
): Promise<QueryWithOwner> {
  validateQueryTree(input.query);
  return services.db.transaction(async (tx) => {
    // Pinned saved concept sets are put into the definition as they are at their version, and the pins kept.
    const { tree, pins } = await resolveSavedConceptSets(tx, actor, input.query, true);
    const row = await queryRepository.insert(tx, { ...input, query: tree, ownerId: actor.id });
    await conceptSetRepository.setQueryPins(tx, row.id, pins);
    await appendAuditEntry(tx, context, {
      eventType: 'QUERY_CREATED',
      outcome: 'SUCCESS',
      message: `${actor.email} saved query "${row.name}"`,
      resourceType: 'query',
      resourceId: row.id,
      details: { name: row.name, version: row.version, query: row.query },
    });
    return { ...row, ownerEmail: actor.email };
  });
}

/** Updates a saved query (queryUpdate); every update bumps its version. */
export async function updateQuery(
  services: AppServices,
  actor: UserRow,
  queryId: string,
  changes: { name?: string; description?: string; query?: QueryGroup },
  context: AuditContext,
): Promise<QueryWithOwner> {
  if (changes.query) validateQueryTree(changes.query);
  return services.db.transaction(async (tx) => {
    const current = await queryRepository.findByIdForUpdate(tx, queryId);
    if (!current || !isOwnerOrAdmin(actor, current.ownerId)) throw notFound(QUERY_NOT_FOUND);
    let resolvedChanges = changes;
    if (changes.query) {
      const { tree, pins } = await resolveSavedConceptSets(tx, actor, changes.query, true);
      resolvedChanges = { ...changes, query: tree };
      await conceptSetRepository.setQueryPins(tx, queryId, pins);
    }
    const row = await queryRepository.update(tx, queryId, resolvedChanges);
    await appendAuditEntry(tx, context, {
      eventType: 'QUERY_UPDATED',
      outcome: 'SUCCESS',
      message: `${actor.email} updated query "${row.name}" to version ${row.version}`,
      resourceType: 'query',
      resourceId: row.id,
      details: { changed: Object.keys(changes), version: row.version, ...(changes.query && { query: row.query }) },
    });
    return (await queryRepository.findById(tx, queryId))!;
  });
}

/** Deletes a saved query and its executions. */
export async function deleteQuery(services: AppServices, actor: UserRow, queryId: string, context: AuditContext): Promise<void> {
  await services.db.transaction(async (tx) => {
    const current = await queryRepository.findByIdForUpdate(tx, queryId);
    if (!current || !isOwnerOrAdmin(actor, current.ownerId)) throw notFound(QUERY_NOT_FOUND);
    await queryRepository.delete(tx, queryId);
    await appendAuditEntry(tx, context, {
      eventType: 'QUERY_DELETED',
      outcome: 'SUCCESS',
      message: `${actor.email} deleted query "${current.name}"`,
      resourceType: 'query',
      resourceId: queryId,
      details: { name: current.name, version: current.version },
    });
  });
}

/** Queues a run of a saved query; the worker picks it up. Answers the PENDING execution. */
export async function requestExecution(
  services: AppServices,
  actor: UserRow,
  queryId: string,
  context: AuditContext,
): Promise<QueryExecutionRow> {
  const query = await loadVisibleQuery(services, actor, queryId);
  await enforceQueryLimits(services, actor, context, `saved query ${queryId}`);
  const execution = await queryExecutionRepository.insert(services.db, {
    queryId,
    queryVersion: query.version,
    query: query.query,
    requestedBy: actor.id,
    auditContext: {
      actorId: context.actorId ?? null,
      actorEmail: context.actorEmail ?? null,
      clientAddress: context.clientAddress ?? null,
      userAgent: context.userAgent ?? null,
      requestId: context.requestId ?? null,
    },
  });
  services.jobs.wake();
  return execution;
}

/**
 * Runs an unsaved query now and answers its aggregate results. The run and the count shown are
 * audited, and the count leaves only once its entry is committed: an answer the audit log does
 * not hold is never given. (A tree the audit log could not store never gets here: the input
 * guard refuses NUL, unpaired surrogates and over-deep bodies before validation.)
 */
export async function runAnonymousQuery(services: AppServices, actor: UserRow, sent: QueryGroup, context: AuditContext): Promise<QueryResult> {
  validateQueryTree(sent);
  const { config, warehouse, db } = services;
  const { tree } = await resolveSavedConceptSets(db, actor, sent);
  await enforceQueryLimits(services, actor, context, 'unsaved query');
  let result: QueryResult;
  const cost: DisclosureCost = { suppressionAuditMs: 0, linearPrograms: 0 };
  try {
    result = await runCohortQuery(warehouse, tree, {
      threshold: config.suppressionThreshold,
      perturbation: config.perturbation,
      trackerDefence: config.trackerDefence,
      timeoutMs: config.queryTimeoutMs,
      release: { db, kind: 'explorer', reference: 'unsaved query', audit: context },
      cost,
    });
  } catch (error) {
    const reason = failureReason(error);
    await recordAuditEvent(db, context, {
      eventType: 'QUERY_EXECUTED',
      outcome: 'FAILURE',
      message: `${actor.email} ran an unsaved query, which failed: ${reason}`,
      resourceType: 'query',
      details: { anonymous: true, query: tree, reason },
    });
    if (error instanceof WarehouseEmptyError) throw conflict(reason);
    if (error instanceof WarehouseTimeoutError) throw new ApiError(422, reason);
    throw error;
  }
  await recordAuditEvent(db, context, {
    eventType: 'QUERY_EXECUTED',
    outcome: 'SUCCESS',
    message: `${actor.email} ran an unsaved query: ${result.person_count_display} persons`,
    resourceType: 'query',
    details: {
      anonymous: true,
      query: tree,
      person_count_shown: result.person_count_display,
      execution_time_ms: result.execution_time_ms,
      ...auditedCost(cost),
    },
  });
  return result;
}

/** What the disclosure checks of a run cost, as its audit entry records it. */
export function auditedCost(cost: DisclosureCost): { suppression_audit_ms: number; linear_programs: number; tracker_check_ms?: number } {
  return {
    suppression_audit_ms: Math.round(cost.suppressionAuditMs * 100) / 100,
    linear_programs: cost.linearPrograms,
    ...(cost.trackerCheckMs !== undefined && { tracker_check_ms: Math.round(cost.trackerCheckMs * 100) / 100 }),
  };
}
