import type {
  CohortDefinitionExpression,
  CorrelatedCriteria,
  Criteria,
  CriteriaGroup,
  DateRange,
  DemographicCriteria,
  NumericRange,
  Window,
} from '@hdp/contract';
import { CIRCE_ATTRIBUTES, TYPE_EXCLUDE_FLAG } from './circe-attributes';

/** A part of a definition Circe cannot hold (`path` in the model's names). */
export class CirceExportError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'CirceExportError';
  }
}

/** What the vocabulary says of a concept, in Circe's `Concept` fields. */
export interface CirceConcept {
  CONCEPT_ID: number;
  CONCEPT_NAME?: string;
  STANDARD_CONCEPT?: string | null;
  INVALID_REASON?: string | null;
  CONCEPT_CODE?: string;
  DOMAIN_ID?: string;
  VOCABULARY_ID?: string;
  CONCEPT_CLASS_ID?: string;
}

type Json = Record<string, unknown>;
const OCCURRENCE_TYPES = { EXACTLY: 0, AT_MOST: 1, AT_LEAST: 2 } as const;

/**
 * Writes a definition as Circe JSON, the form ATLAS imports ("Import" on a cohort definition's
 * JSON tab) and the Phenotype Library stores. Concepts carry what the vocabulary knows of them
 * (`lookup`), as ATLAS shows them; an id the vocabulary does not hold is written alone.
 */
