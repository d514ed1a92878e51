import type { Criteria, CriteriaKind } from '@hdp/contract';

/** How one Circe attribute of a criterion maps onto the model: the model field and the value's kind. */
export interface CirceAttribute {
  field: keyof Criteria;
  kind: 'boolean' | 'numericRange' | 'dateRange' | 'concepts' | 'codeset';
}

const common = {
  CodesetId: { field: 'codesetId', kind: 'codeset' },
  First: { field: 'first', kind: 'boolean' },
  OccurrenceStartDate: { field: 'occurrenceStartDate', kind: 'dateRange' },
  Age: { field: 'age', kind: 'numericRange' },
  Gender: { field: 'gender', kind: 'concepts' },
  VisitType: { field: 'visitType', kind: 'concepts' },
} as const satisfies Record<string, CirceAttribute>;
const era = {
  CodesetId: common.CodesetId,
  First: common.First,
  EraStartDate: { field: 'occurrenceStartDate', kind: 'dateRange' },
  EraEndDate: { field: 'occurrenceEndDate', kind: 'dateRange' },
  OccurrenceCount: { field: 'occurrenceCount', kind: 'numericRange' },
  EraLength: { field: 'eraLength', kind: 'numericRange' },
  AgeAtStart: { field: 'age', kind: 'numericRange' },
  Gender: common.Gender,
} as const satisfies Record<string, CirceAttribute>;
const typeConcepts = { field: 'typeConcepts', kind: 'concepts' } as const;
const sourceConcept = { field: 'sourceConcept', kind: 'codeset' } as const;

/**
 * Circe's attributes of each criterion kind that the model holds, by their Circe name (circe-be's
 * `cohortdefinition/*.java`). The `…TypeExclude` flag of the type list is handled beside it
 * (`typeExclude`: the record's type is none of the listed ones).
 */
export const CIRCE_ATTRIBUTES: Record<CriteriaKind, Record<string, CirceAttribute>> = {
  ConditionOccurrence: { ...common, OccurrenceEndDate: { field: 'occurrenceEndDate', kind: 'dateRange' }, ConditionType: typeConcepts, ConditionSourceConcept: sourceConcept },
  DrugExposure: {
    ...common,
    OccurrenceEndDate: { field: 'occurrenceEndDate', kind: 'dateRange' },
    DrugType: typeConcepts,
    DrugSourceConcept: sourceConcept,
    DaysSupply: { field: 'daysSupply', kind: 'numericRange' },
    Quantity: { field: 'quantity', kind: 'numericRange' },
    Refills: { field: 'refills', kind: 'numericRange' },
  },
  DrugEra: era,
  ConditionEra: era,
  ProcedureOccurrence: { ...common, ProcedureType: typeConcepts, ProcedureSourceConcept: sourceConcept },
  Measurement: {
    ...common,
    MeasurementType: typeConcepts,
    MeasurementSourceConcept: sourceConcept,
    ValueAsNumber: { field: 'valueAsNumber', kind: 'numericRange' },
    ValueAsConcept: { field: 'valueAsConcept', kind: 'concepts' },
    Unit: { field: 'unit', kind: 'concepts' },
    RangeLow: { field: 'rangeLow', kind: 'numericRange' },
    RangeHigh: { field: 'rangeHigh', kind: 'numericRange' },
    Abnormal: { field: 'abnormal', kind: 'boolean' },
  },
  Observation: {
    ...common,
    ObservationType: typeConcepts,
    ObservationSourceConcept: sourceConcept,
    ValueAsNumber: { field: 'valueAsNumber', kind: 'numericRange' },
    ValueAsConcept: { field: 'valueAsConcept', kind: 'concepts' },
    Unit: { field: 'unit', kind: 'concepts' },
  },
  // Circe's VisitOccurrence.VisitType is the visit's *type* concept (visit_type_concept_id).
  VisitOccurrence: {
    CodesetId: common.CodesetId,
    First: common.First,
    OccurrenceStartDate: common.OccurrenceStartDate,
    OccurrenceEndDate: { field: 'occurrenceEndDate', kind: 'dateRange' },
    VisitType: typeConcepts,
    VisitSourceConcept: sourceConcept,
    Age: common.Age,
    Gender: common.Gender,
  },
  Death: { CodesetId: common.CodesetId, OccurrenceStartDate: common.OccurrenceStartDate, DeathType: typeConcepts, DeathSourceConcept: sourceConcept, Age: common.Age, Gender: common.Gender },
  ObservationPeriod: {
    First: common.First,
    PeriodStartDate: { field: 'occurrenceStartDate', kind: 'dateRange' },
    PeriodEndDate: { field: 'occurrenceEndDate', kind: 'dateRange' },
    PeriodType: typeConcepts,
    PeriodLength: { field: 'periodLength', kind: 'numericRange' },
    AgeAtStart: { field: 'age', kind: 'numericRange' },
  },
};

/** The name of the "exclude the listed types" flag beside a kind's type list. */
export const TYPE_EXCLUDE_FLAG: Record<CriteriaKind, string> = {
  ConditionOccurrence: 'ConditionTypeExclude',
  DrugExposure: 'DrugTypeExclude',
  DrugEra: '',
  ConditionEra: '',
  ProcedureOccurrence: 'ProcedureTypeExclude',
  Measurement: 'MeasurementTypeExclude',
  Observation: 'ObservationTypeExclude',
  VisitOccurrence: 'VisitTypeExclude',
  Death: 'DeathTypeExclude',
  ObservationPeriod: '',
};

/** Circe criteria the model does not hold yet, in words for the refusal. */
export const UNSUPPORTED_KINDS: Record<string, string> = {
  DoseEra: 'dose eras are not supported',
  DeviceExposure: 'device exposures are not supported',
  Specimen: 'specimens are not supported',
  VisitDetail: 'visit details are not supported',
  PayerPlanPeriod: 'payer plan periods are not supported',
  LocationRegion: 'location regions are not supported',
};

/** Circe attributes the model does not hold yet, in words for the refusal (others: "not supported"). */
export const UNSUPPORTED_ATTRIBUTES: Record<string, string> = {
  ProviderSpecialty: 'provider specialties are not supported',
  DateAdjustment: 'date adjustments are not supported',
  RangeLowRatio: 'range ratios are not supported',
  RangeHighRatio: 'range ratios are not supported',
  AgeAtEnd: 'age at the end of an era or period is not supported',
  GapDays: 'the gap days of a drug era criterion are not supported',
  UserDefinedPeriod: 'user-defined observation periods are not supported',
  StopReason: 'stop reasons are not supported',
  ValueAsString: 'text values are not supported',
  VisitLength: 'visit lengths are not supported',
  PlaceOfService: 'places of service are not supported',
  Operator: 'measurement operators are not supported',
  Qualifier: 'observation qualifiers are not supported',
  Modifier: 'procedure modifiers are not supported',
  RouteConcept: 'drug routes are not supported',
  EffectiveDrugDose: 'drug doses are not supported',
  DoseUnit: 'dose units are not supported',
  LotNumber: 'lot numbers are not supported',
  ConditionStatus: 'condition statuses are not supported',
};
