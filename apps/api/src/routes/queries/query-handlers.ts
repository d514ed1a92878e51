import { hasRole } from '@hdp/contract';
import { auditContextOf } from '../../http/audit-context';
import { notFound } from '../../http/api-error';
import { currentUser, type RouteHandlers } from '../../http/route-types';
import {
  createQuery,
  deleteQuery,
  EXECUTION_NOT_FOUND,
  loadVisibleQuery,
  requestExecution,
  runAnonymousQuery,
  updateQuery,
} from '../../queries/query-commands';
import { exportAtlasQuery, importAtlasQuery, lintQuery } from '../../queries/atlas/atlas-commands';
import { presentExecution, presentQuery } from '../../queries/query-presenter';
import { queryExecutionRepository, queryRepository } from '../../queries/query-repository';
import { QUERY_NOT_EXECUTED } from '@hdp/contract';
import type { DbOrTx } from '../../db/database';
import { conceptSetRepository } from '../../concept-sets/concept-set-repository';
import type { QueryWithOwner } from '../../queries/query-repository';

/** Saved queries as they leave the server, each saying which saved concept sets it pins have a newer version. */
async function presentQueries(db: DbOrTx, rows: QueryWithOwner[]) {
  const newer = await conceptSetRepository.newerVersionsFor(db, rows.map((r) => r.id));
  return rows.map((row) =>
    presentQuery(row, (newer.get(row.id) ?? []).map((n) => ({ concept_set_id: n.conceptSetId, name: n.name, pinned_version: n.pinned, latest_version: n.latest }))),
  );
}

export const queryHandlers: RouteHandlers = {
  listQueries: async (request) => {
    const actor = currentUser(request);
    const q = request.query;
    const { rows, ...total } = await queryRepository.list(request.server.services.db, {
      // Everyone sees their own queries; an ADMIN sees everybody's.
      ownerId: hasRole(actor, 'ADMIN') ? undefined : actor.id,
      nameSearch: q.name_search,
      idSearch: q.id_search,
      emailSearch: q.email_search,
      createdBy: q.created_by,
      skip: q.skip,
      limit: q.limit,
      orderBy: q.order_by,
    });
    return { queries: await presentQueries(request.server.services.db, rows), ...total };
  },

  createQuery: async (request, reply) => {
    const row = await createQuery(request.server.services, currentUser(request), request.body, auditContextOf(request));
    const [presented] = await presentQueries(request.server.services.db, [row]);
    return reply.code(201).send(presented);
  },

  updateQuery: async (request) => {
    const row = await updateQuery(request.server.services, currentUser(request), request.params.queryId, request.body, auditContextOf(request));
    return (await presentQueries(request.server.services.db, [row]))[0]!;
  },

  deleteQuery: async (request, reply) => {
    await deleteQuery(request.server.services, currentUser(request), request.params.queryId, auditContextOf(request));
    return reply.code(204).send();
  },

  executeQuery: async (request, reply) => {
    const execution = await requestExecution(request.server.services, currentUser(request), request.params.queryId, auditContextOf(request));
    return reply.code(202).send(presentExecution(execution));
  },

  getLatestQueryExecution: async (request) => {
    const { services } = request.server;
    await loadVisibleQuery(services, currentUser(request), request.params.queryId);
    const execution = await queryExecutionRepository.latestForQuery(services.db, request.params.queryId);
    if (!execution) throw notFound(QUERY_NOT_EXECUTED);
    return presentExecution(execution);
  },

  getQueryExecution: async (request) => {
    const { services } = request.server;
    await loadVisibleQuery(services, currentUser(request), request.params.queryId);
    const execution = await queryExecutionRepository.findForQuery(services.db, request.params.queryId, request.params.queryExecutionId);
    if (!execution) throw notFound(EXECUTION_NOT_FOUND);
    return presentExecution(execution);
  },

  importAtlasQuery: async (request, reply) =>
    reply.code(201).send(await importAtlasQuery(request.server.services, currentUser(request), request.body, auditContextOf(request))),

  exportAtlasQuery: async (request) => exportAtlasQuery(request.server.services, currentUser(request), request.params.queryId),

  lintQuery: async (request) => lintQuery(request.server.services, currentUser(request), request.params.queryId),

  executeAnonymousQuery: async (request) =>
    runAnonymousQuery(request.server.services, currentUser(request), request.body.query, auditContextOf(request)),
};
