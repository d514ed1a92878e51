import { Fragment, useId, useState } from 'react';
import { Button, Checkbox, Input, InputNumber, Select, Space } from 'antd';
import { CRITERIA_KINDS } from '@hdp/contract/criteria-attributes';
import type {
  ConceptSet,
  CorrelatedCriteria,
  Criteria,
  CriteriaGroup,
  DateRange,
  DemographicCriteria,
  NumericRange,
  Window,
  WindowEndpoint,
} from '@hdp/contract';
import { useConceptNames } from '../api/explorer-schema';
import { ConceptPicker } from '../components/concept-picker';
import {
  CRITERIA_KIND_LABELS,
  ETHNICITIES,
  GENDERS,
  INDEX_ANCHOR,
  KINDS_WITH_CONCEPTS,
  RACES,
  VISIT_TYPES,
  criterionSentence,
  demographicSentence,
  enclosingAnchor,
  eventSentence,
  groupWords,
  hasFirst,
  kindAttributes,
  newCorrelatedCriteria,
  removed,
  replaced,
  unknownAttributeConceptIds,
  withKind,
  type Anchor,
  type AttributeKey,
  type SentencePart,
} from './definition-model';

/** The concept sets of the definition, and a way to start a new one from a criterion. */
export interface ConceptSetChoice {
  sets: readonly ConceptSet[];
  /** Adds an empty concept set and answers its id. */
  create: () => number;
}

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

/** Age from / to at an event or the index date, as Circe's range. */
function AgeEditor({ value, onChange, label, text }: { value: NumericRange | undefined; onChange: (v: NumericRange | undefined) => void; label: string; text: string }) {
  const [ageMin, ageMax] = ageBounds(value);
  return (
    <Space size={4} align="center" wrap>
      <span>{text}</span>
      <InputNumber aria-label={`${label}: age at least`} placeholder="from" min={0} max={150} precision={0} value={ageMin} onChange={(v) => onChange(ageRange(v, ageMax))} style={{ width: 80 }} />
      <span aria-hidden="true">–</span>
      <InputNumber aria-label={`${label}: age at most`} placeholder="to" min={0} max={150} precision={0} value={ageMax} onChange={(v) => onChange(ageRange(ageMin, v))} style={{ width: 80 }} />
    </Space>
  );
}

const NUMERIC_OPS = [
  { value: '', label: 'any' },
  { value: 'lt', label: 'less than' },
  { value: 'lte', label: 'at most' },
  { value: 'eq', label: 'exactly' },
  { value: '!eq', label: 'not' },
  { value: 'gt', label: 'more than' },
  { value: 'gte', label: 'at least' },
  { value: 'bt', label: 'between' },
  { value: '!bt', label: 'not between' },
];
const DATE_OPS = [
  { value: '', label: 'any date' },
  { value: 'lt', label: 'before' },
  { value: 'lte', label: 'on or before' },
  { value: 'eq', label: 'on' },
  { value: '!eq', label: 'not on' },
  { value: 'gt', label: 'after' },
  { value: 'gte', label: 'on or after' },
  { value: 'bt', label: 'between' },
  { value: '!bt', label: 'not between' },
];
const isBetween = (op: string) => op === 'bt' || op === '!bt';

/** A number range (Circe's NumericRange): an operator, a value, and a second value for "between". */
export function NumericRangeEditor({ value, onChange, label, text, unit }: { value: NumericRange | undefined; onChange: (v: NumericRange | undefined) => void; label: string; text: string; unit?: string }) {
  const setOp = (op: string) => {
    if (!op) return onChange(undefined);
    const next: NumericRange = { op: op as NumericRange['op'], value: value?.value ?? 0 };
    if (isBetween(op)) next.extent = value?.extent ?? next.value;
    onChange(next);
  };
  return (
    <Space size={4} align="center" wrap className="numeric-range-editor">
      <span>{text}</span>
      <Select aria-label={`${label}: comparison`} value={value?.op ?? ''} onChange={setOp} options={NUMERIC_OPS} style={{ width: 120 }} />
      {value ? (
        <>
          <InputNumber aria-label={`${label}: value`} value={value.value} onChange={(v) => onChange({ ...value, value: v ?? 0 })} style={{ width: 90 }} />
          {isBetween(value.op) ? (
            <>
              <span>and</span>
              <InputNumber aria-label={`${label}: second value`} value={value.extent ?? null} onChange={(v) => onChange({ ...value, extent: v ?? 0 })} style={{ width: 90 }} />
            </>
          ) : null}
          {unit ? <span>{unit}</span> : null}
        </>
      ) : null}
    </Space>
  );
}

