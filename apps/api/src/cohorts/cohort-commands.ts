import { randomUUID } from 'node:crypto';
import { cohortTransition, isOwnerOrAdmin, type CohortDetail, type CohortTransition, type CohortStatus, type CohortUpdate, type QueryGroup, type QueryResult } from '@hdp/contract';
import type { AppServices } from '../app-services';
import type { DbOrTx } from '../db/database';
import type { StoredCohortDefinition } from '../db/schema';
import { appendAuditEntry, recordAuditEvent, type AuditContext } from '../audit/audit-trail';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/api-error';
import { failureReason } from '../queries/query-commands';
import { enforceQueryLimits } from '../queries/query-limits';
import { queryExecutionRepository, queryRepository } from '../queries/query-repository';
import type { UserRow } from '../users/user-repository';
import { aggregateResult, WarehouseEmptyError, type ReleasedCount } from '../warehouse/cohort-results';
import { compileSnapshotAggregate, dropSnapshot, takeSnapshot } from '../warehouse/cohort-snapshots';
import { WarehouseTimeoutError, type WarehouseState } from '../warehouse/warehouse-engine';
import { definitionToKeep, presentDefinition } from './cohort-definition';
import { presentCohortDetail, shownVersion } from './cohort-presenter';
import { cohortRepository, type CohortRow, type CohortView } from './cohort-repository';
import { canSeeCohort, isCohortSteward, reviewsCohort, whyCannotChangeCohort } from './cohort-rules';

export const COHORT_NOT_FOUND = 'Cohort does not exist.';
const EXECUTION_NOT_FOUND = 'executionId: no execution of a saved query of yours has this id.';

const TRANSITION_EVENTS = {
  publish: 'COHORT_PUBLISHED',
  unpublish: 'COHORT_UNPUBLISHED',
  archive: 'COHORT_ARCHIVED',
  restore: 'COHORT_RESTORED',
} as const;
const TRANSITION_PAST = { publish: 'published', unpublish: 'unpublished', archive: 'archived', restore: 'restored' } as const;

/**
 * A cohort the actor may see. Anyone else is told it does not exist, so its existence does not
 * leak, and the attempt is audited as a denial.
 */
export async function loadVisibleCohort(services: AppServices, actor: UserRow, cohortId: string, context: AuditContext): Promise<CohortView> {
  const cohort = await cohortRepository.findById(services.db, cohortId);
  if (cohort && canSeeCohort(actor, cohort)) return cohort;
  if (cohort) {
    await recordAuditEvent(services.db, context, {
      eventType: 'ACCESS_DENIED',
      outcome: 'DENIED',
      message: `${actor.email} was denied cohort "${cohort.name}" (${cohortId})`,
      resourceType: 'cohort',
      resourceId: cohortId,
    });
  }
  throw notFound(COHORT_NOT_FOUND);
}

/**
 * The cohort with its history and the demographics of its current version, as `actor` may see it:
 * its author and data stewards get every version with its criteria; anyone else the versions up
 * to the published one (a newer version awaits review) and the criteria of the published version
 * only, which is what a workbench releases (docs/cohorts.md, "Who reads the criteria").
 */
export async function cohortDetail(services: AppServices, cohortId: string, actor: UserRow): Promise<CohortDetail> {
  const { db, config, warehouse } = services;
  const cohort = await cohortRepository.findById(db, cohortId);
  if (!cohort) throw notFound(COHORT_NOT_FOUND);
  const reviewer = reviewsCohort(actor, cohort);
  const shown = shownVersion(cohort, reviewer);
  const [versions, current] = await Promise.all([cohortRepository.versions(db, cohortId), cohortRepository.findVersion(db, cohortId, shown)]);
  const visible = await Promise.all(
    versions
      .filter((v) => v.version <= shown)
      .map(async (row) => ({
        row,
        definition: reviewer || row.version === cohort.publishedVersion ? await presentDefinition(warehouse, row.definition) : null,
      })),
  );
  return presentCohortDetail(cohort, visible, current!.result, config.suppressionThreshold, reviewer, warehouse.state?.schema ?? null);
}

interface Snapshot {
  versionId: string;
  personCount: number;
  result: QueryResult;
  state: WarehouseState;
  definition: StoredCohortDefinition;
}

/**
 * Keeps the persons `tree` selects in `state`'s dataset as a new version, and counts their
 * demographics from the kept persons themselves, so the charts always match the snapshot.
 */
