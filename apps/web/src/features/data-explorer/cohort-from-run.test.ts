import { describe, expect, it } from 'vitest';
import { cohortFromRun } from './cohort-from-run';

const EXECUTION = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

describe('a cohort from the result on screen', () => {
  it('is made from the successful execution of a saved, unedited query', () => {
    expect(cohortFromRun({ isAnonymousQuery: false, isQueryEdited: false, executionId: EXECUTION })).toEqual({ allowed: true, executionId: EXECUTION });
  });

  it('asks to save an unsaved query first', () => {
    expect(cohortFromRun({ isAnonymousQuery: true, isQueryEdited: true, executionId: null })).toEqual({
      allowed: false,
      reason: 'Save the query first: a cohort is made from a run of a saved query.',
    });
  });

  it('asks to save and run again once the query was edited', () => {
    expect(cohortFromRun({ isAnonymousQuery: false, isQueryEdited: true, executionId: EXECUTION })).toMatchObject({ allowed: false, reason: /save it and run it again/ });
  });

  it('asks to run the saved query when the result came from an unsaved run', () => {
    expect(cohortFromRun({ isAnonymousQuery: false, isQueryEdited: false, executionId: null })).toMatchObject({ allowed: false, reason: /Run the saved query/ });
  });
});
