import { CRITERIA_ATTRIBUTES, CRITERIA_KINDS, criteriaHasAttribute } from '@hdp/contract/criteria-attributes';
import type {
  Attrition,
  AttritionStep,
  CohortDefinitionExpression,
  ConceptSet,
  CorrelatedCriteria,
  Criteria,
  CriteriaGroup,
  CriteriaKind,
  DateRange,
  DemographicCriteria,
  InclusionRule,
  NumericRange,
  SavedConceptSet,
  Window,
  WindowEndpoint,
} from '@hdp/contract';

/** The definition as the builder edits it: every part present (the contract's defaults filled in). */
export type Definition = CohortDefinitionExpression;

/** The domains in words, with the OMOP domain their concept sets are searched in. */
export const CRITERIA_KIND_LABELS: Record<CriteriaKind, { label: string; noun: string; domain?: string }> = {
  ConditionOccurrence: { label: 'Condition occurrence', noun: 'condition', domain: 'Condition' },
  DrugExposure: { label: 'Drug exposure', noun: 'drug exposure', domain: 'Drug' },
  DrugEra: { label: 'Drug era', noun: 'drug era', domain: 'Drug' },
  ConditionEra: { label: 'Condition era', noun: 'condition era', domain: 'Condition' },
  ProcedureOccurrence: { label: 'Procedure occurrence', noun: 'procedure', domain: 'Procedure' },
  Measurement: { label: 'Measurement', noun: 'measurement', domain: 'Measurement' },
  Observation: { label: 'Observation', noun: 'observation', domain: 'Observation' },
  VisitOccurrence: { label: 'Visit occurrence', noun: 'visit', domain: 'Visit' },
  Death: { label: 'Death', noun: 'death' },
  ObservationPeriod: { label: 'Observation period', noun: 'observation period' },
};

/** Kinds whose events carry a concept (a concept set can be chosen). */
export const KINDS_WITH_CONCEPTS = new Set<CriteriaKind>(CRITERIA_KINDS.filter((k) => criteriaHasAttribute(k, 'codesetId')));

/** A new definition: one entry event of any drug exposure, first per person, no rules, exit at the end of observation. */
export function newDefinition(): Definition {
  return {
    conceptSets: [],
    primaryCriteria: { criteriaList: [{ kind: 'DrugExposure' }], observationWindow: { priorDays: 0, postDays: 0 }, primaryCriteriaLimit: { type: 'First' } },
    qualifiedLimit: { type: 'First' },
    inclusionRules: [],
    expressionLimit: { type: 'First' },
    censoringCriteria: [],
    collapseSettings: { collapseType: 'ERA', eraPad: 0 },
    censorWindow: {},
  };
}

/** The query's definition with the contract's defaults filled in (a saved one may omit defaulted parts). */
export function withDefaults(definition: Partial<Definition>): Definition {
  const base = newDefinition();
  return {
    ...base,
    ...definition,
    primaryCriteria: { ...base.primaryCriteria, ...definition.primaryCriteria },
  } as Definition;
}

/** Attributes edited beside the domain itself (concept set, first occurrence, age, gender, nested criteria). */
const MAIN_ATTRIBUTES = new Set<keyof Criteria>(['kind', 'codesetId', 'first', 'age', 'gender', 'correlatedCriteria']);

/** Attributes the builder offers under "More attributes", beyond concept set, first occurrence, age and gender. */
export type AttributeKey = Exclude<keyof Criteria, 'kind' | 'codesetId' | 'first' | 'age' | 'gender' | 'correlatedCriteria'>;

/** The "More attributes" of a kind, in the contract's order (of the attributes the API accepts for it). */
const isMoreAttribute = (key: keyof Criteria): key is AttributeKey => !MAIN_ATTRIBUTES.has(key);
export function kindAttributes(kind: CriteriaKind): readonly AttributeKey[] {
  return CRITERIA_ATTRIBUTES[kind].filter(isMoreAttribute);
}

