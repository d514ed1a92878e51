import {
  COHORT_DEFINITION_LIMITS,
  CohortDefinitionExpression,
  type ConceptSet,
  type CorrelatedCriteria,
  type Criteria,
  type CriteriaGroup,
  type DateRange,
  type DemographicCriteria,
  type NumericRange,
  type ResultLimit,
  type Window,
} from '@hdp/contract';
import { NO_FACTS, type DatasetFacts } from '../dataset-facts';
import { RECORD_KEY_COLUMN } from '../record-keys';
import { eraSql } from '../era-builder';
import { CRITERIA_DOMAINS } from './criteria-domains';

/** Binds a value as `$n` (cast to `sqlType`) and returns the placeholder. */
export type Bind = (value: unknown, sqlType: string) => string;

/** A definition the compiler refuses; `path` names the part (`cohortDefinition.inclusionRules[0]...`). */
export class DefinitionError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'DefinitionError';
  }
}

/** The steps of the attrition, in order, each a relation (CTE) of events with person_id. */
export interface AttritionStepSql {
  step: 'entry_events' | 'observation_window' | 'primary_limit' | 'additional_criteria' | 'qualified_limit' | 'inclusion_rule' | 'expression_limit' | 'cohort_exit' | 'censor_window';
  rule?: number;
  label: string;
  relation: string;
  /** The relation has at most one event per person: its persons and events are counted without grouping. */
  onePerPerson: boolean;
  /** An earlier step (its index) holding exactly the same events: its counts are this step's, and are not counted twice. */
  sameAs?: number;
  /**
   * A first / last limit of an earlier step (its index): exactly one event for each person who has
   * any there, so the step is counted from that step's column, with no join of its own relation.
   */
  limitOf?: number;
  /** Each person's number of events in this step, as a column of a relation with one row per person who has any. */
  countedIn?: { relation: string; column: string };
}

/** The compiled definition: its CTEs and the names of the relations the answers read. */
export interface CompiledDefinition {
  /** `name AS (...)` items of one WITH clause. */
  ctes: string[];
  /** person_id, start_date, end_date: the cohort's periods, after the censor window. */
  periods: string;
  steps: AttritionStepSql[];
  /** qualified events with one 0/1 column per inclusion rule (`r0`, `r1`, ...) and `start_date`. */
  ruleFlags: string | null;
  ruleNames: string[];
  /**
   * Set when every step holds at most one event per person (see `personChain` in `compile`): the
   * entry events' relation (a row per person) and each inclusion rule's test of a qualifying event,
   * as a condition on `q.person_id` alone (membership of relations). A person is in a step or not,
   * so the answer reads each step as a yes/no column of the entry persons.
   */
  personFlags?: { entry: string; ruleTests: string[] };
}

/** Events of a relation used as index events: the columns every window and group reads. */
const EVENT_COLUMNS = 'person_id, event_id, start_date, end_date, visit_occurrence_id, op_start_date, op_end_date';
const RANGE_SQL: Record<NumericRange['op'], string> = { lt: '<', lte: '<=', eq: '=', '!eq': '<>', gt: '>', gte: '>=', bt: 'BETWEEN', '!bt': 'NOT BETWEEN' };

/**
 * Compiles a Circe-style cohort definition into SQL that runs alike on DuckDB and PostgreSQL, every
 * value bound. It follows Circe's generation step by step: primary events in an observation
 * period with the observation window and primary limit; additional criteria and the qualified
 * limit; inclusion rules (one 0/1 flag per rule and event); the expression limit; the end strategy
 * and censoring events; era collapse; the censor window.
 */
export class DefinitionCompiler {
  private readonly ctes: string[] = [];
  private readonly codesets = new Map<number, number>();
  private names = 0;
  /** Set when the SQL reads an index event's end date or visit (see `indexDetailNeeded`). */
  private indexDetailRead = false;

  constructor(
    private readonly schema: string,
    private readonly bind: Bind,
    private readonly facts: DatasetFacts = NO_FACTS,
  ) {}

  private t(name: string): string {
    return `"${this.schema}"."${name}"`;
  }

  private cte(prefix: string, sql: string, inline = false): string {
    const name = `${prefix}_${++this.names}`;
    // A group's passing events are computed once: PostgreSQL would otherwise inline the group into
    // a nested loop over every index event (it cannot estimate a CTE's rows), taking seconds.
    const kept = prefix === 'group_pass' || prefix === 'criteria_events' || prefix === 'criteria_matches';
    this.ctes.push(`${name} AS ${kept ? 'MATERIALIZED ' : inline ? 'NOT MATERIALIZED ' : ''}(${sql})`);
    return name;
  }

  private days(n: number): string {
    return this.bind(n, 'INTEGER');
  }

