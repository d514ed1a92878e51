import type { ExplorerField, ExplorerTable, QueryGroup, QueryRule } from '@hdp/contract';

/** One rule (or group) the builder will not run or save, and the sentence that says how to fix it. */
export interface RuleProblem {
  /** Indices from the root group to the item (`[3, 1]` is the second rule of the fourth item). */
  path: number[];
  /** The item's id in the builder, when it has one (the highlight is keyed by it). */
  id?: string;
  /** "Rule 2 (Age (years))": names the item in the list of problems. */
  name: string;
  /** A sentence a person can act on: "Enter an age (years)." */
  message: string;
}

const NO_VALUE_OPERATORS = new Set(['null', 'notNull']);
const LIST_OPERATORS = new Set(['in', 'notIn']);
const RANGE_OPERATORS = new Set(['between', 'notBetween']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isGroup(item: QueryRule | QueryGroup): item is QueryGroup {
  return Array.isArray((item as QueryGroup).rules);
}

/** "an age (years)", "a value": the field's label as the object of "Enter". */
export function withArticle(label: string): string {
  const lower = label.charAt(0).toLowerCase() + label.slice(1);
  return `${/^[aeiou]/i.test(lower) ? 'an' : 'a'} ${lower}`;
}

function fieldIndex(tables: readonly ExplorerTable[]): Map<string, ExplorerField> {
  return new Map(tables.flatMap((table) => table.fields.map((field) => [field.name, field] as const)));
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function isDate(value: unknown): boolean {
  return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
}

/** The items of a list or range value: an array, or the builder's comma-separated text. */
function itemsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.trim() === '' ? [] : value.split(',').map((v) => v.trim());
  return isBlank(value) ? [] : [value];
}

/** What is wrong with one value of a field, or null. */
function singleValueProblem(field: ExplorerField, value: unknown): string | null {
  const editor = field.valueEditor.type;
  if (editor === 'concept') return isBlank(value) ? 'Choose a concept.' : null;
  if (editor === 'select') return isBlank(value) ? `Choose ${withArticle(field.label)}.` : null;
  if (editor === 'date') {
    if (isBlank(value)) return 'Enter a date.';
    return isDate(value) ? null : 'Enter a date as YYYY-MM-DD.';
  }
  if (editor === 'number') {
    if (isBlank(value)) return `Enter ${withArticle(field.label)}.`;
    const n = asNumber(value);
    if (n === null) return `${field.label} must be a number.`;
    if (field.type === 'count' && (!Number.isInteger(n) || n < 0)) return 'Enter a whole number, 0 or more.';
    return null;
  }
  if (isBlank(value)) return `Enter ${withArticle(field.label)}.`;
  return typeof value === 'string' && value.length > 200 ? 'Use at most 200 characters.' : null;
}

/** What is wrong with a rule, as a sentence, or null when it can run. */
export function ruleProblem(rule: QueryRule, field: ExplorerField | undefined): string | null {
  if (!field) return 'Choose a field.';
  if (NO_VALUE_OPERATORS.has(rule.operator)) return null;
  if (RANGE_OPERATORS.has(rule.operator)) {
    const [from, to] = itemsOf(rule.value);
    if (isBlank(from) || isBlank(to)) return 'Enter both the minimum and the maximum.';
    const problem = singleValueProblem(field, from) ?? singleValueProblem(field, to);
    if (problem) return problem;
    const low = field.valueEditor.type === 'date' ? String(from) : asNumber(from)!;
    const high = field.valueEditor.type === 'date' ? String(to) : asNumber(to)!;
    return low > high ? 'The minimum must not be above the maximum.' : null;
  }
  if (LIST_OPERATORS.has(rule.operator)) {
    const items = itemsOf(rule.value);
    if (items.length === 0) return field.valueEditor.type === 'concept' ? 'Choose at least one concept.' : 'Choose at least one value.';
    for (const item of items) {
      const problem = singleValueProblem(field, item);
      if (problem) return problem;
    }
    return null;
  }
  return singleValueProblem(field, rule.value);
}

/** A name for an item in the list of problems: "Rule 2 (Age (years))", "Group 4 (Measurement)". */
function itemName(ordinal: number, item: QueryRule | QueryGroup, fields: Map<string, ExplorerField>, tables: readonly ExplorerTable[]): string {
  if (isGroup(item)) {
    const label = tables.find((t) => t.name === item.table)?.label;
    return `Group ${ordinal}${label ? ` (${label})` : ''}`;
  }
  const label = fields.get(item.field)?.label;
  return `Rule ${ordinal}${label ? ` (${label})` : ''}`;
}

/** Walks the tree in reading order, numbering items from 1 as they appear. */
function walk(group: QueryGroup, visit: (item: QueryRule | QueryGroup, path: number[], ordinal: number) => void): void {
  let ordinal = 0;
  const go = (g: QueryGroup, prefix: number[]) => {
    g.rules.forEach((item, index) => {
      const path = [...prefix, index];
      visit(item, path, ++ordinal);
      if (isGroup(item)) go(item, path);
    });
  };
  go(group, []);
}

/** Every rule the builder must not run or save as it is, in reading order. */
export function validateQuery(query: QueryGroup, tables: readonly ExplorerTable[]): RuleProblem[] {
  const fields = fieldIndex(tables);
  const problems: RuleProblem[] = [];
  walk(query, (item, path, ordinal) => {
    if (isGroup(item)) {
      if (item.table && item.rules.length === 0) {
        problems.push({ path, id: item.id, name: itemName(ordinal, item, fields, tables), message: 'Add a rule to this group, or remove it.' });
      }
      return;
    }
    const message = ruleProblem(item, fields.get(item.field));
    if (message) problems.push({ path, id: item.id as string | undefined, name: itemName(ordinal, item, fields, tables), message });
  });
  return problems;
}

/** The server's reasons (cohort compiler) in words a person can act on. */
function plainReason(reason: string, field: ExplorerField | undefined): string {
  const label = field?.label ?? 'value';
  if (reason === 'value must be a number') return `Enter ${withArticle(label)} as a number.`;
  if (reason === 'value must be a whole number') return 'Enter a whole number.';
  if (reason.startsWith('value must be a date')) return 'Enter a date as YYYY-MM-DD.';
  if (reason === 'value must be two values: [from, to]') return 'Enter both the minimum and the maximum.';
  if (reason === 'value must list at least one value') return 'Choose at least one value.';
  if (reason.startsWith('value may list at most')) return `Choose fewer values (${reason.replace(/^value may list at most /, 'at most ')}).`;
  if (reason === 'value must be 0 or more') return 'Enter a whole number, 0 or more.';
  if (reason.startsWith('value must be text')) return 'Use at most 200 characters.';
  if (reason === 'unknown field') return 'This field is not available; choose another.';
  if (reason.startsWith('operator ')) return 'Choose another operator for this field.';
  if (reason.startsWith('belongs to ')) return 'This field does not belong in this group; move the rule or choose another field.';
  if (reason.startsWith('a query may hold at most')) return `The query is too long: ${reason.replace(/^a query may hold /, 'it may hold ')}.`;
  if (reason.startsWith('groups nest more than')) return 'Groups are nested too deeply; move this group up a level.';
  if (reason.startsWith('a record count')) return 'A number of records belongs directly in a group of records, with its rules combined by AND.';
  return 'This rule cannot be used as it is; check its field, operator and value.';
}

const SERVER_PATH = /^query((?:\.rules\[\d+\])*)(?: \([^)]*\))?: (.+)$/s;

