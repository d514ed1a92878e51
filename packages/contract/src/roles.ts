import { z } from 'zod';
import { ROLES, USER_SOURCES, USER_STATUSES } from './user-lifecycle';

export { ROLES, USER_SOURCES, USER_STATUSES, USER_TRANSITIONS, canTransition, type UserTransition } from './user-lifecycle';

/** The platform roles. What each may do is decided by the permission matrix alone. */
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** Lifecycle states of a user account (see docs/users.md for the transitions). */
export const UserStatus = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof UserStatus>;

/** Where a user's identity lives: a local account of the embedded issuer, or an external OIDC provider. */
export const UserSource = z.enum(USER_SOURCES);
export type UserSource = z.infer<typeof UserSource>;
