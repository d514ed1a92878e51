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
    const { warehouse, config } = request.server.services;
    return summariseDataset(warehouse, {
      threshold: config.suppressionThreshold,
      perturbation: config.perturbation,
      timeoutMs: config.queryTimeoutMs,
    });
  },

  searchConcepts: async (request) => ({
    concepts: await searchConcepts(request.server.services.warehouse, request.query),
  }),
};
