import { COHORT_MAX_TAGS, COHORT_TAG_MAX_LENGTH } from '@hdp/contract/cohort-lifecycle';

/** What the create and edit dialogs ask for. */
export interface CohortFormValues {
  name: string;
  description: string;
  tags: string[];
}

/** The longest name and description the API accepts. */
export const COHORT_NAME_MAX_LENGTH = 200;
export const COHORT_DESCRIPTION_MAX_LENGTH = 2000;

/** Tags as the API keeps them: trimmed, lower-cased, not empty, each once. */
export function normaliseTags(values: readonly string[]): string[] {
  return [...new Set(values.map((tag) => tag.trim().toLowerCase()).filter((tag) => tag.length > 0))];
}

/** What is wrong with the form, field by field (the API would refuse the same). */
export function cohortFormProblems(values: CohortFormValues): Partial<Record<keyof CohortFormValues, string>> {
  const problems: Partial<Record<keyof CohortFormValues, string>> = {};
  const name = values.name.trim();
  if (!name) problems.name = 'Give the cohort a name.';
  else if (name.length > COHORT_NAME_MAX_LENGTH) problems.name = `A name can be at most ${COHORT_NAME_MAX_LENGTH} characters.`;
  if (values.description.length > COHORT_DESCRIPTION_MAX_LENGTH) problems.description = `A description can be at most ${COHORT_DESCRIPTION_MAX_LENGTH} characters.`;
  const tags = normaliseTags(values.tags);
  const long = tags.find((tag) => tag.length > COHORT_TAG_MAX_LENGTH);
  if (tags.length > COHORT_MAX_TAGS) problems.tags = `A cohort can have at most ${COHORT_MAX_TAGS} tags.`;
  else if (long) problems.tags = `"${long.slice(0, 20)}…" is too long: a tag can be at most ${COHORT_TAG_MAX_LENGTH} characters.`;
  return problems;
}

/** The values to send: the name trimmed, the tags normalised. */
export function cohortFormBody(values: CohortFormValues): CohortFormValues {
  return { name: values.name.trim(), description: values.description, tags: normaliseTags(values.tags) };
}
