import { useMemo } from 'react';
import { Select, Space } from 'antd';
import {
  QueryBuilder,
  type ActionProps,
  type CombinatorSelectorProps,
  type FieldSelectorProps,
  type Path,
  type RuleGroupType,
  type RuleType,
  type ValueEditorProps,
  type ValueSelectorProps,
} from 'react-querybuilder';
import { AntDActionElement, AntDValueEditor, AntDValueSelector, QueryBuilderAntD } from '@react-querybuilder/antd';
import 'react-querybuilder/dist/query-builder.css';
import type { ExplorerTable, QueryGroup } from '@hdp/contract';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { queryChanged, selectQuery } from '../slice';
import { builderFields, scopedTable, type BuilderField, type BuilderFieldGroup } from '../query-tree';
import { ConceptPicker } from './concept-picker';

/** antd selects render no label: name each one after its role (axe needs an accessible name). */
function LabeledSelector(props: ValueSelectorProps) {
  return <AntDValueSelector {...props} aria-label={(props as { 'aria-label'?: string })['aria-label'] ?? props.title} />;
}

function CombinatorSelector(props: CombinatorSelectorProps) {
  const table = (props.ruleGroup as QueryGroup).table;
  const tables = props.schema.fields as unknown as BuilderFieldGroup[];
  const label = tables.find((t) => t.table === table)?.label;
  return (
    <Space size={4}>
      {table ? <span className="event-group-label">{props.ruleGroup.not ? `No ${label} record where` : `A ${label} record where`}</span> : null}
      <AntDValueSelector {...(props as unknown as ValueSelectorProps)} aria-label={table ? `How the ${label} rules combine` : 'How the rules combine'} />
    </Space>
  );
}

/** Inside a group scoped to an event table, only that table's fields are offered. */
function FieldSelector(props: FieldSelectorProps) {
  const query = useAppSelector(selectQuery);
  const table = scopedTable(query, props.path.slice(0, -1));
  const groups = props.options as unknown as BuilderFieldGroup[];
  const options = table ? groups.filter((g) => g.table === table) : groups;
  return <AntDValueSelector {...(props as ValueSelectorProps)} options={options as never} aria-label="Field" />;
}

function ValueEditor(props: ValueEditorProps) {
  const field = props.fieldData as unknown as BuilderField;
  if (props.operator === 'null' || props.operator === 'notNull') return null;
  if (field.conceptDomain !== undefined) {
    return (
      <ConceptPicker
        domain={field.conceptDomain}
        multiple={props.operator === 'in' || props.operator === 'notIn'}
        value={props.value}
        onChange={props.handleOnChange}
        label={`${field.label} concepts`}
        disabled={props.disabled}
      />
    );
  }
  return <AntDValueEditor {...props} {...{ extraProps: { 'aria-label': `${field.label} value` } }} />;
}

/** "+ Group" and a select that adds a group about the records of one event table. */
function makeAddGroupAction(eventTables: readonly ExplorerTable[]) {
  return function AddGroupAction(props: ActionProps) {
    return (
      <Space size={4}>
        <AntDActionElement {...props} />
        <Select
          aria-label="Add a group of records"
          placeholder="+ Records of…"
          value={null}
          style={{ minWidth: 150 }}
          popupMatchSelectWidth={false}
          disabled={props.disabled}
          options={eventTables.map((t) => ({ value: t.name, label: t.label }))}
          onChange={(table: string) => props.handleOnClick(undefined, { table })}
        />
      </Space>
    );
  };
}

export interface QueryEditorProps {
  tables: readonly ExplorerTable[];
}

/** The query builder (antd) over the schema's fields; the tree lives in the data explorer slice. */
export function QueryEditor({ tables }: QueryEditorProps) {
  const dispatch = useAppDispatch();
  const query = useAppSelector(selectQuery);
  const fields = useMemo(() => builderFields(tables), [tables]);
  const eventTables = useMemo(() => tables.filter((t) => t.kind === 'event'), [tables]);
  const controls = useMemo(
    () => ({
      fieldSelector: FieldSelector,
      operatorSelector: LabeledSelector,
      valueSelector: LabeledSelector,
      combinatorSelector: CombinatorSelector,
      valueEditor: ValueEditor,
      addGroupAction: makeAddGroupAction(eventTables),
    }),
    [eventTables],
  );

  const firstFieldOf = (table: string) => fields.find((g) => g.table === table)?.options[0];

  return (
    <QueryBuilderAntD>
      <QueryBuilder
        fields={fields as never}
        query={query as RuleGroupType}
        onQueryChange={(next) => dispatch(queryChanged(next as QueryGroup))}
        controlElements={controls as never}
        showNotToggle
        listsAsArrays
        parseNumbers="strict-limited"
        resetOnFieldChange
        onAddGroup={(group: RuleGroupType, _parentPath: Path, _query: RuleGroupType, context?: { table?: string }) => {
          const table = context?.table;
          if (!table) return group;
          const field = firstFieldOf(table);
          const rules: RuleType[] = field ? [{ field: field.name, operator: field.operators[0]?.name ?? '=', value: '' }] : [];
          return { ...group, table, rules };
        }}
        onAddRule={(rule: RuleType, parentPath: Path) => {
          const table = scopedTable(query, parentPath);
          const field = table ? firstFieldOf(table) : undefined;
          if (!field || rule.field.startsWith(`${table}.`)) return rule;
          return { ...rule, field: field.name, operator: field.operators[0]?.name ?? '=', value: '' };
        }}
      />
    </QueryBuilderAntD>
  );
}