  compile(input: unknown, path = 'query.cohortDefinition'): CompiledDefinition {
    const parsed = CohortDefinitionExpression.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new DefinitionError([path, ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('').replace(/\.\[/g, '['), issue.message);
    }
    const def = parsed.data;
    this.conceptSets(def.conceptSets, `${path}.conceptSets`);
    const steps: AttritionStepSql[] = [];

    // Entry events: every criterion's events, then those in an observation period with enough observation around them.
    // A lone criterion limited to the person's first record keeps at most one event per person (its
    // attribute filters only drop it); with nested criteria, an event in two observation periods could repeat.
    const [only, ...others] = def.primaryCriteria.criteriaList;
    const entryOnePerPerson = others.length === 0 && only?.first === true && !(only.correlatedCriteria && groupHasMembers(only.correlatedCriteria));
    // When nothing after the entry reads more of the index event than its person and date, the first
    // record is the person's earliest date: one MIN per person, as a hand-written query takes it,
    // instead of finding the record itself (the tie-break on its id and the window over the ties
    // were about a third of a definition's statement).
    const firstDateOnly = entryOnePerPerson && FIRST_DATE_ATTRIBUTES_ONLY(only!) && !indexDetailNeeded(def);
    const candidates = def.primaryCriteria.criteriaList.map(
      (c, i) => `SELECT person_id, event_id, start_date, end_date, visit_occurrence_id FROM (${this.criteria(c, `${path}.primaryCriteria.criteriaList[${i}]`, 1, firstDateOnly)}) pc`,
    );
    const entry = this.cte('entry_events', candidates.join(' UNION ALL '));
    steps.push({ step: 'entry_events', label: 'Entry events', relation: entry, onePerPerson: entryOnePerPerson });
    const { priorDays, postDays } = def.primaryCriteria.observationWindow;
    const inObservation = this.cte(
      'observed_events',
      `SELECT e.person_id, e.event_id AS source_event_id, e.start_date, e.end_date, e.visit_occurrence_id, op."observation_period_start_date" AS op_start_date, op."observation_period_end_date" AS op_end_date
       FROM ${entry} e JOIN ${this.t('observation_period')} op ON op."person_id" = e.person_id AND e.start_date >= op."observation_period_start_date" AND e.start_date <= op."observation_period_end_date"
       WHERE op."observation_period_start_date" + ${this.days(priorDays)} <= e.start_date AND e.start_date + ${this.days(postDays)} <= op."observation_period_end_date"`,
    );
    const primaryLimit = def.primaryCriteria.primaryCriteriaLimit.type;
    // With one entry event per person, a person's observed events are that event in each observation
    // period holding it: they tie on the window's order, which therefore sorts nothing.
    const order = entryOnePerPerson ? '' : ` ORDER BY start_date ${primaryLimit === 'Last' ? 'DESC' : 'ASC'}, source_event_id`;
    // A first / last limit keeps one event per person, and carries the person's number of observed
    // events (the observation step's count) from the same window: no second pass over them.
    const observedCount = primaryLimit === 'All' ? '' : `, COUNT(*) OVER (PARTITION BY person_id${order}${order ? ' ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING' : ''}) AS observed_n`;
    // With one entry event per person, a first / last limit keeps that event once: a person's rows
    // differ only where their observation periods overlap (which the CDM does not allow; Circe then
    // keeps any one of them), and one grouping keeps the event with the observation the overlapping
    // periods give together, counting the rows for the observation step. DuckDB's window for the
    // same took three times as long. In a dataset known to have no overlapping periods, a person
    // has one row at most: nothing to group.
    // One event per person from here on: an engine that computes such a relation faster than it
    // keeps it reads the primary and qualifying events inline (see DatasetFacts).
    const oneAfterLimit = entryOnePerPerson && primaryLimit !== 'All';
    const inlineChain = oneAfterLimit && this.facts.inlineOneEventPerPerson;
    // One entry event per person, kept in the one observation period holding it (periods known not
    // to overlap): every step from here on holds at most one event per person, whose event ids are
    // all 1. A person is then in a step or not, and a rule's test of a qualifying event is a test of
    // its person: membership of the relations the rule's criteria match (`personFlags`).
    const personChain = oneAfterLimit && this.facts.observationPeriodsDisjoint;
    const primary = this.cte(
      'primary_events',
      oneAfterLimit
        ? this.facts.observationPeriodsDisjoint
          ? `SELECT person_id, CAST(1 AS BIGINT) AS event_id, start_date, end_date, visit_occurrence_id, op_start_date, op_end_date, CAST(1 AS BIGINT) AS observed_n FROM ${inObservation}`
          : `SELECT person_id, CAST(1 AS BIGINT) AS event_id, start_date, MIN(end_date) AS end_date, MIN(visit_occurrence_id) AS visit_occurrence_id,
             MIN(op_start_date) AS op_start_date, MAX(op_end_date) AS op_end_date, COUNT(*) AS observed_n FROM ${inObservation} GROUP BY person_id, start_date`
        : `SELECT ${EVENT_COLUMNS}${observedCount ? ', observed_n' : ''} FROM (
         SELECT person_id, start_date, end_date, visit_occurrence_id, op_start_date, op_end_date,
           ROW_NUMBER() OVER (PARTITION BY person_id${order}) AS event_id${observedCount}
         FROM ${inObservation}) pe${this.limitFilter(primaryLimit, 'event_id')}`,
      inlineChain,
    );
    const observationStep: AttritionStepSql = {
      step: 'observation_window',
      label: `In observation, ${priorDays} days before and ${postDays} days after`,
      relation: inObservation,
      onePerPerson: false,
      ...(observedCount && { countedIn: { relation: primary, column: 'observed_n' } }),
    };
    steps.push(observationStep);
    steps.push({ step: 'primary_limit', label: limitLabel('Entry events', primaryLimit), relation: primary, onePerPerson: primaryLimit !== 'All', ...(primaryLimit !== 'All' && { limitOf: steps.length - 1 }) });

    // "Restrict initial events" and the qualified limit.
    let qualifiedSource = primary;
    if (def.additionalCriteria && groupHasMembers(def.additionalCriteria)) {
      const passing = this.group(def.additionalCriteria, primary, `${path}.additionalCriteria`, 1);
      qualifiedSource = this.cte('restricted_events', `SELECT ${prefixed('e', EVENT_COLUMNS)} FROM ${primary} e JOIN ${passing} g ON g.person_id = e.person_id AND g.event_id = e.event_id`);
      steps.push({ step: 'additional_criteria', label: 'Meeting the additional criteria', relation: qualifiedSource, onePerPerson: primaryLimit !== 'All' });
    }
    // Once a limit keeps one event per person, every later limit and the era collapse change
    // nothing: they are left out of the SQL (a window over every event, and the collapse's two,
    // were much of a run's cost), with the same attrition rows.
    let onePerPerson = primaryLimit !== 'All';
    const qualifiedLimit = def.qualifiedLimit.type;
    // A limit that keeps every event (or each person's only one) passes its source on unchanged.
    const passesOn = (type: ResultLimit['type']) => type === 'All' || onePerPerson;
    // Every primary event qualifying (no additional criteria, one per person), the observation
    // step's count rides along to the rule flags, which the attrition joins anyway: one join less.
    const carriesObserved = observedCount !== '' && qualifiedSource === primary;
    const qualified = this.cte(
      'qualified_events',
      carriesObserved ? `SELECT ${EVENT_COLUMNS}, observed_n FROM ${primary}` : this.limited(qualifiedSource, qualifiedLimit, onePerPerson),
      inlineChain,
    );
    const lastStep = () => steps[steps.length - 1]!.sameAs ?? steps.length - 1;
    const qualifiedSameAs = passesOn(qualifiedLimit) ? lastStep() : undefined;
    const qualifiedLimitOf = qualifiedSameAs === undefined ? lastStep() : undefined;
    onePerPerson ||= qualifiedLimit !== 'All';
    steps.push({
      step: 'qualified_limit',
      label: limitLabel('Qualifying events', qualifiedLimit),
      relation: qualified,
      onePerPerson,
      ...(qualifiedSameAs !== undefined ? { sameAs: qualifiedSameAs } : { limitOf: qualifiedLimitOf }),
    });

    // Inclusion rules: one flag per rule and qualifying event.
    let ruleFlags: string | null = null;
    let ruleTests: string[] = [];
    let included = qualified;
    if (def.inclusionRules.length > 0) {
      // A rule of yes/no members is tested on the qualifying event where the flags are set (its
      // matches left-joined there); any other rule's passing events are left-joined.
      // In the person chain, a membership test each (no joins: DuckDB builds each test's hash table
      // on the matches, where a left join built it on the qualifying events).
      const joins: string[] = [];
      ruleTests = def.inclusionRules.map((rule, i) => {
        const rulePath = `${path}.inclusionRules[${i}].expression`;
        const test = this.groupTest(rule.expression, qualified, rulePath, 1, 'q', personChain);
        if (test) {
          joins.push(...test.joins);
          return test.test;
        }
        const pass = this.group(rule.expression, qualified, rulePath, 1);
        if (personChain) return `q.person_id IN (SELECT person_id FROM ${pass})`;
        joins.push(`LEFT JOIN ${pass} i${i} ON i${i}.person_id = q.person_id AND i${i}.event_id = q.event_id`);
        return `i${i}.event_id IS NOT NULL`;
      });
      const flags = ruleTests.map((test, i) => `CASE WHEN ${test} THEN 1 ELSE 0 END AS r${i}`);
      ruleFlags = this.cte('rule_flags', `SELECT ${prefixed('q', EVENT_COLUMNS)}${carriesObserved ? ', q.observed_n' : ''}, ${flags.join(', ')} FROM ${qualified} q ${joins.join(' ')}`);
      if (carriesObserved) observationStep.countedIn = { relation: ruleFlags, column: 'observed_n' };
      def.inclusionRules.forEach((rule, i) => {
        const passed = this.cte('after_rule', `SELECT ${EVENT_COLUMNS} FROM ${ruleFlags} WHERE ${def.inclusionRules.slice(0, i + 1).map((_r, k) => `r${k} = 1`).join(' AND ')}`);
        steps.push({ step: 'inclusion_rule', rule: i, label: rule.name, relation: passed, onePerPerson });
        included = passed;
      });
    }
    const expressionLimit = def.expressionLimit.type;
    const limitedIncluded = this.cte('included_events', this.limited(included, expressionLimit, onePerPerson));
    const includedSameAs = passesOn(expressionLimit) ? lastStep() : undefined;
    const includedLimitOf = includedSameAs === undefined ? lastStep() : undefined;
    onePerPerson ||= expressionLimit !== 'All';
    const expressionStep = steps.length;
    steps.push({
      step: 'expression_limit',
      label: limitLabel('Cohort entries', expressionLimit),
      relation: limitedIncluded,
      onePerPerson,
      ...(includedSameAs !== undefined ? { sameAs: includedSameAs } : { limitOf: includedLimitOf }),
    });

    // Exit: the end strategy and the censoring events; the earliest end on or after the start wins.
    const ends: string[] = [this.strategyEnds(def.endStrategy, limitedIncluded, `${path}.endStrategy`)];
    def.censoringCriteria.forEach((c, i) => {
      ends.push(
        `SELECT i.person_id, i.event_id, MIN(c.start_date) AS end_date FROM ${limitedIncluded} i
         JOIN (${this.criteria(c, `${path}.censoringCriteria[${i}]`, 1)}) c ON c.person_id = i.person_id AND c.start_date >= i.start_date AND c.start_date <= i.op_end_date
         GROUP BY i.person_id, i.event_id`,
      );
    });
    const noExit = def.endStrategy === undefined && ends.length === 1;
    const rows = this.cte(
      'cohort_rows',
      // No exit and no censoring: every period ends with its observation period, no join needed.
      noExit
        ? `SELECT person_id, start_date, op_end_date AS end_date FROM ${limitedIncluded}`
        : `SELECT i.person_id, i.start_date, MIN(ce.end_date) AS end_date FROM ${limitedIncluded} i
       JOIN (${ends.join(' UNION ALL ')}) ce ON ce.person_id = i.person_id AND ce.event_id = i.event_id AND ce.end_date >= i.start_date
       GROUP BY i.person_id, i.event_id, i.start_date`,
    );
    const eraPad = def.collapseSettings.eraPad;
    // One period per person: nothing to merge.
    const collapsed = this.cte(
      'cohort_eras',
      onePerPerson
        ? `SELECT person_id, start_date, end_date FROM ${rows}`
        : `SELECT person_id, start_date, end_date FROM (${eraSql(`SELECT person_id, 0 AS grp_key, start_date, end_date FROM ${rows}`, this.days(eraPad))}) eras`,
    );
    // One entry per person and no exit: a period per entry, the same persons and as many.
    const exitSameAs = onePerPerson && noExit ? (steps[expressionStep]!.sameAs ?? expressionStep) : undefined;
    steps.push({
      step: 'cohort_exit',
      label: eraPad > 0 ? `Cohort periods, merged ${eraPad} days apart` : 'Cohort periods',
      relation: collapsed,
      onePerPerson,
      ...(exitSameAs !== undefined && { sameAs: exitSameAs }),
    });

    let periods = collapsed;
    const { startDate, endDate } = def.censorWindow;
    if (startDate || endDate) {
      const start = startDate ? `CASE WHEN start_date > ${this.bind(startDate, 'DATE')} THEN start_date ELSE ${this.bind(startDate, 'DATE')} END` : 'start_date';
      const end = endDate ? `CASE WHEN end_date < ${this.bind(endDate, 'DATE')} THEN end_date ELSE ${this.bind(endDate, 'DATE')} END` : 'end_date';
      periods = this.cte('censored_periods', `SELECT person_id, start_date, end_date FROM (SELECT person_id, ${start} AS start_date, ${end} AS end_date FROM ${collapsed}) cw WHERE start_date <= end_date`);
      steps.push({ step: 'censor_window', label: `Within ${startDate ?? '…'} to ${endDate ?? '…'}`, relation: periods, onePerPerson });
    }
    // `indexDetailNeeded` must see every place that reads more of an index event than its date.
    if (firstDateOnly && this.indexDetailRead) throw new Error('the entry events were compiled as dates only, but a later part reads their end date or visit');
    return { ctes: this.ctes, periods, steps, ruleFlags, ruleNames: def.inclusionRules.map((r) => r.name), ...(personChain && { personFlags: { entry, ruleTests } }) };
  }

  /** ` WHERE ordinal = 1` unless every event is kept. */
  private limitFilter(type: ResultLimit['type'], ordinal: string): string {
    return type === 'All' ? '' : ` WHERE ${ordinal} = 1`;
  }

  /** The events of `source` kept by a first / last / all limit (all of them when each person has one already). */
  private limited(source: string, type: ResultLimit['type'], onePerPerson = false): string {
    if (type === 'All' || onePerPerson) return `SELECT ${EVENT_COLUMNS} FROM ${source}`;
    return `SELECT ${EVENT_COLUMNS} FROM (SELECT ${EVENT_COLUMNS}, ROW_NUMBER() OVER (PARTITION BY person_id ORDER BY start_date ${type === 'Last' ? 'DESC' : 'ASC'}, event_id) AS ordinal FROM ${source}) l WHERE ordinal = 1`;
  }

  private conceptSets(sets: ConceptSet[], path: string): void {
    if (sets.length === 0) return;
    const parts: string[] = [];
    sets.forEach((set, i) => {
      if (this.codesets.has(set.id)) throw new DefinitionError(`${path}[${i}].id`, `concept set id ${set.id} is used twice`);
      const position = this.codesets.size;
      this.codesets.set(set.id, position);
      const ids = (items: typeof set.expression.items) => items.map((item) => this.bind(item.conceptId, 'BIGINT'));
      const expand = (items: typeof set.expression.items) => {
        const branches: string[] = [];
        if (items.length > 0) branches.push(`SELECT c."concept_id" FROM ${this.t('concept')} c WHERE c."concept_id" IN (${ids(items).join(', ')})`);
        const withDescendants = items.filter((item) => item.includeDescendants);
        if (withDescendants.length > 0) {
          branches.push(
            `SELECT ca."descendant_concept_id" FROM ${this.t('concept_ancestor')} ca JOIN ${this.t('concept')} c ON c."concept_id" = ca."descendant_concept_id"
             WHERE ca."ancestor_concept_id" IN (${ids(withDescendants).join(', ')}) AND c."invalid_reason" IS NULL`,
          );
        }
        return branches;
      };
      const included = set.expression.items.filter((item) => !item.isExcluded);
      const excluded = set.expression.items.filter((item) => item.isExcluded);
      const includedBranches = expand(included);
      if (includedBranches.length === 0) return;
      const excludedBranches = expand(excluded);
      const exclusion = excludedBranches.length > 0 ? ` WHERE s.concept_id NOT IN (SELECT x.concept_id FROM (${excludedBranches.map((b) => `SELECT * FROM (${b}) xb`).join(' UNION ')}) x(concept_id))` : '';
      const selves = `SELECT s.concept_id FROM (${includedBranches.map((b) => `SELECT * FROM (${b}) ib`).join(' UNION ')}) s(concept_id)${exclusion}`;
      let members = selves;
      const mapped = included.filter((item) => item.includeMapped);
      if (mapped.length > 0) {
        const mappedTargets = expand(mapped).map((b) => `SELECT * FROM (${b}) mb`).join(' UNION ');
        members += ` UNION SELECT cr."concept_id_1" FROM ${this.t('concept_relationship')} cr
          WHERE cr."relationship_id" = ${this.bind('Maps to', 'VARCHAR')} AND cr."invalid_reason" IS NULL AND cr."concept_id_2" IN (SELECT m.concept_id FROM (${mappedTargets}) m(concept_id))`;
      }
      parts.push(`SELECT ${this.bind(position, 'INTEGER')} AS codeset_id, cs.concept_id FROM (${members}) cs(concept_id)`);
    });
    // A set whose items are all exclusions matches nothing; the relation keeps its columns either way.
    parts.push('SELECT CAST(NULL AS INTEGER) AS codeset_id, CAST(NULL AS BIGINT) AS concept_id WHERE 1 = 0');
    this.ctes.push(`codesets AS (${parts.join(' UNION ALL ')})`);
  }

  /** `IN (the concept set's concepts)`. */
  private inCodeset(codesetId: number, path: string, field = 'codesetId'): string {
    const position = this.codesets.get(codesetId);
    if (position === undefined) throw new DefinitionError(`${path}.${field}`, `no concept set has id ${codesetId}`);
    return `IN (SELECT cs.concept_id FROM codesets cs WHERE cs.codeset_id = ${this.bind(position, 'INTEGER')})`;
  }

  private numeric(expression: string, range: NumericRange, path: string, sqlType = 'DOUBLE PRECISION'): string {
    if (range.op === 'bt' || range.op === '!bt') {
      if (range.extent === undefined) throw new DefinitionError(path, `'${range.op}' needs an extent (the upper end)`);
      return `(${expression} ${RANGE_SQL[range.op]} ${this.bind(range.value, sqlType)} AND ${this.bind(range.extent, sqlType)})`;
    }
    return `(${expression} ${RANGE_SQL[range.op]} ${this.bind(range.value, sqlType)})`;
  }

  private date(expression: string, range: DateRange, path: string): string {
    if (range.op === 'bt' || range.op === '!bt') {
      if (range.extent === undefined) throw new DefinitionError(path, `'${range.op}' needs an extent (the later date)`);
      return `(${expression} ${RANGE_SQL[range.op]} ${this.bind(range.value, 'DATE')} AND ${this.bind(range.extent, 'DATE')})`;
    }
    return `(${expression} ${RANGE_SQL[range.op]} ${this.bind(range.value, 'DATE')})`;
  }

  private concepts(expression: string, ids: number[]): string {
    if (ids.length === 0) return 'TRUE';
    return `(${expression} IN (${ids.map((id) => this.bind(id, 'BIGINT')).join(', ')}))`;
  }

  /**
   * The events of one criterion: person_id, event_id, start_date, end_date, visit_occurrence_id,
   * domain_concept_id. `first` is the person's first record of the concept set, taken before the
   * other attributes filter (as in Circe).
   */
  criteria(criteria: Criteria, path: string, depth: number, firstDateOnly = false): string {
    const domain = CRITERIA_DOMAINS[criteria.kind];
    for (const key of Object.keys(criteria) as (keyof Criteria)[]) {
      if (criteria[key] !== undefined && !domain.attributes.includes(key)) throw new DefinitionError(`${path}.${key}`, `a ${criteria.kind} criterion has no ${key}`);
    }
    const where: string[] = [];
    if (criteria.codesetId !== undefined) {
      if (!domain.concept) throw new DefinitionError(`${path}.codesetId`, `a ${criteria.kind} criterion has no concept`);
      where.push(`t."${domain.concept}" ${this.inCodeset(criteria.codesetId, path)}`);
    }
    if (criteria.sourceConcept !== undefined && domain.source) {
      where.push(`t."${domain.source}" ${this.inCodeset(criteria.sourceConcept, path, 'sourceConcept')}`);
    }
    const records = `SELECT t.*, t."${domain.id}" AS event_id, t."${domain.start}" AS start_date, ${domain.end} AS end_date,
        ${domain.hasVisit ? '' : 'CAST(NULL AS BIGINT) AS visit_occurrence_id, '}${domain.concept ? `t."${domain.concept}"` : 'CAST(NULL AS BIGINT)'} AS domain_concept_id
      FROM ${this.t(domain.table)} t${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`;
    const dateOnly = firstDateOnly && criteria.first === true;
    const inner = dateOnly
      ? `SELECT r.person_id, MIN(r.start_date) AS start_date FROM (${records}) r GROUP BY r.person_id`
      : criteria.first
        ? this.firstRecords(records)
        : records;
    const filters: string[] = [];
    let joins = '';
    if (criteria.first && !dateOnly) filters.push('c.ordinal = 1');
    if (criteria.occurrenceStartDate) filters.push(this.date('c.start_date', criteria.occurrenceStartDate, `${path}.occurrenceStartDate`));
    if (criteria.occurrenceEndDate) filters.push(this.date('c.end_date', criteria.occurrenceEndDate, `${path}.occurrenceEndDate`));
    if (criteria.age || criteria.gender?.length) {
      joins += ` JOIN ${this.t('person')} pa ON pa."person_id" = c.person_id`;
      if (criteria.age) filters.push(this.numeric('(EXTRACT(YEAR FROM c.start_date) - pa."year_of_birth")', criteria.age, `${path}.age`));
      if (criteria.gender?.length) filters.push(this.concepts('pa."gender_concept_id"', criteria.gender));
    }
    if (criteria.typeConcepts?.length && domain.type) {
      // Circe's `…TypeExclude`: NOT IN, so a record without a type is left out either way.
      filters.push(`${criteria.typeExclude ? 'NOT ' : ''}${this.concepts(`c."${domain.type}"`, criteria.typeConcepts)}`);
    }
    if (criteria.visitType?.length) {
      if (criteria.kind === 'VisitOccurrence') filters.push(this.concepts('c."visit_concept_id"', criteria.visitType));
      else {
        joins += ` JOIN ${this.t('visit_occurrence')} vo ON vo."visit_occurrence_id" = c.visit_occurrence_id`;
        filters.push(this.concepts('vo."visit_concept_id"', criteria.visitType));
      }
    }
    if (criteria.valueAsNumber) filters.push(this.numeric('c."value_as_number"', criteria.valueAsNumber, `${path}.valueAsNumber`));
    if (criteria.valueAsConcept?.length) filters.push(this.concepts('c."value_as_concept_id"', criteria.valueAsConcept));
    if (criteria.unit?.length) filters.push(this.concepts('c."unit_concept_id"', criteria.unit));
    if (criteria.rangeLow) filters.push(this.numeric('c."range_low"', criteria.rangeLow, `${path}.rangeLow`));
    if (criteria.rangeHigh) filters.push(this.numeric('c."range_high"', criteria.rangeHigh, `${path}.rangeHigh`));
    if (criteria.abnormal) {
      filters.push(`(c."value_as_number" < c."range_low" OR c."value_as_number" > c."range_high" OR c."value_as_concept_id" IN (${this.bind(4155142, 'BIGINT')}, ${this.bind(4155143, 'BIGINT')}))`);
    }
    if (criteria.daysSupply) filters.push(this.numeric('c."days_supply"', criteria.daysSupply, `${path}.daysSupply`));
    if (criteria.quantity) filters.push(this.numeric('c."quantity"', criteria.quantity, `${path}.quantity`));
    if (criteria.refills) filters.push(this.numeric('c."refills"', criteria.refills, `${path}.refills`));
    if (criteria.eraLength || criteria.periodLength) filters.push(this.numeric('(c.end_date - c.start_date)', (criteria.eraLength ?? criteria.periodLength)!, `${path}.${criteria.eraLength ? 'eraLength' : 'periodLength'}`));
    if (criteria.occurrenceCount) {
      filters.push(this.numeric(criteria.kind === 'DrugEra' ? 'c."drug_exposure_count"' : 'c."condition_occurrence_count"', criteria.occurrenceCount, `${path}.occurrenceCount`));
    }
    const columns = dateOnly
      ? 'c.person_id, CAST(NULL AS BIGINT) AS event_id, c.start_date, CAST(NULL AS DATE) AS end_date, CAST(NULL AS BIGINT) AS visit_occurrence_id, CAST(NULL AS BIGINT) AS domain_concept_id'
      : 'c.person_id, c.event_id, c.start_date, c.end_date, c.visit_occurrence_id, c.domain_concept_id';
    const events = `SELECT ${columns} FROM (${inner}) c${joins}${filters.length > 0 ? ` WHERE ${filters.join(' AND ')}` : ''}`;
    if (!criteria.correlatedCriteria || !groupHasMembers(criteria.correlatedCriteria)) return events;

    // Nested criteria: this criterion's own events (in an observation period) are the index of the inner group.
    const own = this.cte(
      'nested_events',
      `SELECT q.person_id, q.event_id, q.start_date, q.end_date, q.visit_occurrence_id, q.domain_concept_id, op."observation_period_start_date" AS op_start_date, op."observation_period_end_date" AS op_end_date
       FROM (${events}) q JOIN ${this.t('observation_period')} op ON op."person_id" = q.person_id AND q.start_date >= op."observation_period_start_date" AND q.start_date <= op."observation_period_end_date"`,
    );
    const passing = this.group(criteria.correlatedCriteria, own, `${path}.correlatedCriteria`, depth + 1);
    return `SELECT n.person_id, n.event_id, n.start_date, n.end_date, n.visit_occurrence_id, n.domain_concept_id FROM ${own} n JOIN ${passing} g ON g.person_id = n.person_id AND g.event_id = n.event_id`;
  }

  /**
   * `records` (person_id, event_id, start_date, ...) with `ordinal`, 1 for each person's first
   * record: the earliest start date, then the lowest id, as Circe's ROW_NUMBER over the person's
   * records orders them (nulls last). The window runs only over the records on the person's earliest
   * start date (all of them when the person has none but null ones), found by a MIN per person and
   * a join: sorting every record of the concept set in the window took twice as long on DuckDB.
   */
  private firstRecords(records: string): string {
    const all = this.cte('criteria_records', records);
    const firstDates = this.cte('first_dates', `SELECT person_id, MIN(start_date) AS start_date FROM ${all} GROUP BY person_id`);
    const candidates =
      `SELECT r.* FROM ${all} r JOIN ${firstDates} f ON f.person_id = r.person_id AND f.start_date = r.start_date` +
      ` UNION ALL SELECT r.* FROM ${all} r JOIN ${firstDates} f ON f.person_id = r.person_id WHERE f.start_date IS NULL`;
    return `SELECT fr.*, ROW_NUMBER() OVER (PARTITION BY fr.person_id ORDER BY fr.start_date, fr.event_id) AS ordinal FROM (${candidates}) fr`;
  }

  /**
   * The index events of `events` (a relation with EVENT_COLUMNS) that meet the group: a relation
   * (CTE name) of person_id, event_id.
   */
  group(group: CriteriaGroup, events: string, path: string, depth: number): string {
    if (depth > COHORT_DEFINITION_LIMITS.groupDepth) throw new DefinitionError(path, `groups and nested criteria go more than ${COHORT_DEFINITION_LIMITS.groupDepth} deep`);
    const test = depth === 1 ? this.groupTest(group, events, path, depth, 'p') : null;
    if (test) return this.cte('group_pass', `SELECT p.person_id, p.event_id FROM ${events} p ${test.joins.join(' ')} WHERE ${test.test}`);
    const members: string[] = [];
    (group.criteriaList ?? []).forEach((c, i) => members.push(this.correlated(c, events, `${path}.criteriaList[${i}]`, depth)));
    (group.demographicCriteriaList ?? []).forEach((d, i) => members.push(this.demographic(d, events, `${path}.demographicCriteriaList[${i}]`)));
    (group.groups ?? []).forEach((g, i) => members.push(`SELECT person_id, event_id FROM ${this.group(g, events, `${path}.groups[${i}]`, depth + 1)}`));
    if (members.length === 0) return this.cte('group_pass', `SELECT person_id, event_id FROM ${events}`);
    if ((group.type === 'AT_LEAST' || group.type === 'AT_MOST') && group.count === undefined) throw new DefinitionError(`${path}.count`, `a ${group.type} group needs a count`);
    const having =
      group.type === 'ALL' ? `= ${this.bind(members.length, 'INTEGER')}` : group.type === 'ANY' ? '> 0' : `${group.type === 'AT_LEAST' ? '>=' : '<='} ${this.bind(group.count, 'INTEGER')}`;
    const union = members.map((m, i) => `SELECT ${this.bind(i, 'INTEGER')} AS index_id, m${i}.person_id, m${i}.event_id FROM (${m}) m${i}`).join(' UNION ALL ');
    return this.cte(
      'group_pass',
      `SELECT e.person_id, e.event_id FROM ${events} e ${group.type === 'AT_MOST' ? 'LEFT ' : ''}JOIN (${union}) cq ON cq.person_id = e.person_id AND cq.event_id = e.event_id
       GROUP BY e.person_id, e.event_id HAVING COUNT(cq.index_id) ${having}`,
    );
  }

  /**
   * An ALL or ANY group over the index events (one row per person and event_id) whose members are
   * each a yes/no test of an event, as a test of the index event `alias`: the LEFT JOINs it needs
   * and a boolean expression over them. Each member is the relation of the index events it matches
   * (the pairs of an index event and a criterion event in the window, de-duplicated; for a
   * demographic criterion, the index events whose person meets it), "exactly 0" / "at most 0"
   * passing where the index event has no row there and "at least 1" where it has one. They pass the
   * same events as the grouped counts they stand for. Written as correlated `[NOT] EXISTS`, DuckDB
   * de-duplicated every index event for each test (a delim join) and joined the passing events back;
   * the matches are a join of the criterion's events alone, and the rule flags read them directly.
   * With `byPerson` (index events of one event per person), each member is the membership of the
   * person in its matches instead, with no joins.
   * Null when a member needs counting (or the group nests groups).
   */
  private groupTest(group: CriteriaGroup, events: string, path: string, depth: number, alias: string, byPerson = false): { joins: string[]; test: string } | null {
    if ((group.type !== 'ALL' && group.type !== 'ANY') || (group.groups?.length ?? 0) > 0) return null;
    const criteriaList = group.criteriaList ?? [];
    const demographics = group.demographicCriteriaList ?? [];
    if (criteriaList.length + demographics.length === 0) return null;
    const existence = (o: CorrelatedCriteria['occurrence']) =>
      (o.type === 'EXACTLY' || o.type === 'AT_MOST') && o.count === 0 ? false : o.type === 'AT_LEAST' && o.count === 1 ? true : null;
    if (!criteriaList.every((c) => existence(c.occurrence) !== null)) return null;
    const joins: string[] = [];
    const tests: string[] = [];
    const matched = (matches: string, present: boolean) => {
      // One event per person (`byPerson`): the test is the person's membership, no join.
      if (byPerson) {
        const member = `${alias}.person_id IN (SELECT person_id FROM ${matches})`;
        tests.push(present ? member : `NOT (${member})`);
        return;
      }
      const m = `gm${++this.names}`;
      joins.push(`LEFT JOIN ${matches} ${m} ON ${m}.person_id = ${alias}.person_id AND ${m}.event_id = ${alias}.event_id`);
      tests.push(`${m}.person_id IS ${present ? 'NOT ' : ''}NULL`);
    };
    criteriaList.forEach((item, i) => {
      const { clauses, counted } = this.correlation(item);
      // The criterion's events first, on their own: inlined, DuckDB joined every record of the table
      // with the index events before filtering on the concept set (a measurement rule read 1.4
      // million rows for 264,000).
      const criteria = this.cte('criteria_events', this.criteria(item.criteria, `${path}.criteriaList[${i}].criteria`, depth));
      // COUNT(x) counts the rows whose x is not null: that is what "exists" must mean too.
      const matches = this.cte(
        'criteria_matches',
        `SELECT DISTINCT p.person_id, p.event_id FROM ${events} p JOIN ${criteria} a ON a.person_id = p.person_id${clauses.map((c) => ` AND ${c}`).join('')} AND ${counted} IS NOT NULL`,
      );
      matched(matches, existence(item.occurrence)!);
    });
    demographics.forEach((d, i) => {
      const filters = this.demographicFilters(d, `${path}.demographicCriteriaList[${i}]`);
      const matches = this.cte(
        'criteria_matches',
        `SELECT DISTINCT p.person_id, p.event_id FROM ${events} p JOIN ${this.t('person')} dp ON dp."person_id" = p.person_id${filters.length > 0 ? ` WHERE ${filters.join(' AND ')}` : ''}`,
      );
      matched(matches, true);
    });
    return { joins, test: `(${tests.join(group.type === 'ALL' ? ' AND ' : ' OR ')})` };
  }

  /** The join clauses of a correlated criterion (criterion event `a`, index event `p`) and the column its occurrence counts. */
  private correlation(item: CorrelatedCriteria): { clauses: string[]; counted: string } {
    const clauses: string[] = [];
    const checkObservation = !item.ignoreObservationPeriod;
    if (checkObservation) clauses.push('a.start_date >= p.op_start_date AND a.start_date <= p.op_end_date');
    clauses.push(...this.window(item.startWindow, 'start', checkObservation));
    if (item.endWindow) clauses.push(...this.window(item.endWindow, 'end', checkObservation));
    if (item.restrictVisit) {
      this.indexDetailRead = true;
      clauses.push('a.visit_occurrence_id = p.visit_occurrence_id');
    }
    const { isDistinct, countColumn } = item.occurrence;
    const column = { DOMAIN_CONCEPT: 'a.domain_concept_id', START_DATE: 'a.start_date', VISIT_ID: 'a.visit_occurrence_id' }[countColumn ?? 'DOMAIN_CONCEPT'];
    return { clauses, counted: isDistinct ? column : 'a.event_id' };
  }

  /** Index events with the right number of the criterion's events inside the window. */
  private correlated(item: CorrelatedCriteria, events: string, path: string, depth: number): string {
    const { clauses, counted: column } = this.correlation(item);
    const { type, count, isDistinct } = item.occurrence;
    const counted = isDistinct ? `COUNT(DISTINCT ${column})` : `COUNT(${column})`;
    const left = (type === 'EXACTLY' && count === 0) || type === 'AT_MOST';
    const operator = type === 'EXACTLY' ? '=' : type === 'AT_MOST' ? '<=' : '>=';
    const criteria = this.criteria(item.criteria, `${path}.criteria`, depth);
    return `SELECT p.person_id, p.event_id FROM ${events} p ${left ? 'LEFT ' : ''}JOIN (${criteria}) a ON a.person_id = p.person_id${clauses.map((c) => ` AND ${c}`).join('')}
      GROUP BY p.person_id, p.event_id HAVING ${counted} ${operator} ${this.bind(count, 'INTEGER')}`;
  }

  /**
   * A window's bounds on the criterion event's date (its start, or its end with useEventEnd; an end
   * window tests the end unless useEventEnd is false), from the index event's start (or end, with
   * useIndexEnd). An endpoint without days is the observation period's edge (start for coeff -1,
   * end for +1), or no bound when the criterion ignores observation periods.
   */
  private window(window: Window, kind: 'start' | 'end', checkObservation: boolean): string[] {
    const eventDate = kind === 'start' ? (window.useEventEnd ? 'a.end_date' : 'a.start_date') : window.useEventEnd === false ? 'a.start_date' : 'a.end_date';
    if (window.useIndexEnd) this.indexDetailRead = true;
    const indexDate = window.useIndexEnd ? 'p.end_date' : 'p.start_date';
    const bound = (endpoint: Window['start']) => {
      if (endpoint.days === null || endpoint.days === undefined) return checkObservation ? (endpoint.coeff === -1 ? 'p.op_start_date' : 'p.op_end_date') : null;
      return `${indexDate} + ${this.days(endpoint.coeff * endpoint.days)}`;
    };
    const clauses: string[] = [];
    const from = bound(window.start);
    const to = bound(window.end);
    if (from) clauses.push(`${eventDate} >= ${from}`);
    if (to) clauses.push(`${eventDate} <= ${to}`);
    return clauses;
  }

  private demographic(d: DemographicCriteria, events: string, path: string): string {
    const filters = this.demographicFilters(d, path);
    return `SELECT p.person_id, p.event_id FROM ${events} p JOIN ${this.t('person')} dp ON dp."person_id" = p.person_id${filters.length > 0 ? ` WHERE ${filters.join(' AND ')}` : ''}`;
  }

  /** A demographic criterion's tests on the person `dp` and the index event `p`. */
  private demographicFilters(d: DemographicCriteria, path: string): string[] {
    const filters: string[] = [];
    if (d.age) filters.push(this.numeric('(EXTRACT(YEAR FROM p.start_date) - dp."year_of_birth")', d.age, `${path}.age`));
    if (d.gender?.length) filters.push(this.concepts('dp."gender_concept_id"', d.gender));
    if (d.race?.length) filters.push(this.concepts('dp."race_concept_id"', d.race));
    if (d.ethnicity?.length) filters.push(this.concepts('dp."ethnicity_concept_id"', d.ethnicity));
    if (d.occurrenceStartDate) filters.push(this.date('p.start_date', d.occurrenceStartDate, `${path}.occurrenceStartDate`));
    if (d.occurrenceEndDate) {
      this.indexDetailRead = true;
      filters.push(this.date('p.end_date', d.occurrenceEndDate, `${path}.occurrenceEndDate`));
    }
    return filters;
  }

  /** person_id, event_id, end_date of each event by the end strategy, never after its observation period. */
  private strategyEnds(strategy: CohortDefinitionExpression['endStrategy'], events: string, path: string): string {
    if (!strategy) return `SELECT person_id, event_id, op_end_date AS end_date FROM ${events}`;
    if (strategy.type === 'DateOffset') {
      if (strategy.dateField === 'EndDate') this.indexDetailRead = true;
      const date = `${strategy.dateField === 'StartDate' ? 'start_date' : 'end_date'} + ${this.days(strategy.offset)}`;
      return `SELECT person_id, event_id, CASE WHEN ${date} > op_end_date THEN op_end_date ELSE ${date} END AS end_date FROM ${events}`;
    }
    // CustomEra: the drug exposures of the concept set, eras with gapDays, the era holding the event's start.
    const exposureEnd = strategy.daysSupplyOverride
      ? `de."drug_exposure_start_date" + ${this.days(strategy.daysSupplyOverride)}`
      : 'COALESCE(de."drug_exposure_end_date", de."drug_exposure_start_date" + CAST(de."days_supply" AS INTEGER), de."drug_exposure_start_date" + 1)';
    const exposures = `SELECT de."person_id" AS person_id, 0 AS grp_key, de."drug_exposure_start_date" AS start_date, ${exposureEnd} AS end_date
      FROM ${this.t('drug_exposure')} de WHERE de."drug_concept_id" ${this.inCodeset(strategy.drugCodesetId, path, 'drugCodesetId')}
      AND de."person_id" IN (SELECT person_id FROM ${events})`;
    const eras = this.cte('exposure_eras', `SELECT person_id, start_date, end_date + ${this.days(strategy.offset)} AS end_date FROM (${eraSql(exposures, this.days(strategy.gapDays))}) x`);
    return `SELECT e.person_id, e.event_id, CASE WHEN x.end_date > e.op_end_date THEN e.op_end_date ELSE x.end_date END AS end_date
      FROM ${events} e JOIN ${eras} x ON x.person_id = e.person_id AND e.start_date >= x.start_date AND e.start_date <= x.end_date`;
  }
}

/** Attributes of a first-record criterion that test only the record's person and date. */
const FIRST_DATE_ATTRIBUTES = new Set<keyof Criteria>(['kind', 'codesetId', 'sourceConcept', 'first', 'occurrenceStartDate', 'age', 'gender']);
const FIRST_DATE_ATTRIBUTES_ONLY = (criteria: Criteria) =>
  (Object.keys(criteria) as (keyof Criteria)[]).every((key) => criteria[key] === undefined || FIRST_DATE_ATTRIBUTES.has(key));

/**
 * Whether any part of the definition reads an index event's end date or visit (windows from the
 * index end, same-visit criteria, a demographic end-date test, an exit offset from the end date),
 * looking into nested criteria too. Without any, the entry events need only their persons and dates.
 */
function indexDetailNeeded(def: CohortDefinitionExpression): boolean {
  const criteriaNeeds = (criteria: Criteria): boolean => criteria.correlatedCriteria !== undefined && groupNeeds(criteria.correlatedCriteria);
  const groupNeeds = (group: CriteriaGroup): boolean =>
    (group.criteriaList ?? []).some((c) => c.restrictVisit === true || c.startWindow.useIndexEnd === true || c.endWindow?.useIndexEnd === true || criteriaNeeds(c.criteria)) ||
    (group.demographicCriteriaList ?? []).some((d) => d.occurrenceEndDate !== undefined) ||
    (group.groups ?? []).some(groupNeeds);
  return (
    def.primaryCriteria.criteriaList.some(criteriaNeeds) ||
    (def.additionalCriteria !== undefined && groupNeeds(def.additionalCriteria)) ||
    def.inclusionRules.some((rule) => groupNeeds(rule.expression)) ||
    def.censoringCriteria.some(criteriaNeeds) ||
    (def.endStrategy?.type === 'DateOffset' && def.endStrategy.dateField === 'EndDate')
  );
}

function groupHasMembers(group: CriteriaGroup): boolean {
  return (group.criteriaList?.length ?? 0) + (group.demographicCriteriaList?.length ?? 0) + (group.groups?.length ?? 0) > 0;
}

const prefixed = (alias: string, columns: string) => columns.split(', ').map((c) => `${alias}.${c}`).join(', ');

function limitLabel(what: string, type: ResultLimit['type']): string {
  return type === 'All' ? `${what}: all per person` : `${what}: ${type === 'First' ? 'earliest' : 'latest'} per person`;
}

/** The key sum column of a person row, for perturbation. */
export const PERSON_KEY = `"${RECORD_KEY_COLUMN}"`;