/** Whether the kind accepts "first occurrence in the person's history". */
export const hasFirst = (kind: CriteriaKind) => criteriaHasAttribute(kind, 'first');

/**
 * The criterion as another kind: attributes the new kind does not have are dropped (the API would
 * refuse them), those it shares are kept; nested criteria stay.
 */
export function withKind(criteria: Criteria, kind: CriteriaKind): Criteria {
  const next: Criteria = { ...criteria, kind };
  for (const key of Object.keys(next) as (keyof Criteria)[]) if (!criteriaHasAttribute(kind, key)) delete next[key];
  return next;
}

/** The smallest id no concept set uses yet. */
export function nextConceptSetId(sets: readonly ConceptSet[]): number {
  return sets.reduce((max, set) => Math.max(max, set.id + 1), 0);
}

/** A definition's concept set that is a saved one, pinned at the version given (its items that version's). */
export function fromSavedConceptSet(saved: SavedConceptSet, id: number): ConceptSet {
  return { id, name: saved.name, expression: { items: saved.items }, savedConceptSet: { id: saved.id, version: saved.version } };
}

/** The newer version of a saved concept set than the one pinned, or null when the pinned one is the newest. */
export function newerVersion(set: ConceptSet, latestVersion: number | undefined): number | null {
  if (!set.savedConceptSet || latestVersion === undefined) return null;
  return latestVersion > set.savedConceptSet.version ? latestVersion : null;
}

/** Where an inline set came from when a pinned saved set was opened for change: the saved set, the version pinned and its name. */
export type SavedOrigin = NonNullable<ConceptSet['changedFrom']>;

/** A pinned saved set opened for change: the same set inline (its items editable), saying where it came from. */
export function openedForChange(set: ConceptSet): ConceptSet | null {
  if (!set.savedConceptSet) return null;
  return { id: set.id, name: set.name, expression: { items: set.expression.items }, changedFrom: { ...set.savedConceptSet, name: set.name } };
}

/** The body that saves an inline set as the next version of the saved set it came from (the name only when it changed). */
export function nextVersionBody(set: ConceptSet, origin: SavedOrigin): { name?: string; items: ConceptSet['expression']['items'] } {
  const name = set.name.trim();
  return name && name !== origin.name ? { name, items: set.expression.items } : { items: set.expression.items };
}

/** "Any time before" is an open start: no days. */
const defaultWindow = (): Window => ({ start: { days: null, coeff: -1 }, end: { days: 0, coeff: 1 } });

/** A new criterion relative to an event: at least 1 condition any time before, in the same observation period. */
export function newCorrelatedCriteria(kind: CriteriaKind = 'ConditionOccurrence'): CorrelatedCriteria {
  return { criteria: { kind }, startWindow: defaultWindow(), occurrence: { type: 'AT_LEAST', count: 1 } };
}

/** A new named inclusion rule holding one criterion. */
export function newInclusionRule(position: number): InclusionRule {
  return { name: `Inclusion rule ${position + 1}`, expression: { type: 'ALL', criteriaList: [newCorrelatedCriteria()] } };
}

/** Moves one item of a list up or down; out-of-range moves leave it as it is. */
export function moved<T>(items: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= items.length) return [...items];
  const next = [...items];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}

/** The list with item `index` replaced. */
export function replaced<T>(items: readonly T[], index: number, item: T): T[] {
  return items.map((x, i) => (i === index ? item : x));
}

/** The list without item `index`. */
export function removed<T>(items: readonly T[], index: number): T[] {
  return items.filter((_, i) => i !== index);
}

/** A piece of a sentence: plain text, or a name to set in italics. */
export type SentencePart = { text: string; emphasis?: boolean };

const OCCURRENCE_WORDS = { EXACTLY: 'exactly', AT_LEAST: 'at least', AT_MOST: 'at most' } as const;

function endpointWords(endpoint: WindowEndpoint): string {
  const side = endpoint.coeff < 0 ? 'before' : 'after';
  return endpoint.days === null || endpoint.days === undefined ? `any time ${side}` : `${endpoint.days} ${endpoint.days === 1 ? 'day' : 'days'} ${side}`;
}

