import { useId, useMemo } from 'react';
import { Select, Space, Switch } from 'antd';
import {
  QueryBuilder,
  type ActionProps,
  type CombinatorSelectorProps,
  type FieldSelectorProps,
  type NotToggleProps,
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
import { validationMap, type RuleProblem } from '../rule-validation';
import { groupMeasurementConcept, hasUnit } from '../criteria-summary';
import { ConceptPicker } from './concept-picker';
import { MeasurementUnit } from './concept-info';

/** The invalid rule stands out; its sentence sits under its value. */
const PROBLEM_STYLES = `
.queryBuilder .rule.rule-has-problem, .queryBuilder .ruleGroup.rule-has-problem { outline: 2px solid #cf1322; outline-offset: 2px; background: #fff1f0; }
.queryBuilder .rule-problem { color: #a8071a; font-size: 13px; margin-top: 2px; }
.queryBuilder .rule-value { display: inline-flex; flex-direction: column; align-items: flex-start; }
.queryBuilder .rule-value-row { display: inline-flex; align-items: center; gap: 6px; flex-wrap: wrap; }
`;

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

/** The group's NOT switch, labelled "Not" whether it is on or off (antd's shows "=" until switched). */
function NotToggle(props: NotToggleProps) {
  const id = useId();
  const table = (props.ruleGroup as QueryGroup | undefined)?.table;
  return (
    <Space size={4} className={props.className} title={table ? 'Persons with no such record' : 'Persons who do not match this group'}>
      <Switch size="small" checked={!!props.checked} disabled={props.disabled} onChange={(checked) => props.handleOnChange(checked)} aria-labelledby={id} />
      <span id={id}>Not</span>
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

/** The sentence of an invalid rule, from the builder's validation map. */
function problemOf(validation: ValueEditorProps['validation']): string | undefined {
  return validation && typeof validation === 'object' && !validation.valid ? String(validation.reasons?.[0] ?? '') || undefined : undefined;
}

/** The unit of the group's measurement concept, beside a value that carries one. */
function ValueUnit({ path, field }: { path: Path; field: BuilderField }) {
  const query = useAppSelector(selectQuery);
  if (!hasUnit(field.name)) return null;
  let group: QueryGroup | undefined = query;
  for (const index of path.slice(0, -1)) group = group?.rules[index] as QueryGroup | undefined;
  if (!group) return null;
  return <MeasurementUnit conceptId={groupMeasurementConcept(group)} withAlternatives />;
}

function ValueEditor(props: ValueEditorProps) {
  const field = props.fieldData as unknown as BuilderField;
  const problemId = useId();
  if (props.operator === 'null' || props.operator === 'notNull') return null;
  const problem = problemOf(props.validation);
  const invalid = problem ? { 'aria-invalid': true, 'aria-describedby': problemId } : {};
  const editor =
    field.conceptDomain !== undefined ? (
      <ConceptPicker
        domain={field.conceptDomain}
        multiple={props.operator === 'in' || props.operator === 'notIn'}
        value={props.value}
        onChange={props.handleOnChange}
        label={`${field.label} concepts`}
        disabled={props.disabled}
        invalid={problem ? problemId : undefined}
      />
    ) : (
      <AntDValueEditor {...props} {...{ extraProps: { 'aria-label': `${field.label} value`, ...invalid } }} />
    );
  return (
    <span className="rule-value">
      <span className="rule-value-row">
        {editor}
        <ValueUnit path={props.path} field={field} />
      </span>
      {problem ? (
        <span className="rule-problem" id={problemId}>
          {problem}
        </span>
      ) : null}
    </span>
  );
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
  /** Rules to mark as invalid, each with its sentence. */
  problems?: readonly RuleProblem[];
}

/** The query builder (antd) over the schema's fields; the tree lives in the data explorer slice. */
export function QueryEditor({ tables, problems = [] }: QueryEditorProps) {
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
      notToggle: NotToggle,
      valueEditor: ValueEditor,
      addGroupAction: makeAddGroupAction(eventTables),
    }),
    [eventTables],
  );

  const problemMap = useMemo(() => validationMap(problems), [problems]);
  const firstFieldOf = (table: string) => fields.find((g) => g.table === table)?.options[0];

  return (
    <QueryBuilderAntD>
      <style>{PROBLEM_STYLES}</style>
      <QueryBuilder
        fields={fields as never}
        query={query as RuleGroupType}
        onQueryChange={(next) => dispatch(queryChanged(next as QueryGroup))}
        controlElements={controls as never}
        showNotToggle
        listsAsArrays
        parseNumbers="strict-limited"
        resetOnFieldChange
        validator={() => problemMap}
        getRuleClassname={(rule: RuleType) => (rule.id && problemMap[rule.id] ? 'rule-has-problem' : '')}
        getRuleGroupClassname={(group: RuleGroupType) => (group.id && problemMap[group.id] ? 'rule-has-problem' : '')}
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
