import { LIMITS, type QueryGroup, type QueryRule } from '@hdp/contract';
import { EXPLORER_FIELD_BY_NAME, EXPLORER_TABLE_BY_NAME, type FieldDefinition, type TableDefinition } from './explorer-fields';
import { DefinitionCompiler, DefinitionError, type CompiledDefinition } from './cohort-definition/definition-compiler';
import { NO_FACTS, type DatasetFacts } from './dataset-facts';
import { RECORD_KEY_COLUMN } from './record-keys';
import { SCHEMA_NAME } from './warehouse-engine';

/** A query tree the compiler refuses; `path` names the rule (`rules[1].rules[0]`). */
export class QueryTreeError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'QueryTreeError';
  }
}

export interface CompiledPredicate {
  /** A boolean SQL expression over the person row `p`. */
  sql: string;
  /** The values of `$1`, `$2`, ... in order. */
  params: unknown[];
}

const MAX_LIST_VALUES = 1000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isGroup = (item: QueryRule | QueryGroup): item is QueryGroup =>
  item !== null && typeof item === 'object' && Array.isArray((item as QueryGroup).rules);

/** A label for messages: the rule's path, with its id and field when it has them. */
function describe(path: string, rule: QueryRule): string {
  return `${path}${typeof rule.field === 'string' && rule.field ? ` (${rule.field.slice(0, 100)})` : ''}`;
}

/** A group's combinator, 'and' by default; anything else than and/or is refused. */
function combinatorOf(group: QueryGroup, path: string): 'and' | 'or' {
  const value = group.combinator ?? 'and';
  const combinator = typeof value === 'string' ? value.toLowerCase() : '';
  if (combinator !== 'and' && combinator !== 'or') throw new QueryTreeError(path, `combinator must be 'and' or 'or'`);
  return combinator;
}

class Compiler {
  readonly params: unknown[] = [];
  private rules = 0;

  constructor(
    private readonly schema: string,
    private readonly facts: DatasetFacts = NO_FACTS,
  ) {}

  private table(name: string): string {
    return `"${this.schema}"."${name}"`;
  }

  /**
   * The root's cohort definition, compiled with the same parameter list: `person_id IN (its
   * cohort's persons)`, and the compiled parts for the attrition.
   */
  definition(tree: QueryGroup): { sql: string; compiled: CompiledDefinition } | null {
    if (tree.cohortDefinition === undefined || tree.cohortDefinition === null) return null;
    try {
      const compiled = new DefinitionCompiler(this.schema, (value, sqlType) => this.bind(value, sqlType), this.facts).compile(tree.cohortDefinition);
      return { sql: `(p."person_id" IN (WITH ${compiled.ctes.join(', ')} SELECT person_id FROM ${compiled.periods}))`, compiled };
    } catch (error) {
      if (error instanceof DefinitionError) throw new QueryTreeError(error.path, error.reason);
      throw error;
    }
  }

  /** Binds a value and returns its placeholder, cast to the SQL type so both engines read it alike. */
  bind(value: unknown, sqlType: string): string {
    this.params.push(value);
    return `CAST($${this.params.length} AS ${sqlType})`;
  }

  group(group: QueryGroup, path: string, scope: TableDefinition | null, depth: number): string {
    if (depth > LIMITS.queryMaxDepth) throw new QueryTreeError(path, `groups nest more than ${LIMITS.queryMaxDepth} deep`);
    if (!Array.isArray(group.rules)) throw new QueryTreeError(path, 'a group needs a rules list');
    const combinator = combinatorOf(group, path);
    if (group.not !== undefined && typeof group.not !== 'boolean') throw new QueryTreeError(path, 'not must be true or false');
    if (group.table !== undefined && group.table !== null && group.table !== '' && group.table !== 'person') {
      const table = typeof group.table === 'string' ? EXPLORER_TABLE_BY_NAME.get(group.table) : undefined;
      if (!table || table.kind !== 'event') throw new QueryTreeError(path, `unknown table ${JSON.stringify(String(typeof group.table === 'string' ? group.table : typeof group.table).slice(0, 64))}`);
      if (scope && scope !== table) throw new QueryTreeError(path, `a ${table.name} group cannot sit inside a ${scope.name} group`);
      if (!scope) return this.eventGroup(group, path, table, depth);
    }
    const parts = group.rules.map((item, i) => this.item(item, `${path}.rules[${i}]`, scope, depth, false));
    return this.combine(parts, combinator, group.not === true);
  }

