import {
  COHORT_DEFINITION_LIMITS,
  CohortDefinitionExpression,
  CRITERIA_KINDS,
  CRITERIA_GROUP_TYPES,
  RANGE_OPERATORS,
  type ConceptSet,
  type CorrelatedCriteria,
  type Criteria,
  type CriteriaGroup,
  type CriteriaKind,
  type DateRange,
  type DemographicCriteria,
  type EndStrategy,
  type InclusionRule,
  type NumericRange,
  type ResultLimit,
  type Window,
} from '@hdp/contract';
import { CIRCE_ATTRIBUTES, TYPE_EXCLUDE_FLAG, UNSUPPORTED_ATTRIBUTES, UNSUPPORTED_KINDS } from './circe-attributes';

/**
 * Why a Circe definition cannot be imported: `malformed` (wrong types, missing parts: a 400) or
 * `unsupported` (a construct the platform does not hold yet: a 422). `path` names the place in the
 * Circe JSON (`PrimaryCriteria.CriteriaList[0].DoseEra`).
 */
export class CirceImportError extends Error {
  constructor(
    readonly kind: 'malformed' | 'unsupported',
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'CirceImportError';
  }
}

type Json = Record<string, unknown>;

/** The imported definition and every concept id it names, with the first place it does (for the vocabulary check). */
export interface CirceImport {
  definition: CohortDefinitionExpression;
  concepts: { id: number; path: string }[];
}

const OCCURRENCE_TYPE_OF_CIRCE = ['EXACTLY', 'AT_MOST', 'AT_LEAST'] as const;
const COUNT_COLUMNS = ['DOMAIN_CONCEPT', 'START_DATE', 'VISIT_ID'] as const;
const LIMIT_TYPES = ['First', 'Last', 'All'] as const;
/** Top-level keys that carry no meaning for the cohort (ATLAS's metadata). */
const IGNORED_TOP_LEVEL = new Set(['cdmVersionRange', 'Title']);

const absent = (value: unknown) => value === null || value === undefined || (Array.isArray(value) && value.length === 0);

/**
 * Reads a Circe `CohortExpression` (as ATLAS exports it and the OHDSI Phenotype Library stores it)
 * into the platform's model, field by field. Everything is checked: a value of the wrong type is
 * `malformed`, a construct the model does not hold is `unsupported`, each with its JSON path.
 */
export function importCirce(input: unknown): CirceImport {
  return new CirceReader().expression(input);
}

class CirceReader {
  private readonly conceptIds = new Map<number, string>();
  private readonly codesetIds = new Set<number>();
  private readonly codesetRefs: { id: number; path: string }[] = [];
  private criteriaCount = 0;