export function exportCirce(def: CohortDefinitionExpression, lookup: (id: number) => CirceConcept | undefined = () => undefined): Json {
  const concept = (id: number): CirceConcept => lookup(id) ?? { CONCEPT_ID: id };
  const concepts = (ids: number[]) => ids.map(concept);
  const numeric = (r: NumericRange) => ({ Value: r.value, Op: r.op, ...(r.extent !== undefined && { Extent: r.extent }) });
  const date = (r: DateRange) => ({ Value: r.value, Op: r.op, ...(r.extent !== undefined && { Extent: r.extent }) });

  const criteria = (c: Criteria, path: string): Json => {
    const body: Json = {};
    const names = Object.entries(CIRCE_ATTRIBUTES[c.kind]);
    for (const [field, value] of Object.entries(c) as [keyof Criteria, unknown][]) {
      if (field === 'kind' || value === undefined || field === 'correlatedCriteria' || field === 'typeExclude') continue;
      const entry = names.find(([, a]) => a.field === field);
      if (!entry) throw new CirceExportError(`${path}.${field}`, `a ${c.kind} criterion's ${field} has no Circe equivalent`);
      const [name, attribute] = entry;
      body[name] =
        attribute.kind === 'numericRange' ? numeric(value as NumericRange)
        : attribute.kind === 'dateRange' ? date(value as DateRange)
        : attribute.kind === 'concepts' ? concepts(value as number[])
        : value;
    }
    if (c.typeConcepts?.length && TYPE_EXCLUDE_FLAG[c.kind]) body[TYPE_EXCLUDE_FLAG[c.kind]] = c.typeExclude === true;
    if (c.correlatedCriteria) body.CorrelatedCriteria = group(c.correlatedCriteria, `${path}.correlatedCriteria`);
    return { [c.kind]: body };
  };

  const window = (w: Window): Json => ({
    Start: { Days: w.start.days ?? null, Coeff: w.start.coeff },
    End: { Days: w.end.days ?? null, Coeff: w.end.coeff },
    ...(w.useIndexEnd !== undefined && { UseIndexEnd: w.useIndexEnd }),
    ...(w.useEventEnd !== undefined && { UseEventEnd: w.useEventEnd }),
  });

  const correlated = (c: CorrelatedCriteria, path: string): Json => ({
    Criteria: criteria(c.criteria, `${path}.criteria`),
    StartWindow: window(c.startWindow),
    ...(c.endWindow && { EndWindow: window(c.endWindow) }),
    ...(c.restrictVisit !== undefined && { RestrictVisit: c.restrictVisit }),
    ...(c.ignoreObservationPeriod !== undefined && { IgnoreObservationPeriod: c.ignoreObservationPeriod }),
    Occurrence: {
      Type: OCCURRENCE_TYPES[c.occurrence.type],
      Count: c.occurrence.count,
      ...(c.occurrence.isDistinct !== undefined && { IsDistinct: c.occurrence.isDistinct }),
      ...(c.occurrence.countColumn !== undefined && { CountColumn: c.occurrence.countColumn }),
    },
  });

  const demographic = (d: DemographicCriteria): Json => ({
    ...(d.age && { Age: numeric(d.age) }),
    ...(d.gender && { Gender: concepts(d.gender) }),
    ...(d.race && { Race: concepts(d.race) }),
    ...(d.ethnicity && { Ethnicity: concepts(d.ethnicity) }),
    ...(d.occurrenceStartDate && { OccurrenceStartDate: date(d.occurrenceStartDate) }),
    ...(d.occurrenceEndDate && { OccurrenceEndDate: date(d.occurrenceEndDate) }),
  });

  const group = (g: CriteriaGroup, path: string): Json => ({
    Type: g.type,
    ...(g.count !== undefined && { Count: g.count }),
    CriteriaList: (g.criteriaList ?? []).map((c, i) => correlated(c, `${path}.criteriaList[${i}]`)),
    DemographicCriteriaList: (g.demographicCriteriaList ?? []).map(demographic),
    Groups: (g.groups ?? []).map((sub, i) => group(sub, `${path}.groups[${i}]`)),
  });

  const end = def.endStrategy;
  return {
    ConceptSets: def.conceptSets.map((set) => ({
      id: set.id,
      name: set.name,
      expression: {
        items: set.expression.items.map((item) => ({
          concept: concept(item.conceptId),
          isExcluded: item.isExcluded,
          includeDescendants: item.includeDescendants,
          includeMapped: item.includeMapped,
        })),
      },
    })),
    PrimaryCriteria: {
      CriteriaList: def.primaryCriteria.criteriaList.map((c, i) => criteria(c, `primaryCriteria.criteriaList[${i}]`)),
      ObservationWindow: { PriorDays: def.primaryCriteria.observationWindow.priorDays, PostDays: def.primaryCriteria.observationWindow.postDays },
      PrimaryCriteriaLimit: { Type: def.primaryCriteria.primaryCriteriaLimit.type },
    },
    ...(def.additionalCriteria && { AdditionalCriteria: group(def.additionalCriteria, 'additionalCriteria') }),
    QualifiedLimit: { Type: def.qualifiedLimit.type },
    ExpressionLimit: { Type: def.expressionLimit.type },
    InclusionRules: def.inclusionRules.map((r, i) => ({
      name: r.name,
      ...(r.description !== undefined && { description: r.description }),
      expression: group(r.expression, `inclusionRules[${i}].expression`),
    })),
    ...(end && {
      EndStrategy:
        end.type === 'DateOffset'
          ? { DateOffset: { DateField: end.dateField, Offset: end.offset } }
          : { CustomEra: { DrugCodesetId: end.drugCodesetId, GapDays: end.gapDays, Offset: end.offset, ...(end.daysSupplyOverride !== undefined && { DaysSupplyOverride: end.daysSupplyOverride }) } },
    }),
    CensoringCriteria: def.censoringCriteria.map((c, i) => criteria(c, `censoringCriteria[${i}]`)),
    CollapseSettings: { CollapseType: def.collapseSettings.collapseType, EraPad: def.collapseSettings.eraPad },
    CensorWindow: { ...(def.censorWindow.startDate && { StartDate: def.censorWindow.startDate }), ...(def.censorWindow.endDate && { EndDate: def.censorWindow.endDate }) },
    cdmVersionRange: '>=5.0.0',
  };
}
