/** The names of the audit log (event types, outcomes, sort orders), without zod, for the browser bundle. */

/**
 * Audit event types. Every mutating call, sign-in, failed sign-in, sign-out, failed token
 * refresh and access denial appends one entry with one of these types.
 */
export const AUDIT_EVENT_TYPES = [
  'AUTH_SIGN_IN',
  'AUTH_SIGN_IN_FAILED',
  'AUTH_SIGN_OUT',
  'AUTH_TOKEN_REFRESHED',
  'AUTH_TOKEN_REFRESH_FAILED',
  'AUTH_REFRESH_TOKEN_REUSED',
  'ACCESS_DENIED',
  'USER_CREATED',
  'USER_INVITED',
  'USER_INVITATION_RESENT',
  'USER_INVITATION_ACCEPTED',
  'USER_INVITATION_REVOKED',
  'USER_DISABLED',
  'USER_ENABLED',
  'USER_UPDATED',
  'SIGNING_KEY_CREATED',
  'SIGNING_KEY_ROTATED',
  'QUERY_CREATED',
  'QUERY_UPDATED',
  'QUERY_DELETED',
  'QUERY_EXECUTED',
  'WAREHOUSE_LOADED',
  'COHORT_CREATED',
  'COHORT_UPDATED',
  'COHORT_PUBLISHED',
  'COHORT_UNPUBLISHED',
  'COHORT_ARCHIVED',
  'COHORT_RESTORED',
  'COHORT_REFRESHED',
  'DOCUMENT_UPLOADED',
  'DOCUMENT_DOWNLOADED',
  'DOCUMENT_DELETED',
  'WORKBENCH_CREATED',
  'WORKBENCH_UPDATED',
  'WORKBENCH_DELETED',
  'WORKBENCH_MEMBER_ADDED',
  'WORKBENCH_MEMBER_REMOVED',
  'WORKBENCH_MEMBER_ROLE_CHANGED',
  'WORKBENCH_DATA_RELEASED',
  'WORKBENCH_DATA_REMOVED',
  'WORKBENCH_PROVISIONING_FAILED',
  'NOTEBOOK_CREATED',
  'NOTEBOOK_STARTED',
  'NOTEBOOK_STOPPED',
  'NOTEBOOK_DELETED',
  'NOTEBOOK_OPENED',
  'VISUALISATION_TOKEN_ISSUED',
  // Safe outputs (the airlock)
  'OUTPUT_REQUEST_CREATED',
  'OUTPUT_GROUP_SAVED',
  'OUTPUT_FILE_ADDED',
  'OUTPUT_FILE_REMOVED',
  'OUTPUT_CHECKS_FINISHED',
  'OUTPUT_REQUEST_SUBMITTED',
  'OUTPUT_REQUEST_RESUBMITTED',
  'OUTPUT_VOTE_CAST',
  'OUTPUT_REVIEW_SUBMITTED',
  'OUTPUT_COMMENT_ADDED',
  'OUTPUT_REQUEST_RETURNED',
  'OUTPUT_REQUEST_REJECTED',
  'OUTPUT_REQUEST_APPROVED',
  'OUTPUT_REQUEST_WITHDRAWN',
  'OUTPUT_REQUEST_RELEASED',
  'OUTPUT_PACKAGE_DOWNLOADED',
  'OUTPUT_FILE_VIEWED',
  // An answer withheld because its persons differ from an earlier answer's by fewer than the threshold (the tracker defence).
  'DISCLOSURE_TRACKER_SUSPECTED',
  // Safe outputs at the notebook proxy (docs/outputs.md)
  'EGRESS_REFUSED',
  'EGRESS_ALERT',
  'EGRESS_HOLD_PLACED',
  'EGRESS_HOLD_LIFTED',
  'NOTEBOOK_ACCESS_REVOKED',
  // The open flow's second half: a ticket redeemed in the browser (a session started) or refused.
  'NOTEBOOK_SESSION_STARTED',
  'NOTEBOOK_OPEN_REFUSED',
  // Multi-factor authentication and sessions
  'MFA_ENROLLED',
  'MFA_RENAMED',
  'MFA_REMOVED',
  'MFA_RESET',
  'MFA_FAILED',
  'RECOVERY_CODE_USED',
  'RECOVERY_CODES_REGENERATED',
  'SESSION_ENDED',
] as const;

/** How an audited action ended. */
export const AUDIT_OUTCOMES = ['SUCCESS', 'FAILURE', 'DENIED'] as const;

/** Sort orders of the audit log; TIMESTAMP_DESC is the default. */
export const AUDIT_ORDERS = ['TIMESTAMP_DESC', 'TIMESTAMP_ASC'] as const;
