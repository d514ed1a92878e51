import { isOwnerOrAdmin, type ConceptSetItem, type QueryGroup } from '@hdp/contract';
import type { AppServices } from '../app-services';
import { appendAuditEntry, type AuditContext } from '../audit/audit-trail';
import type { DbOrTx } from '../db/database';
import { badRequest, conflict, notFound } from '../http/api-error';
import type { UserRow } from '../users/user-repository';
import { conceptSetRepository, type ConceptSetWithVersion } from './concept-set-repository';

export const CONCEPT_SET_NOT_FOUND = 'Concept set does not exist.';

/** A saved concept set the actor may see, at `version` (the newest when absent): the owner's or, for an ADMIN, anyone's. Others get 404. */
export async function loadVisibleConceptSet(db: DbOrTx, actor: UserRow, id: string, version?: number): Promise<ConceptSetWithVersion> {
  const set = await conceptSetRepository.findById(db, id);
  if (!set || !isOwnerOrAdmin(actor, set.ownerId)) throw notFound(CONCEPT_SET_NOT_FOUND);
  const current = await conceptSetRepository.findVersion(db, id, version ?? set.version);
  if (!current) throw notFound(`Concept set "${set.name}" has no version ${version}; its newest is version ${set.version}.`);
  const { ownerEmail, ...row } = set;
  return { set: row, ownerEmail, current, usedByQueries: await conceptSetRepository.countUses(db, id) };
}

export async function createConceptSet(
  services: AppServices,
  actor: UserRow,
  input: { name: string; description: string; items: ConceptSetItem[] },
  context: AuditContext,
): Promise<ConceptSetWithVersion> {
  return services.db.transaction(async (tx) => {
    const row = await conceptSetRepository.insert(tx, { ...input, ownerId: actor.id });
    await appendAuditEntry(tx, context, {
      eventType: 'CONCEPT_SET_CREATED',
      outcome: 'SUCCESS',
      message: `${actor.email} saved concept set "${row.name}" (${input.items.length} items)`,
      resourceType: 'concept_set',
      resourceId: row.id,
      details: { name: row.name, version: 1, items: input.items },
    });
    return loadVisibleConceptSet(tx, actor, row.id);
  });
}

/** Every change makes a new version; the old ones stay, so queries that pin them keep their meaning. */
export async function updateConceptSet(
  services: AppServices,
  actor: UserRow,
  id: string,
  changes: { name?: string; description?: string; items?: ConceptSetItem[] },
  context: AuditContext,
): Promise<ConceptSetWithVersion> {
  return services.db.transaction(async (tx) => {
    const set = await conceptSetRepository.findByIdForUpdate(tx, id);
    if (!set || !isOwnerOrAdmin(actor, set.ownerId)) throw notFound(CONCEPT_SET_NOT_FOUND);
    const latest = (await conceptSetRepository.findVersion(tx, id, set.version))!;
    const row = await conceptSetRepository.addVersion(tx, set, {
      name: changes.name ?? latest.name,
      description: changes.description ?? latest.description,
      items: changes.items ?? latest.items,
      createdBy: actor.id,
    });
    await appendAuditEntry(tx, context, {
      eventType: 'CONCEPT_SET_UPDATED',
      outcome: 'SUCCESS',
      message: `${actor.email} changed concept set "${row.name}": version ${row.version}`,
      resourceType: 'concept_set',
      resourceId: id,
      details: { changed: Object.keys(changes).filter((k) => changes[k as keyof typeof changes] !== undefined), version: row.version, ...(changes.items && { items: changes.items }) },
    });
    return loadVisibleConceptSet(tx, actor, id);
  });
}

/** Deletes a set and its versions; refused (409) while a saved query pins any version of it. */
export async function deleteConceptSet(services: AppServices, actor: UserRow, id: string, context: AuditContext): Promise<void> {
  await services.db.transaction(async (tx) => {
    const set = await conceptSetRepository.findByIdForUpdate(tx, id);
    if (!set || !isOwnerOrAdmin(actor, set.ownerId)) throw notFound(CONCEPT_SET_NOT_FOUND);
    const uses = await conceptSetRepository.countUses(tx, id);
    if (uses > 0) {
      throw conflict(`Concept set "${set.name}" is used by ${uses} saved ${uses === 1 ? 'query' : 'queries'}; remove it from ${uses === 1 ? 'that query' : 'those queries'} (or delete ${uses === 1 ? 'it' : 'them'}) first.`);
    }
    await conceptSetRepository.delete(tx, id);
    await appendAuditEntry(tx, context, {
      eventType: 'CONCEPT_SET_DELETED',
      outcome: 'SUCCESS',
      message: `${actor.email} deleted concept set "${set.name}"`,
      resourceType: 'concept_set',
      resourceId: id,
      details: { name: set.name, version: set.version },
    });
  });
}

/** A saved concept set version pinned by a definition. */
export interface ConceptSetPin {
  conceptSetId: string;
  version: number;
}

/**
 * Puts the items of each pinned saved concept set version into the definition (`expression`), so
 * that what is stored and run is whole in itself, and answers the pins. A pin to a set the actor
 * may not see, or to a version it does not have, is a 400 that names the place (the same words
 * whether the set is someone else's or does not exist). With `lock`, the sets are locked against
 * deletion until the transaction ends.
 */
export async function resolveSavedConceptSets(db: DbOrTx, actor: UserRow, tree: QueryGroup, lock = false): Promise<{ tree: QueryGroup; pins: ConceptSetPin[] }> {
  const sets = tree?.cohortDefinition?.conceptSets;
  if (!Array.isArray(sets) || !sets.some((s) => s?.savedConceptSet)) return { tree, pins: [] };
  const ids = [...new Set(sets.flatMap((s) => (s?.savedConceptSet ? [s.savedConceptSet.id] : [])))];
  const visible = new Map((lock ? await conceptSetRepository.findManyForShare(db, ids) : await Promise.all(ids.map((id) => conceptSetRepository.findById(db, id)))).flatMap((s) => (s && isOwnerOrAdmin(actor, s.ownerId) ? [[s.id, s] as const] : [])));
  const pins: ConceptSetPin[] = [];
  const resolved = await Promise.all(
    sets.map(async (set, i) => {
      const saved = set?.savedConceptSet;
      if (!saved) return set;
      const version = visible.has(saved.id) ? await conceptSetRepository.findVersion(db, saved.id, saved.version) : undefined;
      if (!version) throw badRequest(`query.cohortDefinition.conceptSets[${i}].savedConceptSet: you have no saved concept set ${saved.id} with a version ${saved.version}.`);
      pins.push({ conceptSetId: saved.id, version: saved.version });
      return { ...set, expression: { items: version.items } };
    }),
  );
  return { tree: { ...tree, cohortDefinition: { ...tree.cohortDefinition!, conceptSets: resolved } }, pins };
}
