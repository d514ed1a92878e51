import { describe, expect, it } from 'vitest';
import { nextStepsFor } from './next-steps';

describe('the next steps of the home page', () => {
  it('offers an auditor the audit log only', () => {
    expect(nextStepsFor({ status: 'ACTIVE', roles: ['AUDITOR'] }).map((s) => s.key)).toEqual(['audit']);
  });

  it('offers a researcher the data work, not users or the audit log', () => {
    expect(nextStepsFor({ status: 'ACTIVE', roles: ['RESEARCHER'] }).map((s) => s.key)).toEqual(['explore', 'cohorts', 'workbench', 'documents']);
  });

  it('offers an administrator everything, and a disabled account nothing', () => {
    expect(nextStepsFor({ status: 'ACTIVE', roles: ['ADMIN'] })).toHaveLength(6);
    expect(nextStepsFor({ status: 'DISABLED', roles: ['ADMIN'] })).toEqual([]);
  });
});
