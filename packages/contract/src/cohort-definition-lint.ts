import type { CohortDefinitionExpression, CorrelatedCriteria, Criteria, CriteriaGroup, Occurrence, Window } from './schemas/cohort-definition';

/**
 * Warnings about a cohort definition that is valid but probably not what its author meant, after
 * the checks of OHDSI's circe-be (`check/checkers`). Each names the place it concerns by its path in
 * the definition's Circe JSON (`InclusionRules[0].expression.CriteriaList[1]`), as ATLAS users know it.
 */
export const LINT_RULES = {
  empty_concept_set: 'A concept set with no concepts (or only excluded ones) matches nothing.',
  unused_concept_set: 'A concept set that no criterion and no exit uses.',
  duplicate_concept_set: 'Two concept sets with the same concepts.',
  missing_concept_set: 'A criterion without a concept set matches every record of its domain.',
  contradictory_criteria: 'Two criteria on the same events whose counts cannot both hold: the cohort would be empty.',
  death_before_index: 'A death looked for before the index event: records after a death are rarely there.',
  first_in_window: 'A first-in-history criterion inside a window: the first record ever must fall in the window.',
  exit_before_entry: 'An exit on or before the entry date.',
  at_least_zero: "'At least 0' is no constraint: probably 'exactly 0' or 'at least 1' was meant.",
  window_start_after_end: 'A window that starts after it ends holds no event.',
  limit_progression: 'A later limit keeps more events than an earlier one (all → latest → earliest is broken).',
  all_events_no_exit: 'All events are kept and no exit is given: every period runs to the end of observation.',
  empty_inclusion_rule: 'An inclusion rule without criteria: every event passes it.',
  window_beyond_observation: 'A window reaching further back than the observation required before the entry event.',
} as const;
export type LintRule = keyof typeof LINT_RULES;

export interface DefinitionWarning {
  rule: LintRule;
  severity: 'WARNING' | 'INFO';
  /** The place in the definition's Circe JSON. */
  path: string;
  message: string;
}

interface Visited {
  criteria: Criteria;
  path: string;
  /** The correlated criterion holding it (with its window), if any. */
  correlated?: CorrelatedCriteria;
  correlatedPath?: string;
  /** Inside a group every member of which must hold, up to an inclusion rule or the additional criteria. */
  required: boolean;
}

const KIND_WORDS: Record<Criteria['kind'], string> = {
  ConditionOccurrence: 'condition occurrence', DrugExposure: 'drug exposure', DrugEra: 'drug era', ConditionEra: 'condition era',
  ProcedureOccurrence: 'procedure', Measurement: 'measurement', Observation: 'observation', VisitOccurrence: 'visit', Death: 'death',
  ObservationPeriod: 'observation period',
};

/** Every criterion of the definition, with its path, nested ones included. */
function visitAll(def: CohortDefinitionExpression): Visited[] {
  const out: Visited[] = [];
  const criterion = (criteria: Criteria, path: string, extra: Omit<Visited, 'criteria' | 'path'>) => {
    out.push({ criteria, path, ...extra });
    if (criteria.correlatedCriteria) group(criteria.correlatedCriteria, `${path}.CorrelatedCriteria`, false);
  };
  const group = (g: CriteriaGroup, path: string, required: boolean) => {
    const all = required && (g.type === 'ALL' || (g.type === 'AT_LEAST' && g.count === memberCount(g)));
    (g.criteriaList ?? []).forEach((c, i) => criterion(c.criteria, `${path}.CriteriaList[${i}].Criteria.${c.criteria.kind}`, { correlated: c, correlatedPath: `${path}.CriteriaList[${i}]`, required: all }));
    (g.groups ?? []).forEach((sub, i) => group(sub, `${path}.Groups[${i}]`, all));
  };
  def.primaryCriteria.criteriaList.forEach((c, i) => criterion(c, `PrimaryCriteria.CriteriaList[${i}].${c.kind}`, { required: false }));
  if (def.additionalCriteria) group(def.additionalCriteria, 'AdditionalCriteria', true);
  def.inclusionRules.forEach((r, i) => group(r.expression, `InclusionRules[${i}].expression`, true));
  def.censoringCriteria.forEach((c, i) => criterion(c, `CensoringCriteria[${i}].${c.kind}`, { required: false }));
  return out;
}