/** What a window is measured from: the index event, or the event of the criterion it is nested in. */
export interface Anchor {
  /** "the index date", "the drug exposure's date" … (start or end chosen by the window). */
  startName: string;
  endName: string;
}

export const INDEX_ANCHOR: Anchor = { startName: 'the index date', endName: 'the index end date' };

/** The anchor of criteria nested inside a criterion of this kind. */
export function enclosingAnchor(kind: CriteriaKind): Anchor {
  const noun = CRITERIA_KIND_LABELS[kind].noun;
  return { startName: `the enclosing ${noun}'s start date`, endName: `the enclosing ${noun}'s end date` };
}

function windowWords(window: Window, anchor: Anchor): string {
  return `between ${endpointWords(window.start)} and ${endpointWords(window.end)} ${window.useIndexEnd ? anchor.endName : anchor.startName}`;
}

/**
 * The criterion read back as a sentence: "at least 1 occurrence of *Diclofenac* between 365 days
 * before and 0 days after the index date, in the same observation period".
 */
export function criterionSentence(
  item: CorrelatedCriteria,
  conceptSetName: string | undefined,
  anchor: Anchor = INDEX_ANCHOR,
  sourceSetName?: string,
  names: ConceptNames = NO_NAMES,
): SentencePart[] {
  const { occurrence, criteria } = item;
  const kind = CRITERIA_KIND_LABELS[criteria.kind];
  const many = occurrence.count === 1 ? 'occurrence' : 'occurrences';
  const distinct = occurrence.isDistinct ? 'distinct ' : '';
  const parts: SentencePart[] = [{ text: `${OCCURRENCE_WORDS[occurrence.type]} ${occurrence.count} ${distinct}${many} of ` }];
  if (conceptSetName) parts.push({ text: conceptSetName, emphasis: true }, { text: ` (${kind.noun})` });
  else parts.push({ text: `any ${kind.noun}` });
  const attributes = attributePhrases(criteria, sourceSetName, names);
  if (attributes.length) parts.push({ text: `, ${attributes.join(', ')},` });
  const start = item.startWindow.useEventEnd ? 'ending' : 'starting';
  parts.push({ text: ` ${item.endWindow ? `${start} ` : ''}${windowWords(item.startWindow, anchor)}` });
  if (item.endWindow) parts.push({ text: ` and ending ${windowWords(item.endWindow, anchor)}` });
  if (item.restrictVisit) parts.push({ text: ', in the same visit' });
  parts.push({ text: item.ignoreObservationPeriod ? ', at any time (observation periods ignored)' : ', in the same observation period' });
  return parts;
}

/** The sentence as plain text (names unmarked). */
export function sentenceText(parts: readonly SentencePart[]): string {
  return parts.map((p) => p.text).join('');
}

/** The group's rule in words: "all of", "any of", "at least 2 of", "at most 1 of". */
export function groupWords(group: CriteriaGroup): string {
  if (group.type === 'ALL') return 'all of';
  if (group.type === 'ANY') return 'any of';
  return `${group.type === 'AT_LEAST' ? 'at least' : 'at most'} ${group.count ?? 0} of`;
}

/** Standard OMOP concepts the builder offers by name. */
export const GENDERS = [
  { value: 8532, label: 'Female' },
  { value: 8507, label: 'Male' },
];
export const RACES = [
  { value: 8527, label: 'White' },
  { value: 8516, label: 'Black or African American' },
  { value: 8515, label: 'Asian' },
  { value: 8657, label: 'American Indian or Alaska Native' },
  { value: 8557, label: 'Native Hawaiian or Other Pacific Islander' },
];
export const ETHNICITIES = [
  { value: 38003563, label: 'Hispanic or Latino' },
  { value: 38003564, label: 'Not Hispanic or Latino' },
];
/** Type concepts (how a record was made), as OMOP's Type Concept vocabulary names them. */
export const RECORD_TYPES = [
  { value: 32817, label: 'EHR' },
  { value: 32810, label: 'Claim' },
];
export const VISIT_TYPES = [
  { value: 9201, label: 'Inpatient visit' },
  { value: 9202, label: 'Outpatient visit' },
  { value: 9203, label: 'Emergency room visit' },
  { value: 262, label: 'Emergency room and inpatient visit' },
  { value: 581477, label: 'Office visit' },
];

