import type { UserDirectory } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { userListTags } from './user-tags';

export const USER_DIRECTORY_PATH = contractPath('searchUserDirectory', '/api/v1/users/directory/');

/** A member-directory search: part of a name or an email (at least `LIMITS.directorySearchMinLength` characters). */
export interface SearchUserDirectoryArgs {
  search: string;
  limit: number;
}

export const searchUserDirectoryApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    searchUserDirectory: build.query<UserDirectory, SearchUserDirectoryArgs>({
      query: (params) => ({ url: USER_DIRECTORY_PATH, method: 'GET', params: { ...params } }),
      // A user disabled or given other roles leaves (or joins) the directory: any change to a user refreshes it.
      providesTags: (result) => userListTags(result?.users),
    }),
  }),
});

export const { useSearchUserDirectoryQuery } = searchUserDirectoryApi;