  private combine(parts: string[], combinator: string, not: boolean): string {
    const joined = parts.length === 0 ? 'TRUE' : parts.length === 1 ? parts[0]! : `(${parts.join(combinator === 'or' ? ' OR ' : ' AND ')})`;
    return not ? `(NOT ${joined})` : joined;
  }

  private item(item: QueryRule | QueryGroup, path: string, scope: TableDefinition | null, depth: number, countAllowed: boolean): string {
    if (++this.rules > LIMITS.queryMaxRules) throw new QueryTreeError(path, `a query may hold at most ${LIMITS.queryMaxRules} rules and groups`);
    if (item === null || typeof item !== 'object') throw new QueryTreeError(path, 'must be a rule or a group');
    if (isGroup(item)) {
      if (item.cohortDefinition !== undefined) throw new QueryTreeError(path, 'a cohort definition belongs at the root of the query only');
      return this.group(item, path, scope, depth + 1);
    }
    return this.rule(item, path, scope, countAllowed);
  }

  /** "Has at least one record in the table matching every rule on the same record" (or N records, with a count rule). */
  private eventGroup(
    group: QueryGroup,
    path: string,
    table: TableDefinition,
    depth: number,
    childPath: (i: number) => string = (i) => `${path}.rules[${i}]`,
  ): string {
    const combinator = combinatorOf(group, path);
    const counts: string[] = [];
    const parts: string[] = [];
    group.rules.forEach((item, i) => {
      const itemPath = childPath(i);
      if (!isGroup(item) && item && typeof item === 'object' && typeof item.field === 'string' && EXPLORER_FIELD_BY_NAME.get(item.field)?.source.kind === 'recordCount') {
        if (combinator !== 'and') throw new QueryTreeError(describe(itemPath, item), "a record count needs the group's combinator to be 'and'");
        if (++this.rules > LIMITS.queryMaxRules) throw new QueryTreeError(itemPath, `a query may hold at most ${LIMITS.queryMaxRules} rules and groups`);
        counts.push(this.countRule(item, itemPath, table));
      } else {
        parts.push(this.item(item, itemPath, table, depth, false));
      }
    });
    const predicate = this.combine(parts, combinator, false);
    const records = `FROM ${this.table(table.name)} e WHERE e."person_id" = p."person_id" AND ${predicate}`;
    if (counts.length > 0) {
      const test = counts.map((c) => `(SELECT COUNT(*) ${records}) ${c}`).join(' AND ');
      return group.not === true ? `(NOT (${test}))` : `(${test})`;
    }
    if (group.not === true) return `(NOT EXISTS (SELECT 1 ${records}))`;
    // "Has a matching record" as a semi-join on person_id: the form engines plan best (DuckDB
    // runs it about twice as fast as the correlated EXISTS it means).
    return `(p."person_id" IN (SELECT e."person_id" FROM ${this.table(table.name)} e WHERE ${predicate}))`;
  }

  /** The comparison part of a record count: `>= $n`. */
  private countRule(rule: QueryRule, path: string, table: TableDefinition): string {
    const field = EXPLORER_FIELD_BY_NAME.get(rule.field)!;
    if (field.table !== table.name) throw new QueryTreeError(describe(path, rule), `belongs to ${field.table}, not to this ${table.name} group`);
    const operator = this.operator(rule, path, field);
    const n = this.integer(rule.value, describe(path, rule));
    if (n < 0) throw new QueryTreeError(describe(path, rule), 'value must be 0 or more');
    return `${operator} ${this.bind(n, 'BIGINT')}`;
  }

  private operator(rule: QueryRule, path: string, field: FieldDefinition): string {
    const name = typeof rule.operator === 'string' ? rule.operator : '';
    if (!field.operators.some((o) => o.name === name)) {
      throw new QueryTreeError(describe(path, rule), `operator ${JSON.stringify(name.slice(0, 32))} is not allowed; use one of ${field.operators.map((o) => o.name).join(', ')}`);
    }
    return name === '!=' ? '<>' : name;
  }