const NUMERIC_WORDS: Record<NumericRange['op'], string> = { lt: 'less than', lte: 'at most', eq: 'exactly', '!eq': 'not', gt: 'more than', gte: 'at least', bt: 'between', '!bt': 'not between' };
const DATE_WORDS: Record<DateRange['op'], string> = { lt: 'before', lte: 'on or before', eq: 'on', '!eq': 'not on', gt: 'after', gte: 'on or after', bt: 'between', '!bt': 'not between' };

/** A number range in words: "at least 5", "between 5 and 10" (Circe's `bt` includes both ends). */
export function numericRangeWords(range: NumericRange): string {
  const between = range.op === 'bt' || range.op === '!bt';
  return between ? `${NUMERIC_WORDS[range.op]} ${range.value} and ${range.extent ?? '?'}` : `${NUMERIC_WORDS[range.op]} ${range.value}`;
}

/** A date range in words: "on or after 2010-01-01", "between 2010-01-01 and 2012-12-31". */
export function dateRangeWords(range: DateRange): string {
  const between = range.op === 'bt' || range.op === '!bt';
  return between ? `${DATE_WORDS[range.op]} ${range.value} and ${range.extent ?? '?'}` : `${DATE_WORDS[range.op]} ${range.value}`;
}

/** Names of concepts looked up by their ids (`useConceptNames`); none while they load. */
export type ConceptNames = ReadonlyMap<number, string>;
const NO_NAMES: ConceptNames = new Map();

/**
 * Concept ids by their name where the builder knows it ("Female or Male") or has looked it up
 * (`names`), else "concept 8840".
 */
