import { Fragment, useId } from 'react';
import { Button, Checkbox, InputNumber, Select, Space } from 'antd';
import { CRITERIA_KINDS, type ConceptSet, type CorrelatedCriteria, type Criteria, type CriteriaGroup, type NumericRange, type Window, type WindowEndpoint } from '@hdp/contract';
import {
  CRITERIA_KIND_LABELS,
  KINDS_WITH_CONCEPTS,
  criterionSentence,
  enclosingAnchor,
  groupWords,
  newCorrelatedCriteria,
  removed,
  replaced,
  type Anchor,
  type SentencePart,
} from './definition-model';

/** The concept sets of the definition, and a way to start a new one from a criterion. */
export interface ConceptSetChoice {
  sets: readonly ConceptSet[];
  /** Adds an empty concept set and answers its id. */
  create: () => number;
}

const GENDERS = [
  { value: 8532, label: 'Female' },
  { value: 8507, label: 'Male' },
];

const BOX = { border: '1px solid #e5e8ec', borderRadius: 6, padding: 12, margin: '8px 0', minWidth: 0 } as const;
const LEGEND = { fontSize: 14, fontWeight: 600, padding: '0 4px', width: 'auto', margin: 0, border: 0 } as const;

/** A sentence with the concept set names in italics. */
export function Sentence({ parts, className }: { parts: readonly SentencePart[]; className?: string }) {
  return (
    <p className={className} style={{ margin: '8px 0 0', color: '#1f2933' }}>
      {parts.map((p, i) => (p.emphasis ? <em key={i}>{p.text}</em> : <Fragment key={i}>{p.text}</Fragment>))}
    </p>
  );
}

/** Age bounds as Circe's range: both → between, one → at least / at most, none → no range. */
function ageRange(min: number | null | undefined, max: number | null | undefined): NumericRange | undefined {
  const lo = min ?? undefined;
  const hi = max ?? undefined;
  if (lo !== undefined && hi !== undefined) return { op: 'bt', value: lo, extent: hi };
  if (lo !== undefined) return { op: 'gte', value: lo };
  if (hi !== undefined) return { op: 'lte', value: hi };
  return undefined;
}

function ageBounds(range: NumericRange | undefined): [number | undefined, number | undefined] {
  if (!range) return [undefined, undefined];
  if (range.op === 'bt') return [range.value, range.extent];
  if (range.op === 'gte' || range.op === 'gt') return [range.value, undefined];
  if (range.op === 'lte' || range.op === 'lt') return [undefined, range.value];
  return [range.value, range.value];
}

/** Sets or clears an optional attribute (a cleared one leaves the criterion, so it means "any"). */
function withAttribute<K extends keyof Criteria>(criteria: Criteria, key: K, value: Criteria[K] | undefined): Criteria {
  const next = { ...criteria };
  if (value === undefined || (Array.isArray(value) && value.length === 0)) delete next[key];
  else next[key] = value;
  return next;
}

export interface CriterionEditorProps {
  criteria: Criteria;
  onChange: (criteria: Criteria) => void;
  conceptSets: ConceptSetChoice;
  /** Names the criterion's controls ("Entry event 1", "Censoring event 2"). */
  label: string;
  /** Nesting depth: criteria nested in this one are shown inside it. */
  depth?: number;
}

