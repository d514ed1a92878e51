import type { Role, User, UserSource, UserStatus } from '@hdp/contract';
import type { USER_ORDERS } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { userListTags } from './user-tags';

export const LIST_USERS_PATH = contractPath('listUsers', '/api/v1/users/');

/** The parameters of the users list (spec §7); arrays are sent as repeated parameters. */
export interface ListUsersArgs {
  skip: number;
  limit: number;
  search?: string;
  order_by?: (typeof USER_ORDERS)[number];
  roles?: Role[];
  status?: UserStatus[];
  user_source?: UserSource[];
}

/** One page of users, with the total (capped at 10,000: `total_capped`). */
export interface UserList {
  users: User[];
  total: number;
  total_capped: boolean;
}

export const listUsersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listUsers: build.query<UserList, ListUsersArgs>({
      query: (params) => ({ url: LIST_USERS_PATH, method: 'GET', params: { ...params } }),
      providesTags: (result) => userListTags(result?.users),
    }),
  }),
});

export const { useListUsersQuery } = listUsersApi;