  expression(input: unknown): CirceImport {
    const root = this.object(input, 'definition');
    for (const key of Object.keys(root)) {
      if (!TOP_LEVEL.has(key) && !IGNORED_TOP_LEVEL.has(key)) throw new CirceImportError('unsupported', key, `"${key}" is not part of a cohort definition the platform understands`);
    }
    const conceptSets = this.list(root.ConceptSets, 'ConceptSets').map((s, i) => this.conceptSet(s, `ConceptSets[${i}]`));
    if (conceptSets.length > COHORT_DEFINITION_LIMITS.conceptSets) {
      throw new CirceImportError('unsupported', 'ConceptSets', `a definition holds at most ${COHORT_DEFINITION_LIMITS.conceptSets} concept sets here (this one has ${conceptSets.length})`);
    }
    const primary = this.object(root.PrimaryCriteria, 'PrimaryCriteria');
    this.known(primary, 'PrimaryCriteria', ['CriteriaList', 'ObservationWindow', 'PrimaryCriteriaLimit']);
    const criteriaList = this.list(primary.CriteriaList, 'PrimaryCriteria.CriteriaList').map((c, i) => this.criteria(c, `PrimaryCriteria.CriteriaList[${i}]`));
    if (criteriaList.length === 0) throw new CirceImportError('malformed', 'PrimaryCriteria.CriteriaList', 'a definition needs at least one entry event criterion');
    const window = absent(primary.ObservationWindow) ? {} : this.object(primary.ObservationWindow, 'PrimaryCriteria.ObservationWindow');
    const definition = {
      conceptSets,
      primaryCriteria: {
        criteriaList,
        observationWindow: {
          priorDays: this.days(window.PriorDays, 'PrimaryCriteria.ObservationWindow.PriorDays') ?? 0,
          postDays: this.days(window.PostDays, 'PrimaryCriteria.ObservationWindow.PostDays') ?? 0,
        },
        primaryCriteriaLimit: this.limit(primary.PrimaryCriteriaLimit, 'PrimaryCriteria.PrimaryCriteriaLimit'),
      },
      ...(!absent(root.AdditionalCriteria) && { additionalCriteria: this.group(root.AdditionalCriteria, 'AdditionalCriteria') }),
      qualifiedLimit: this.limit(root.QualifiedLimit, 'QualifiedLimit'),
      inclusionRules: this.list(root.InclusionRules, 'InclusionRules').map((r, i) => this.inclusionRule(r, `InclusionRules[${i}]`, i)),
      expressionLimit: this.limit(root.ExpressionLimit, 'ExpressionLimit'),
      ...(!absent(root.EndStrategy) && { endStrategy: this.endStrategy(root.EndStrategy, 'EndStrategy') }),
      censoringCriteria: this.list(root.CensoringCriteria, 'CensoringCriteria').map((c, i) => this.criteria(c, `CensoringCriteria[${i}]`)),
      collapseSettings: this.collapse(root.CollapseSettings),
      censorWindow: this.censorWindow(root.CensorWindow),
    };
    if (definition.inclusionRules.length > COHORT_DEFINITION_LIMITS.inclusionRules) {
      throw new CirceImportError('unsupported', 'InclusionRules', `a definition holds at most ${COHORT_DEFINITION_LIMITS.inclusionRules} inclusion rules here (this one has ${definition.inclusionRules.length})`);
    }
    for (const ref of this.codesetRefs) {
      if (!this.codesetIds.has(ref.id)) throw new CirceImportError('malformed', ref.path, `no concept set has id ${ref.id}`);
    }
    const parsed = CohortDefinitionExpression.safeParse(definition);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new CirceImportError('malformed', issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, ''), issue.message);
    }
    return { definition: parsed.data, concepts: [...this.conceptIds].map(([id, at]) => ({ id, path: at })) };
  }

  private object(value: unknown, path: string): Json {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CirceImportError('malformed', path, 'must be a JSON object');
    return value as Json;
  }

  private list(value: unknown, path: string): unknown[] {
    if (value === null || value === undefined) return [];
    if (!Array.isArray(value)) throw new CirceImportError('malformed', path, 'must be a JSON array');
    return value;
  }

  /** Refuses keys outside `allowed`: an unknown key is a construct the platform would silently drop. */
  private known(object: Json, path: string, allowed: readonly string[], words: Record<string, string> = {}): void {
    for (const key of Object.keys(object)) {
      if (allowed.includes(key) || absent(object[key])) continue;
      throw new CirceImportError('unsupported', `${path}.${key}`, words[key] ?? (key.endsWith('CS') ? 'concept-set selections of attributes are not supported' : `"${key}" is not supported`));
    }
  }

  private integer(value: unknown, path: string, min: number, max: number): number | undefined {
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw new CirceImportError('malformed', path, 'must be a whole number');
    if (value < min || value > max) throw new CirceImportError('unsupported', path, `must be between ${min} and ${max}`);
    return value;
  }

  private days(value: unknown, path: string): number | undefined {
    return this.integer(value, path, 0, COHORT_DEFINITION_LIMITS.days);
  }

  private boolean(value: unknown, path: string): boolean | undefined {
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'boolean') throw new CirceImportError('malformed', path, 'must be true or false');
    return value;
  }

  private text(value: unknown, path: string): string | undefined {
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'string') throw new CirceImportError('malformed', path, 'must be text');
    return value;
  }

  private oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw new CirceImportError('malformed', path, `must be one of ${allowed.join(', ')}`);
    return value as T;
  }

  private limit(value: unknown, path: string): ResultLimit {
    if (absent(value)) return { type: 'First' };
    const object = this.object(value, path);
    return { type: this.oneOf(object.Type ?? 'First', `${path}.Type`, LIMIT_TYPES) };
  }

  private conceptId(value: unknown, path: string): number {
    const concept = this.object(value, path);
    const id = this.integer(concept.CONCEPT_ID, `${path}.CONCEPT_ID`, 0, Number.MAX_SAFE_INTEGER);
    if (id === undefined) throw new CirceImportError('malformed', `${path}.CONCEPT_ID`, 'a concept needs its CONCEPT_ID');
    if (!this.conceptIds.has(id)) this.conceptIds.set(id, path);
    return id;
  }

  private concepts(value: unknown, path: string): number[] | undefined {
    if (absent(value)) return undefined;
    const ids = this.list(value, path).map((c, i) => this.conceptId(c, `${path}[${i}]`));
    if (ids.length > 1000) throw new CirceImportError('unsupported', path, 'a concept list holds at most 1000 concepts here');
    return ids;
  }

  private numericRange(value: unknown, path: string): NumericRange | undefined {
    if (absent(value)) return undefined;
    const range = this.object(value, path);
    this.known(range, path, ['Value', 'Op', 'Extent']);
    const op = this.oneOf(range.Op, `${path}.Op`, RANGE_OPERATORS);
    const number = (v: unknown, p: string) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new CirceImportError('malformed', p, 'must be a number');
      return v;
    };
    const needsExtent = op === 'bt' || op === '!bt';
    return { op, value: number(range.Value, `${path}.Value`), ...(needsExtent && { extent: number(range.Extent, `${path}.Extent`) }) };
  }

  private dateRange(value: unknown, path: string): DateRange | undefined {
    if (absent(value)) return undefined;
    const range = this.object(value, path);
    this.known(range, path, ['Value', 'Op', 'Extent']);
    const op = this.oneOf(range.Op, `${path}.Op`, RANGE_OPERATORS);
    const date = (v: unknown, p: string) => {
      const text = this.text(v, p);
      // ATLAS writes dates as YYYY-MM-DD; some tools add a time of day, which Circe ignores.
      const day = text?.slice(0, 10);
      if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw new CirceImportError('malformed', p, 'must be a date, YYYY-MM-DD');
      return day;
    };
    const needsExtent = op === 'bt' || op === '!bt';
    return { op, value: date(range.Value, `${path}.Value`), ...(needsExtent && { extent: date(range.Extent, `${path}.Extent`) }) };
  }

  private codeset(value: unknown, path: string): number | undefined {
    const id = this.integer(value, path, 0, 10_000);
    if (id !== undefined) this.codesetRefs.push({ id, path });
    return id;
  }

  private conceptSet(value: unknown, path: string): ConceptSet {
    const set = this.object(value, path);
    this.known(set, path, ['id', 'name', 'expression']);
    const id = this.integer(set.id, `${path}.id`, 0, 10_000);
    if (id === undefined) throw new CirceImportError('malformed', `${path}.id`, 'a concept set needs its id');
    if (this.codesetIds.has(id)) throw new CirceImportError('malformed', `${path}.id`, `concept set id ${id} is used twice`);
    this.codesetIds.add(id);
    const name = (this.text(set.name, `${path}.name`) ?? '').trim().slice(0, 200) || `Concept set ${id}`;
    const expression = absent(set.expression) ? {} : this.object(set.expression, `${path}.expression`);
    this.known(expression, `${path}.expression`, ['items']);
    const items = this.list(expression.items, `${path}.expression.items`).map((raw, i) => {
      const itemPath = `${path}.expression.items[${i}]`;
      const item = this.object(raw, itemPath);
      this.known(item, itemPath, ['concept', 'isExcluded', 'includeDescendants', 'includeMapped']);
      return {
        conceptId: this.conceptId(item.concept, `${itemPath}.concept`),
        includeDescendants: this.boolean(item.includeDescendants, `${itemPath}.includeDescendants`) ?? false,
        isExcluded: this.boolean(item.isExcluded, `${itemPath}.isExcluded`) ?? false,
        includeMapped: this.boolean(item.includeMapped, `${itemPath}.includeMapped`) ?? false,
      };
    });
    if (items.length > COHORT_DEFINITION_LIMITS.conceptSetItems) {
      throw new CirceImportError('unsupported', `${path}.expression.items`, `a concept set holds at most ${COHORT_DEFINITION_LIMITS.conceptSetItems} concepts here (this one has ${items.length})`);
    }
    return { id, name, expression: { items } };
  }

  /** `{ "DrugEra": { ... } }` → `{ kind: 'DrugEra', ... }`. */
  criteria(value: unknown, path: string): Criteria {
    const wrapper = this.object(value, path);
    const keys = Object.keys(wrapper);
    if (keys.length !== 1) throw new CirceImportError('malformed', path, 'a criterion is an object with one key, its kind (e.g. "ConditionOccurrence")');
    const kindName = keys[0]!;
    const kindPath = `${path}.${kindName}`;
    if (UNSUPPORTED_KINDS[kindName]) throw new CirceImportError('unsupported', kindPath, UNSUPPORTED_KINDS[kindName]);
    if (!(CRITERIA_KINDS as readonly string[]).includes(kindName)) throw new CirceImportError('unsupported', kindPath, `"${kindName}" is not a criterion kind the platform knows`);
    if (++this.criteriaCount > COHORT_DEFINITION_LIMITS.criteria * 5) throw new CirceImportError('unsupported', kindPath, 'the definition has too many criteria');
    const kind = kindName as CriteriaKind;
    const body = this.object(wrapper[kindName], kindPath);
    const attributes = CIRCE_ATTRIBUTES[kind];
    const excludeFlag = TYPE_EXCLUDE_FLAG[kind];
    this.known(body, kindPath, [...Object.keys(attributes), 'CorrelatedCriteria', ...(excludeFlag ? [excludeFlag] : [])], UNSUPPORTED_ATTRIBUTES);
    const criteria: Criteria = { kind };
    const target = criteria as unknown as Record<string, unknown>;
    for (const [name, attribute] of Object.entries(attributes)) {
      const at = `${kindPath}.${name}`;
      const raw = body[name];
      const read =
        attribute.kind === 'boolean' ? (this.boolean(raw, at) || undefined)
        : attribute.kind === 'numericRange' ? this.numericRange(raw, at)
        : attribute.kind === 'dateRange' ? this.dateRange(raw, at)
        : attribute.kind === 'codeset' ? this.codeset(raw, at)
        : this.concepts(raw, at);
      if (read !== undefined) target[attribute.field] = read;
    }
    // Without types to exclude the flag means nothing (Circe ignores it too).
    if (excludeFlag && this.boolean(body[excludeFlag], `${kindPath}.${excludeFlag}`) && criteria.typeConcepts?.length) criteria.typeExclude = true;
    if (!absent(body.CorrelatedCriteria)) criteria.correlatedCriteria = this.group(body.CorrelatedCriteria, `${kindPath}.CorrelatedCriteria`);
    return criteria;
  }

  group(value: unknown, path: string): CriteriaGroup {
    const group = this.object(value, path);
    this.known(group, path, ['Type', 'Count', 'CriteriaList', 'DemographicCriteriaList', 'Groups']);
    const type = this.oneOf(group.Type ?? 'ALL', `${path}.Type`, CRITERIA_GROUP_TYPES);
    const result: CriteriaGroup = { type };
    if (type === 'AT_LEAST' || type === 'AT_MOST') {
      const count = this.integer(group.Count, `${path}.Count`, 0, COHORT_DEFINITION_LIMITS.count);
      if (count === undefined) throw new CirceImportError('malformed', `${path}.Count`, `an ${type} group needs a count`);
      result.count = count;
    }
    const criteriaList = this.list(group.CriteriaList, `${path}.CriteriaList`).map((c, i) => this.correlated(c, `${path}.CriteriaList[${i}]`));
    const demographics = this.list(group.DemographicCriteriaList, `${path}.DemographicCriteriaList`).map((d, i) => this.demographic(d, `${path}.DemographicCriteriaList[${i}]`));
    const groups = this.list(group.Groups, `${path}.Groups`).map((g, i) => this.group(g, `${path}.Groups[${i}]`));
    if (criteriaList.length > 0) result.criteriaList = criteriaList;
    if (demographics.length > 0) result.demographicCriteriaList = demographics;
    if (groups.length > 0) result.groups = groups;
    return result;
  }

  private correlated(value: unknown, path: string): CorrelatedCriteria {
    const item = this.object(value, path);
    this.known(item, path, ['Criteria', 'StartWindow', 'EndWindow', 'RestrictVisit', 'IgnoreObservationPeriod', 'Occurrence']);
    if (absent(item.Criteria)) throw new CirceImportError('malformed', `${path}.Criteria`, 'a correlated criterion needs its criteria');
    const occurrence = absent(item.Occurrence) ? {} : this.object(item.Occurrence, `${path}.Occurrence`);
    this.known(occurrence, `${path}.Occurrence`, ['Type', 'Count', 'IsDistinct', 'CountColumn']);
    const typeIndex = this.integer(occurrence.Type ?? 2, `${path}.Occurrence.Type`, 0, 2)!;
    const isDistinct = this.boolean(occurrence.IsDistinct, `${path}.Occurrence.IsDistinct`);
    const countColumn = absent(occurrence.CountColumn) ? undefined : this.oneOf(occurrence.CountColumn, `${path}.Occurrence.CountColumn`, COUNT_COLUMNS);
    const restrictVisit = this.boolean(item.RestrictVisit, `${path}.RestrictVisit`);
    const ignore = this.boolean(item.IgnoreObservationPeriod, `${path}.IgnoreObservationPeriod`);
    const criteria = this.criteria(item.Criteria, `${path}.Criteria`);
    const startWindow = this.window(item.StartWindow, `${path}.StartWindow`, 'start');
    return {
      criteria,
      startWindow,
      ...(!absent(item.EndWindow) && { endWindow: this.window(item.EndWindow, `${path}.EndWindow`, 'end') }),
      ...(restrictVisit && { restrictVisit }),
      ...(ignore && { ignoreObservationPeriod: ignore }),
      occurrence: {
        type: OCCURRENCE_TYPE_OF_CIRCE[typeIndex]!,
        count: this.integer(occurrence.Count ?? 1, `${path}.Occurrence.Count`, 0, COHORT_DEFINITION_LIMITS.count)!,
        ...(isDistinct && { isDistinct }),
        ...(isDistinct && countColumn && { countColumn }),
      },
    };
  }

  private window(value: unknown, path: string, kind: 'start' | 'end'): Window {
    // A missing start window is Circe's "all days before and after" (its default window).
    const window = absent(value) ? {} : this.object(value, path);
    this.known(window, path, ['Start', 'End', 'UseIndexEnd', 'UseEventEnd']);
    const endpoint = (raw: unknown, p: string, coeff: -1 | 1) => {
      const e = absent(raw) ? {} : this.object(raw, p);
      this.known(e, p, ['Days', 'Coeff']);
      const c = e.Coeff === undefined || e.Coeff === null ? coeff : this.integer(e.Coeff, `${p}.Coeff`, -1, 1);
      if (c !== -1 && c !== 1) throw new CirceImportError('malformed', `${p}.Coeff`, 'must be -1 (before) or 1 (after)');
      return { days: this.days(e.Days, `${p}.Days`) ?? null, coeff: c as -1 | 1 };
    };
    const useIndexEnd = this.boolean(window.UseIndexEnd, `${path}.UseIndexEnd`);
    const useEventEnd = this.boolean(window.UseEventEnd, `${path}.UseEventEnd`);
    return {
      start: endpoint(window.Start, `${path}.Start`, -1),
      end: endpoint(window.End, `${path}.End`, 1),
      ...(useIndexEnd && { useIndexEnd }),
      // A start window tests the event's start unless told otherwise; an end window its end.
      ...(kind === 'start' ? useEventEnd && { useEventEnd } : useEventEnd === false && { useEventEnd }),
    };
  }

  private demographic(value: unknown, path: string): DemographicCriteria {
    const d = this.object(value, path);
    this.known(d, path, ['Age', 'Gender', 'Race', 'Ethnicity', 'OccurrenceStartDate', 'OccurrenceEndDate']);
    const result: DemographicCriteria = {};
    const age = this.numericRange(d.Age, `${path}.Age`);
    const gender = this.concepts(d.Gender, `${path}.Gender`);
    const race = this.concepts(d.Race, `${path}.Race`);
    const ethnicity = this.concepts(d.Ethnicity, `${path}.Ethnicity`);
    const start = this.dateRange(d.OccurrenceStartDate, `${path}.OccurrenceStartDate`);
    const end = this.dateRange(d.OccurrenceEndDate, `${path}.OccurrenceEndDate`);
    if (age) result.age = age;
    if (gender) result.gender = gender;
    if (race) result.race = race;
    if (ethnicity) result.ethnicity = ethnicity;
    if (start) result.occurrenceStartDate = start;
    if (end) result.occurrenceEndDate = end;
    return result;
  }

  private inclusionRule(value: unknown, path: string, index: number): InclusionRule {
    const rule = this.object(value, path);
    this.known(rule, path, ['name', 'description', 'expression']);
    const name = (this.text(rule.name, `${path}.name`) ?? '').trim().slice(0, 200) || `Inclusion rule ${index + 1}`;
    const description = this.text(rule.description, `${path}.description`)?.slice(0, 2000);
    return { name, ...(description && { description }), expression: absent(rule.expression) ? { type: 'ALL' } : this.group(rule.expression, `${path}.expression`) };
  }

  private endStrategy(value: unknown, path: string): EndStrategy {
    const wrapper = this.object(value, path);
    const keys = Object.keys(wrapper).filter((k) => !absent(wrapper[k]));
    if (keys.length !== 1) throw new CirceImportError('malformed', path, 'an end strategy is an object with one key, "DateOffset" or "CustomEra"');
    const kind = keys[0]!;
    const at = `${path}.${kind}`;
    const body = this.object(wrapper[kind], at);
    if (kind === 'DateOffset') {
      this.known(body, at, ['DateField', 'Offset']);
      const offset = this.integer(body.Offset ?? 0, `${at}.Offset`, -COHORT_DEFINITION_LIMITS.days, COHORT_DEFINITION_LIMITS.days)!;
      return { type: 'DateOffset', dateField: this.oneOf(body.DateField ?? 'StartDate', `${at}.DateField`, ['StartDate', 'EndDate'] as const), offset };
    }
    if (kind === 'CustomEra') {
      this.known(body, at, ['DrugCodesetId', 'GapDays', 'Offset', 'DaysSupplyOverride']);
      const drugCodesetId = this.codeset(body.DrugCodesetId, `${at}.DrugCodesetId`);
      if (drugCodesetId === undefined) throw new CirceImportError('malformed', `${at}.DrugCodesetId`, 'the end of continuous drug exposure needs a drug concept set');
      const override = this.integer(body.DaysSupplyOverride, `${at}.DaysSupplyOverride`, 1, COHORT_DEFINITION_LIMITS.days);
      return {
        type: 'CustomEra',
        drugCodesetId,
        gapDays: this.days(body.GapDays, `${at}.GapDays`) ?? 0,
        offset: this.days(body.Offset, `${at}.Offset`) ?? 0,
        ...(override !== undefined && { daysSupplyOverride: override }),
      };
    }
    throw new CirceImportError('unsupported', at, `"${kind}" exits are not supported`);
  }

  private collapse(value: unknown): { collapseType: 'ERA'; eraPad: number } {
    if (absent(value)) return { collapseType: 'ERA', eraPad: 0 };
    const c = this.object(value, 'CollapseSettings');
    this.known(c, 'CollapseSettings', ['CollapseType', 'EraPad']);
    this.oneOf(c.CollapseType ?? 'ERA', 'CollapseSettings.CollapseType', ['ERA'] as const);
    return { collapseType: 'ERA', eraPad: this.days(c.EraPad, 'CollapseSettings.EraPad') ?? 0 };
  }

  private censorWindow(value: unknown): { startDate?: string; endDate?: string } {
    if (absent(value)) return {};
    const w = this.object(value, 'CensorWindow');
    this.known(w, 'CensorWindow', ['StartDate', 'EndDate']);
    const date = (v: unknown, p: string) => {
      const text = this.text(v, p)?.slice(0, 10);
      if (text === undefined || text === '') return undefined;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) throw new CirceImportError('malformed', p, 'must be a date, YYYY-MM-DD');
      return text;
    };
    const startDate = date(w.StartDate, 'CensorWindow.StartDate');
    const endDate = date(w.EndDate, 'CensorWindow.EndDate');
    return { ...(startDate && { startDate }), ...(endDate && { endDate }) };
  }
}

const TOP_LEVEL = new Set([
  'ConceptSets', 'PrimaryCriteria', 'AdditionalCriteria', 'QualifiedLimit', 'ExpressionLimit', 'InclusionRules', 'EndStrategy', 'CensoringCriteria',
  'CollapseSettings', 'CensorWindow',
]);
