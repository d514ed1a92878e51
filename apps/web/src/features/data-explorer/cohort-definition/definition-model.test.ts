import { describe, expect, it } from 'vitest';
import { CohortDefinitionExpression, type CorrelatedCriteria } from '@hdp/contract';
import { attritionMatches, criterionSentence, definitionProblem, enclosingAnchor, groupWords, moved, newDefinition, sentenceText, withDefaults } from './definition-model';

const parse = (d: ReturnType<typeof newDefinition>) => CohortDefinitionExpression.safeParse(d);

describe('criterionSentence', () => {
  const diclofenac: CorrelatedCriteria = {
    criteria: { kind: 'DrugExposure', codesetId: 0 },
    startWindow: { start: { days: 365, coeff: -1 }, end: { days: 0, coeff: 1 } },
    occurrence: { type: 'AT_LEAST', count: 1 },
  };

  it('reads a window back as ATLAS users say it, the concept set named', () => {
    const parts = criterionSentence(diclofenac, 'Diclofenac');
    expect(sentenceText(parts)).toBe('at least 1 occurrence of Diclofenac (drug exposure) between 365 days before and 0 days after the index date, in the same observation period');
    expect(parts.filter((p) => p.emphasis).map((p) => p.text)).toEqual(['Diclofenac']);
  });

  it('says an open end, the index end, a visit restriction and ignored observation periods', () => {
    const item: CorrelatedCriteria = {
      ...diclofenac,
      startWindow: { start: { days: null, coeff: -1 }, end: { days: 1, coeff: -1 }, useIndexEnd: true },
      occurrence: { type: 'EXACTLY', count: 0 },
      restrictVisit: true,
      ignoreObservationPeriod: true,
    };
    expect(sentenceText(criterionSentence(item, undefined))).toBe(
      'exactly 0 occurrences of any drug exposure between any time before and 1 day before the index end date, in the same visit, at any time (observation periods ignored)',
    );
  });

  it('names the enclosing event, not the index, for nested criteria', () => {
    const text = sentenceText(criterionSentence({ ...diclofenac, startWindow: { start: { days: 0, coeff: 1 }, end: { days: 30, coeff: 1 } } }, 'Diclofenac', enclosingAnchor('ConditionOccurrence')));
    expect(text).toContain("between 0 days after and 30 days after the enclosing condition's start date");
    expect(text).not.toContain('index');
  });

  it('says an end window as the event ending', () => {
    const text = sentenceText(criterionSentence({ ...diclofenac, endWindow: { start: { days: 0, coeff: 1 }, end: { days: null, coeff: 1 } } }, 'Diclofenac'));
    expect(text).toContain('starting between 365 days before and 0 days after the index date and ending between 0 days after and any time after the index date');
  });
});

describe('groupWords', () => {
  it('says each group type', () => {
    expect(groupWords({ type: 'ALL' })).toBe('all of');
    expect(groupWords({ type: 'ANY' })).toBe('any of');
    expect(groupWords({ type: 'AT_LEAST', count: 2 })).toBe('at least 2 of');
    expect(groupWords({ type: 'AT_MOST', count: 1 })).toBe('at most 1 of');
  });
});

describe('definitionProblem', () => {
  it('accepts a new definition, which the contract accepts too', () => {
    expect(definitionProblem(newDefinition(), parse)).toBeNull();
  });

  it('holds a count back while a concept set a criterion uses is empty or gone', () => {
    const d = newDefinition();
    d.conceptSets = [{ id: 0, name: 'Diclofenac', expression: { items: [] } }];
    d.primaryCriteria.criteriaList = [{ kind: 'DrugExposure', codesetId: 0 }];
    expect(definitionProblem(d, parse)).toBe('The concept set "Diclofenac" holds no concept yet: add one.');
    d.primaryCriteria.criteriaList = [{ kind: 'DrugExposure', codesetId: 3 }];
    expect(definitionProblem(d, parse)).toMatch(/no longer exists/);
  });

  it('passes on the contract refusal with its path (an inclusion rule without a name)', () => {
    const d = newDefinition();
    d.inclusionRules = [{ name: '  ', expression: { type: 'ALL' } }];
    expect(definitionProblem(d, parse)).toMatch(/^inclusionRules\.0\.name: /);
  });
});

describe('helpers', () => {
  it('moves an inclusion rule and fills in defaults of a saved definition', () => {
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    const filled = withDefaults({ primaryCriteria: { criteriaList: [{ kind: 'ConditionOccurrence' }] } as never });
    expect(filled.inclusionRules).toEqual([]);
    expect(filled.primaryCriteria.observationWindow).toEqual({ priorDays: 0, postDays: 0 });
  });
});

describe('attritionMatches', () => {
  const cell = { count: 100, display: '100', suppressed: false };
  const row = (step: string, label: string, rule?: number) => ({ step, label, persons: cell, events: cell, ...(rule === undefined ? {} : { rule }) }) as never;
  const definition = () => {
    const d = newDefinition();
    d.primaryCriteria.observationWindow = { priorDays: 365, postDays: 0 };
    d.inclusionRules = [{ name: 'No prior GI bleed', expression: { type: 'ALL' } }];
    return d;
  };
  const steps = [
    row('entry_events', 'Entry events'),
    row('observation_window', 'In observation, 365 days before and 0 days after'),
    row('primary_limit', 'Entry events: first per person'),
    row('qualified_limit', 'Qualifying events: first per person'),
    row('inclusion_rule', 'No prior GI bleed', 0),
    row('expression_limit', 'Cohort entries: first per person'),
    row('cohort_exit', 'Cohort periods'),
  ];

  it('takes the attrition of the definition itself', () => {
    expect(attritionMatches({ steps, inclusion_rules: [] }, definition())).toBe(true);
  });

  it("refuses an earlier answer's attrition given again for the same persons: other rules, another window, or none", () => {
    expect(attritionMatches({ steps: steps.filter((_s, i) => i !== 4), inclusion_rules: [] }, definition())).toBe(false);
    const renamed = definition();
    renamed.inclusionRules[0]!.name = 'No GI bleed ever';
    expect(attritionMatches({ steps, inclusion_rules: [] }, renamed)).toBe(false);
    const shorter = definition();
    shorter.primaryCriteria.observationWindow.priorDays = 180;
    expect(attritionMatches({ steps, inclusion_rules: [] }, shorter)).toBe(false);
    expect(attritionMatches(undefined, definition())).toBe(false);
  });
});
