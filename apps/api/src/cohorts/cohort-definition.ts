import type { CohortDefinition, CriteriaLine, QueryGroup, QueryRule } from '@hdp/contract';
import type { StoredCohortDefinition } from '../db/schema';
import { EXPLORER_FIELD_BY_NAME, EXPLORER_TABLE_BY_NAME, type FieldDefinition } from '../warehouse/explorer-fields';
import type { WarehouseEngine } from '../warehouse/warehouse-engine';

/**
 * A cohort version's definition: the query tree its persons were selected by, and the same
 * criteria in plain language ("Sex is Female", "At least one Condition record where: …") so that
 * its author and the data steward who reviews it can read what the cohort is.
 */

const isGroup = (item: unknown): item is QueryGroup =>
  item !== null && typeof item === 'object' && Array.isArray((item as QueryGroup).rules);

/** A list value as the compiler reads it: an array, comma-separated text, or one value. */
function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.split(',').map((v) => v.trim()).filter((v) => v !== '');
  return value === undefined || value === null ? [] : [value];
}

function conceptIdOf(value: unknown): number | null {
  const raw = typeof value === 'object' && value !== null && 'concept_id' in value ? (value as { concept_id: unknown }).concept_id : value;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
}

/** Every concept id the tree names in a concept-picker rule (fixed lists have their own labels). */
export function conceptIdsOf(tree: QueryGroup): number[] {
  const ids = new Set<number>();
  const walk = (group: QueryGroup) => {
    for (const item of group.rules ?? []) {
      if (isGroup(item)) walk(item);
      else if (item && typeof item === 'object' && EXPLORER_FIELD_BY_NAME.get(String(item.field))?.valueEditor.type === 'concept') {
        for (const value of listOf(item.value)) {
          const id = conceptIdOf(value);
          if (id !== null) ids.add(id);
        }
      }
    }
  };
  if (isGroup(tree)) walk(tree);
  return [...ids];
}

/** The names of these concepts in the dataset now served (missing ones are left out). */
export async function conceptNames(warehouse: WarehouseEngine, ids: readonly number[]): Promise<Record<string, string>> {
  const state = warehouse.state;
  if (!state || ids.length === 0) return {};
  const list = ids.slice(0, 1000);
  const rows = await warehouse.query(
    `SELECT concept_id, concept_name FROM "${state.schema}"."concept" WHERE concept_id IN (${list.map((_, i) => `CAST($${i + 1} AS BIGINT)`).join(', ')})`,
    list,
    { timeoutMs: 10_000 },
  );
  return Object.fromEntries(rows.map((row) => [String(row.concept_id), String(row.concept_name ?? '')]));
}

/** The definition to keep with a new version: the tree and the names of its concepts now. */
export async function definitionToKeep(warehouse: WarehouseEngine, tree: QueryGroup): Promise<StoredCohortDefinition> {
  return { query: tree, concept_names: await conceptNames(warehouse, conceptIdsOf(tree)).catch(() => ({})) };
}

const OPERATOR_WORDS: Record<string, string> = {
  '=': 'is', '!=': 'is not', '<': 'is below', '<=': 'is at most', '>': 'is above', '>=': 'is at least',
  in: 'is any of', notIn: 'is none of', between: 'is between', notBetween: 'is not between',
  null: 'is empty', notNull: 'is not empty', contains: 'contains', beginsWith: 'begins with',
};
const DATE_WORDS: Record<string, string> = { '<': 'is before', '<=': 'is on or before', '>': 'is after', '>=': 'is on or after' };
const COUNT_WORDS: Record<string, string> = { '>=': 'at least', '>': 'more than', '=': 'exactly', '<=': 'at most', '<': 'fewer than' };

function valueText(value: unknown, field: FieldDefinition | undefined, names: Record<string, string>): string {
  if (field?.valueEditor.type === 'select') {
    const option = field.valueEditor.values?.find((o) => String(o.value) === String(value));
    if (option) return option.label;
  }
  if (field?.type === 'concept') {
    const id = conceptIdOf(value);
    if (id !== null) return names[String(id)] ? `${names[String(id)]} (concept ${id})` : `concept ${id}`;
  }
  return typeof value === 'string' ? value : JSON.stringify(value ?? '');
}

function joinWords(items: string[], last: 'or' | 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`;
}

function ruleText(rule: QueryRule, names: Record<string, string>): string {
  const field = EXPLORER_FIELD_BY_NAME.get(String(rule.field));
  const label = field?.label ?? String(rule.field);
  const operator = String(rule.operator);
  if (field?.source.kind === 'recordCount') return `${label}: ${COUNT_WORDS[operator] ?? operator} ${valueText(rule.value, field, names)}`;
  const words = (field?.type === 'date' ? DATE_WORDS[operator] : undefined) ?? OPERATOR_WORDS[operator] ?? operator;
  if (operator === 'null' || operator === 'notNull') return `${label} ${words}`;
  if (operator === 'between' || operator === 'notBetween') {
    const [from, to] = listOf(rule.value);
    return `${label} ${words} ${valueText(from, field, names)} and ${valueText(to, field, names)} (inclusive)`;
  }
  const values = operator === 'in' || operator === 'notIn' ? listOf(rule.value) : [rule.value];
  const text = joinWords(values.map((v) => valueText(v, field, names)), operator === 'notIn' ? 'and' : 'or');
  const descendants =
    field?.valueEditor.type === 'concept' && field.includesDescendants ? (rule.includeDescendants === false ? ' (this concept only)' : ' (or a descendant)') : '';
  return `${label} ${words} ${text}${descendants}`;
}

function groupHeading(group: QueryGroup): string {
  const any = String(group.combinator ?? 'and').toLowerCase() === 'or';
  const table = typeof group.table === 'string' ? EXPLORER_TABLE_BY_NAME.get(group.table) : undefined;
  if (table && table.kind === 'event') {
    const which = any ? 'any of these holds' : 'all of these hold';
    return group.not === true ? `No ${table.label} record where ${which}:` : `At least one ${table.label} record where ${which}:`;
  }
  if (group.not === true) return any ? 'None of these:' : 'Not all of these:';
  return any ? 'Any of these:' : 'All of these:';
}

/** The criteria in plain language, one line per rule, a group's rules one level deeper than its heading. */
export function describeCriteria(tree: QueryGroup, names: Record<string, string>): CriteriaLine[] {
  if (!isGroup(tree) || tree.rules.length === 0) return [{ depth: 0, text: 'Every person in the dataset (no criteria).' }];
  const lines: CriteriaLine[] = [];
  const walk = (group: QueryGroup, depth: number) => {
    lines.push({ depth, text: groupHeading(group) });
    for (const item of group.rules) {
      if (isGroup(item)) walk(item, depth + 1);
      else if (item && typeof item === 'object') lines.push({ depth: depth + 1, text: ruleText(item, names) });
    }
  };
  walk(tree, 0);
  return lines;
}

/** The definition as the API answers it; concept names not kept with it are looked up in the data served now. */
export async function presentDefinition(warehouse: WarehouseEngine, stored: StoredCohortDefinition | null): Promise<CohortDefinition | null> {
  if (!stored) return null;
  const missing = conceptIdsOf(stored.query).filter((id) => !stored.concept_names[String(id)]);
  const looked = missing.length ? await conceptNames(warehouse, missing).catch(() => ({})) : {};
  return { query: stored.query, summary: describeCriteria(stored.query, { ...stored.concept_names, ...looked }) };
}
