import type { AuditEntry } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';

export const WITHHELD_ANSWERS_PATH = contractPath('listWithheldAnswers', '/api/v1/data-explorer/withheld-answers/');

/** Answers the tracker defence withheld (their audit entries), newest first: for the stewards of the data. */
export const withheldAnswersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listWithheldAnswers: build.query<{ entries: AuditEntry[]; total: number }, void>({
      query: () => ({ url: WITHHELD_ANSWERS_PATH, method: 'GET', params: { limit: 5 } }),
    }),
  }),
});

export const { useListWithheldAnswersQuery } = withheldAnswersApi;