async function snapshot(services: AppServices, tree: QueryGroup, state: WarehouseState, audit: AuditContext): Promise<Snapshot> {
  const { warehouse, config } = services;
  const versionId = randomUUID();
  try {
    const personCount = await takeSnapshot(warehouse, state, versionId, tree, config.queryTimeoutMs);
    if (personCount === 0) throw conflict('The query selects no persons, so there is nothing to keep as a cohort.');
    const released: ReleasedCount = { personCount: 0 };
    const result = await aggregateResult(warehouse, state.schema, compileSnapshotAggregate(state.schema, versionId, { sketches: config.trackerDefence }), {
      threshold: config.suppressionThreshold,
      perturbation: config.perturbation,
      trackerDefence: config.trackerDefence,
      timeoutMs: config.queryTimeoutMs,
      release: { db: services.db, kind: 'cohort', reference: `cohort version ${versionId}`, audit },
      released,
    });
    // The same persons as a withheld run: their counts stay withheld, so no cohort of them can show its size.
    if (result.withheld) throw conflict(`${result.withheld} A cohort is not made from them.`);
    // The cohort shows (and is published on) the same perturbed count as any other answer about these persons.
    return { versionId, personCount: released.personCount, result, state, definition: await definitionToKeep(warehouse, tree) };
  } catch (error) {
    await dropSnapshot(warehouse, versionId).catch(() => undefined);
    if (error instanceof ApiError) throw error;
    if (error instanceof WarehouseEmptyError) throw conflict(error.message);
    if (error instanceof WarehouseTimeoutError) throw new ApiError(422, error.message);
    services.logger.error({ err: error }, 'cohort snapshot failed');
    throw new ApiError(500, failureReason(error));
  }
}

/** Records the version in the database with `record`; if that fails, the kept persons go too. */
async function keepOrDrop<T>(services: AppServices, taken: Snapshot, record: () => Promise<T>): Promise<T> {
  try {
    return await record();
  } catch (error) {
    await dropSnapshot(services.warehouse, taken.versionId).catch(() => undefined);
    throw error;
  }
}

/** Makes a DRAFT cohort from the persons of a successful run of a saved query the actor may see. */
export async function createCohort(
  services: AppServices,
  actor: UserRow,
  input: { name: string; description: string; tags: string[]; executionId: string },
  context: AuditContext,
): Promise<string> {
  const { db, warehouse } = services;
  const execution = await queryExecutionRepository.findById(db, input.executionId);
  const query = execution && (await queryRepository.findById(db, execution.queryId));
  if (!execution || !query || !isOwnerOrAdmin(actor, query.ownerId)) throw notFound(EXECUTION_NOT_FOUND);
  if (execution.status !== 'SUCCEEDED') {
    throw conflict(`executionId: this run is ${execution.status.toLowerCase()}; a cohort is made from a run that succeeded.`);
  }
  const state = warehouse.state;
  if (!state || execution.dataset !== state.schema) {
    throw conflict('executionId: the data has been reloaded since this run; run the query again and make the cohort from the new run.');
  }
  // The run's tree on the data it ran on selects the same persons again: the snapshot is that run's.
  const taken = await snapshot(services, execution.query, state, context);
  return keepOrDrop(services, taken, () =>
    db.transaction(async (tx) => {
      const cohort = await cohortRepository.insert(tx, {
        name: input.name,
        description: input.description,
        tags: input.tags,
        queryId: query.id,
        personCount: taken.personCount,
        authorId: actor.id,
      });
      await cohortRepository.insertVersion(tx, {
        id: taken.versionId,
        cohortId: cohort.id,
        version: 1,
        origin: 'EXECUTION',
        queryVersion: execution.queryVersion,
        executionId: execution.id,
        personCount: taken.personCount,
        dataset: state.source,
        datasetSchema: state.schema,
        result: taken.result,
        definition: taken.definition,
        createdBy: actor.id,
      });
      await appendAuditEntry(tx, context, {
        eventType: 'COHORT_CREATED',
        outcome: 'SUCCESS',
        message: `${actor.email} made cohort "${cohort.name}" from query "${query.name}" (version ${execution.queryVersion}): ${taken.result.person_count_display} persons`,
        resourceType: 'cohort',
        resourceId: cohort.id,
        details: { name: cohort.name, query_id: query.id, query_version: execution.queryVersion, execution_id: execution.id, person_count_shown: taken.result.person_count_display, dataset: state.source },
      });
      return cohort.id;
    }),
  );
}

