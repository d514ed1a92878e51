import { describe, expect, it } from 'vitest';
import { CRITERIA_ATTRIBUTES, CRITERIA_KINDS, CohortDefinitionExpression, type CorrelatedCriteria, type Criteria, type SavedConceptSet } from '@hdp/contract';
import {
  attributePhrases,
  attritionMatches,
  criterionSentence,
  dateRangeWords,
  definitionProblem,
  demographicSentence,
  enclosingAnchor,
  eventSentence,
  fromSavedConceptSet,
  groupWords,
  hasFirst,
  kindAttributes,
  KINDS_WITH_CONCEPTS,
  moved,
  newDefinition,
  newerVersion,
  nextVersionBody,
  numericRangeWords,
  openedForChange,
  referencedConceptSets,
  sentenceText,
  withDefaults,
  withKind,
} from './definition-model';

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

describe('attributes in words', () => {
  it('says number and date ranges as a researcher reads them', () => {
    expect(numericRangeWords({ op: 'gte', value: 5 })).toBe('at least 5');
    expect(numericRangeWords({ op: 'bt', value: 5, extent: 10 })).toBe('between 5 and 10');
    expect(numericRangeWords({ op: '!eq', value: 0 })).toBe('not 0');
    expect(dateRangeWords({ op: 'lt', value: '2010-01-01' })).toBe('before 2010-01-01');
    expect(dateRangeWords({ op: '!bt', value: '2010-01-01', extent: '2010-12-31' })).toBe('not between 2010-01-01 and 2010-12-31');
  });

  it('reads a measurement with its value, unit and normal range back inside the criterion sentence', () => {
    const item: CorrelatedCriteria = {
      criteria: { kind: 'Measurement', codesetId: 1, first: true, valueAsNumber: { op: 'gt', value: 7.5 }, unit: [8554], rangeHigh: { op: 'lte', value: 6 }, visitType: [9201] },
      startWindow: { start: { days: 30, coeff: -1 }, end: { days: 0, coeff: 1 } },
      occurrence: { type: 'AT_LEAST', count: 1 },
    };
    expect(sentenceText(criterionSentence(item, 'HbA1c'))).toBe(
      "at least 1 occurrence of HbA1c (measurement), the first in the person's history, in a visit of type Inpatient visit, with a value more than 7.5, in unit concept 8554, with a normal range's high end at most 6, between 30 days before and 0 days after the index date, in the same observation period",
    );
  });

  it('reads an era with its length and count, an age and a gender, and an entry event', () => {
    const era = { kind: 'DrugEra' as const, eraLength: { op: 'gte' as const, value: 30 }, occurrenceCount: { op: 'bt' as const, value: 2, extent: 5 }, age: { op: 'bt' as const, value: 18, extent: 65 }, gender: [8532] };
    expect(attributePhrases(era)).toEqual(['aged 18 to 65 at the event', 'of a female person', 'lasting at least 30 days', 'made of between 2 and 5 exposures']);
    expect(sentenceText(eventSentence({ kind: 'DrugExposure', codesetId: 0, first: true, occurrenceStartDate: { op: 'gte', value: '2005-01-01' } }, 'Diclofenac'))).toBe(
      "a drug exposure of Diclofenac, the first in the person's history, starting on or after 2005-01-01",
    );
    expect(sentenceText(eventSentence({ kind: 'VisitOccurrence', visitType: [9203, 9201] }, undefined))).toBe('any visit, of type Emergency room visit or Inpatient visit');
  });
});

describe('demographicSentence', () => {
  it('names each part of a demographic criterion, measured at the index date or at the enclosing event', () => {
    expect(demographicSentence({ age: { op: 'gte', value: 40 }, gender: [8507], race: [8527], ethnicity: [38003564], occurrenceStartDate: { op: 'lt', value: '2015-01-01' } })).toBe(
      'persons aged at least 40 at the index date, male, of race White, of ethnicity Not Hispanic or Latino, with the index event starting before 2015-01-01',
    );
    expect(demographicSentence({ age: { op: 'bt', value: 18, extent: 30 } }, enclosingAnchor('DrugExposure'))).toBe('persons aged 18 to 30 at the enclosing drug exposure');
    expect(demographicSentence({})).toBe('any person (no demographic criterion set yet)');
  });

  it('makes demographic criteria and nested groups the contract accepts', () => {
    const d = newDefinition();
    d.inclusionRules = [{ name: 'Adults', expression: { type: 'AT_LEAST', count: 1, demographicCriteriaList: [{ age: { op: 'gte', value: 18 } }], groups: [{ type: 'AT_MOST', count: 0, criteriaList: [] }] } }];
    expect(definitionProblem(d, parse)).toBeNull();
  });
});