/** One event criterion: its domain, concept set, first occurrence, age and gender at the event, and criteria relative to it. */
export function CriterionEditor({ criteria, onChange, conceptSets, label, depth = 0 }: CriterionEditorProps) {
  const kind = CRITERIA_KIND_LABELS[criteria.kind];
  const [ageMin, ageMax] = ageBounds(criteria.age);
  const hasConcepts = KINDS_WITH_CONCEPTS.has(criteria.kind);
  const setOptions = [{ value: -1, label: `Any ${kind.noun}` }, ...conceptSets.sets.map((s) => ({ value: s.id, label: s.name }))];
  return (
    <div className="criterion-editor">
      <Space wrap size={8} align="center">
        <Select
          aria-label={`${label}: domain`}
          value={criteria.kind}
          style={{ width: 190 }}
          onChange={(k: Criteria['kind']) => onChange({ ...criteria, kind: k })}
          options={CRITERIA_KINDS.map((k) => ({ value: k, label: CRITERIA_KIND_LABELS[k].label }))}
        />
        {hasConcepts ? (
          <>
            <Select
              aria-label={`${label}: concept set`}
              value={criteria.codesetId ?? -1}
              style={{ width: 200 }}
              onChange={(id: number) => onChange(withAttribute(criteria, 'codesetId', id < 0 ? undefined : id))}
              options={setOptions}
            />
            <Button onClick={() => onChange({ ...criteria, codesetId: conceptSets.create() })}>New concept set</Button>
          </>
        ) : null}
      </Space>
      <Space wrap size={12} align="center" style={{ marginTop: 8 }}>
        {hasConcepts ? (
          <Checkbox checked={!!criteria.first} onChange={(e) => onChange(withAttribute(criteria, 'first', e.target.checked || undefined))}>
            First occurrence in the person&apos;s history
          </Checkbox>
        ) : null}
        <Space size={4} align="center">
          <span>Age at the event</span>
          <InputNumber aria-label={`${label}: age at least`} placeholder="from" min={0} max={150} precision={0} value={ageMin} onChange={(v) => onChange(withAttribute(criteria, 'age', ageRange(v, ageMax)))} style={{ width: 80 }} />
          <span aria-hidden="true">–</span>
          <InputNumber aria-label={`${label}: age at most`} placeholder="to" min={0} max={150} precision={0} value={ageMax} onChange={(v) => onChange(withAttribute(criteria, 'age', ageRange(ageMin, v)))} style={{ width: 80 }} />
        </Space>
        <Select
          aria-label={`${label}: gender`}
          mode="multiple"
          placeholder="Any gender"
          value={criteria.gender ?? []}
          onChange={(g: number[]) => onChange(withAttribute(criteria, 'gender', g))}
          options={GENDERS}
          style={{ minWidth: 150 }}
        />
      </Space>
      {criteria.correlatedCriteria ? (
        <CriteriaGroupEditor
          group={criteria.correlatedCriteria}
          onChange={(g) => onChange(withAttribute(criteria, 'correlatedCriteria', g))}
          onRemove={() => onChange(withAttribute(criteria, 'correlatedCriteria', undefined))}
          conceptSets={conceptSets}
          anchor={enclosingAnchor(criteria.kind)}
          title={`Criteria relative to this ${kind.noun} (not to the index event)`}
          label={`${label}, nested`}
          depth={depth + 1}
        />
      ) : depth < 3 ? (
        <Button type="link" style={{ paddingLeft: 0 }} onClick={() => onChange({ ...criteria, correlatedCriteria: { type: 'ALL', criteriaList: [newCorrelatedCriteria()] } })}>
          Add criteria relative to this {kind.noun}
        </Button>
      ) : null}
    </div>
  );
}

const SIDES = [
  { value: -1, label: 'before' },
  { value: 1, label: 'after' },
];

/** One end of a window: a number of days (empty: as far as the observation period goes) before or after. */
function EndpointEditor({ endpoint, onChange, label }: { endpoint: WindowEndpoint; onChange: (e: WindowEndpoint) => void; label: string }) {
  return (
    <Space size={4} align="center">
      <InputNumber
        aria-label={`${label}: days`}
        placeholder="any"
        min={0}
        max={100000}
        precision={0}
        value={endpoint.days ?? null}
        onChange={(v) => onChange({ ...endpoint, days: v ?? null })}
        style={{ width: 90 }}
      />
      <span>days</span>
      <Select aria-label={`${label}: before or after`} value={endpoint.coeff} onChange={(c: -1 | 1) => onChange({ ...endpoint, coeff: c })} options={SIDES} style={{ width: 90 }} />
    </Space>
  );
}

