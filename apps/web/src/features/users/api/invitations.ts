import type { AcceptInvitationRequest, InvitationInfo, User } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';

export const INSPECT_INVITATION_PATH = contractPath('inspectInvitation', '/api/v1/invitations/inspect/');
export const ACCEPT_INVITATION_PATH = contractPath('acceptInvitation', '/api/v1/invitations/accept/');

/**
 * The public invitation calls of the accept-invitation page. The token travels in the body, never
 * in a URL, so it stays out of server logs.
 */
export const invitationsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    inspectInvitation: build.query<InvitationInfo, string>({
      query: (token) => ({ url: INSPECT_INVITATION_PATH, method: 'POST', body: { token } }),
      // A link is single use: never show a cached answer for it.
      keepUnusedDataFor: 0,
    }),
    acceptInvitation: build.mutation<User, AcceptInvitationRequest>({
      query: (body) => ({ url: ACCEPT_INVITATION_PATH, method: 'POST', body }),
      invalidatesTags: [{ type: 'Users', id: 'LIST' }],
    }),
  }),
});

export const { useInspectInvitationQuery, useAcceptInvitationMutation } = invitationsApi;
