import { z } from 'zod';

/**
 * Cohort definitions with time in them, after OHDSI Circe's `CohortExpression` (the model ATLAS
 * edits). Every name is Circe's, in camelCase, so that an ATLAS user recognises each part and a
 * Circe JSON maps onto this model field by field (`PrimaryCriteria` → `primaryCriteria`,
 * `CriteriaList` → `criteriaList`, `{ "DrugEra": {...} }` → `{ kind: 'DrugEra', ... }`).
 * A query tree carries one as `cohortDefinition` at its root; see docs/cohort-definitions.md.
 */

/** Bounds of the model, so a definition cannot make an unbounded statement. */
export const COHORT_DEFINITION_LIMITS = {
  conceptSets: 50,
  conceptSetItems: 1000,
  criteria: 100,
  inclusionRules: 20,
  groupDepth: 6,
  days: 100_000,
  count: 100_000,
} as const;

const ConceptId = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date, YYYY-MM-DD').refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v, 'a real date, YYYY-MM-DD');
const Days = z.number().int().min(0).max(COHORT_DEFINITION_LIMITS.days);

/** A concept of a concept set, with Circe's three flags. */
export const ConceptSetItem = z.object({
  conceptId: ConceptId,
  /** Matches the concept's descendants too (concept_ancestor). */
  includeDescendants: z.boolean().default(false),
  /** Removes the concept (and its descendants, when set) from the set. */
  isExcluded: z.boolean().default(false),
  /** Adds the non-standard concepts that map to it ("Maps to"). */
  includeMapped: z.boolean().default(false),
});
export type ConceptSetItem = z.infer<typeof ConceptSetItem>;

/** A named list of concepts; criteria point at it by `id` (Circe's `CodesetId`). */
export const ConceptSet = z.object({
  id: z.number().int().min(0).max(10_000),
  name: z.string().trim().min(1).max(200),
  expression: z.object({ items: z.array(ConceptSetItem).max(COHORT_DEFINITION_LIMITS.conceptSetItems) }),
  /**
   * A saved concept set this one is (`POST /api/v1/concept-sets/`), pinned at a version. The
   * server replaces `expression` with that version's items whenever the definition is saved or
   * run, so the items sent with it do not matter (send `{ items: [] }`).
   */
  savedConceptSet: z.object({ id: z.uuid(), version: z.number().int().min(1) }).optional(),
  /**
   * The saved concept set (and the version, and its name then) this inline set was opened from
   * for change: the builder offers to save the change as that set's next version, also after the
   * definition is saved and opened again. It says where the set came from and nothing more: the
   * inline `expression` is what runs, and an ATLAS export leaves it out.
   */
  changedFrom: z.object({ id: z.uuid(), version: z.number().int().min(1), name: z.string().trim().min(1).max(200) }).optional(),
});
export type ConceptSet = z.infer<typeof ConceptSet>;

/** Circe's comparison operators of `NumericRange` and `DateRange`. */
export const RANGE_OPERATORS = ['lt', 'lte', 'eq', '!eq', 'gt', 'gte', 'bt', '!bt'] as const;
export const NumericRange = z.object({ op: z.enum(RANGE_OPERATORS), value: z.number().finite(), extent: z.number().finite().optional() });
export type NumericRange = z.infer<typeof NumericRange>;
export const DateRange = z.object({ op: z.enum(RANGE_OPERATORS), value: IsoDate, extent: IsoDate.optional() });
export type DateRange = z.infer<typeof DateRange>;
const ConceptIds = z.array(ConceptId).max(1000);

// The domains a criterion can look at live beside their attributes, in a module without zod that
// the web app can import.
import { CRITERIA_KINDS, type CriteriaKind } from '../criteria-attributes';
export { CRITERIA_KINDS, type CriteriaKind };

/**
 * One criterion: the events of a domain that match its attributes. Attributes a domain does not
 * have are refused by the compiler (e.g. `valueAsNumber` on a drug era).
 */
