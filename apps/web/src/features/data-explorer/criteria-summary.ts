import type { ExplorerField, ExplorerTable, QueryGroup, QueryRule } from '@hdp/contract';

/**
 * A piece of the plain-language summary of a query: text, a concept to name (looked up by id in
 * its domain), or the unit of the measurement concept a value belongs to.
 */
export type SummaryPart = { kind: 'text'; text: string } | { kind: 'concept'; conceptId: number; domain?: string } | { kind: 'unit'; conceptId: number };

const text = (value: string): SummaryPart => ({ kind: 'text', text: value });

function isGroup(item: QueryRule | QueryGroup): item is QueryGroup {
  return Array.isArray((item as QueryGroup).rules);
}

function itemsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.trim() === '' ? [] : value.split(',').map((v) => v.trim());
  return value === undefined || value === null ? [] : [value];
}

/** Concept ids of a rule's value (a number, numeric text, or a list of them). */
export function conceptIdsOf(value: unknown): number[] {
  return itemsOf(value)
    .map((v) => Number(typeof v === 'object' && v !== null && 'concept_id' in v ? (v as { concept_id: unknown }).concept_id : v))
    .filter((n) => Number.isSafeInteger(n) && n !== 0);
}

/** The measurement concept a group's value rules are about: the first concept of the group's concept rule. */
export function groupMeasurementConcept(group: QueryGroup): number | undefined {
  if (!group.table) return undefined;
  const conceptRule = group.rules.find(
    (item): item is QueryRule => !isGroup(item) && item.field === `${group.table}.${group.table}_concept_id` && (item.operator === '=' || item.operator === 'in'),
  );
  return conceptRule ? conceptIdsOf(conceptRule.value)[0] : undefined;
}

/** Fields whose values carry the unit of the group's concept. */
export const hasUnit = (fieldName: string) => /\.value_as_number$/.test(fieldName);

function fieldIndex(tables: readonly ExplorerTable[]): Map<string, ExplorerField> {
  return new Map(tables.flatMap((table) => table.fields.map((field) => [field.name, field] as const)));
}

function valueText(field: ExplorerField | undefined, value: unknown): string {
  const labelled = field?.valueEditor.values?.find((v) => String(v.value) === String(value));
  return labelled ? labelled.label : String(value);
}

function ruleParts(rule: QueryRule, fields: Map<string, ExplorerField>, unitConcept: number | undefined): SummaryPart[] {
  const field = fields.get(rule.field);
  const label = field?.label ?? rule.field;
  const operator = field?.operators.find((o) => o.name === rule.operator)?.label ?? rule.operator;
  const parts: SummaryPart[] = [text(`${label} ${operator}`)];
  if (rule.operator === 'null' || rule.operator === 'notNull') return parts;
  const unit = unitConcept !== undefined && hasUnit(rule.field) ? [{ kind: 'unit', conceptId: unitConcept } as SummaryPart] : [];
  if (field?.valueEditor.type === 'concept') {
    const ids = conceptIdsOf(rule.value);
    ids.forEach((id, i) => {
      parts.push(text(i === 0 ? ' ' : i === ids.length - 1 ? ' or ' : ', '));
      parts.push({ kind: 'concept', conceptId: id, domain: field.valueEditor.domain });
    });
    return parts;
  }
  const items = itemsOf(rule.value);
  if (rule.operator === 'between' || rule.operator === 'notBetween') {
    parts.push(text(` ${valueText(field, items[0])}`), ...unit, text(` and ${valueText(field, items[1])}`), ...unit);
    return parts;
  }
  parts.push(text(` ${items.map((v) => valueText(field, v)).join(items.length > 2 ? ', ' : ' or ')}`), ...unit);
  return parts;
}

function groupParts(group: QueryGroup, fields: Map<string, ExplorerField>, tables: readonly ExplorerTable[], nested: boolean): SummaryPart[] {
  const joiner = (group.combinator ?? 'and').toLowerCase() === 'or' ? ' or ' : ' and ';
  const unitConcept = groupMeasurementConcept(group);
  const inner: SummaryPart[] = [];
  group.rules.forEach((item, i) => {
    if (i > 0) inner.push(text(joiner));
    inner.push(...(isGroup(item) ? groupParts(item, fields, tables, true) : ruleParts(item, fields, unitConcept)));
  });
  if (group.table) {
    const label = tables.find((t) => t.name === group.table)?.label ?? group.table;
    return [text(`${group.not ? 'no' : 'a'} ${label} record where `), ...(group.rules.length > 1 ? [text('('), ...inner, text(')')] : inner)];
  }
  if (!nested) return group.not ? [text('not ('), ...inner, text(')')] : inner;
  return [text(group.not ? 'not (' : '('), ...inner, text(')')];
}

/** The query in words: "Sex is Female and Age (years) between 40 and 65 and a Measurement record where …". */
export function summarizeQuery(query: QueryGroup, tables: readonly ExplorerTable[]): SummaryPart[] {
  if (query.cohortDefinition) {
    const cohort = text('Persons in the cohort of the cohort definition (its attrition is below)');
    return query.rules.length === 0 ? [cohort] : [cohort, text(' who also match: '), ...groupParts(query, fieldIndex(tables), tables, false)];
  }
  if (query.rules.length === 0) return [text('All persons (no criteria)')];
  return groupParts(query, fieldIndex(tables), tables, false);
}
