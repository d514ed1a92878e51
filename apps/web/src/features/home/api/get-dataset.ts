import type { Dataset } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';

export const DATASET_PATH = contractPath('getDataset', '/api/v1/data-explorer/dataset/');

/** The dataset in use: persons (released like a query with no criteria) and records per domain. */
export const datasetApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getDataset: build.query<Dataset, void>({
      query: () => ({ url: DATASET_PATH, method: 'GET' }),
    }),
  }),
});

export const { useGetDatasetQuery } = datasetApi;
