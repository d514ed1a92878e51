import { can, type CohortStatus, type IdentifiedActor } from '@hdp/contract';

/**
 * Object-level rules of cohorts, on top of the matrix's route checks. Data stewards (the
 * `cohorts:publish` permission) look after every cohort; anyone else sees published cohorts and
 * their own, and changes their own only while it is a draft.
 */
interface CohortFacts {
  authorId: string;
  status: CohortStatus;
}

export const isCohortSteward = (actor: IdentifiedActor) => can(actor, 'cohorts:publish');

export function canSeeCohort(actor: IdentifiedActor, cohort: CohortFacts): boolean {
  return cohort.status === 'PUBLISHED' || cohort.authorId === actor.id || isCohortSteward(actor);
}

/** Why `actor` may not change the cohort's name, description, tags or persons; null when they may. */
export function whyCannotChangeCohort(actor: IdentifiedActor, cohort: CohortFacts): string | null {
  if (isCohortSteward(actor)) return null;
  if (cohort.authorId !== actor.id) return 'Only the author or a data steward may change this cohort.';
  if (cohort.status !== 'DRAFT') return `This cohort is ${cohort.status.toLowerCase()}: only a data steward may change it now.`;
  return null;
}

/**
 * Whether the actor reviews the cohort's versions: its author and data stewards see the newest
 * version (which may await a steward's review) and the criteria of each; everyone else sees the
 * published version only.
 */
export function reviewsCohort(actor: IdentifiedActor, cohort: CohortFacts): boolean {
  return cohort.authorId === actor.id || isCohortSteward(actor);
}
