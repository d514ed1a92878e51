import { auditLogRepository } from '../../audit/audit-log-repository';
import { presentAuditEntry } from '../../audit/audit-presenter';
import type { RouteHandlers } from '../../http/route-types';
import { searchConcepts } from '../../warehouse/concept-search';
import { presentExplorerTables } from '../../warehouse/explorer-fields';
import { summariseDataset } from '../../warehouse/dataset-summary';

export const dataExplorerHandlers: RouteHandlers = {
  getDataExplorerSchema: async (request) => {
    const { state } = request.server.services.warehouse;
    return { tableSchema: presentExplorerTables(), warehouse: { loaded: state !== null, source: state?.source ?? null } };
  },

  getDataset: async (request) => {
    const { warehouse, config, db } = request.server.services;
    return summariseDataset(warehouse, db, {
      threshold: config.suppressionThreshold,
      perturbation: config.perturbation,
      trackerDefence: config.trackerDefence,
      timeoutMs: config.queryTimeoutMs,
    });
  },

  listWithheldAnswers: async (request) => {
    const { rows, ...total } = await auditLogRepository.list(request.server.services.db, {
      skip: request.query.skip,
      limit: request.query.limit,
      eventTypes: ['DISCLOSURE_TRACKER_SUSPECTED'],
      order: 'TIMESTAMP_DESC',
    });
    return { entries: rows.map(presentAuditEntry), ...total };
  },

  searchConcepts: async (request) => ({
    concepts: await searchConcepts(request.server.services.warehouse, request.query),
  }),
};