/** A date range (Circe's DateRange): an operator, a date, and a second date for "between". */
export function DateRangeEditor({ value, onChange, label, text }: { value: DateRange | undefined; onChange: (v: DateRange | undefined) => void; label: string; text: string }) {
  const setOp = (op: string) => {
    if (!op) return onChange(undefined);
    const next: DateRange = { op: op as DateRange['op'], value: value?.value ?? '2000-01-01' };
    if (isBetween(op)) next.extent = value?.extent ?? next.value;
    onChange(next);
  };
  return (
    <Space size={4} align="center" wrap className="date-range-editor">
      <span>{text}</span>
      <Select aria-label={`${label}: comparison`} value={value?.op ?? ''} onChange={setOp} options={DATE_OPS} style={{ width: 130 }} />
      {value ? (
        <>
          <Input type="date" aria-label={`${label}: date`} value={value.value} onChange={(e) => e.target.value && onChange({ ...value, value: e.target.value })} style={{ width: 150 }} />
          {isBetween(value.op) ? (
            <>
              <span>and</span>
              <Input type="date" aria-label={`${label}: second date`} value={value.extent ?? ''} onChange={(e) => e.target.value && onChange({ ...value, extent: e.target.value })} style={{ width: 150 }} />
            </>
          ) : null}
        </>
      ) : null}
    </Space>
  );
}

/** A multiple choice of concepts the builder knows by name (gender, race, visit type …); empty = any. */
function KnownConcepts({ value, onChange, label, placeholder, options }: { value: number[] | undefined; onChange: (v: number[]) => void; label: string; placeholder: string; options: { value: number; label: string }[] }) {
  // Concepts outside the list (from an ATLAS import) stay chosen, by their id.
  const all = [...options, ...(value ?? []).filter((id) => !options.some((o) => o.value === id)).map((id) => ({ value: id, label: `Concept ${id}` }))];
  return <Select aria-label={label} mode="multiple" placeholder={placeholder} value={value ?? []} onChange={onChange} options={all} style={{ minWidth: 150, maxWidth: '100%' }} popupMatchSelectWidth={false} />;
}

/** A button whose label may wrap: nested boxes on a phone are narrower than some labels. */
const WRAPPING = { whiteSpace: 'normal', height: 'auto', maxWidth: '100%', textAlign: 'left' } as const;

