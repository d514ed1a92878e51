/**
 * Roles, user states and the lifecycle table, without zod: the web app's browser bundle imports
 * this entry (`@hdp/contract/user-lifecycle`) so it does not ship the schemas. `roles.ts` builds
 * the zod enums from these lists.
 */

/** The platform roles. What each may do is decided by the permission matrix alone. */
export const ROLES = ['ADMIN', 'DATA_STEWARD', 'RESEARCHER', 'AUDITOR'] as const;
export type Role = (typeof ROLES)[number];

/** Lifecycle states of a user account (see docs/users.md for the transitions). */
export const USER_STATUSES = ['INVITED', 'ACTIVE', 'DISABLED', 'REVOKED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Where a user's identity lives: a local account of the embedded issuer, or an external OIDC provider. */
export const USER_SOURCES = ['LOCAL', 'EXTERNAL'] as const;
export type UserSource = (typeof USER_SOURCES)[number];

/** Lifecycle changes of a user account and the states each may start from. */
export const USER_TRANSITIONS = {
  accept: { from: ['INVITED'], to: 'ACTIVE' },
  resendInvitation: { from: ['INVITED'], to: 'INVITED' },
  revoke: { from: ['INVITED'], to: 'REVOKED' },
  disable: { from: ['ACTIVE'], to: 'DISABLED' },
  enable: { from: ['DISABLED'], to: 'ACTIVE' },
} as const satisfies Record<string, { from: readonly UserStatus[]; to: UserStatus }>;
export type UserTransition = keyof typeof USER_TRANSITIONS;

/** Whether a user in `status` may go through `transition`. */
export function canTransition(status: UserStatus, transition: UserTransition): boolean {
  return (USER_TRANSITIONS[transition].from as readonly UserStatus[]).includes(status);
}