  private rule(rule: QueryRule, path: string, scope: TableDefinition | null, _countAllowed: boolean): string {
    const field = typeof rule.field === 'string' ? EXPLORER_FIELD_BY_NAME.get(rule.field) : undefined;
    if (!field) throw new QueryTreeError(describe(path, rule), 'unknown field');
    if (rule.includeDescendants !== undefined && typeof rule.includeDescendants !== 'boolean') {
      throw new QueryTreeError(describe(path, rule), 'includeDescendants must be true or false');
    }
    if (field.table !== 'person') {
      const table = EXPLORER_TABLE_BY_NAME.get(field.table)!;
      if (scope && scope !== table) throw new QueryTreeError(describe(path, rule), `belongs to ${field.table}, not to this ${scope.name} group`);
      if (!scope) {
        // A lone event rule: an implicit group of one rule on that table.
        return this.eventGroup({ combinator: 'and', rules: [rule] }, path, table, 0, () => path);
      }
    }
    if (field.source.kind === 'recordCount') throw new QueryTreeError(describe(path, rule), 'a record count belongs directly in a group scoped to its table');
    const where = describe(path, rule);
    const operator = this.operator(rule, path, field);
    const expression = this.expression(field);
    if (operator === 'null') return `(${expression} IS NULL)`;
    if (operator === 'notNull') return `(${expression} IS NOT NULL)`;
    const sqlType = field.type === 'date' ? 'DATE' : field.type === 'concept' ? 'BIGINT' : field.type === 'text' ? 'VARCHAR' : 'DOUBLE PRECISION';
    const parse = (value: unknown) => this.value(value, field, where);

    if (field.type === 'concept' && field.includesDescendants && rule.includeDescendants !== false && ['in', 'notIn', '=', '<>'].includes(operator)) {
      const values = operator === 'in' || operator === 'notIn' ? this.list(rule.value, where).map(parse) : [parse(rule.value)];
      const placeholders = values.map((v) => this.bind(v, 'BIGINT'));
      // One semi-join on "these concepts and their descendants" (an OR of two IN tests plans worse).
      const selves = placeholders.map((placeholder) => `SELECT ${placeholder}`).join(' UNION ALL ');
      const match = `(${expression} IN (SELECT ca."descendant_concept_id" FROM ${this.table('concept_ancestor')} ca WHERE ca."ancestor_concept_id" IN (${placeholders.join(', ')}) UNION ALL ${selves}))`;
      return operator === 'in' || operator === '=' ? match : `(NOT ${match})`;
    }
    switch (operator) {
      case 'in':
      case 'notIn': {
        const values = this.list(rule.value, where).map(parse);
        const test = `${expression} IN (${values.map((v) => this.bind(v, sqlType)).join(', ')})`;
        return operator === 'in' ? `(${test})` : `(NOT (${test}))`;
      }
      case 'between':
      case 'notBetween': {
        const pair = this.list(rule.value, where);
        if (pair.length !== 2) throw new QueryTreeError(where, 'value must be two values: [from, to]');
        const test = `${expression} BETWEEN ${this.bind(parse(pair[0]), sqlType)} AND ${this.bind(parse(pair[1]), sqlType)}`;
        return operator === 'between' ? `(${test})` : `(NOT (${test}))`;
      }
      case 'contains':
        return `(strpos(lower(${expression}), lower(${this.bind(parse(rule.value), 'VARCHAR')})) > 0)`;
      case 'beginsWith':
        return `(starts_with(${expression}, ${this.bind(parse(rule.value), 'VARCHAR')}))`;
      default:
        return `(${expression} ${operator} ${this.bind(parse(rule.value), sqlType)})`;
    }
  }

  /** The SQL of a field: a column of the record (`e`) or of the person (`p`), or a derived value. */
  private expression(field: FieldDefinition): string {
    const alias = field.table === 'person' ? 'p' : 'e';
    switch (field.source.kind) {
      case 'column':
        return `${alias}."${field.source.column}"`;
      case 'age':
        return `(EXTRACT(YEAR FROM current_date) - p."year_of_birth")`;
      case 'ageAtEvent':
        return `(EXTRACT(YEAR FROM e."${field.source.dateColumn}") - p."year_of_birth")`;
      default:
        throw new Error('record counts have no expression');
    }
  }

  /** A list value: an array, or react-querybuilder's comma-separated text. */
  private list(value: unknown, where: string): unknown[] {
    const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').map((v) => v.trim()) : value === undefined || value === null ? [] : [value];
    if (items.length === 0) throw new QueryTreeError(where, 'value must list at least one value');
    if (items.length > MAX_LIST_VALUES) throw new QueryTreeError(where, `value may list at most ${MAX_LIST_VALUES} values`);
    return items;
  }

