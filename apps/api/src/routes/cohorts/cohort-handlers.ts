import { auditContextOf } from '../../http/audit-context';
import { currentUser, type RouteHandlers } from '../../http/route-types';
import { cohortDetail, createCohort, loadVisibleCohort, refreshCohort, updateCohort } from '../../cohorts/cohort-commands';
import { presentCohort } from '../../cohorts/cohort-presenter';
import { cohortRepository, type CohortVisibility } from '../../cohorts/cohort-repository';
import { isCohortSteward, reviewsCohort } from '../../cohorts/cohort-rules';

export const cohortHandlers: RouteHandlers = {
  listCohorts: async (request) => {
    const { db, config, warehouse } = request.server.services;
    const actor = currentUser(request);
    const q = request.query;
    const visibility: CohortVisibility = isCohortSteward(actor) ? { all: true } : { all: false, userId: actor.id };
    const [{ rows, ...total }, tags] = await Promise.all([
      cohortRepository.list(db, {
        visibility,
        search: q.search,
        status: q.status === 'All' || q.status === 'AWAITING_REVIEW' ? undefined : q.status,
        awaitingReview: q.status === 'AWAITING_REVIEW',
        tags: q.tags,
        skip: q.skip,
        limit: q.limit,
        orderBy: q.order_by,
        threshold: config.suppressionThreshold,
      }),
      cohortRepository.tagsInUse(db, visibility),
    ]);
    return { cohorts: rows.map((row) => presentCohort(row, config.suppressionThreshold, reviewsCohort(actor, row), warehouse.state?.schema ?? null)), ...total, total_tags: tags };
  },

  createCohort: async (request, reply) => {
    const { services } = request.server;
    const id = await createCohort(services, currentUser(request), request.body, auditContextOf(request));
    return reply.code(201).send(await cohortDetail(services, id, currentUser(request)));
  },

  getCohort: async (request) => {
    const { services } = request.server;
    const actor = currentUser(request);
    const cohort = await loadVisibleCohort(services, actor, request.params.cohortId, auditContextOf(request));
    return cohortDetail(services, cohort.id, actor);
  },

  updateCohort: async (request) => {
    const { services } = request.server;
    await updateCohort(services, currentUser(request), request.params.cohortId, request.body, auditContextOf(request));
    return cohortDetail(services, request.params.cohortId, currentUser(request));
  },

  refreshCohort: async (request) => {
    const { services } = request.server;
    await refreshCohort(services, currentUser(request), request.params.cohortId, auditContextOf(request));
    return cohortDetail(services, request.params.cohortId, currentUser(request));
  },
};
