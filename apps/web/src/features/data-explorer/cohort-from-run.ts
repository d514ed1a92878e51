/** What decides whether the result on screen can become a cohort. */
export interface RunOnScreen {
  isAnonymousQuery: boolean;
  isQueryEdited: boolean;
  /** The saved query's successful execution behind the result, if that is where it came from. */
  executionId: string | null;
}

/** Whether a cohort can be made from the result on screen, and if not, what to do first. */
export type CohortFromRun = { allowed: true; executionId: string } | { allowed: false; reason: string };

/**
 * A cohort is made from a successful execution of a saved query (the API keeps its persons), so
 * an unsaved query's result, an edited query's or a result that came from an unsaved run cannot
 * become one; each case says what to do instead.
 */
export function cohortFromRun({ isAnonymousQuery, isQueryEdited, executionId }: RunOnScreen): CohortFromRun {
  if (isAnonymousQuery) return { allowed: false, reason: 'Save the query first: a cohort is made from a run of a saved query.' };
  if (isQueryEdited) return { allowed: false, reason: 'The query has changed since it was saved: save it and run it again to make a cohort.' };
  if (!executionId) return { allowed: false, reason: 'Run the saved query to make a cohort from its result.' };
  return { allowed: true, executionId };
}