describe('withKind', () => {
  it('keeps what the new kind has and drops what the API would refuse', () => {
    const measurement = { kind: 'Measurement' as const, codesetId: 0, first: true, valueAsNumber: { op: 'gt' as const, value: 1 }, unit: [1], occurrenceStartDate: { op: 'gt' as const, value: '2010-01-01' }, abnormal: true };
    expect(withKind(measurement, 'DrugEra')).toEqual({ kind: 'DrugEra', codesetId: 0, first: true, occurrenceStartDate: { op: 'gt', value: '2010-01-01' } });
    expect(withKind(measurement, 'Observation')).toEqual({ kind: 'Observation', codesetId: 0, first: true, valueAsNumber: { op: 'gt', value: 1 }, unit: [1], occurrenceStartDate: { op: 'gt', value: '2010-01-01' } });
    expect(withKind({ kind: 'ConditionOccurrence', codesetId: 2, first: true, visitType: [9201] }, 'Death')).toEqual({ kind: 'Death' , codesetId: 2 });
    expect(withKind({ kind: 'ConditionOccurrence', codesetId: 2 }, 'ObservationPeriod')).toEqual({ kind: 'ObservationPeriod' });
  });
});

describe('saved concept sets', () => {
  const saved = { id: '5b3f7c1e-8a8e-4f3b-9c1e-2f6a7d8e9f00', name: 'Diclofenac', description: '', items: [{ conceptId: 1124300, includeDescendants: true, isExcluded: false, includeMapped: false }], version: 2, latest_version: 3 } as unknown as SavedConceptSet;

  it('pins the version picked, and says when a newer one exists', () => {
    const set = fromSavedConceptSet(saved, 4);
    expect(set).toEqual({ id: 4, name: 'Diclofenac', expression: { items: saved.items }, savedConceptSet: { id: saved.id, version: 2 } });
    expect(newerVersion(set, 3)).toBe(3);
    expect(newerVersion(set, 2)).toBeNull();
    expect(newerVersion({ ...set, savedConceptSet: undefined }, 3)).toBeNull();
  });
});

describe("the attributes each kind offers (the contract's list)", () => {
  it('offers under "More attributes" every attribute the contract lets a kind carry, and no other', () => {
    for (const kind of CRITERIA_KINDS) {
      const main = ['kind', 'codesetId', 'first', 'age', 'gender', 'correlatedCriteria'].filter((k) => CRITERIA_ATTRIBUTES[kind].includes(k as keyof Criteria));
      expect([...main, ...kindAttributes(kind)].sort()).toEqual([...CRITERIA_ATTRIBUTES[kind]].sort());
    }
    expect(kindAttributes('DrugExposure')).toEqual(expect.arrayContaining(['daysSupply', 'quantity', 'typeConcepts', 'sourceConcept']));
    expect(kindAttributes('Measurement')).toEqual(expect.arrayContaining(['valueAsConcept', 'abnormal']));
    expect(kindAttributes('Observation')).not.toContain('abnormal');
    expect(kindAttributes('ObservationPeriod')).toEqual(['occurrenceStartDate', 'occurrenceEndDate', 'typeConcepts', 'periodLength']);
    expect(KINDS_WITH_CONCEPTS.has('ObservationPeriod')).toBe(false);
    expect(hasFirst('Death')).toBe(false);
  });

  it('drops a source concept and type concepts for the eras, which have neither, and a days supply for a condition', () => {
    const drug: Criteria = { kind: 'DrugExposure', codesetId: 0, sourceConcept: 1, typeConcepts: [32817], daysSupply: { op: 'gte', value: 30 }, quantity: { op: 'lt', value: 10 } };
    expect(withKind(drug, 'DrugEra')).toEqual({ kind: 'DrugEra', codesetId: 0 });
    expect(withKind(drug, 'ConditionOccurrence')).toEqual({ kind: 'ConditionOccurrence', codesetId: 0, sourceConcept: 1, typeConcepts: [32817] });
    expect(withKind({ kind: 'ObservationPeriod', periodLength: { op: 'gt', value: 365 }, typeConcepts: [32817] }, 'Death')).toEqual({ kind: 'Death', typeConcepts: [32817] });
  });
});