export function conceptWords(ids: readonly number[], known: readonly { value: number; label: string }[], names: ConceptNames = NO_NAMES): string {
  const words = ids.map((id) => known.find((k) => k.value === id)?.label ?? names.get(id) ?? `concept ${id}`);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/**
 * The concept ids a criterion's attributes name (not its concept sets) whose names the builder does
 * not know: the ones to look up for its sentence (`useConceptNames`).
 */
export function unknownAttributeConceptIds(criteria: Criteria | DemographicCriteria): number[] {
  const c = criteria as Partial<Criteria & DemographicCriteria>;
  const known = new Set([...GENDERS, ...RACES, ...ETHNICITIES, ...VISIT_TYPES, ...RECORD_TYPES].map((k) => k.value));
  const named = [...(c.gender ?? []), ...(c.race ?? []), ...(c.ethnicity ?? []), ...(c.visitType ?? []), ...(c.typeConcepts ?? []), ...(c.valueAsConcept ?? []), ...(c.unit ?? [])];
  return named.filter((id) => !known.has(id));
}

/** Age bounds in words: "aged 18 to 65", "aged at least 18". */
function ageWords(range: NumericRange): string {
  if (range.op === 'bt') return `aged ${range.value} to ${range.extent ?? '?'}`;
  return `aged ${numericRangeWords(range)}`;
}

/** The criterion's attributes in words, in the order the editor shows them (`sourceSetName`: the name of the source concept's set). */
export function attributePhrases(criteria: Criteria, sourceSetName?: string, names: ConceptNames = NO_NAMES): string[] {
  const phrases: string[] = [];
  if (criteria.first) phrases.push("the first in the person's history");
  if (criteria.age) phrases.push(`${ageWords(criteria.age)} at the event`);
  if (criteria.gender?.length) phrases.push(`of a ${conceptWords(criteria.gender, GENDERS, names).toLowerCase()} person`);
  if (criteria.occurrenceStartDate) phrases.push(`starting ${dateRangeWords(criteria.occurrenceStartDate)}`);
  if (criteria.occurrenceEndDate) phrases.push(`ending ${dateRangeWords(criteria.occurrenceEndDate)}`);
  if (criteria.visitType?.length) phrases.push(criteria.kind === 'VisitOccurrence' ? `of type ${conceptWords(criteria.visitType, VISIT_TYPES, names)}` : `in a visit of type ${conceptWords(criteria.visitType, VISIT_TYPES, names)}`);
  if (criteria.typeConcepts?.length) phrases.push(`${criteria.typeExclude ? 'not recorded as' : 'recorded as'} ${conceptWords(criteria.typeConcepts, RECORD_TYPES, names)}`);
  if (criteria.sourceConcept !== undefined) phrases.push(`with a source concept in ${sourceSetName ?? `concept set ${criteria.sourceConcept}`}`);
  if (criteria.valueAsNumber) phrases.push(`with a value ${numericRangeWords(criteria.valueAsNumber)}`);
  if (criteria.valueAsConcept?.length) phrases.push(`with a value of ${conceptWords(criteria.valueAsConcept, [], names)}`);
  if (criteria.unit?.length) phrases.push(`in unit ${conceptWords(criteria.unit, [], names)}`);
  if (criteria.abnormal) phrases.push('with an abnormal result');
  if (criteria.rangeLow) phrases.push(`with a normal range's low end ${numericRangeWords(criteria.rangeLow)}`);
  if (criteria.rangeHigh) phrases.push(`with a normal range's high end ${numericRangeWords(criteria.rangeHigh)}`);
  if (criteria.daysSupply) phrases.push(`with a days supply ${numericRangeWords(criteria.daysSupply)} days`);
  if (criteria.quantity) phrases.push(`with a quantity ${numericRangeWords(criteria.quantity)}`);
  if (criteria.refills) phrases.push(`with refills ${numericRangeWords(criteria.refills)}`);
  if (criteria.eraLength) phrases.push(`lasting ${numericRangeWords(criteria.eraLength)} days`);
  if (criteria.occurrenceCount) phrases.push(`made of ${numericRangeWords(criteria.occurrenceCount)} ${criteria.kind === 'DrugEra' ? 'exposures' : 'occurrences'}`);
  if (criteria.periodLength) phrases.push(`lasting ${numericRangeWords(criteria.periodLength)} days`);
  return phrases;
}

/** An entry or censoring event read back: "a drug exposure of *Diclofenac*, the first in the person's history". */
export function eventSentence(criteria: Criteria, conceptSetName: string | undefined, sourceSetName?: string, names: ConceptNames = NO_NAMES): SentencePart[] {
  const kind = CRITERIA_KIND_LABELS[criteria.kind];
  const parts: SentencePart[] = conceptSetName ? [{ text: `a ${kind.noun} of ` }, { text: conceptSetName, emphasis: true }] : [{ text: `any ${kind.noun}` }];
  const attributes = attributePhrases(criteria, sourceSetName, names);
  if (attributes.length) parts.push({ text: `, ${attributes.join(', ')}` });
  return parts;
}

/** A demographic criterion read back: "persons aged 18 to 65 at the index date, female, …". */
export function demographicSentence(criteria: DemographicCriteria, anchor: Anchor = INDEX_ANCHOR, names: ConceptNames = NO_NAMES): string {
  const phrases: string[] = [];
  const at = anchor === INDEX_ANCHOR ? 'the index date' : anchor.startName.replace(/'s start date$/, '');
  if (criteria.age) phrases.push(`${ageWords(criteria.age)} at ${at}`);
  if (criteria.gender?.length) phrases.push(conceptWords(criteria.gender, GENDERS, names).toLowerCase());
  if (criteria.race?.length) phrases.push(`of race ${conceptWords(criteria.race, RACES, names)}`);
  if (criteria.ethnicity?.length) phrases.push(`of ethnicity ${conceptWords(criteria.ethnicity, ETHNICITIES, names)}`);
  const event = anchor === INDEX_ANCHOR ? 'the index event' : at;
  if (criteria.occurrenceStartDate) phrases.push(`with ${event} starting ${dateRangeWords(criteria.occurrenceStartDate)}`);
  if (criteria.occurrenceEndDate) phrases.push(`with ${event} ending ${dateRangeWords(criteria.occurrenceEndDate)}`);
  return phrases.length ? `persons ${phrases.join(', ')}` : 'any person (no demographic criterion set yet)';
}

/** The concept sets every criterion of the definition refers to, at any depth. */
export function referencedConceptSets(definition: Definition): Set<number> {
  const ids = new Set<number>();
  const visitCriteria = (c: Criteria) => {
    if (c.codesetId !== undefined) ids.add(c.codesetId);
    if (c.sourceConcept !== undefined) ids.add(c.sourceConcept);
    if (c.correlatedCriteria) visitGroup(c.correlatedCriteria);
  };
  const visitGroup = (g: CriteriaGroup) => {
    g.criteriaList?.forEach((cc) => visitCriteria(cc.criteria));
    g.groups?.forEach(visitGroup);
  };
  definition.primaryCriteria.criteriaList.forEach(visitCriteria);
  if (definition.additionalCriteria) visitGroup(definition.additionalCriteria);
  definition.inclusionRules.forEach((r) => visitGroup(r.expression));
  definition.censoringCriteria.forEach(visitCriteria);
  if (definition.endStrategy?.type === 'CustomEra') ids.add(definition.endStrategy.drugCodesetId);
  return ids;
}

/**
 * Why the definition cannot be counted yet, in words (null when it can): an empty or missing concept
 * set a criterion uses, or the contract's own refusal (a rule without a name, a day count out of range).
 */
export function definitionProblem(definition: Definition, parse: (d: Definition) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): string | null {
  for (const id of referencedConceptSets(definition)) {
    const set = definition.conceptSets.find((s) => s.id === id);
    if (!set) return 'A criterion uses a concept set that no longer exists: choose another.';
    if (set.expression.items.length === 0) return `The concept set "${set.name}" holds no concept yet: add one.`;
  }
  const parsed = parse(definition);
  if (parsed.success) return null;
  const issue = parsed.error?.issues[0];
  return issue ? `${issue.path.map(String).join('.')}: ${issue.message}` : 'The definition is not complete.';
}

/** The steps a run of this definition reports, in order (a step with `rule` names the inclusion rule). */
export function expectedSteps(definition: Definition): { step: AttritionStep['step']; rule?: number; label?: string }[] {
  const hasCensorWindow = !!(definition.censorWindow.startDate || definition.censorWindow.endDate);
  return [
    { step: 'entry_events' },
    { step: 'observation_window' },
    { step: 'primary_limit' },
    { step: 'qualified_limit' },
    ...definition.inclusionRules.map((r, i) => ({ step: 'inclusion_rule' as const, rule: i, label: r.name.trim() })),
    { step: 'expression_limit' },
    { step: 'cohort_exit' },
    ...(hasCensorWindow ? [{ step: 'censor_window' as const }] : []),
  ];
}

/**
 * Whether an attrition is that of this definition. An answer whose persons are exactly those of an
 * earlier answer is that earlier answer again (the tracker defence), with the earlier question's
 * attrition, or none: its rows are then not this definition's steps and are not shown as such.
 */
export function attritionMatches(attrition: Attrition | undefined, definition: Definition): attrition is Attrition {
  if (!attrition) return false;
  const steps = attrition.steps.filter((s) => s.step !== 'additional_criteria');
  const expected = expectedSteps(definition);
  const observation = `${definition.primaryCriteria.observationWindow.priorDays} days before and ${definition.primaryCriteria.observationWindow.postDays} days after`;
  return (
    steps.length === expected.length &&
    expected.every((e, i) => {
      const s = steps[i]!;
      if (s.step !== e.step || s.rule !== e.rule) return false;
      if (e.label !== undefined && s.label !== e.label) return false;
      return e.step !== 'observation_window' || s.label.includes(observation);
    })
  );
}
