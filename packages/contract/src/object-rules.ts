import { hasRole, type Actor } from './permissions';

/** An actor with identity, for object-level rules. */
export interface IdentifiedActor extends Actor {
  id: string;
}

/**
 * Object-level rule for things a user owns (documents, queries, draft cohorts):
 * the owner may act on it, and so may an ADMIN. Everyone else is told it does not exist (404),
 * so that its existence does not leak.
 */
export function isOwnerOrAdmin(actor: IdentifiedActor, ownerId: string): boolean {
  return actor.status === 'ACTIVE' && (actor.id === ownerId || hasRole(actor, 'ADMIN'));
}

/**
 * Object-level rule for workbench contents: members of the workbench may act on it, and so may an ADMIN.
 */
export function isWorkbenchMemberOrAdmin(actor: IdentifiedActor, memberIds: readonly string[]): boolean {
  return actor.status === 'ACTIVE' && (memberIds.includes(actor.id) || hasRole(actor, 'ADMIN'));
}

/**
 * Object-level rule for what releases a workbench's row-level data to a person (visualisation
 * tokens): its members only, whatever their role in it (`memberRole` is null for a non-member).
 * An ADMIN who is not a member is refused like anyone else: the Five Safes give a project's data
 * to the project's people alone.
 */
export function isWorkbenchMember(actor: IdentifiedActor, memberRole: string | null): boolean {
  return actor.status === 'ACTIVE' && memberRole !== null;
}