describe('the attributes added to the builder, in words and as the contract takes them', () => {
  const sets = [
    { id: 0, name: 'Warfarin', expression: { items: [{ conceptId: 1310149, includeDescendants: true, isExcluded: false, includeMapped: false }] } },
    { id: 1, name: 'Warfarin (source codes)', expression: { items: [{ conceptId: 44923712, includeDescendants: false, isExcluded: false, includeMapped: false }] } },
  ];

  it("reads a drug exposure's days supply, quantity, record type and source concept", () => {
    const drug: Criteria = { kind: 'DrugExposure', codesetId: 0, sourceConcept: 1, typeConcepts: [32817, 32810], daysSupply: { op: 'gte', value: 30 }, quantity: { op: 'bt', value: 10, extent: 90 } };
    expect(sentenceText(eventSentence(drug, 'Warfarin', 'Warfarin (source codes)'))).toBe(
      'a drug exposure of Warfarin, recorded as EHR or Claim, with a source concept in Warfarin (source codes), with a days supply at least 30 days, with a quantity between 10 and 90',
    );
    // Without the set's name (it was removed), the id says which one.
    expect(attributePhrases({ kind: 'DrugExposure', sourceConcept: 7 })).toEqual(['with a source concept in concept set 7']);
    const d = { ...newDefinition(), conceptSets: sets, primaryCriteria: { ...newDefinition().primaryCriteria, criteriaList: [drug] } };
    expect(definitionProblem(d, parse)).toBeNull();
    expect(parse(d).data!.primaryCriteria.criteriaList[0]).toEqual(drug);
  });

  it("reads a measurement's value as concept and abnormal result, and an observation period's length", () => {
    const item: CorrelatedCriteria = {
      criteria: { kind: 'Measurement', valueAsConcept: [9191], abnormal: true },
      startWindow: { start: { days: 30, coeff: -1 }, end: { days: 0, coeff: 1 } },
      occurrence: { type: 'AT_LEAST', count: 1 },
    };
    expect(sentenceText(criterionSentence(item, undefined))).toBe(
      'at least 1 occurrence of any measurement, with a value of concept 9191, with an abnormal result, between 30 days before and 0 days after the index date, in the same observation period',
    );
    expect(attributePhrases({ kind: 'ObservationPeriod', periodLength: { op: 'gte', value: 365 } })).toEqual(['lasting at least 365 days']);
    const d = { ...newDefinition(), inclusionRules: [{ name: 'Abnormal', expression: { type: 'ALL' as const, criteriaList: [item] } }] };
    expect(parse(d).success).toBe(true);
  });

  it('holds a count back while the source concept set is empty, as for the main concept set', () => {
    const empty = { id: 2, name: 'Source codes', expression: { items: [] } };
    const d = { ...newDefinition(), conceptSets: [...sets, empty], primaryCriteria: { ...newDefinition().primaryCriteria, criteriaList: [{ kind: 'DrugExposure' as const, codesetId: 0, sourceConcept: 2 }] } };
    expect(referencedConceptSets(d)).toEqual(new Set([0, 2]));
    expect(definitionProblem(d, parse)).toBe('The concept set "Source codes" holds no concept yet: add one.');
  });

  it('restricts initial events with a group the contract accepts, and counts the sets it uses', () => {
    const d = {
      ...newDefinition(),
      conceptSets: sets,
      additionalCriteria: { type: 'ALL' as const, criteriaList: [{ criteria: { kind: 'DrugExposure' as const, codesetId: 1 }, startWindow: { start: { days: 365, coeff: -1 as const }, end: { days: 1, coeff: -1 as const } }, occurrence: { type: 'EXACTLY' as const, count: 0 } }] },
      qualifiedLimit: { type: 'All' as const },
    };
    expect(referencedConceptSets(d)).toEqual(new Set([1]));
    expect(definitionProblem(d, parse)).toBeNull();
    expect(parse(d).data).toMatchObject({ additionalCriteria: d.additionalCriteria, qualifiedLimit: { type: 'All' } });
  });
});

describe('a pinned saved set changed and saved as its next version', () => {
  const pinned = { id: 3, name: 'Diclofenac', expression: { items: [{ conceptId: 1124300, includeDescendants: true, isExcluded: false, includeMapped: false }] }, savedConceptSet: { id: '5b3f7c1e-8a8e-4f3b-9c1e-2f6a7d8e9f00', version: 2 } };

  it('opens the pinned set for change as the same set inline, keeping where it came from in the set itself', () => {
    const opened = openedForChange(pinned)!;
    expect(opened).toEqual({ id: 3, name: 'Diclofenac', expression: pinned.expression, changedFrom: { id: pinned.savedConceptSet.id, version: 2, name: 'Diclofenac' } });
    expect(openedForChange(opened)).toBeNull();
  });

  it('sends the items, and the name only when it changed', () => {
    const set = openedForChange(pinned)!;
    const items = [...set.expression.items, { conceptId: 1118084, includeDescendants: true, isExcluded: false, includeMapped: false }];
    expect(nextVersionBody({ ...set, expression: { items } }, set.changedFrom!)).toEqual({ items });
    expect(nextVersionBody({ ...set, name: ' Diclofenac, oral ', expression: { items } }, set.changedFrom!)).toEqual({ name: 'Diclofenac, oral', items });
  });
});