const memberCount = (g: CriteriaGroup) => (g.criteriaList?.length ?? 0) + (g.demographicCriteriaList?.length ?? 0) + (g.groups?.length ?? 0);

/** The range of counts an occurrence accepts. */
function occurrenceRange(o: Occurrence): [number, number] {
  return o.type === 'EXACTLY' ? [o.count, o.count] : o.type === 'AT_MOST' ? [0, o.count] : [o.count, Number.POSITIVE_INFINITY];
}

/** Days from the index of a window endpoint; null = open. */
const offset = (e: Window['start']) => (e.days === null || e.days === undefined ? null : e.coeff * e.days);

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v));

export function lintCohortDefinition(def: CohortDefinitionExpression): DefinitionWarning[] {
  const warnings: DefinitionWarning[] = [];
  const warn = (rule: LintRule, path: string, message: string, severity: DefinitionWarning['severity'] = 'WARNING') => warnings.push({ rule, severity, path, message });
  const visited = visitAll(def);
  const setName = new Map(def.conceptSets.map((s) => [s.id, s.name]));

  // Concept sets.
  const used = new Set(visited.map((v) => v.criteria.codesetId).filter((id) => id !== undefined));
  if (def.endStrategy?.type === 'CustomEra') used.add(def.endStrategy.drugCodesetId);
  const seen = new Map<string, string>();
  def.conceptSets.forEach((set, i) => {
    const path = `ConceptSets[${i}]`;
    if (!set.expression.items.some((item) => !item.isExcluded)) warn('empty_concept_set', path, `Concept set "${set.name}" contains no concepts${set.expression.items.length > 0 ? ' (only excluded ones)' : ''}.`);
    if (!used.has(set.id)) warn('unused_concept_set', path, `Concept set "${set.name}" is not used by any criterion or by the exit.`);
    if (set.expression.items.length > 0) {
      const key = canonical([...set.expression.items].sort((a, b) => a.conceptId - b.conceptId || Number(a.isExcluded) - Number(b.isExcluded)));
      const twin = seen.get(key);
      if (twin !== undefined) warn('duplicate_concept_set', path, `Concept set "${set.name}" holds the same concepts as "${twin}".`);
      else seen.set(key, set.name);
    }
  });

  // Criteria one by one.
  for (const v of visited) {
    const what = `${KIND_WORDS[v.criteria.kind]}${v.criteria.codesetId !== undefined ? ` of "${setName.get(v.criteria.codesetId) ?? v.criteria.codesetId}"` : ''}`;
    if (v.criteria.codesetId === undefined && v.criteria.kind !== 'ObservationPeriod' && v.criteria.kind !== 'Death') {
      warn('missing_concept_set', v.path, `No concept set: this criterion matches every ${KIND_WORDS[v.criteria.kind]} record.`);
    }
    const c = v.correlated;
    if (!c) continue;
    const start = offset(c.startWindow.start);
    const end = offset(c.startWindow.end);
    if (c.occurrence.type === 'AT_LEAST' && c.occurrence.count === 0) warn('at_least_zero', v.correlatedPath!, `'At least 0' ${what} is no constraint: probably 'exactly 0' or 'at least 1' was meant.`);
    for (const [name, w] of [['StartWindow', c.startWindow], ['EndWindow', c.endWindow]] as const) {
      if (!w) continue;
      const from = offset(w.start);
      const to = offset(w.end);
      if (from !== null && to !== null && from > to) warn('window_start_after_end', `${v.correlatedPath}.${name}`, `The window of ${what} starts ${Math.abs(from)} days ${from < 0 ? 'before' : 'after'} the index but ends ${Math.abs(to)} days ${to < 0 ? 'before' : 'after'} it: no event can fall in it.`);
    }
    if (v.criteria.kind === 'Death' && end !== null && end < 0) warn('death_before_index', v.correlatedPath!, 'This criterion looks for a death before the index event: events after a death are rarely recorded.');
    if (v.criteria.first && (start !== null || end !== null)) {
      warn('first_in_window', v.correlatedPath!, `The first ${what} in the person's history must fall inside this window; an earlier record outside it makes the criterion fail, whatever lies inside.`);
    }
    // Only criteria relative to the entry event: a nested criterion's index is another event.
    const relativeToEntry = !v.correlatedPath!.includes('.CorrelatedCriteria');
    if (relativeToEntry && !c.ignoreObservationPeriod && start !== null && start < 0 && -start > def.primaryCriteria.observationWindow.priorDays) {
      warn('window_beyond_observation', `${v.correlatedPath}.StartWindow`, `The window of ${what} reaches ${-start} days before the index, but only ${def.primaryCriteria.observationWindow.priorDays} days of prior observation are required: persons observed for less have fewer chances to meet it.`, 'INFO');
    }
  }

  // Contradictions between criteria that must all hold.
  const required = visited.filter((v) => v.correlated && v.required);
  for (let i = 0; i < required.length; i++) {
    for (let j = i + 1; j < required.length; j++) {
      const a = required[i]!.correlated!;
      const b = required[j]!.correlated!;
      if (canonical(a.criteria) !== canonical(b.criteria) || canonical(a.startWindow) !== canonical(b.startWindow) || canonical(a.endWindow ?? null) !== canonical(b.endWindow ?? null)) continue;
      if (Boolean(a.restrictVisit) !== Boolean(b.restrictVisit) || Boolean(a.ignoreObservationPeriod) !== Boolean(b.ignoreObservationPeriod)) continue;
      if (a.occurrence.isDistinct || b.occurrence.isDistinct) continue;
      const [lowA, highA] = occurrenceRange(a.occurrence);
      const [lowB, highB] = occurrenceRange(b.occurrence);
      if (highA < lowB || highB < lowA) {
        warn('contradictory_criteria', required[j]!.correlatedPath!, `This criterion contradicts ${required[i]!.correlatedPath}: the same events in the same window cannot be counted ${describe(a.occurrence)} and ${describe(b.occurrence)}, so no one would qualify.`);
      }
    }
  }

  // Inclusion rules without criteria.
  def.inclusionRules.forEach((r, i) => {
    if (memberCount(r.expression) === 0) warn('empty_inclusion_rule', `InclusionRules[${i}]`, `Inclusion rule "${r.name}" has no criteria: every event passes it.`);
  });

  // Exit.
  const exit = def.endStrategy;
  if (exit?.type === 'DateOffset' && ((exit.dateField === 'StartDate' && exit.offset <= 0) || (exit.dateField === 'EndDate' && exit.offset < 0))) {
    warn('exit_before_entry', 'EndStrategy.DateOffset.Offset', exit.offset < 0 && exit.dateField === 'StartDate'
      ? `The exit is ${-exit.offset} days before the entry: every cohort period would end before it starts, and none is kept.`
      : exit.dateField === 'StartDate' ? 'The exit is on the entry date: every cohort period lasts one day. Circe expects an offset from the start date greater than 0.'
      : `The exit is ${-exit.offset} days before the entry event's end, which can come before the entry: such periods are dropped.`);
  }
  if (def.primaryCriteria.primaryCriteriaLimit.type === 'All' && !exit && def.censoringCriteria.length === 0) {
    warn('all_events_no_exit', 'EndStrategy', 'All entry events are kept and no exit is given: every period runs to the end of observation, so they merge into one per observation period.');
  }

  // Limits: all → latest → earliest (circe-be's EventsProgressionCheck).
  const weight = { First: 0, Last: 1, All: 2 } as const;
  const primary = weight[def.primaryCriteria.primaryCriteriaLimit.type];
  const qualified = weight[def.qualifiedLimit.type];
  const expression = def.additionalCriteria ? weight[def.expressionLimit.type] : 0;
  if (primary < qualified) warn('limit_progression', 'QualifiedLimit', 'The qualifying events are limited less than the entry events: the limit has no effect.');
  if (qualified < expression || primary < expression) warn('limit_progression', 'ExpressionLimit', 'The cohort is limited less than the events it is made of: the limit has no effect.');
  return warnings;
}

function describe(o: Occurrence): string {
  return `${o.type === 'EXACTLY' ? 'exactly' : o.type === 'AT_MOST' ? 'at most' : 'at least'} ${o.count}`;
}
