import type { Role, UserStatus } from './roles';

const ALL: readonly Role[] = ['ADMIN', 'DATA_STEWARD', 'RESEARCHER', 'AUDITOR'];
const DATA_USERS: readonly Role[] = ['ADMIN', 'DATA_STEWARD', 'RESEARCHER'];
const STEWARDS: readonly Role[] = ['ADMIN', 'DATA_STEWARD'];
const ADMINS: readonly Role[] = ['ADMIN'];
const AUDIT_READERS: readonly Role[] = ['ADMIN', 'AUDITOR'];
/**
 * Who may look colleagues up in the member directory: the people who may create a workbench or edit
 * its members (`workbenches:create`, `workbenches:update`). AUDITORs hold no data role, cannot be
 * members and have no business browsing the people who can.
 */
const WORKBENCH_MAKERS: readonly Role[] = DATA_USERS;
/** Who checks outputs before they leave a workbench: data stewards (an ADMIN is not a checker by role). */
const OUTPUT_CHECKERS: readonly Role[] = ['DATA_STEWARD'];

/**
 * The permission matrix: resource × action → the roles allowed.
 * It is the only place where role-based access is decided; the API's route guards and the
 * web app's side bar both read it. Object-level rules (owner, workbench member) are in
 * `object-rules.ts` beside it.
 */
export const PERMISSIONS = {
  me: { read: ALL, logout: ALL },
  users: { list: ADMINS, read: ADMINS, invite: ADMINS, resendInvitation: ADMINS, disable: ADMINS, enable: ADMINS, revoke: ADMINS, directory: WORKBENCH_MAKERS },
  auditLog: { read: AUDIT_READERS },
  dataExplorer: { readSchema: DATA_USERS, readDataset: DATA_USERS },
  queries: { list: DATA_USERS, read: DATA_USERS, create: DATA_USERS, update: DATA_USERS, delete: DATA_USERS, execute: DATA_USERS, importAtlas: DATA_USERS, exportAtlas: DATA_USERS },
  /** Saved concept sets: each user's own, like queries (an ADMIN reaches all). */
  conceptSets: { list: DATA_USERS, read: DATA_USERS, create: DATA_USERS, update: DATA_USERS, delete: DATA_USERS },
  cohorts: { list: DATA_USERS, read: DATA_USERS, create: DATA_USERS, update: DATA_USERS, publish: STEWARDS },
  documents: { upload: DATA_USERS, read: DATA_USERS, delete: DATA_USERS },
  workbenches: { list: DATA_USERS, read: DATA_USERS, create: WORKBENCH_MAKERS, update: WORKBENCH_MAKERS, delete: DATA_USERS },
  notebooks: { list: DATA_USERS, create: DATA_USERS, start: DATA_USERS, stop: DATA_USERS, delete: DATA_USERS, open: DATA_USERS },
  visualisation: { issueToken: DATA_USERS },
  /** Safe outputs: members make release requests; output checkers (outside the workbench) review them. */
  outputs: { read: DATA_USERS, create: DATA_USERS, review: OUTPUT_CHECKERS },
  // Answers the tracker defence withheld, with the earlier answers involved, for the stewards of the data (auditors read them in the audit log).
  disclosure: { reviewWithheld: STEWARDS },
  /** Holds placed on a user's notebooks by the egress hard limit: only an administrator sees and lifts them. */
  notebookHolds: { list: ADMINS, lift: ADMINS },
  // Sign-in security: a person's own second factors and sessions; an administrator's reset of another's.
  account: { manageFactors: ALL, manageSessions: ALL },
  userSecurity: { resetFactors: ADMINS, endSessions: ADMINS },
} as const satisfies Record<string, Record<string, readonly Role[]>>;

export type Resource = keyof typeof PERMISSIONS;
export type Action<R extends Resource> = keyof (typeof PERMISSIONS)[R] & string;
/** A permission written as "resource:action", e.g. "users:invite". */
export type Permission = { [R in Resource]: `${R}:${Action<R>}` }[Resource];

/** Who is acting: enough of a user to decide access. */
export interface Actor {
  status: UserStatus;
  roles: readonly Role[];
}

/**
 * The role check: passes only when the actor is ACTIVE, has roles, and at least one of
 * them is in the allowed set (a single role or a list).
 */
export function hasRole(actor: Actor | null | undefined, allowed: Role | readonly Role[]): boolean {
  if (!actor || actor.status !== 'ACTIVE' || actor.roles.length === 0) return false;
  const allowedSet: readonly Role[] = typeof allowed === 'string' ? [allowed] : allowed;
  return actor.roles.some((role) => allowedSet.includes(role));
}

/** Every permission in the matrix with its roles, flattened once: the checks below run on every request. */
const ROLES_BY_PERMISSION = new Map<string, readonly Role[]>(
  Object.entries(PERMISSIONS).flatMap(([resource, actions]) =>
    Object.entries(actions as Record<string, readonly Role[]>).map(([action, roles]) => [`${resource}:${action}`, roles] as const),
  ),
);

/** The roles the matrix allows for a permission. */
export function rolesFor(permission: Permission): readonly Role[] {
  const roles = ROLES_BY_PERMISSION.get(permission);
  if (!roles) throw new Error(`Unknown permission ${permission}`);
  return roles;
}

/** The permission check: looks the allowed roles up in the matrix and applies the role check. */
export function can(actor: Actor | null | undefined, permission: Permission): boolean {
  return hasRole(actor, rolesFor(permission));
}

/** Every permission in the matrix, e.g. for listing what a user holds. */
export const ALL_PERMISSIONS = [...ROLES_BY_PERMISSION.keys()] as readonly Permission[];

const permissionsByActorKind = new Map<string, Permission[]>();

/** The permissions an actor holds, in matrix order (memoised by status and roles). */
export function permissionsOf(actor: Actor): Permission[] {
  const key = `${actor.status}|${[...actor.roles].sort().join(',')}`;
  let permissions = permissionsByActorKind.get(key);
  if (!permissions) {
    permissions = ALL_PERMISSIONS.filter((permission) => can(actor, permission));
    permissionsByActorKind.set(key, permissions);
  }
  return [...permissions];
}