export interface Criteria {
  kind: CriteriaKind;
  /** The concept set the event's concept must be in; none = any concept. */
  codesetId?: number;
  /** The concept set the record's source concept (`*_source_concept_id`) must be in (Circe's `…SourceConcept`). */
  sourceConcept?: number;
  /** Only the person's first event of this concept set in their history. */
  first?: boolean;
  occurrenceStartDate?: DateRange;
  occurrenceEndDate?: DateRange;
  /** Age at the event (its year minus the year of birth). */
  age?: NumericRange;
  gender?: number[];
  /** Type concepts (condition_type, drug_type, visit_type, ...). */
  typeConcepts?: number[];
  /** The record's type must be none of `typeConcepts` (Circe's `…TypeExclude`) instead of one of them. */
  typeExclude?: boolean;
  /** VisitOccurrence: the visit's concept; other domains: the concept of the visit the event was recorded in. */
  visitType?: number[];
  /** Measurement / Observation. */
  valueAsNumber?: NumericRange;
  valueAsConcept?: number[];
  unit?: number[];
  rangeLow?: NumericRange;
  rangeHigh?: NumericRange;
  abnormal?: boolean;
  /** DrugExposure. */
  daysSupply?: NumericRange;
  quantity?: NumericRange;
  /** DrugExposure: the number of refills (`drug_exposure.refills`, Circe's `Refills`). */
  refills?: NumericRange;
  /** DrugEra / ConditionEra: the era's length in days and its number of exposures / occurrences. */
  eraLength?: NumericRange;
  occurrenceCount?: NumericRange;
  /** ObservationPeriod: the period's length in days. */
  periodLength?: NumericRange;
  /** Criteria nested inside this one, evaluated relative to THIS criterion's events, not the index event. */
  correlatedCriteria?: CriteriaGroup;
}

/** One end of a window: `days` before (coeff -1) or after (coeff 1); no days = the edge of the observation period. */
export const WindowEndpoint = z.object({ days: Days.nullable().optional(), coeff: z.union([z.literal(-1), z.literal(1)]) });
export type WindowEndpoint = z.infer<typeof WindowEndpoint>;

/** When the criterion's events must fall, relative to the index event (Circe's `Window`). */
export const Window = z.object({
  start: WindowEndpoint,
  end: WindowEndpoint,
  /** Measure from the index event's end date rather than its start date. */
  useIndexEnd: z.boolean().optional(),
  /** Test the criterion event's end date rather than its start date (an end window tests the end by default). */
  useEventEnd: z.boolean().optional(),
});
export type Window = z.infer<typeof Window>;

export const OCCURRENCE_TYPES = ['EXACTLY', 'AT_MOST', 'AT_LEAST'] as const;
/** How many of the criterion's events the window must hold (Circe's `Occurrence`; types 0, 1, 2). */
export const Occurrence = z.object({
  type: z.enum(OCCURRENCE_TYPES),
  count: z.number().int().min(0).max(COHORT_DEFINITION_LIMITS.count),
  /** Count distinct values of `countColumn` rather than events. */
  isDistinct: z.boolean().optional(),
  countColumn: z.enum(['DOMAIN_CONCEPT', 'START_DATE', 'VISIT_ID']).optional(),
});
export type Occurrence = z.infer<typeof Occurrence>;

/** A criterion relative to the index event (Circe's `CorelatedCriteria`). */
export interface CorrelatedCriteria {
  criteria: Criteria;
  startWindow: Window;
  endWindow?: Window;
  /** The event must be in the index event's visit. */
  restrictVisit?: boolean;
  /** The window may reach outside the index event's observation period. */
  ignoreObservationPeriod?: boolean;
  occurrence: Occurrence;
}

/** Criteria on the person at the index event (Circe's `DemographicCriteria`). */
export const DemographicCriteria = z.object({
  age: NumericRange.optional(),
  gender: ConceptIds.optional(),
  race: ConceptIds.optional(),
  ethnicity: ConceptIds.optional(),
  occurrenceStartDate: DateRange.optional(),
  occurrenceEndDate: DateRange.optional(),
});
export type DemographicCriteria = z.infer<typeof DemographicCriteria>;

export const CRITERIA_GROUP_TYPES = ['ALL', 'ANY', 'AT_LEAST', 'AT_MOST'] as const;
/** All / any / at least N / at most N of its members (criteria, demographic criteria, groups). */
export interface CriteriaGroup {
  type: (typeof CRITERIA_GROUP_TYPES)[number];
  count?: number;
  criteriaList?: CorrelatedCriteria[];
  demographicCriteriaList?: DemographicCriteria[];
  groups?: CriteriaGroup[];
}

