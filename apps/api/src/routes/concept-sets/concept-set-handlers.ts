import { hasRole } from '@hdp/contract';
import type { AppServices } from '../../app-services';
import { createConceptSet, deleteConceptSet, loadVisibleConceptSet, updateConceptSet } from '../../concept-sets/concept-set-commands';
import { presentConceptSet } from '../../concept-sets/concept-set-presenter';
import { conceptSetRepository, type ConceptSetWithVersion } from '../../concept-sets/concept-set-repository';
import { resolvedConceptCount } from '../../concept-sets/resolved-concepts';
import { auditContextOf } from '../../http/audit-context';
import { currentUser, type RouteHandlers } from '../../http/route-types';

/** One set, whole: its resolved concept count in the data served and its versions. */
async function presentWhole(services: AppServices, row: ConceptSetWithVersion) {
  const [resolved, versions] = await Promise.all([
    resolvedConceptCount(services.warehouse, row.current.items, services.config.queryTimeoutMs),
    conceptSetRepository.versions(services.db, row.set.id),
  ]);
  return presentConceptSet(row, { resolvedConceptCount: resolved, versions });
}

export const conceptSetHandlers: RouteHandlers = {
  listConceptSets: async (request) => {
    const actor = currentUser(request);
    const q = request.query;
    const { rows, ...total } = await conceptSetRepository.list(request.server.services.db, {
      ownerId: hasRole(actor, 'ADMIN') ? undefined : actor.id,
      search: q.search,
      skip: q.skip,
      limit: q.limit,
      orderBy: q.order_by,
    });
    return { concept_sets: rows.map((row) => presentConceptSet(row, { resolvedConceptCount: null, versions: [] })), ...total };
  },

  createConceptSet: async (request, reply) => {
    const { services } = request.server;
    const row = await createConceptSet(services, currentUser(request), request.body, auditContextOf(request));
    return reply.code(201).send(await presentWhole(services, row));
  },

  getConceptSet: async (request) => {
    const { services } = request.server;
    return presentWhole(services, await loadVisibleConceptSet(services.db, currentUser(request), request.params.conceptSetId, request.query.version));
  },

  updateConceptSet: async (request) => {
    const { services } = request.server;
    return presentWhole(services, await updateConceptSet(services, currentUser(request), request.params.conceptSetId, request.body, auditContextOf(request)));
  },

  deleteConceptSet: async (request, reply) => {
    await deleteConceptSet(request.server.services, currentUser(request), request.params.conceptSetId, auditContextOf(request));
    return reply.code(204).send();
  },
};
