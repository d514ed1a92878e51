import type { User } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';

export const GET_USER_PATH = contractPath('getUser', '/api/v1/users/{userId}/');

/** One user, for the detail drawer. */
export const getUserApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getUser: build.query<User, string>({
      query: (userId) => ({ url: pathOf(GET_USER_PATH, { userId }), method: 'GET' }),
      providesTags: (_result, _error, userId) => [{ type: 'Users', id: userId }],
    }),
  }),
});

export const { useGetUserQuery } = getUserApi;
