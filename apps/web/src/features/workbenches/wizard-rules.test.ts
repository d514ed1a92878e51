import { describe, expect, it } from 'vitest';
import { initialWorkbenchWizardState, type WorkbenchWizardState } from './slice';
import { COLLEAGUE, ME, PURPOSE } from '@/test-support/workbench-fixtures';
import { isLastOwnerSelf, nameProblem, purposeCount, purposeProblem, STEP_TITLES, stepProblems, toCreateBody, toUpdateBody } from './wizard-rules';

const owner = { id: ME.id, email: ME.email, name: ME.name, role: 'OWNER' as const };
const draft = (overrides: Partial<WorkbenchWizardState> = {}): WorkbenchWizardState => ({
  ...initialWorkbenchWizardState,
  name: 'Diabetes and kidneys',
  purpose: PURPOSE,
  users: [owner],
  isInitialised: true,
  ...overrides,
});

describe('the wizard rules', () => {
  it('titles the steps as the spec does, for creating and for editing', () => {
    expect(STEP_TITLES.create).toEqual(['Description', 'Add Data', 'Add Users', 'Review']);
    expect(STEP_TITLES.edit).toEqual(['Description', 'Manage Data', 'Manage Users', 'Review']);
  });

  it('wants a name of 3 to 100 characters, not counting spaces around it', () => {
    expect(nameProblem('')).toBe('Give the workbench a name.');
    expect(nameProblem('  ab  ')).toBe('The name needs at least 3 characters.');
    expect(nameProblem('abc')).toBeNull();
    expect(nameProblem('x'.repeat(100))).toBeNull();
    expect(nameProblem('x'.repeat(101))).toBe('The name can have at most 100 characters.');
  });

  it('wants a research purpose of at least 50 characters, and counts them as they are typed', () => {
    expect(purposeProblem('x'.repeat(49))).toBe('Describe the research purpose in at least 50 characters (49 so far).');
    expect(purposeProblem(` ${'x'.repeat(50)} `)).toBeNull();
    expect(purposeProblem('x'.repeat(5001))).toBe('The research purpose can have at most 5,000 characters.');
    expect(purposeCount('x'.repeat(12))).toBe('12 of at least 50 characters: 38 more needed.');
    expect(purposeCount('x'.repeat(60))).toBe('60 characters (at least 50, at most 5,000).');
  });

  it('checks each step for what keeps it from being finished', () => {
    expect(stepProblems(draft(), 0)).toEqual([]);
    expect(stepProblems(draft({ name: 'ab', purpose: 'short' }), 0)).toEqual([
      'The name needs at least 3 characters.',
      'Describe the research purpose in at least 50 characters (5 so far).',
    ]);
    expect(stepProblems(draft(), 1)).toEqual([]);
    expect(stepProblems(draft({ users: [{ ...owner, role: 'READER' }] }), 2)).toEqual(['A workbench needs at least one owner.']);
    expect(stepProblems(draft({ name: '', users: [] }), 3)).toEqual([
      'Give the workbench a name.',
      'A workbench needs at least one owner.',
    ]);
  });

  it('keeps the signed-in user from removing or demoting themselves while the only owner', () => {
    const colleague = { ...COLLEAGUE, role: 'READER' as const };
    expect(isLastOwnerSelf([owner, colleague], ME.id, ME.id)).toBe(true);
    expect(isLastOwnerSelf([owner, colleague], COLLEAGUE.id, ME.id)).toBe(false);
    expect(isLastOwnerSelf([owner, { ...colleague, role: 'OWNER' }], ME.id, ME.id)).toBe(false);
  });

  it('builds workbenchCreate and workbenchUpdate from the draft, pinning versions only where one is pinned', () => {
    const state = draft({
      name: '  Diabetes and kidneys ',
      cohorts: {
        cohorts: [
          { id: 'c1', name: 'A', tags: [], personCountDisplay: '273', version: 2 },
          { id: 'c2', name: 'B', tags: [], personCountDisplay: '< 20' },
        ],
        totalTags: ['diabetes'],
      },
      queries: [{ id: 'copy-1', sourceId: 'q1', name: 'Q' }],
      documents: [{ id: 'd1', sourceId: 'd1', name: 'protocol.pdf', sizeBytes: 10 }],
      users: [owner, { ...COLLEAGUE, role: 'WRITER' }],
    });
    const body = toCreateBody(state);
    expect(body).toEqual({
      name: 'Diabetes and kidneys',
      purpose: PURPOSE,
      cohorts: [{ id: 'c1', version: 2 }, { id: 'c2' }],
      queries: ['copy-1'],
      documents: ['d1'],
      users: [
        { id: ME.id, role: 'OWNER' },
        { id: COLLEAGUE.id, role: 'WRITER' },
      ],
    });
    expect(toUpdateBody(state, 7)).toEqual({ ...body, version: 7 });
  });
});