  private integer(value: unknown, where: string): number {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new QueryTreeError(where, 'value must be a whole number');
    return n;
  }

  private value(value: unknown, field: FieldDefinition, where: string): unknown {
    switch (field.type) {
      case 'concept':
        return this.integer(typeof value === 'object' && value !== null && 'concept_id' in value ? (value as { concept_id: unknown }).concept_id : value, where);
      case 'number': {
        const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
        if (typeof n !== 'number' || !Number.isFinite(n) || Math.abs(n) > 1e15) throw new QueryTreeError(where, 'value must be a number');
        return n;
      }
      case 'date': {
        if (typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) || new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) {
          throw new QueryTreeError(where, 'value must be a date, YYYY-MM-DD');
        }
        return value;
      }
      default: {
        if (typeof value !== 'string' || value.length > 200) throw new QueryTreeError(where, 'value must be text of at most 200 characters');
        return value;
      }
    }
  }
}

/** Compiles a query tree into a predicate on the person row `p` of the dataset in `schema`. */
export function compileCohortPredicate(tree: QueryGroup, schema: string): CompiledPredicate {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`not a dataset schema: ${schema}`);
  if (tree === null || typeof tree !== 'object') throw new QueryTreeError('query', 'must be a group');
  const compiler = new Compiler(schema);
  const definition = compiler.definition(tree);
  const rules = compiler.group(tree, 'query', null, 1);
  // A definition's persons, narrowed by the tree's own rules when it has any.
  const sql = definition ? (tree.rules.length > 0 ? `(${definition.sql} AND ${rules})` : definition.sql) : rules;
  return { sql, params: compiler.params };
}

/**
 * The person columns the step persons carry: the key, what the aggregate groups by and what the
 * explorer's person rules test (a query's simple rules run on these rows). Every column of `person`
 * (its source values are text) made the materialised rows several times wider, for nothing.
 */
const STEP_PERSON_COLUMNS = [
  ...new Set(['person_id', RECORD_KEY_COLUMN, 'gender_concept_id', 'year_of_birth', 'race_concept_id', 'ethnicity_concept_id', ...personColumns(EXPLORER_TABLE_BY_NAME.get('person')!)]),
];

function personColumns(table: TableDefinition): string[] {
  return table.fields.flatMap((f) => (f.source.kind === 'column' ? [f.source.column] : []));
}

/**
 * The SELECTs a definition's answers read, over the relations (CTEs) of its compiled definition:
 * the person rows of the entry events' persons, each with its events in every counted step
 * (`step_n<i>`), the steps it is in (`step_mask`) and its inclusion-rule mask. `zeroOrOne` holds the
 * counted steps whose events per person are 0 or 1: their events and key sums are those of the
 * persons whose step mask holds them, summed per group without reading each row.
 */
