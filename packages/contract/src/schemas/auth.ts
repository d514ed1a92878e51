import { z } from 'zod';
import { LIMITS } from '../limits';

export const TokenRequest = z
  .object({
    email: z.email().max(320),
    password: z.string().min(1).max(LIMITS.passwordMaxLength),
  })
  .meta({ id: 'TokenRequest' });
export type TokenRequest = z.infer<typeof TokenRequest>;

export const RefreshRequest = z.object({ refresh_token: z.string().min(1).max(512) }).meta({ id: 'RefreshRequest' });
export type RefreshRequest = z.infer<typeof RefreshRequest>;

export const TokenResponse = z
  .object({
    id_token: z.string(),
    refresh_token: z.string(),
    expires_in: z.number().int(),
    token_type: z.literal('Bearer'),
  })
  .meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof TokenResponse>;

/** Claims the platform reads from an id token, whichever issuer signed it. */
export const ID_TOKEN_AUDIENCE_DEFAULT = 'hdp-api';
