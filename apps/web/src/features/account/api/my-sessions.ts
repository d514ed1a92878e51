import type { Session } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';
import { SESSIONS_TAG } from './account-tags';

const MY_SESSIONS_PATH = contractPath('listMySessions', '/api/v1/users/me/sessions/');
const MY_SESSION_PATH = contractPath('endMySession', '/api/v1/users/me/sessions/{sessionId}/');

/** The signed-in person's active sessions; ending one signs that browser or script out at its next renewal. */
export const mySessionsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listMySessions: build.query<{ sessions: Session[] }, void>({
      query: () => MY_SESSIONS_PATH,
      providesTags: [SESSIONS_TAG],
    }),
    endMySession: build.mutation<null, { sessionId: string }>({
      query: ({ sessionId }) => ({ url: pathOf(MY_SESSION_PATH, { sessionId }), method: 'DELETE' }),
      invalidatesTags: [SESSIONS_TAG],
    }),
    endAllMySessions: build.mutation<{ sessions_ended: number }, void>({
      query: () => ({ url: MY_SESSIONS_PATH, method: 'DELETE' }),
      invalidatesTags: [SESSIONS_TAG],
    }),
  }),
});

export const { useListMySessionsQuery, useEndMySessionMutation, useEndAllMySessionsMutation } = mySessionsApi;
