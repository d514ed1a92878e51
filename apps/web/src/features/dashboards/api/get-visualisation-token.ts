import type { VisualisationTokens } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';

export const VISUALISATION_TOKEN_PATH = contractPath('getVisualisationToken', '/api/v1/vizzly/tokens/{projectId}/');

/**
 * Short-lived tokens of the visualisation service for one workbench. Never kept: each of Vizzly's
 * identity calls asks for fresh ones.
 */
export const visualisationTokenApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getVisualisationToken: build.query<VisualisationTokens, string>({
      query: (workbenchId) => ({ url: pathOf(VISUALISATION_TOKEN_PATH, { projectId: workbenchId }), method: 'GET' }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useLazyGetVisualisationTokenQuery } = visualisationTokenApi;
