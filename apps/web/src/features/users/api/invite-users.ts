import type { InviteUsersResponse, Role, UserSource } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { USER_LIST_TAG } from './user-tags';

export const INVITE_USERS_PATH = contractPath('inviteUsers', '/api/v1/users/');

/** One person to invite, as the dialog collects them (the API fills in defaults). */
export interface Invitee {
  email: string;
  roles: Role[];
  name?: string;
  user_source?: UserSource;
}

/** Invites one or more people (body `request`); the answer reports the outcome per address. */
export const inviteUsersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    inviteUsers: build.mutation<InviteUsersResponse, { invitations: Invitee[] }>({
      query: (body) => ({ url: INVITE_USERS_PATH, method: 'POST', body }),
      invalidatesTags: [USER_LIST_TAG],
    }),
  }),
});

export const { useInviteUsersMutation } = inviteUsersApi;