function definitionSelects(
  definition: CompiledDefinition,
  schema: string,
  facts: DatasetFacts,
): { sketchedSteps: number[]; cohortPersons: string; answerPersons: string; zeroOrOne: Set<number>; ctes: string[] } {
  const { steps, ruleFlags, ruleNames } = definition;
  const person = `"${schema}"."person"`;
  if (definition.personFlags) return personFlagSelects(definition, definition.personFlags, person, facts);
  // Per step: events, persons, and the key sums of those persons (each person's key once, and once
  // per event), and the sketch of its persons. A step with the same events as an earlier one is not
  // counted again (attritionFromRows copies its counts, the reader its sketch).
  const counted = steps.map((step, i) => ({ step, i })).filter(({ step }) => step.sameAs === undefined);
  const ruleSteps = ruleFlags ? counted.filter(({ step }) => step.step === 'inclusion_rule') : [];
  const flags = ruleNames.map((_n, i) => `r${i}`);
  const passing = (k: number) => flags.slice(0, k + 1).map((f) => `${f} = 1`).join(' AND ');
  const rulesOnePerPerson = ruleSteps.every(({ step }) => step.onePerPerson);
  // Every step in one pass: the person rows of the entry events' persons (every later step's persons
  // are among them, and so are the persons the aggregate counts), read from person once, each with
  // its number of events in each step (`step_n<i>`, 0 when not in it) and a bit per step it holds
  // events in (`step_mask`). The answer's one aggregate groups these rows (`compileDefinitionAnswer`),
  // where a semi-join and two aggregates per step cost most of a run.
  const joins: string[] = [];
  const eventsIn = new Map<number, string>();
  // Columns of the rule flags' persons (joined below as `sjr`) that count an earlier step too.
  const ruleFlagColumns: string[] = [];
  counted.forEach(({ step, i }, position) => {
    if ((step.step === 'inclusion_rule' && ruleFlags) || step.limitOf !== undefined) return;
    if (ruleFlags && rulesOnePerPerson && ruleSteps.length > 0 && step.countedIn?.relation === ruleFlags) {
      ruleFlagColumns.push(`${step.countedIn.column} AS n_step${i}`);
      eventsIn.set(i, `COALESCE(sjr.n_step${i}, 0)`);
      return;
    }
    const alias = `sj${position}`;
    // The entry events' persons are the rows: an inner join; every later step, a left join.
    const join = position === 0 ? 'JOIN' : 'LEFT JOIN';
    const perPerson = step.countedIn
      ? `SELECT person_id, ${step.countedIn.column} AS n FROM ${step.countedIn.relation}`
      : step.onePerPerson
        ? `SELECT person_id, 1 AS n FROM ${step.relation}`
        : `SELECT person_id, COUNT(*) AS n FROM ${step.relation} GROUP BY person_id`;
    joins.push(`${join} (${perPerson}) ${alias} ON ${alias}.person_id = pk."person_id"`);
    eventsIn.set(i, `COALESCE(${alias}.n, 0)`);
  });
  const ruleMask = flags.map((f, i) => `${f} * ${2 ** i}`).join(' + ');
  // With one qualifying event per person, their inclusion-rule mask rides along (the inclusion report's rows).
  const masksInline = ruleSteps.length > 0 && rulesOnePerPerson;
  if (ruleSteps.length > 0) {
    // Every rule step from the rule flags: per person, n<k> = their events passing rules 0..k.
    const perPerson = rulesOnePerPerson
      ? `SELECT person_id, ${[...ruleSteps.map(({ step }) => `CASE WHEN ${passing(step.rule!)} THEN 1 ELSE 0 END AS n${step.rule}`), ...ruleFlagColumns].join(', ')}, ${ruleMask} AS rule_mask FROM ${ruleFlags}`
      : `SELECT person_id, ${ruleSteps.map(({ step }) => `SUM(CASE WHEN ${passing(step.rule!)} THEN 1 ELSE 0 END) AS n${step.rule}`).join(', ')} FROM ${ruleFlags} GROUP BY person_id`;
    joins.push(`LEFT JOIN (${perPerson}) sjr ON sjr.person_id = pk."person_id"`);
    for (const { step, i } of ruleSteps) eventsIn.set(i, `COALESCE(sjr.n${step.rule}, 0)`);
  }
  // A first / last limit keeps one event of each person who has any in the step it limits: 1 where
  // that step's count is above 0, without joining the limit's relation (its window still runs where
  // later steps read it). In step order, so a limit of a limit finds its source's column.
  for (const { step, i } of counted) {
    if (step.limitOf === undefined) continue;
    const source = steps[step.limitOf]!.sameAs ?? step.limitOf;
    eventsIn.set(i, `CASE WHEN ${eventsIn.get(source)!} > 0 THEN 1 ELSE 0 END`);
  }
  const membership = (ruleMask: string, moreJoins = '') =>
    `SELECT ${STEP_PERSON_COLUMNS.map((c) => `pk."${c}"`).join(', ')}, ${counted.map(({ i }) => `CAST(${eventsIn.get(i)} AS BIGINT) AS ${stepN(i)}`).join(', ')}${ruleMask} FROM ${person} pk ${joins.join(' ')}${moreJoins}`;
  const withMask = (members: string) => withStepMask(members, counted);
  // Each person with the inclusion-rule mask of their best event (NULL without a qualifying event,
  // or without rules): ATLAS's inclusion report counts each person once, by that event. With one
  // qualifying event per person, that event's mask rides with the rule steps' counts; otherwise the
  // best is most rules passed, then the lowest first rule passed, then the earliest.
  let answerPersons: string;
  if (masksInline) answerPersons = withMask(membership(', sjr.rule_mask'));
  else if (ruleFlags) {
    const firstRule = `CASE ${flags.map((f, i) => `WHEN ${f} = 1 THEN ${i}`).join(' ')} ELSE 0 END`;
    const best = `SELECT person_id, ${ruleMask} AS mask, ROW_NUMBER() OVER (PARTITION BY person_id ORDER BY ${flags.join(' + ')} DESC, ${firstRule}, start_date, event_id) AS best FROM ${ruleFlags}`;
    answerPersons = withMask(membership(', bm.mask AS rule_mask', ` LEFT JOIN (SELECT person_id, mask FROM (${best}) b WHERE b.best = 1) bm ON bm.person_id = pk."person_id"`));
  } else answerPersons = withMask(membership(', CAST(NULL AS BIGINT) AS rule_mask'));
  // Steps of at most one event per person: the entry's and the others' relations of one row per
  // person, a limit's (1 where its source has any) and, with one qualifying event per person, the rules'.
  const zeroOrOne = new Set(
    counted.filter(({ step }) => step.limitOf !== undefined || (step.step === 'inclusion_rule' ? rulesOnePerPerson : step.onePerPerson && !step.countedIn)).map(({ i }) => i),
  );
  return { sketchedSteps: counted.map(({ i }) => i), cohortPersons: cohortPersons(steps), answerPersons, zeroOrOne, ctes: [] };
}