export const Criteria: z.ZodType<Criteria> = z.lazy(() =>
  z.strictObject({
    kind: z.enum(CRITERIA_KINDS),
    codesetId: z.number().int().min(0).max(10_000).optional(),
    sourceConcept: z.number().int().min(0).max(10_000).optional(),
    first: z.boolean().optional(),
    occurrenceStartDate: DateRange.optional(),
    occurrenceEndDate: DateRange.optional(),
    age: NumericRange.optional(),
    gender: ConceptIds.optional(),
    typeConcepts: ConceptIds.optional(),
    typeExclude: z.boolean().optional(),
    visitType: ConceptIds.optional(),
    valueAsNumber: NumericRange.optional(),
    valueAsConcept: ConceptIds.optional(),
    unit: ConceptIds.optional(),
    rangeLow: NumericRange.optional(),
    rangeHigh: NumericRange.optional(),
    abnormal: z.boolean().optional(),
    daysSupply: NumericRange.optional(),
    quantity: NumericRange.optional(),
    refills: NumericRange.optional(),
    eraLength: NumericRange.optional(),
    occurrenceCount: NumericRange.optional(),
    periodLength: NumericRange.optional(),
    correlatedCriteria: CriteriaGroup.optional(),
  }),
  // An id of its own: a recursive schema can only be referred to by name in the OpenAPI document.
).meta({ id: 'CohortCriteria' }) as z.ZodType<Criteria>;

export const CorrelatedCriteria: z.ZodType<CorrelatedCriteria> = z.lazy(() =>
  z.strictObject({
    criteria: Criteria,
    startWindow: Window,
    endWindow: Window.optional(),
    restrictVisit: z.boolean().optional(),
    ignoreObservationPeriod: z.boolean().optional(),
    occurrence: Occurrence,
  }),
  // An id of its own: a recursive schema can only be referred to by name in the OpenAPI document.
).meta({ id: 'CorrelatedCriteria' }) as z.ZodType<CorrelatedCriteria>;

export const CriteriaGroup: z.ZodType<CriteriaGroup> = z.lazy(() =>
  z.strictObject({
    type: z.enum(CRITERIA_GROUP_TYPES),
    count: z.number().int().min(0).max(COHORT_DEFINITION_LIMITS.count).optional(),
    criteriaList: z.array(CorrelatedCriteria).max(COHORT_DEFINITION_LIMITS.criteria).optional(),
    demographicCriteriaList: z.array(DemographicCriteria).max(COHORT_DEFINITION_LIMITS.criteria).optional(),
    groups: z.array(CriteriaGroup).max(COHORT_DEFINITION_LIMITS.criteria).optional(),
  }),
  // An id of its own: a recursive schema can only be referred to by name in the OpenAPI document.
).meta({ id: 'CriteriaGroup' }) as z.ZodType<CriteriaGroup>;

/** Which events to keep per person: the earliest, the latest or all (Circe's `ResultLimit`). */
export const ResultLimit = z.object({ type: z.enum(['First', 'Last', 'All']) });
export type ResultLimit = z.infer<typeof ResultLimit>;

/** The entry events (Circe's `PrimaryCriteria`). */
export const PrimaryCriteria = z.object({
  criteriaList: z.array(Criteria).min(1).max(COHORT_DEFINITION_LIMITS.criteria),
  /** Days of continuous observation required before and after the event. */
  observationWindow: z.object({ priorDays: Days, postDays: Days }).default({ priorDays: 0, postDays: 0 }),
  primaryCriteriaLimit: ResultLimit.default({ type: 'First' }),
});
export type PrimaryCriteria = z.infer<typeof PrimaryCriteria>;

/** A named inclusion rule; rules apply in order and the attrition reports each. */
export const InclusionRule = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).optional(),
  expression: CriteriaGroup,
});
export type InclusionRule = z.infer<typeof InclusionRule>;

