import type { User, UserTransition } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';
import { userChangeTags } from './user-tags';

export const DISABLE_USER_PATH = contractPath('disableUser', '/api/v1/users/disable/{userId}/');
export const ENABLE_USER_PATH = contractPath('enableUser', '/api/v1/users/enable/{userId}/');
export const REVOKE_INVITATION_PATH = contractPath('revokeInvitation', '/api/v1/users/revoke/{userId}/');
export const RESEND_INVITATION_PATH = contractPath('resendInvitation', '/api/v1/users/invitation/{userId}/{userEmail}/');

type Target = Pick<User, 'id' | 'email'>;

/**
 * The lifecycle calls an administrator makes on a user (disable, enable, revoke, re-send). Each
 * invalidates that user and every users list, so the table shows the new state.
 */
export const changeUserStatusApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    disableUser: build.mutation<User, Target>({
      query: ({ id }) => ({ url: pathOf(DISABLE_USER_PATH, { userId: id }), method: 'POST' }),
      invalidatesTags: (_result, _error, { id }) => userChangeTags(id),
    }),
    enableUser: build.mutation<User, Target>({
      query: ({ id }) => ({ url: pathOf(ENABLE_USER_PATH, { userId: id }), method: 'POST' }),
      invalidatesTags: (_result, _error, { id }) => userChangeTags(id),
    }),
    revokeInvitation: build.mutation<User, Target>({
      query: ({ id }) => ({ url: pathOf(REVOKE_INVITATION_PATH, { userId: id }), method: 'POST' }),
      invalidatesTags: (_result, _error, { id }) => userChangeTags(id),
    }),
    resendInvitation: build.mutation<User, Target>({
      query: ({ id, email }) => ({ url: pathOf(RESEND_INVITATION_PATH, { userId: id, userEmail: email }), method: 'POST' }),
      invalidatesTags: (_result, _error, { id }) => userChangeTags(id),
    }),
  }),
});

export const { useDisableUserMutation, useEnableUserMutation, useRevokeInvitationMutation, useResendInvitationMutation } = changeUserStatusApi;

/** The endpoint that performs each row action (the error catalogue knows them by these names). */
export const ENDPOINT_OF: Record<Exclude<UserTransition, 'accept'>, 'disableUser' | 'enableUser' | 'revokeInvitation' | 'resendInvitation'> = {
  disable: 'disableUser',
  enable: 'enableUser',
  revoke: 'revokeInvitation',
  resendInvitation: 'resendInvitation',
};
