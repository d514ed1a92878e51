import type { Role, UserSource, UserStatus } from '@hdp/contract/user-lifecycle';

/** How roles, states and sources read on screen. */
export const ROLE_LABELS: Record<Role, string> = {
  ADMIN: 'Administrator',
  DATA_STEWARD: 'Data steward',
  RESEARCHER: 'Researcher',
  AUDITOR: 'Auditor',
};

export const STATUS_LABELS: Record<UserStatus, string> = {
  INVITED: 'Invited',
  ACTIVE: 'Active',
  DISABLED: 'Disabled',
  REVOKED: 'Revoked',
};

export const SOURCE_LABELS: Record<UserSource, string> = {
  LOCAL: 'Local account',
  EXTERNAL: 'External identity',
};

export const INVITATION_EXPIRED_LABEL = 'Invitation expired';
