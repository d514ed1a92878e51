import type { MfaFactor, MfaStatus, TotpEnrolment } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';
import { FACTORS_TAG } from './account-tags';

const MY_MFA_PATH = contractPath('getMyMfa', '/api/v1/users/me/mfa/');
const START_TOTP_PATH = contractPath('startTotpEnrolment', '/api/v1/users/me/mfa/totp/');
const CONFIRM_TOTP_PATH = contractPath('confirmTotpEnrolment', '/api/v1/users/me/mfa/totp/{factorId}/confirm/');
const PASSKEY_OPTIONS_PATH = contractPath('webauthnRegistrationOptions', '/api/v1/users/me/mfa/webauthn/options/');
const REGISTER_PASSKEY_PATH = contractPath('registerWebauthn', '/api/v1/users/me/mfa/webauthn/');
const FACTOR_PATH = contractPath('renameMfaFactor', '/api/v1/users/me/mfa/{factorId}/');
const RECOVERY_CODES_PATH = contractPath('regenerateRecoveryCodes', '/api/v1/users/me/mfa/recovery-codes/');

/** A factor just confirmed; recovery codes when it was the person's first (shown once). */
export interface EnrolledFactor {
  factor: MfaFactor;
  recovery_codes?: string[];
}

/** The signed-in person's own second factors and recovery codes (the account page). */
export const myFactorsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getMyMfa: build.query<MfaStatus, void>({
      query: () => MY_MFA_PATH,
      providesTags: [FACTORS_TAG],
    }),
    startTotpEnrolment: build.mutation<TotpEnrolment, { name?: string }>({
      query: (body) => ({ url: START_TOTP_PATH, method: 'POST', body }),
    }),
    confirmTotpEnrolment: build.mutation<EnrolledFactor, { factorId: string; code: string }>({
      query: ({ factorId, code }) => ({ url: pathOf(CONFIRM_TOTP_PATH, { factorId }), method: 'POST', body: { code } }),
      invalidatesTags: [FACTORS_TAG],
    }),
    webauthnRegistrationOptions: build.mutation<Record<string, unknown>, void>({
      query: () => ({ url: PASSKEY_OPTIONS_PATH, method: 'POST' }),
    }),
    registerWebauthn: build.mutation<EnrolledFactor, { name?: string; response: unknown }>({
      query: (body) => ({ url: REGISTER_PASSKEY_PATH, method: 'POST', body }),
      invalidatesTags: [FACTORS_TAG],
    }),
    renameMfaFactor: build.mutation<EnrolledFactor, { factorId: string; name: string }>({
      query: ({ factorId, name }) => ({ url: pathOf(FACTOR_PATH, { factorId }), method: 'PATCH', body: { name } }),
      invalidatesTags: [FACTORS_TAG],
    }),
    removeMfaFactor: build.mutation<null, { factorId: string }>({
      query: ({ factorId }) => ({ url: pathOf(FACTOR_PATH, { factorId }), method: 'DELETE' }),
      invalidatesTags: [FACTORS_TAG],
    }),
    regenerateRecoveryCodes: build.mutation<{ recovery_codes: string[] }, void>({
      query: () => ({ url: RECOVERY_CODES_PATH, method: 'POST' }),
      invalidatesTags: [FACTORS_TAG],
    }),
  }),
});

export const {
  useGetMyMfaQuery,
  useStartTotpEnrolmentMutation,
  useConfirmTotpEnrolmentMutation,
  useWebauthnRegistrationOptionsMutation,
  useRegisterWebauthnMutation,
  useRenameMfaFactorMutation,
  useRemoveMfaFactorMutation,
  useRegenerateRecoveryCodesMutation,
} = myFactorsApi;