/**
 * The server's refusal of a tree (`query.rules[0] (person.age): value must be a number`) as the
 * builder's own problem: the same item highlighted, a sentence instead of the path. Null when the
 * detail names no item of this tree.
 */
export function problemFromServerDetail(detail: string | undefined, query: QueryGroup, tables: readonly ExplorerTable[]): RuleProblem | null {
  const match = detail ? SERVER_PATH.exec(detail.trim()) : null;
  if (!match) return null;
  const path = [...match[1]!.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  if (path.length === 0) return null;
  const fields = fieldIndex(tables);
  let found: { item: QueryRule | QueryGroup; ordinal: number } | null = null;
  walk(query, (item, itemPath, ordinal) => {
    if (itemPath.length === path.length && itemPath.every((n, i) => n === path[i])) found = { item, ordinal };
  });
  if (!found) return null;
  const { item, ordinal } = found as { item: QueryRule | QueryGroup; ordinal: number };
  const field = isGroup(item) ? undefined : fields.get(item.field);
  // The builder's own sentence when it sees the problem too; the server's reason, in plain words, otherwise.
  const message = (!isGroup(item) && ruleProblem(item, field)) || plainReason(match[2]!.trim(), field);
  return { path, id: item.id as string | undefined, name: itemName(ordinal, item, fields, tables), message };
}

/** The builder's highlight: each problem keyed by the item's id (react-querybuilder's validation map). */
export function validationMap(problems: readonly RuleProblem[]): Record<string, { valid: false; reasons: string[] }> {
  return Object.fromEntries(problems.filter((p) => p.id).map((p) => [p.id!, { valid: false as const, reasons: [p.message] }]));
}