/**
 * How a cohort period ends (Circe's `EndStrategy`); none = the end of the observation period.
 * `DateOffset`: the event's start or end date plus `offset` days. `CustomEra`: the end of continuous
 * exposure to a drug concept set (exposures closer than `gapDays` join), plus `offset` days.
 * Either way, never after the end of the observation period.
 */
export const EndStrategy = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('DateOffset'), dateField: z.enum(['StartDate', 'EndDate']), offset: z.number().int().min(-COHORT_DEFINITION_LIMITS.days).max(COHORT_DEFINITION_LIMITS.days) }),
  z.strictObject({
    type: z.literal('CustomEra'),
    drugCodesetId: z.number().int().min(0).max(10_000),
    gapDays: Days.default(0),
    offset: Days.default(0),
    /** Every exposure lasts this many days, whatever its recorded end. */
    daysSupplyOverride: z.number().int().min(1).max(COHORT_DEFINITION_LIMITS.days).optional(),
  }),
]);
export type EndStrategy = z.infer<typeof EndStrategy>;

/** The whole definition (Circe's `CohortExpression`). */
export const CohortDefinitionExpression = z
  .strictObject({
    conceptSets: z.array(ConceptSet).max(COHORT_DEFINITION_LIMITS.conceptSets).default([]),
    primaryCriteria: PrimaryCriteria,
    /** "Restrict initial events": criteria every entry event must meet. */
    additionalCriteria: CriteriaGroup.optional(),
    /** Which qualifying events to keep per person after the additional criteria. */
    qualifiedLimit: ResultLimit.default({ type: 'First' }),
    inclusionRules: z.array(InclusionRule).max(COHORT_DEFINITION_LIMITS.inclusionRules).default([]),
    /** Which events to keep per person once they pass every inclusion rule ("limit qualifying cohort to"). */
    expressionLimit: ResultLimit.default({ type: 'First' }),
    endStrategy: EndStrategy.optional(),
    /** Events that end a cohort period early (the first one on or after its start). */
    censoringCriteria: z.array(Criteria).max(COHORT_DEFINITION_LIMITS.criteria).default([]),
    /** Cohort periods of a person closer than `eraPad` days are merged into one. */
    collapseSettings: z.object({ collapseType: z.literal('ERA').default('ERA'), eraPad: Days.default(0) }).default({ collapseType: 'ERA', eraPad: 0 }),
    /** Periods are cut to this calendar window; a period wholly outside it is dropped. */
    censorWindow: z.object({ startDate: IsoDate.optional(), endDate: IsoDate.optional() }).default({}),
  })
  .meta({ id: 'CohortDefinitionExpression' });
export type CohortDefinitionExpression = z.infer<typeof CohortDefinitionExpression>;
export type CohortDefinitionInput = z.input<typeof CohortDefinitionExpression>;

/** One step of the attrition: persons and events left after it. */
export const AttritionCell = z.object({ count: z.number().int().nullable(), display: z.string(), suppressed: z.boolean() });
export type AttritionCell = z.infer<typeof AttritionCell>;

export const ATTRITION_STEPS = ['entry_events', 'observation_window', 'primary_limit', 'additional_criteria', 'qualified_limit', 'inclusion_rule', 'expression_limit', 'cohort_exit', 'censor_window'] as const;
export const AttritionStep = z.object({
  /** `inclusion_rule` steps carry `rule` (its position); the others appear once each, in this order. */
  step: z.enum(ATTRITION_STEPS),
  rule: z.number().int().optional(),
  label: z.string(),
  persons: AttritionCell,
  events: AttritionCell,
});
export type AttritionStep = z.infer<typeof AttritionStep>;

/**
 * Per inclusion rule, against the qualifying events (ATLAS's inclusion report, best event per
 * person): the persons who pass it (the order-independent view: the rule alone), and the gain:
 * those who pass every other rule but not this one (who would join without it).
 */
export const InclusionRuleReport = z.object({
  rule: z.number().int(),
  name: z.string(),
  persons_passing: AttritionCell,
  gain: AttritionCell,
});
export type InclusionRuleReport = z.infer<typeof InclusionRuleReport>;

export const Attrition = z
  .object({
    steps: z.array(AttritionStep),
    inclusion_rules: z.array(InclusionRuleReport),
  })
  .meta({ id: 'Attrition' });
export type Attrition = z.infer<typeof Attrition>;
