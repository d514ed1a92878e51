import type { ExplorerField, ExplorerTable, QueryGroup, QueryRule } from '@hdp/contract';

/** A query builder field made from the schema: the operators, value editor and table come with it. */
export interface BuilderField {
  name: string;
  value: string;
  label: string;
  table: string;
  operators: { name: string; value: string; label: string }[];
  valueEditorType: (operator: string) => 'text' | 'select' | 'multiselect';
  inputType?: 'number' | 'date' | 'text';
  values?: { name: string; value: string; label: string }[];
  /** A concept picker searches concepts of this OMOP domain. */
  conceptDomain?: string;
  [key: string]: unknown;
}

export interface BuilderFieldGroup {
  label: string;
  table: string;
  options: BuilderField[];
}

const LISTS = new Set(['in', 'notIn']);

function builderField(table: ExplorerTable, field: ExplorerField): BuilderField {
  const editor = field.valueEditor;
  return {
    name: field.name,
    value: field.name,
    label: field.label,
    table: table.name,
    operators: field.operators.map((o) => ({ name: o.name, value: o.name, label: o.label })),
    valueEditorType: (operator) => (editor.type === 'select' ? (LISTS.has(operator) ? 'multiselect' : 'select') : 'text'),
    inputType: editor.type === 'number' ? 'number' : editor.type === 'date' ? 'date' : 'text',
    ...(editor.values ? { values: editor.values.map((v) => ({ name: String(v.value), value: String(v.value), label: v.label })) } : {}),
    ...(editor.type === 'concept' ? { conceptDomain: editor.domain ?? '' } : {}),
  };
}

/** The schema's tables as option groups of query builder fields, one group per table. */
export function builderFields(tables: readonly ExplorerTable[]): BuilderFieldGroup[] {
  return tables.map((table) => ({ label: table.label, table: table.name, options: table.fields.map((field) => builderField(table, field)) }));
}

function isGroup(item: QueryRule | QueryGroup): item is QueryGroup {
  return Array.isArray((item as QueryGroup).rules);
}

/** The event table whose records the group at `path` (or its nearest scoped ancestor) is about. */
export function scopedTable(query: QueryGroup, path: readonly number[]): string | undefined {
  let group: QueryGroup = query;
  let table = query.table;
  for (const index of path) {
    const next = group.rules[index];
    if (!next || !isGroup(next)) break;
    group = next;
    table = next.table ?? table;
  }
  return table;
}

/** The tree without the ids and paths the query builder adds: what the API is given and compares. */
export function withoutIds(group: QueryGroup): QueryGroup {
  const { id: _id, path: _path, ...rest } = group;
  return {
    ...rest,
    rules: group.rules.map((item) => {
      if (isGroup(item)) return withoutIds(item);
      const { id: _ruleId, path: _rulePath, ...rule } = item as QueryRule & { path?: unknown };
      return rule;
    }),
  } as QueryGroup;
}

/** Whether two trees ask the same question (ids aside). */
export function sameTree(a: QueryGroup, b: QueryGroup): boolean {
  return JSON.stringify(withoutIds(a)) === JSON.stringify(withoutIds(b));
}

/** How many rules the tree holds, at any depth. */
export function countRules(group: QueryGroup): number {
  return group.rules.reduce((n, item) => n + (isGroup(item) ? countRules(item) : 1), 0);
}