const stepN = (i: number) => `step_n${i}`;

/** The cohort's persons: those with events in the last step (whose relation is the periods'). */
function cohortPersons(steps: CompiledDefinition['steps']): string {
  const lastStep = steps[steps.length - 1]!;
  return `p.${stepN(lastStep.sameAs ?? steps.length - 1)} > 0`;
}

/** `members` (person rows with `step_n<i>` per counted step) with the bit of each step they are in, the bits of `counted`'s order. */
function withStepMask(members: string, counted: { i: number }[]): string {
  const bits = counted.map(({ i }, position) => `CASE WHEN m.${stepN(i)} > 0 THEN CAST(${2 ** position} AS BIGINT) ELSE CAST(0 AS BIGINT) END`);
  return `SELECT m.*, ${bits.join(' + ')} AS step_mask FROM (${members}) m`;
}

/**
 * `definitionSelects` for a definition whose every step holds at most one event per person
 * (`personFlags`): each entry person's steps as yes/no columns, each a membership test of a step's
 * relation (`IN`, whose hash table DuckDB builds on that relation) or of the inclusion rules' tests,
 * then one join with `person`. Joining each step's persons to the entry's (and the rule flags' by
 * person and event) built the hash tables on the wider side: ~20 % of the statement at 1,000,000 persons.
 * The flags are read several times: PostgreSQL, which inlined them, tested every membership again
 * for each read (three times as long as the joins); it keeps them (`inlineOneEventPerPerson`).
 */
function personFlagSelects(
  definition: CompiledDefinition,
  personFlags: NonNullable<CompiledDefinition['personFlags']>,
  person: string,
  facts: DatasetFacts,
): ReturnType<typeof definitionSelects> {
  const { steps } = definition;
  const counted = steps.map((step, i) => ({ step, i })).filter(({ step }) => step.sameAs === undefined);
  // One column per relation tested (`f.m<k>`) and per rule (`f.t<k>`), each 0 or 1.
  const tested = new Map<string, string>();
  const member = (relation: string) => {
    if (!tested.has(relation)) tested.set(relation, `m${tested.size}`);
    return `f.${tested.get(relation)}`;
  };
  const flags: string[] = [];
  let qualified = '1';
  steps.forEach((step, i) => {
    if (step.sameAs !== undefined) flags.push(flags[step.sameAs]!);
    else if (i === 0) flags.push('1');
    // A first / last limit keeps one event of each person who has any in its source.
    else if (step.limitOf !== undefined) flags.push(flags[step.limitOf]!);
    // Rules are tested on the qualifying events: a person passes rule k with a qualifying event passing rules 0..k.
    else if (step.step === 'inclusion_rule') flags.push([qualified, ...personFlags.ruleTests.slice(0, step.rule! + 1).map((_t, k) => `f.t${k}`)].join(' * '));
    else flags.push(member(step.relation));
    if (step.step === 'qualified_limit') qualified = flags[i]!;
  });
  const ruleMask =
    personFlags.ruleTests.length > 0
      ? `CASE WHEN ${qualified} = 1 THEN ${personFlags.ruleTests.map((_t, k) => `f.t${k} * ${2 ** k}`).join(' + ')} END`
      : 'CAST(NULL AS BIGINT)';
  const columns = [
    ...[...tested].map(([relation, column]) => `CASE WHEN q.person_id IN (SELECT person_id FROM ${relation}) THEN 1 ELSE 0 END AS ${column}`),
    ...personFlags.ruleTests.map((test, k) => `CASE WHEN ${test} THEN 1 ELSE 0 END AS t${k}`),
  ];
  const perPerson = `SELECT q.person_id${columns.map((c) => `, ${c}`).join('')} FROM ${personFlags.entry} q`;
  const inline = facts.inlineOneEventPerPerson;
  const members =
    `SELECT ${STEP_PERSON_COLUMNS.map((c) => `pk."${c}"`).join(', ')}, ${counted.map(({ i }) => `CAST(${flags[i]} AS BIGINT) AS ${stepN(i)}`).join(', ')}, ` +
    `CAST(${ruleMask} AS BIGINT) AS rule_mask FROM ${person} pk JOIN ${inline ? `(${perPerson})` : 'person_flags'} f ON f.person_id = pk."person_id"`;
  return {
    sketchedSteps: counted.map(({ i }) => i),
    cohortPersons: cohortPersons(steps),
    answerPersons: withStepMask(members, counted),
    zeroOrOne: new Set(counted.map(({ i }) => i)),
    ctes: inline ? [] : [`person_flags AS MATERIALIZED (${perPerson})`],
  };
}

