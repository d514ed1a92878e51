import type { RouteHandlers } from '../../http/route-types';
import { searchConcepts } from '../../warehouse/concept-search';
import { presentExplorerTables } from '../../warehouse/explorer-fields';

export const dataExplorerHandlers: RouteHandlers = {
  getDataExplorerSchema: async (request) => {
    const { state } = request.server.services.warehouse;
    return { tableSchema: presentExplorerTables(), warehouse: { loaded: state !== null, source: state?.source ?? null } };
  },

  searchConcepts: async (request) => ({
    concepts: await searchConcepts(request.server.services.warehouse, request.query),
  }),
};
