import type { Me } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';

export const GET_ME_PATH = contractPath('getMe', '/api/v1/users/me/');

/** The signed-in user, with roles, status and the permissions the matrix grants them. */
export const getMeApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getMe: build.query<Me, void>({
      query: () => ({ url: GET_ME_PATH, method: 'GET' }),
      providesTags: [{ type: 'Users', id: 'ME' }],
    }),
  }),
});

export const { useGetMeQuery } = getMeApi;