/** The cohort periods (person_id, start_date, end_date) of a query with a cohort definition; null when it has none. */
export function compileDefinitionPeriods(tree: QueryGroup, schema: string): CompiledPredicate | null {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`not a dataset schema: ${schema}`);
  if (tree === null || typeof tree !== 'object' || tree.cohortDefinition === undefined) return null;
  const compiler = new Compiler(schema);
  const { ctes, periods } = compiler.definition(tree)!.compiled;
  return { sql: `WITH ${ctes.join(', ')} SELECT person_id, start_date, end_date FROM ${periods}`, params: compiler.params };
}

/**
 * A query with a cohort definition answered in ONE statement of ONE aggregate: the entry events'
 * persons (every step's persons are among them) grouped by the set of steps they are in
 * (`step_mask`, bit `b` for step `sketchedSteps[b]`), their inclusion-rule mask (`rule_mask`, NULL
 * without one), whether the answer counts them (`in_cohort`: in the last step and meeting the tree's
 * own rules) and the aggregate's demographic group (sex, age band, race, ethnicity), each group with
 * its persons (`n`), key sum, record keys, and per counted step `i` its events (`e<i>`) and their key
 * sum (`ek<i>`). The API adds these up into the attrition's rows, the inclusion report's masks, each
 * step's sketch and the answer's demographic groups (`readDefinitionAnswer` in cohort-results.ts).
 * One pass over the persons: three aggregates over materialised persons (steps, masks, sketches,
 * the demographic groups) cost a tenth more. Null when the tree has no definition.
 */
export function compileDefinitionAnswer(
  tree: QueryGroup,
  schema: string,
  facts: DatasetFacts = NO_FACTS,
): { sql: string; params: unknown[]; steps: CompiledDefinition['steps']; ruleNames: string[]; sketchedSteps: number[] } | null {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`not a dataset schema: ${schema}`);
  if (tree === null || typeof tree !== 'object' || tree.cohortDefinition === undefined) return null;
  const compiler = new Compiler(schema, facts);
  const definition = compiler.definition(tree)!;
  const rules = tree.rules.length > 0 ? compiler.group(tree, 'query', null, 1) : null;
  const { ctes, steps, ruleNames } = definition.compiled;
  const selects = definitionSelects(definition.compiled, schema, facts);
  const key = `p."${RECORD_KEY_COLUMN}"`;
  const persons =
    `SELECT p.step_mask, p.rule_mask, CASE WHEN ${selects.cohortPersons}${rules ? ` AND ${rules}` : ''} THEN 1 ELSE 0 END AS in_cohort, ` +
    `p."gender_concept_id" AS sex, ${AGE_BAND_SQL} AS age_band, p."race_concept_id" AS race, p."ethnicity_concept_id" AS ethnicity, ${key} AS k, ` +
    `${selects.sketchedSteps.map((i) => `p.step_n${i}`).join(', ')} FROM answer_persons p`;
  // A step of 0 or 1 event per person: its events are the group's persons when the group's step mask holds it.
  const perStep = selects.sketchedSteps
    .map((i, position) =>
      selects.zeroOrOne.has(i)
        ? `CASE WHEN (step_mask & ${2 ** position}) <> 0 THEN CAST(COUNT(*) AS BIGINT) ELSE CAST(0 AS BIGINT) END AS e${i}, CASE WHEN (step_mask & ${2 ** position}) <> 0 THEN CAST(SUM(k) AS BIGINT) ELSE CAST(0 AS BIGINT) END AS ek${i}`
        : `CAST(SUM(step_n${i}) AS BIGINT) AS e${i}, CAST(SUM(k * step_n${i}) AS BIGINT) AS ek${i}`,
    )
    .join(', ');
  const sql =
    `WITH ${[...ctes, ...selects.ctes].join(', ')}, answer_persons AS (${selects.answerPersons}) ` +
    `SELECT step_mask, rule_mask, in_cohort, sex, age_band, race, ethnicity, CAST(COUNT(*) AS BIGINT) AS n, CAST(SUM(k) AS BIGINT) AS key_sum, ${perStep}, ${recordKeysList('k')} AS record_keys ` +
    `FROM (${persons}) g GROUP BY step_mask, rule_mask, in_cohort, sex, age_band, race, ethnicity`;
  return { sql, params: compiler.params, steps, ruleNames, sketchedSteps: selects.sketchedSteps };
}

