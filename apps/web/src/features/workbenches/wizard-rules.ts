import type { WorkbenchCreate, WorkbenchUpdate } from '@hdp/contract';
import { WORKBENCH_LIMITS } from '@hdp/contract/workbench-rules';
import type { PickedMember, WorkbenchWizardState } from './slice';

/** Whether the wizard makes a new workbench or edits one: the step titles differ (spec §2). */
export type WizardMode = 'create' | 'edit';

/** The step titles, exactly as the spec names them. */
export const STEP_TITLES: Record<WizardMode, readonly [string, string, string, string]> = {
  create: ['Description', 'Add Data', 'Add Users', 'Review'],
  edit: ['Description', 'Manage Data', 'Manage Users', 'Review'],
};

export const DESCRIPTION_STEP = 0;
export const DATA_STEP = 1;
export const USERS_STEP = 2;
export const REVIEW_STEP = 3;

/** Why a name is not accepted, or null. */
export function nameProblem(name: string): string | null {
  const length = name.trim().length;
  if (length === 0) return 'Give the workbench a name.';
  if (length < WORKBENCH_LIMITS.nameMinLength) return `The name needs at least ${WORKBENCH_LIMITS.nameMinLength} characters.`;
  if (length > WORKBENCH_LIMITS.nameMaxLength) return `The name can have at most ${WORKBENCH_LIMITS.nameMaxLength} characters.`;
  return null;
}

/** Why a research purpose is not accepted, or null. */
export function purposeProblem(purpose: string): string | null {
  const length = purpose.trim().length;
  if (length < WORKBENCH_LIMITS.purposeMinLength) {
    return `Describe the research purpose in at least ${WORKBENCH_LIMITS.purposeMinLength} characters (${length} so far).`;
  }
  if (length > WORKBENCH_LIMITS.purposeMaxLength) return `The research purpose can have at most ${WORKBENCH_LIMITS.purposeMaxLength.toLocaleString('en-GB')} characters.`;
  return null;
}

/** The count under the purpose field: how many characters there are and how many are needed. */
export function purposeCount(purpose: string): string {
  const length = purpose.trim().length;
  const needed = WORKBENCH_LIMITS.purposeMinLength - length;
  return needed > 0
    ? `${length} of at least ${WORKBENCH_LIMITS.purposeMinLength} characters: ${needed} more needed.`
    : `${length.toLocaleString('en-GB')} characters (at least ${WORKBENCH_LIMITS.purposeMinLength}, at most ${WORKBENCH_LIMITS.purposeMaxLength.toLocaleString('en-GB')}).`;
}

const ownerCount = (users: readonly PickedMember[]) => users.filter((user) => user.role === 'OWNER').length;

/** Whether the signed-in user may take this member off (or out of OWNER): not themselves while the only owner. */
export function isLastOwnerSelf(users: readonly PickedMember[], memberId: string, currentUserId: string | undefined): boolean {
  const member = users.find((user) => user.id === memberId);
  return member?.id === currentUserId && member?.role === 'OWNER' && ownerCount(users) === 1;
}

/** What keeps a step from being finished, as messages for the user (empty when it is done). */
export function stepProblems(state: WorkbenchWizardState, step: number): string[] {
  const problems: (string | null)[] = [];
  if (step === DESCRIPTION_STEP) {
    problems.push(nameProblem(state.name), purposeProblem(state.purpose));
  } else if (step === DATA_STEP) {
    if (state.cohorts.cohorts.length > WORKBENCH_LIMITS.maxCohorts) problems.push(`A workbench can hold at most ${WORKBENCH_LIMITS.maxCohorts} cohorts.`);
    if (state.queries.length > WORKBENCH_LIMITS.maxQueries) problems.push(`A workbench can hold at most ${WORKBENCH_LIMITS.maxQueries} queries.`);
    if (state.documents.length > WORKBENCH_LIMITS.maxDocuments) problems.push(`A workbench can hold at most ${WORKBENCH_LIMITS.maxDocuments} documents.`);
  } else if (step === USERS_STEP) {
    if (ownerCount(state.users) === 0) problems.push('A workbench needs at least one owner.');
    if (state.users.length > WORKBENCH_LIMITS.maxMembers) problems.push(`A workbench can have at most ${WORKBENCH_LIMITS.maxMembers} members.`);
  } else if (step === REVIEW_STEP) {
    for (const earlier of [DESCRIPTION_STEP, DATA_STEP, USERS_STEP]) problems.push(...stepProblems(state, earlier));
  }
  return problems.filter((problem): problem is string => problem !== null);
}

/** The body of workbenchCreate for a draft. */
export function toCreateBody(state: WorkbenchWizardState): WorkbenchCreate {
  return {
    name: state.name.trim(),
    purpose: state.purpose.trim(),
    cohorts: state.cohorts.cohorts.map((cohort) => (cohort.version === undefined ? { id: cohort.id } : { id: cohort.id, version: cohort.version })),
    queries: state.queries.map((query) => query.id),
    documents: state.documents.map((document) => document.id),
    users: state.users.map((user) => ({ id: user.id, role: user.role })),
  };
}

/** The body of workbenchUpdate: the whole workbench as the draft has it, with the version the edit was based on. */
export function toUpdateBody(state: WorkbenchWizardState, version: number): WorkbenchUpdate {
  return { ...toCreateBody(state), version };
}
