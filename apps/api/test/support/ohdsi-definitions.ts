import type { CohortDefinitionInput, QueryGroup } from '@hdp/contract';

/**
 * OHDSI's four test definitions (`../shared/datasets/ohdsi-cohort-definitions/*.json`, ATLAS
 * JSON), written by hand in the platform's model. Their published counts on Eunomia GiBleed are
 * the facts the tests check.
 */
const celecoxib: CohortDefinitionInput = {
  conceptSets: [{ id: 0, name: 'Celecoxib', expression: { items: [{ conceptId: 1118084 }] } }],
  primaryCriteria: {
    criteriaList: [{ kind: 'DrugEra', codesetId: 0 }],
    observationWindow: { priorDays: 0, postDays: 0 },
    primaryCriteriaLimit: { type: 'First' },
  },
  qualifiedLimit: { type: 'First' },
  expressionLimit: { type: 'First' },
  inclusionRules: [],
  censoringCriteria: [],
  collapseSettings: { collapseType: 'ERA', eraPad: 0 },
  censorWindow: {},
};

const ageOver40 = { name: 'Age > 40', expression: { type: 'ALL' as const, criteriaList: [], demographicCriteriaList: [{ age: { op: 'gt' as const, value: 40 } }], groups: [] } };
const male = { name: 'Gender = MALE', expression: { type: 'ALL' as const, criteriaList: [], demographicCriteriaList: [{ gender: [8507] }], groups: [] } };

export const OHDSI_DEFINITIONS: Record<'celecoxib' | 'celecoxibAge40' | 'celecoxibAge40Male' | 'celecoxibCensored', CohortDefinitionInput> = {
  celecoxib,
  celecoxibAge40: { ...celecoxib, inclusionRules: [ageOver40] },
  celecoxibAge40Male: { ...celecoxib, inclusionRules: [ageOver40, male] },
  celecoxibCensored: { ...celecoxib, censorWindow: { startDate: '2000-01-01' } },
};

export const definitionQuery = (definition: CohortDefinitionInput): QueryGroup => ({ combinator: 'and', rules: [], cohortDefinition: definition });
