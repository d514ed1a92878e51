import { createApi } from '@reduxjs/toolkit/query/react';
import { KEEP_UNUSED_DATA_SECONDS, REFETCH_ON_MOUNT_SECONDS } from '@/config/constants';
import { createBaseQuery } from './base-query';

/** Cache tags: a change to one of these invalidates the matching cached lists. */
export const TAG_TYPES = ['Users', 'Workbenches', 'Notebooks', 'Documents', 'Queries', 'Cohorts', 'Executions', 'ReleaseRequests', 'Account', 'ConceptSets'] as const;

/**
 * The one API slice. Each feature adds its endpoints with `baseApi.injectEndpoints`, naming
 * them after the contract's route ids (`getMe`, `listUsers`, …) so the error catalogue can
 * refer to them.
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: createBaseQuery(),
  tagTypes: TAG_TYPES,
  keepUnusedDataFor: KEEP_UNUSED_DATA_SECONDS,
  refetchOnMountOrArgChange: REFETCH_ON_MOUNT_SECONDS,
  endpoints: () => ({}),
});