/** Age band of a person (0 = 0–9, ..., 9 = 90 and over). The same SQL on DuckDB and PostgreSQL. */
export const AGE_BAND_SQL = `CAST(LEAST(GREATEST(FLOOR((EXTRACT(YEAR FROM current_date) - p."year_of_birth") / 10.0), 0), 9) AS INTEGER)`;

/**
 * The aggregate every released answer is counted by, over the person rows `p` that `fromWhere`
 * selects (`FROM … WHERE …`): one row per demographic group (sex, age band, race and ethnicity
 * together) with its persons (`n`) and the sum of their secret record keys (`key_sum`: a column of
 * `person`, see record-keys.ts), for perturbation. With `sketches` (the tracker defence on), also
 * the group's record keys themselves (`record_keys`, a list), from which the API makes the
 * set-difference sketch (person-set-sketch.ts) of the whole answer and of every breakdown cell:
 * each is a union of groups, and a sketch is a sum (`splitAggregateRows` in cohort-results.ts).
 *
 * One hash aggregate over the matching persons, the one the counts need anyway. Computing the
 * sketch's cells in the statement (three grouping sets by group and cell, whose some 24,000 rows
 * then came back as text to parse) cost about as much as the rest of the defence together; the
 * keys come back as a list of 32-bit integers, read from the engine's buffer (`queryColumns`).
 * Explorer runs, cohort definitions (kind 2 rows of `compileDefinitionAnswer`) and cohort
 * snapshots are all counted by it.
 */
export function aggregateStatement(fromWhere: string, { sketches }: { sketches: boolean }): string {
  const key = `p."${RECORD_KEY_COLUMN}"`;
  const persons = `SELECT p."gender_concept_id" AS sex, ${AGE_BAND_SQL} AS age_band, p."race_concept_id" AS race, p."ethnicity_concept_id" AS ethnicity, ${key} AS k ${fromWhere}`;
  return (
    `SELECT sex, age_band, race, ethnicity, CAST(COUNT(*) AS BIGINT) AS n, CAST(SUM(k) AS BIGINT) AS key_sum${sketches ? `, ${recordKeysList('k')} AS record_keys` : ''} ` +
    `FROM (${persons}) s GROUP BY sex, age_band, race, ethnicity`
  );
}

/** Record keys, as a list (keys are below 2^24: 32-bit integers). The same SQL on DuckDB and PostgreSQL. */
const recordKeysList = (keyColumn: string) => `array_agg(CAST(${keyColumn} AS INTEGER))`;

/** The aggregate query of a cohort: persons counted by sex, age band, race and ethnicity (and, with `sketches`, their record keys). */
export function compileCohortAggregate(tree: QueryGroup, schema: string, options: { sketches: boolean }): CompiledPredicate {
  const predicate = compileCohortPredicate(tree, schema);
  return { sql: aggregateStatement(`FROM "${schema}"."person" p WHERE ${predicate.sql}`, options), params: predicate.params };
}

/** Just the number of persons (tests compare engines on it). */
export function compileCohortCount(tree: QueryGroup, schema: string): CompiledPredicate {
  const predicate = compileCohortPredicate(tree, schema);
  return { sql: `SELECT COUNT(*) AS n FROM "${schema}"."person" p WHERE ${predicate.sql}`, params: predicate.params };
}
