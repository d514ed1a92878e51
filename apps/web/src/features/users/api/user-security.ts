import type { User } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';
import { FACTORS_TAG, SESSIONS_TAG } from '@/features/account/api/account-tags';

export const RESET_USER_MFA_PATH = contractPath('resetUserMfa', '/api/v1/users/mfa-reset/{userId}/');
export const END_USER_SESSIONS_PATH = contractPath('endUserSessions', '/api/v1/users/sessions-end/{userId}/');

type Target = Pick<User, 'id'>;

/**
 * An administrator's sign-in security calls on a person: reset their second factors (which also
 * ends their sessions), or end their sessions only. Neither changes the user as the users list
 * shows them, so no Users tag is invalidated; the factors and sessions lists that are cached are
 * the account page's, which an administrator acting on their own row changes.
 */
export const userSecurityApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    resetUserMfa: build.mutation<null, Target>({
      query: ({ id }) => ({ url: pathOf(RESET_USER_MFA_PATH, { userId: id }), method: 'POST' }),
      invalidatesTags: [FACTORS_TAG, SESSIONS_TAG],
    }),
    endUserSessions: build.mutation<{ sessions_ended: number }, Target>({
      query: ({ id }) => ({ url: pathOf(END_USER_SESSIONS_PATH, { userId: id }), method: 'POST' }),
      invalidatesTags: [SESSIONS_TAG],
    }),
  }),
});

export const { useResetUserMfaMutation, useEndUserSessionsMutation } = userSecurityApi;
