import { describe, expect, it } from 'vitest';
import { cohortFormBody, cohortFormProblems, normaliseTags } from './cohort-form';

const valid = { name: 'Women with type 2 diabetes', description: '', tags: ['diabetes'] };

describe('the cohort form', () => {
  it('accepts a name with optional description and tags', () => {
    expect(cohortFormProblems(valid)).toEqual({});
  });

  it('needs a name, within 200 characters', () => {
    expect(cohortFormProblems({ ...valid, name: '   ' })).toEqual({ name: 'Give the cohort a name.' });
    expect(cohortFormProblems({ ...valid, name: 'x'.repeat(201) }).name).toMatch(/at most 200/);
  });

  it('keeps the description within 2,000 characters', () => {
    expect(cohortFormProblems({ ...valid, description: 'x'.repeat(2001) }).description).toMatch(/at most 2000/);
  });

  it('allows at most 12 tags of at most 40 characters, counted once normalised', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => `tag ${i}`);
    expect(cohortFormProblems({ ...valid, tags: [...twelve, 'TAG 0 '] })).toEqual({});
    expect(cohortFormProblems({ ...valid, tags: [...twelve, 'one more'] }).tags).toMatch(/at most 12 tags/);
    expect(cohortFormProblems({ ...valid, tags: ['x'.repeat(41)] }).tags).toMatch(/at most 40 characters/);
  });

  it('sends the name trimmed and the tags as the API keeps them', () => {
    expect(cohortFormBody({ name: ' Renal ', description: 'CKD stage 3', tags: ['CKD', ' ckd', 'Renal '] })).toEqual({ name: 'Renal', description: 'CKD stage 3', tags: ['ckd', 'renal'] });
    expect(normaliseTags(['', '  '])).toEqual([]);
  });
});