const ATTRIBUTE_ROW = { display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', margin: '6px 0' } as const;

/**
 * The attributes a kind offers beyond the common ones (exactly those the contract lets it carry):
 * dates, visit type, record type (included or excluded), source concept, value, unit, abnormal,
 * normal range, days supply, quantity, refills, era length and count, period length.
 */
function AttributesEditor({ criteria, onChange, label, conceptSets }: { criteria: Criteria; onChange: (c: Criteria) => void; label: string; conceptSets: ConceptSetChoice }) {
  const offered = new Set<AttributeKey>(kindAttributes(criteria.kind));
  const set = <K extends keyof Criteria>(key: K) => (value: Criteria[K] | undefined) => onChange(withAttribute(criteria, key, value));
  const era = criteria.kind === 'DrugEra' ? 'exposures' : 'occurrences';
  return (
    <div className="criterion-attributes">
      {offered.has('occurrenceStartDate') ? (
        <div style={ATTRIBUTE_ROW}>
          <DateRangeEditor value={criteria.occurrenceStartDate} onChange={set('occurrenceStartDate')} label={`${label}: start date`} text="Starting" />
        </div>
      ) : null}
      {offered.has('occurrenceEndDate') ? (
        <div style={ATTRIBUTE_ROW}>
          <DateRangeEditor value={criteria.occurrenceEndDate} onChange={set('occurrenceEndDate')} label={`${label}: end date`} text="Ending" />
        </div>
      ) : null}
      {offered.has('visitType') ? (
        <div style={ATTRIBUTE_ROW}>
          <span>{criteria.kind === 'VisitOccurrence' ? 'Visit type' : 'In a visit of type'}</span>
          <KnownConcepts value={criteria.visitType} onChange={set('visitType')} label={`${label}: visit type`} placeholder="Any visit" options={VISIT_TYPES} />
        </div>
      ) : null}
      {offered.has('typeConcepts') ? (
        <div style={ATTRIBUTE_ROW}>
          {offered.has('typeExclude') ? (
            <Select
              aria-label={`${label}: record type included or excluded`}
              value={criteria.typeExclude ? 'exclude' : 'include'}
              style={{ width: 160 }}
              onChange={(v: string) => set('typeExclude')(v === 'exclude' || undefined)}
              options={[
                { value: 'include', label: 'Recorded as' },
                { value: 'exclude', label: 'Not recorded as' },
              ]}
            />
          ) : (
            <span>Recorded as</span>
          )}
          <span>(type concept)</span>
          <ConceptPicker
            domain="Type Concept"
            multiple
            value={criteria.typeConcepts ?? []}
            // Without types, "not recorded as" means nothing: it goes with the last type.
            onChange={(v) => onChange(withAttribute(withAttribute(criteria, 'typeConcepts', Array.isArray(v) ? v : undefined), 'typeExclude', Array.isArray(v) && v.length ? criteria.typeExclude : undefined))}
            label={`${label}: record type`}
          />
        </div>
      ) : null}
      {offered.has('sourceConcept') ? (
        <div style={ATTRIBUTE_ROW}>
          <span>Source concept in</span>
          <Select
            aria-label={`${label}: source concept set`}
            value={criteria.sourceConcept ?? -1}
            style={{ width: 200, maxWidth: '100%' }}
            onChange={(id: number) => set('sourceConcept')(id < 0 ? undefined : id)}
            options={[{ value: -1, label: 'Any source concept' }, ...conceptSets.sets.map((s) => ({ value: s.id, label: s.name }))]}
          />
        </div>
      ) : null}
      {offered.has('valueAsNumber') ? (
        <div style={ATTRIBUTE_ROW}>
          <NumericRangeEditor value={criteria.valueAsNumber} onChange={set('valueAsNumber')} label={`${label}: value`} text="Value" />
        </div>
      ) : null}
      {offered.has('valueAsConcept') ? (
        <div style={ATTRIBUTE_ROW}>
          <span>Value as concept</span>
          <ConceptPicker domain="Meas Value" multiple value={criteria.valueAsConcept ?? []} onChange={(v) => set('valueAsConcept')(Array.isArray(v) ? v : undefined)} label={`${label}: value as concept`} />
        </div>
      ) : null}
      {offered.has('unit') ? (
        <div style={ATTRIBUTE_ROW}>
          <span>Unit</span>
          <ConceptPicker domain="Unit" multiple value={criteria.unit ?? []} onChange={(v) => set('unit')(Array.isArray(v) ? v : undefined)} label={`${label}: unit`} />
        </div>
      ) : null}
      {offered.has('abnormal') ? (
        <div style={ATTRIBUTE_ROW}>
          <Checkbox checked={!!criteria.abnormal} onChange={(e) => set('abnormal')(e.target.checked || undefined)}>
            Abnormal result (the value outside the normal range, or coded abnormal)
          </Checkbox>
        </div>
      ) : null}
      {offered.has('rangeLow') ? (
        <div style={ATTRIBUTE_ROW}>
          <NumericRangeEditor value={criteria.rangeLow} onChange={set('rangeLow')} label={`${label}: normal range low`} text="Normal range, low end" />
        </div>
      ) : null}
      {offered.has('rangeHigh') ? (
        <div style={ATTRIBUTE_ROW}>
          <NumericRangeEditor value={criteria.rangeHigh} onChange={set('rangeHigh')} label={`${label}: normal range high`} text="Normal range, high end" />
        </div>
      ) : null}
      {offered.has('daysSupply') ? (
        <div style={ATTRIBUTE_ROW}>
          <NumericRangeEditor value={criteria.daysSupply} onChange={set('daysSupply')} label={`${label}: days supply`} text="Days supply" unit="days" />
        </div>
      ) : null}
      {offered.has('quantity') ? (
        <div style={ATTRIBUTE_ROW}>
          <NumericRangeEditor value={criteria.quantity} onChange={set('quantity')} label={`${label}: quantity`} text="Quantity" />
        </div>
      ) : null}
      {offered.has('refills') ? (
        <div style={ATTRIBUTE_ROW}>
          <NumericRangeEditor value={criteria.refills} onChange={set('refills')} label={`${label}: refills`} text="Refills" />
        </div>
      ) : null}
      {offered.has('eraLength') ? (
        <div style={ATTRIBUTE_ROW}>
          <NumericRangeEditor value={criteria.eraLength} onChange={set('eraLength')} label={`${label}: era length`} text="Era length" unit="days" />
        </div>
      ) : null}
      {offered.has('occurrenceCount') ? (
        <div style={ATTRIBUTE_ROW}>
          <NumericRangeEditor value={criteria.occurrenceCount} onChange={set('occurrenceCount')} label={`${label}: ${era} in the era`} text={`Number of ${era} in the era`} />
        </div>
      ) : null}
      {offered.has('periodLength') ? (
        <div style={ATTRIBUTE_ROW}>
          <NumericRangeEditor value={criteria.periodLength} onChange={set('periodLength')} label={`${label}: period length`} text="Period length" unit="days" />
        </div>
      ) : null}
    </div>
  );
}

export interface CriterionEditorProps {
  criteria: Criteria;
  onChange: (criteria: Criteria) => void;
  conceptSets: ConceptSetChoice;
  /** Names the criterion's controls ("Entry event 1", "Censoring event 2"). */
  label: string;
  /** Nesting depth: criteria nested in this one are shown inside it. */
  depth?: number;
  /** Read the event back as a sentence (a criterion in a window has its own sentence instead). */
  sentence?: boolean;
}

/**
 * One event criterion: its domain, concept set, first occurrence, age and gender at the event, the
 * domain's own attributes, and additional criteria relative to it (windows measured from this event).
 */
export function CriterionEditor({ criteria, onChange, conceptSets, label, depth = 0, sentence = false }: CriterionEditorProps) {
  const kind = CRITERIA_KIND_LABELS[criteria.kind];
  const hasConcepts = KINDS_WITH_CONCEPTS.has(criteria.kind);
  const setOptions = [{ value: -1, label: `Any ${kind.noun}` }, ...conceptSets.sets.map((s) => ({ value: s.id, label: s.name }))];
  const setName = conceptSets.sets.find((s) => s.id === criteria.codesetId)?.name;
  const sourceName = conceptSets.sets.find((s) => s.id === criteria.sourceConcept)?.name;
  const names = useConceptNames(sentence ? unknownAttributeConceptIds(criteria) : []);
  // "Not recorded as" is part of the record type, not an attribute of its own.
  const extraSet = kindAttributes(criteria.kind).filter((k) => k !== 'typeExclude' && criteria[k] !== undefined).length;
  // Open at first when an attribute is set; after that the researcher opens and closes it (a value
  // that follows `extraSet` would close it under their hands when they clear the last attribute).
  // Its editors render only while it is open: a definition holds many criteria, each with a dozen.
  const [open, setOpen] = useState(extraSet > 0);
  return (
    <div className="criterion-editor">
      <Space wrap size={8} align="center">
        <Select
          aria-label={`${label}: domain`}
          value={criteria.kind}
          style={{ width: 190 }}
          onChange={(k: Criteria['kind']) => onChange(withKind(criteria, k))}
          options={CRITERIA_KINDS.map((k) => ({ value: k, label: CRITERIA_KIND_LABELS[k].label }))}
        />
        {hasConcepts ? (
          <>
            <Select
              aria-label={`${label}: concept set`}
              value={criteria.codesetId ?? -1}
              style={{ width: 200, maxWidth: '100%' }}
              onChange={(id: number) => onChange(withAttribute(criteria, 'codesetId', id < 0 ? undefined : id))}
              options={setOptions}
            />
            <Button onClick={() => onChange({ ...criteria, codesetId: conceptSets.create() })}>New concept set</Button>
          </>
        ) : null}
      </Space>
      <Space wrap size={12} align="center" style={{ marginTop: 8 }}>
        {hasFirst(criteria.kind) ? (
          <Checkbox checked={!!criteria.first} onChange={(e) => onChange(withAttribute(criteria, 'first', e.target.checked || undefined))}>
            First occurrence in the person&apos;s history
          </Checkbox>
        ) : null}
        <AgeEditor value={criteria.age} onChange={(age) => onChange(withAttribute(criteria, 'age', age))} label={label} text="Age at the event" />
        <KnownConcepts value={criteria.gender} onChange={(g) => onChange(withAttribute(criteria, 'gender', g))} label={`${label}: gender`} placeholder="Any gender" options={GENDERS} />
      </Space>
      {/* A native disclosure: reached with Tab, opened with Enter or Space, its state announced. */}
      <details className="criterion-more" open={open} style={{ marginTop: 8 }}>
        <summary
          style={{ cursor: 'pointer', color: '#1f4e8c' }}
          onClick={(e) => {
            // The state opens and closes it (Enter and Space on the summary are clicks too).
            e.preventDefault();
            setOpen(!open);
          }}
        >
          More attributes of the {kind.noun}
          {extraSet ? ` (${extraSet} set)` : ''}
        </summary>
        {open ? <AttributesEditor criteria={criteria} onChange={onChange} label={label} conceptSets={conceptSets} /> : null}
      </details>
      {sentence ? <Sentence className="event-sentence" parts={eventSentence(criteria, setName, sourceName, names)} /> : null}
      {criteria.correlatedCriteria ? (
        <CriteriaGroupEditor
          group={criteria.correlatedCriteria}
          onChange={(g) => onChange(withAttribute(criteria, 'correlatedCriteria', g))}
          onRemove={() => onChange(withAttribute(criteria, 'correlatedCriteria', undefined))}
          conceptSets={conceptSets}
          anchor={enclosingAnchor(criteria.kind)}
          title={`Additional criteria on this ${kind.noun}`}
          note={`Their windows are measured from this ${kind.noun} (the enclosing event), not from the index date.`}
          label={`${label}, additional`}
          depth={depth + 1}
        />
      ) : depth < 3 ? (
        // The label wraps: on a phone it is wider than the nested boxes it sits in.
        <Button type="link" style={{ ...WRAPPING, paddingLeft: 0 }} onClick={() => onChange({ ...criteria, correlatedCriteria: { type: 'ALL', criteriaList: [newCorrelatedCriteria()] } })}>
          Add additional criteria on this {kind.noun}
        </Button>
      ) : null}
    </div>
  );
}

/** Criteria on the person at the enclosing event (Circe's DemographicCriteria): age, gender, race, ethnicity and the event's dates. */
export function DemographicCriterionEditor({
  criteria,
  onChange,
  onRemove,
  anchor,
  label,
}: {
  criteria: DemographicCriteria;
  onChange: (c: DemographicCriteria) => void;
  onRemove: () => void;
  anchor: Anchor;
  label: string;
}) {
  const legendId = useId();
  const names = useConceptNames(unknownAttributeConceptIds(criteria));
  const set = <K extends keyof DemographicCriteria>(key: K, value: DemographicCriteria[K] | undefined) => {
    const next = { ...criteria };
    if (value === undefined || (Array.isArray(value) && value.length === 0)) delete next[key];
    else next[key] = value;
    onChange(next);
  };
  const event = anchor === INDEX_ANCHOR ? 'index event' : 'enclosing event';
  return (
    <fieldset className="demographic-criterion" aria-labelledby={legendId} style={BOX}>
      <legend id={legendId} style={LEGEND}>
        {label}
      </legend>
      <div style={ATTRIBUTE_ROW}>
        <AgeEditor value={criteria.age} onChange={(v) => set('age', v)} label={label} text={`Age at the ${event}`} />
      </div>
      <div style={ATTRIBUTE_ROW}>
        <KnownConcepts value={criteria.gender} onChange={(v) => set('gender', v)} label={`${label}: gender`} placeholder="Any gender" options={GENDERS} />
        <KnownConcepts value={criteria.race} onChange={(v) => set('race', v)} label={`${label}: race`} placeholder="Any race" options={RACES} />
        <KnownConcepts value={criteria.ethnicity} onChange={(v) => set('ethnicity', v)} label={`${label}: ethnicity`} placeholder="Any ethnicity" options={ETHNICITIES} />
      </div>
      <div style={ATTRIBUTE_ROW}>
        <DateRangeEditor value={criteria.occurrenceStartDate} onChange={(v) => set('occurrenceStartDate', v)} label={`${label}: start date`} text={`The ${event} starting`} />
      </div>
      <div style={ATTRIBUTE_ROW}>
        <DateRangeEditor value={criteria.occurrenceEndDate} onChange={(v) => set('occurrenceEndDate', v)} label={`${label}: end date`} text={`The ${event} ending`} />
      </div>
      <Button size="small" danger style={WRAPPING} onClick={onRemove}>
        Remove demographic criterion
      </Button>
      <p className="demographic-sentence" style={{ margin: '8px 0 0', color: '#1f2933' }}>
        {demographicSentence(criteria, anchor, names)}
      </p>
    </fieldset>
  );
}

const SIDES = [
  { value: -1, label: 'before' },
  { value: 1, label: 'after' },
];

/** One end of a window: a number of days (empty: as far as the observation period goes) before or after. */
function EndpointEditor({ endpoint, onChange, label }: { endpoint: WindowEndpoint; onChange: (e: WindowEndpoint) => void; label: string }) {
  return (
    <Space size={4} align="center" wrap>
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
  // A wrapping row, not a Space: its items must shrink to a nested box on a phone.
  return (
    <div style={ATTRIBUTE_ROW}>
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
        style={{ flex: '0 1 auto', minWidth: 0, maxWidth: 260 }}
      />
    </div>
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
  const sourceName = conceptSets.sets.find((s) => s.id === item.criteria.sourceConcept)?.name;
  const names = useConceptNames(unknownAttributeConceptIds(item.criteria));
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
      <Sentence className="criterion-sentence" parts={criterionSentence(item, setName, anchor, sourceName, names)} />
    </fieldset>
  );
}

/** The group without an emptied demographic list (an empty list and none mean the same). */
function withoutEmptyList(group: CriteriaGroup): CriteriaGroup {
  if (group.demographicCriteriaList?.length) return group;
  const { demographicCriteriaList: _unused, ...rest } = group;
  return rest;
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
  /** A sentence under the heading (what the windows inside are measured from). */
  note?: string;
  label: string;
  depth: number;
}

/** All / any / at least N / at most N of its criteria and nested groups. */
export function CriteriaGroupEditor({ group, onChange, onRemove, conceptSets, anchor, title, note, label, depth }: CriteriaGroupEditorProps) {
  const legendId = useId();
  const criteria = group.criteriaList ?? [];
  const demographics = group.demographicCriteriaList ?? [];
  const groups = group.groups ?? [];
  const counted = group.type === 'AT_LEAST' || group.type === 'AT_MOST';
  const body = (
    <>
      {note ? (
        <p className="anchor-note" style={{ margin: '0 0 8px', color: '#5b6470' }}>
          {note}
        </p>
      ) : null}
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
      {demographics.map((d, i) => (
        <DemographicCriterionEditor
          key={`d${i}`}
          criteria={d}
          onChange={(next) => onChange({ ...group, demographicCriteriaList: replaced(demographics, i, next) })}
          onRemove={() => onChange(withoutEmptyList({ ...group, demographicCriteriaList: removed(demographics, i) }))}
          anchor={anchor}
          label={`${label}, demographic criterion ${i + 1}`}
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
      <Space wrap size={8} style={{ marginTop: 8, maxWidth: '100%' }}>
        <Button style={WRAPPING} onClick={() => onChange({ ...group, criteriaList: [...criteria, newCorrelatedCriteria()] })}>
          Add criterion
        </Button>
        <Button style={WRAPPING} onClick={() => onChange({ ...group, demographicCriteriaList: [...demographics, {}] })}>
          Add demographic criterion
        </Button>
        {depth < 4 ? (
          <Button style={WRAPPING} onClick={() => onChange({ ...group, groups: [...groups, { type: 'ALL', criteriaList: [newCorrelatedCriteria()] }] })}>
            Add group
          </Button>
        ) : null}
        {onRemove ? (
          <Button danger style={WRAPPING} onClick={onRemove}>
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