/** Takes the source query's current version again on the data served now, as a new version. */
export async function refreshCohort(services: AppServices, actor: UserRow, cohortId: string, context: AuditContext): Promise<void> {
  const { db, warehouse, config } = services;
  const cohort = await loadVisibleCohort(services, actor, cohortId, context);
  const refusal = whyCannotChangeCohort(actor, cohort);
  if (refusal) throw forbidden(refusal);
  if (cohort.status === 'ARCHIVED') throw conflict('This cohort is archived; restore it before refreshing it.');
  const query = cohort.queryId ? await queryRepository.findById(db, cohort.queryId) : undefined;
  if (!query) throw conflict('The query this cohort came from has been deleted, so it cannot be refreshed.');
  // A refresh runs the query again: it counts against the same limits as any run.
  await enforceQueryLimits(services, actor, context, `refresh of cohort ${cohortId}`);
  const state = warehouse.state;
  if (!state) throw conflict(new WarehouseEmptyError().message);
  const taken = await snapshot(services, query.query, state, context);
  await keepOrDrop(services, taken, () =>
    db.transaction(async (tx) => {
      const current = await cohortRepository.findByIdForUpdate(tx, cohortId);
      if (!current) throw notFound(COHORT_NOT_FOUND);
      if (current.status === 'PUBLISHED' && taken.personCount < config.suppressionThreshold) {
        throw conflict(
          `The refreshed cohort would hold fewer persons than the suppression threshold (${config.suppressionThreshold}), so this published cohort keeps its current version.`,
        );
      }
      const version = current.version + 1;
      await cohortRepository.insertVersion(tx, {
        id: taken.versionId,
        cohortId,
        version,
        origin: 'REFRESH',
        queryVersion: query.version,
        executionId: null,
        personCount: taken.personCount,
        dataset: state.source,
        datasetSchema: state.schema,
        result: taken.result,
        definition: taken.definition,
        createdBy: actor.id,
      });
      // The published version (if any) stays what researchers see: the new one awaits a steward's review.
      await cohortRepository.update(tx, cohortId, { version, personCount: taken.personCount });
      const awaiting = current.publishedVersion !== null ? `; version ${current.publishedVersion} stays published until a data steward reviews it` : '';
      await appendAuditEntry(tx, context, {
        eventType: 'COHORT_REFRESHED',
        outcome: 'SUCCESS',
        message: `${actor.email} re-ran cohort "${current.name}" as version ${version} from query "${query.name}" (version ${query.version}): ${taken.result.person_count_display} persons${awaiting}`,
        resourceType: 'cohort',
        resourceId: cohortId,
        details: {
          version, query_id: query.id, query_version: query.version, person_count_shown: taken.result.person_count_display, dataset: state.source,
          published_version: current.publishedVersion,
        },
      });
    }),
  );
}

/**
 * Applies a cohortUpdate. Name, description and tags: the author while it is a draft, or a
 * steward. A status change (publish, unpublish, archive, restore) and publishing a version: a
 * steward only. Publishing names the version reviewed, which must be the newest; a version below
 * the suppression threshold is never published.
 */
export async function updateCohort(services: AppServices, actor: UserRow, cohortId: string, update: CohortUpdate, context: AuditContext): Promise<void> {
  const { db, config } = services;
  const cohort = await loadVisibleCohort(services, actor, cohortId, context);
  const statusChange = update.status !== undefined && update.status !== cohort.status ? update.status : undefined;
  if ((statusChange || update.published_version !== undefined) && !isCohortSteward(actor)) {
    throw forbidden('Only a data steward or an administrator may publish, unpublish, archive or restore a cohort.');
  }
  const refusal = whyCannotChangeCohort(actor, cohort);
  if (refusal) throw forbidden(refusal);

  try {
    await db.transaction((tx) => applyUpdate(tx, actor, cohortId, update, statusChange, config.suppressionThreshold, context));
  } catch (error) {
    // The refusal is audited after the transaction has rolled back (it holds the cohort's lock).
    if (error instanceof PublicationRefused) {
      await recordAuditEvent(db, context, {
        eventType: 'COHORT_PUBLISHED',
        outcome: 'FAILURE',
        message: `${actor.email} could not publish cohort "${cohort.name}": ${error.detail}`,
        resourceType: 'cohort',
        resourceId: cohortId,
        details: { reason: error.detail },
      });
    }
    throw error;
  }
}