function WindowEditor({ window, onChange, label, anchor }: { window: Window; onChange: (w: Window) => void; label: string; anchor: Anchor }) {
  return (
    <Space wrap size={8} align="center">
      <span>between</span>
      <EndpointEditor endpoint={window.start} onChange={(start) => onChange({ ...window, start })} label={`${label} start`} />
      <span>and</span>
      <EndpointEditor endpoint={window.end} onChange={(end) => onChange({ ...window, end })} label={`${label} end`} />
      <Select
        aria-label={`${label}: measured from`}
        value={window.useIndexEnd ? 'end' : 'start'}
        onChange={(v: string) => onChange({ ...window, useIndexEnd: v === 'end' || undefined })}
        options={[
          { value: 'start', label: anchor.startName },
          { value: 'end', label: anchor.endName },
        ]}
        popupMatchSelectWidth={false}
        style={{ maxWidth: 260 }}
      />
    </Space>
  );
}

const OCCURRENCES = [
  { value: 'AT_LEAST', label: 'at least' },
  { value: 'EXACTLY', label: 'exactly' },
  { value: 'AT_MOST', label: 'at most' },
];

export interface CorrelatedCriterionEditorProps {
  item: CorrelatedCriteria;
  onChange: (item: CorrelatedCriteria) => void;
  onRemove: () => void;
  conceptSets: ConceptSetChoice;
  anchor: Anchor;
  label: string;
  depth: number;
}

/** A criterion relative to an event: how many occurrences, of what, in which window; read back as a sentence. */
export function CorrelatedCriterionEditor({ item, onChange, onRemove, conceptSets, anchor, label, depth }: CorrelatedCriterionEditorProps) {
  const legendId = useId();
  const setName = conceptSets.sets.find((s) => s.id === item.criteria.codesetId)?.name;
  return (
    <fieldset className="correlated-criterion" aria-labelledby={legendId} style={BOX}>
      <legend id={legendId} style={LEGEND}>
        {label}
      </legend>
      <Space wrap size={8} align="center" style={{ marginBottom: 8 }}>
        <Select
          aria-label={`${label}: occurrences`}
          value={item.occurrence.type}
          onChange={(type: CorrelatedCriteria['occurrence']['type']) => onChange({ ...item, occurrence: { ...item.occurrence, type } })}
          options={OCCURRENCES}
          style={{ width: 110 }}
        />
        <InputNumber
          aria-label={`${label}: number of occurrences`}
          min={0}
          max={100000}
          precision={0}
          value={item.occurrence.count}
          onChange={(v) => onChange({ ...item, occurrence: { ...item.occurrence, count: v ?? 0 } })}
          style={{ width: 80 }}
        />
        <span>occurrences of</span>
      </Space>
      <CriterionEditor criteria={item.criteria} onChange={(criteria) => onChange({ ...item, criteria })} conceptSets={conceptSets} label={label} depth={depth} />
      <div style={{ marginTop: 8 }}>
        <WindowEditor window={item.startWindow} onChange={(startWindow) => onChange({ ...item, startWindow })} label={`${label} window`} anchor={anchor} />
      </div>
      <Space wrap size={12} style={{ marginTop: 8 }}>
        <Checkbox checked={!!item.restrictVisit} onChange={(e) => onChange({ ...item, restrictVisit: e.target.checked || undefined })}>
          In the same visit
        </Checkbox>
        <Checkbox checked={!!item.ignoreObservationPeriod} onChange={(e) => onChange({ ...item, ignoreObservationPeriod: e.target.checked || undefined })}>
          Also outside the observation period
        </Checkbox>
        <Button size="small" danger onClick={onRemove}>
          Remove criterion
        </Button>
      </Space>
      <Sentence className="criterion-sentence" parts={criterionSentence(item, setName, anchor)} />
    </fieldset>
  );
}