class PublicationRefused extends ApiError {
  constructor(detail: string) {
    super(409, detail);
  }
}

/**
 * The version a publication makes public, or null when the update publishes nothing: a draft
 * becoming PUBLISHED, or `published_version` naming a newer version of a published cohort. The
 * named version must be the newest (the one the steward's page showed): a re-run since makes it stale.
 */
function versionToPublish(current: CohortRow, update: CohortUpdate, transition: CohortTransition | undefined): number | null {
  const named = update.published_version;
  if (transition !== 'publish' && named === undefined) return null;
  if (transition && transition !== 'publish') {
    throw badRequest(`published_version: a version is published with status PUBLISHED, not while the cohort becomes ${update.status}.`);
  }
  if (!transition && current.status !== 'PUBLISHED') {
    throw conflict(`A cohort that is ${current.status} is published with status PUBLISHED${current.status === 'ARCHIVED' ? ', after restoring it to DRAFT' : ''}.`);
  }
  const version = named ?? current.version;
  if (version > current.version) throw conflict(`This cohort has no version ${version}; its newest is version ${current.version}.`);
  if (version < current.version) {
    throw conflict(`Version ${version} is no longer this cohort's newest: version ${current.version} was made since. Review version ${current.version} and publish it instead.`);
  }
  if (!transition && current.publishedVersion === version) throw conflict(`Version ${version} is already the published version.`);
  return version;
}

async function applyUpdate(
  tx: DbOrTx,
  actor: UserRow,
  cohortId: string,
  update: CohortUpdate,
  statusChange: CohortStatus | undefined,
  threshold: number,
  context: AuditContext,
): Promise<void> {
  const current = await cohortRepository.findByIdForUpdate(tx, cohortId);
  if (!current) throw notFound(COHORT_NOT_FOUND);
  const transition = statusChange && cohortTransition(current.status, statusChange);
  if (statusChange && !transition) {
    throw conflict(`A cohort that is ${current.status} cannot become ${statusChange}${current.status === 'ARCHIVED' ? '; restore it to DRAFT first' : ''}.`);
  }
  const publishing = versionToPublish(current, update, transition);
  if (publishing !== null && current.personCount < threshold) {
    throw new PublicationRefused(
      `Version ${publishing} of this cohort holds fewer persons than the suppression threshold (${threshold}), so publishing it could identify people.`,
    );
  }
  const fields = { name: update.name, description: update.description, tags: update.tags };
  const changed = Object.entries(fields).filter(([, value]) => value !== undefined).map(([field]) => field);
  await cohortRepository.update(tx, cohortId, {
    ...Object.fromEntries(changed.map((field) => [field, fields[field as keyof typeof fields]])),
    ...(statusChange && { status: statusChange }),
    ...(publishing !== null && { publishedAt: new Date(), publishedBy: actor.id, publishedVersion: publishing }),
    // An archived cohort keeps the record of its publication; a draft again has none.
    ...((transition === 'unpublish' || transition === 'restore') && { publishedAt: null, publishedBy: null, publishedVersion: null }),
  });
  const name = update.name ?? current.name;
  const renamed = update.name !== undefined && update.name !== current.name;
  const event = transition ? TRANSITION_EVENTS[transition] : publishing !== null ? 'COHORT_PUBLISHED' : 'COHORT_UPDATED';
  let message: string;
  if (publishing !== null && !transition) {
    message = `${actor.email} published version ${publishing} of cohort "${name}" in place of version ${current.publishedVersion}`;
  } else if (transition) {
    message = `${actor.email} ${TRANSITION_PAST[transition]} cohort "${name}" (version ${current.version})`;
  } else {
    message = `${actor.email} updated cohort "${name}" (${changed.join(', ') || 'no change'})${renamed ? `, renamed from "${current.name}"` : ''}`;
  }
  await appendAuditEntry(tx, context, {
    eventType: event,
    outcome: 'SUCCESS',
    message,
    resourceType: 'cohort',
    resourceId: cohortId,
    details: {
      changed,
      ...(renamed && { previous_name: current.name }),
      ...(transition && { from: current.status, to: statusChange, version: current.version }),
      ...(publishing !== null && { published_version: publishing, previous_published_version: current.publishedVersion }),
    },
  });
}