const GROUP_TYPES = [
  { value: 'ALL', label: 'all of' },
  { value: 'ANY', label: 'any of' },
  { value: 'AT_LEAST', label: 'at least' },
  { value: 'AT_MOST', label: 'at most' },
];

export interface CriteriaGroupEditorProps {
  group: CriteriaGroup;
  onChange: (group: CriteriaGroup) => void;
  onRemove?: () => void;
  conceptSets: ConceptSetChoice;
  anchor: Anchor;
  /** The group's heading (omitted: the group is the body of something headed already). */
  title?: string;
  label: string;
  depth: number;
}

/** All / any / at least N / at most N of its criteria and nested groups. */
export function CriteriaGroupEditor({ group, onChange, onRemove, conceptSets, anchor, title, label, depth }: CriteriaGroupEditorProps) {
  const legendId = useId();
  const criteria = group.criteriaList ?? [];
  const groups = group.groups ?? [];
  const counted = group.type === 'AT_LEAST' || group.type === 'AT_MOST';
  const body = (
    <>
      <Space wrap size={8} align="center">
        <span>Persons with</span>
        <Select
          aria-label={`${label}: how the criteria combine`}
          value={group.type}
          onChange={(type: CriteriaGroup['type']) => onChange({ ...group, type, ...(type === 'AT_LEAST' || type === 'AT_MOST' ? { count: group.count ?? 1 } : { count: undefined }) })}
          options={GROUP_TYPES}
          style={{ width: 110 }}
        />
        {counted ? (
          <InputNumber aria-label={`${label}: how many criteria`} min={0} max={100} precision={0} value={group.count ?? 1} onChange={(v) => onChange({ ...group, count: v ?? 0 })} style={{ width: 70 }} />
        ) : null}
        <span className="group-words" style={{ color: '#5b6470' }}>
          ({groupWords(group)} the criteria below)
        </span>
      </Space>
      {criteria.map((item, i) => (
        <CorrelatedCriterionEditor
          key={i}
          item={item}
          onChange={(next) => onChange({ ...group, criteriaList: replaced(criteria, i, next) })}
          onRemove={() => onChange({ ...group, criteriaList: removed(criteria, i) })}
          conceptSets={conceptSets}
          anchor={anchor}
          label={`${label}, criterion ${i + 1}`}
          depth={depth}
        />
      ))}
      {groups.map((g, i) => (
        <CriteriaGroupEditor
          key={`g${i}`}
          group={g}
          onChange={(next) => onChange({ ...group, groups: replaced(groups, i, next) })}
          onRemove={() => onChange({ ...group, groups: removed(groups, i) })}
          conceptSets={conceptSets}
          anchor={anchor}
          title={`Group ${i + 1}`}
          label={`${label}, group ${i + 1}`}
          depth={depth + 1}
        />
      ))}
      <Space wrap size={8} style={{ marginTop: 8 }}>
        <Button onClick={() => onChange({ ...group, criteriaList: [...criteria, newCorrelatedCriteria()] })}>Add criterion</Button>
        {depth < 4 ? <Button onClick={() => onChange({ ...group, groups: [...groups, { type: 'ALL', criteriaList: [newCorrelatedCriteria()] }] })}>Add group</Button> : null}
        {onRemove ? (
          <Button danger onClick={onRemove}>
            Remove {title ? title.toLowerCase() : 'group'}
          </Button>
        ) : null}
      </Space>
    </>
  );
  if (!title) return <div className="criteria-group">{body}</div>;
  return (
    <fieldset className="criteria-group" aria-labelledby={legendId} style={{ ...BOX, background: depth > 0 ? '#fafbfc' : undefined }}>
      <legend id={legendId} style={LEGEND}>
        {title}
      </legend>
      {body}
    </fieldset>
  );
}
