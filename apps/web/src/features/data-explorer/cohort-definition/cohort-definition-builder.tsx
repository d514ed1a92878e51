import { useCallback, useMemo, useRef } from 'react';
import { Alert, Button, Input, InputNumber, Radio, Select, Space } from 'antd';
// The builder checks the definition against the contract's schema before each live count, so its
// chunk (loaded only for a query with a definition) carries zod; the first load does not.
// eslint-disable-next-line no-restricted-imports
import { CohortDefinitionExpression, type Criteria, type EndStrategy, type QueryGroup, type QueryResult, type ResultLimit } from '@hdp/contract';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { queryChanged, selectQuery } from '../slice';
import { withoutIds } from '../query-tree';
import { ConceptSetEditor, SavedConceptSetPicker } from './concept-set-editor';
import { CohortDefinitionSection } from './cohort-definition-section';
import { CriteriaGroupEditor, CriterionEditor, type ConceptSetChoice } from './criteria-editors';
import { AttritionView } from './attrition-view';
import { LiveCountsContext, StepCount } from './live-counts-context';
import { useLiveCounts, type LiveCounts } from './use-live-counts';
import { INDEX_ANCHOR, attritionMatches, definitionProblem, fromSavedConceptSet, moved, newCorrelatedCriteria, newInclusionRule, nextConceptSetId, removed, replaced, withDefaults, type Definition } from './definition-model';

const SECTION = { border: '1px solid #d9dee4', borderRadius: 8, padding: 16, margin: '0 0 16px', minWidth: 0 } as const;
const SECTION_LEGEND = { fontSize: 16, fontWeight: 600, padding: '0 6px', width: 'auto', margin: 0, border: 0 } as const;
const HEADER = { display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', justifyContent: 'space-between' } as const;

const LIMITS: { value: ResultLimit['type']; label: string }[] = [
  { value: 'First', label: 'Earliest event' },
  { value: 'Last', label: 'Latest event' },
  { value: 'All', label: 'All events' },
];

/** Whether a result's attrition is that of the definition of the tree it answers. */
const matchesItsDefinition = (result: QueryResult, tree: QueryGroup) => !!tree.cohortDefinition && attritionMatches(result.attrition, withDefaults(tree.cohortDefinition as Partial<Definition>));

const parseDefinition = (d: Definition) => CohortDefinitionExpression.safeParse(d);

/** What the live count is doing, in words, for everyone (a polite live region). */
function LiveStatus({ counts }: { counts: LiveCounts }) {
  const persons = counts.result?.person_count_display;
  let message: React.ReactNode;
  let type: 'info' | 'success' | 'warning' | 'error' = 'info';
  if (counts.status === 'incomplete') {
    message = `Live counts wait for a complete definition: ${counts.error}`;
    type = 'warning';
  } else if (counts.status === 'loading') {
    message = persons ? `Counting the definition as it stands… (the counts shown are from an earlier version: ${persons} persons)` : 'Counting the definition as it stands…';
  } else if (counts.status === 'failed') {
    message = counts.refusedByLimits ? `Live counts paused: the run was refused by your query limits. ${counts.error}` : `The live count failed: ${counts.error}`;
    type = 'error';
  } else if (counts.result?.withheld) {
    message = `Live count withheld: ${counts.result.withheld}`;
    type = 'warning';
  } else {
    // The same persons as an earlier answer give that answer again: its count, but not this definition's steps.
    const steps = counts.attritionMatches ? '' : ' These are exactly the persons of an earlier answer, so its counts are given again; the steps of this definition are not released separately.';
    message = `Live count: ${persons} persons, as the definition stands.${steps}`;
    type = 'success';
  }
  return (
    <div role="status" aria-live="polite" className={`live-status live-status-${counts.status}`}>
      {/* Polite, through the region around it: antd's own role="alert" would interrupt at every count while editing. */}
      <Alert type={type} showIcon title={message} role="none" style={{ marginBottom: 12 }} />
    </div>
  );
}

function LimitSelect({ value, onChange, label }: { value: ResultLimit; onChange: (v: ResultLimit) => void; label: string }) {
  return <Select aria-label={label} value={value.type} onChange={(type: ResultLimit['type']) => onChange({ type })} options={LIMITS} style={{ width: 150 }} />;
}

/** The exit: end of observation, a fixed offset from the event, or the end of continuous exposure to a drug concept set. */
function ExitEditor({ definition, update, conceptSets }: { definition: Definition; update: (d: Definition) => void; conceptSets: ConceptSetChoice }) {
  const strategy = definition.endStrategy;
  const kind = strategy?.type ?? 'ObservationEnd';
  const setStrategy = (next: EndStrategy | undefined) => {
    const { endStrategy: _old, ...rest } = definition;
    update(next ? { ...rest, endStrategy: next } : rest);
  };
  const drugSets = conceptSets.sets.map((s) => ({ value: s.id, label: s.name }));
  return (
    <>
      <Radio.Group
        aria-label="How a cohort period ends"
        value={kind}
        onChange={(e) => {
          const v = e.target.value as string;
          if (v === 'ObservationEnd') setStrategy(undefined);
          else if (v === 'DateOffset') setStrategy({ type: 'DateOffset', dateField: 'StartDate', offset: 0 });
          else setStrategy({ type: 'CustomEra', drugCodesetId: definition.conceptSets[0]?.id ?? 0, gapDays: 30, offset: 0 });
        }}
        style={{ display: 'flex', flexDirection: 'column', gap: 6 }}
        options={[
          { value: 'ObservationEnd', label: 'At the end of the observation period' },
          { value: 'DateOffset', label: 'A fixed number of days after the event' },
          { value: 'CustomEra', label: 'At the end of continuous exposure to a drug' },
        ]}
      />
      {strategy?.type === 'DateOffset' ? (
        <Space wrap size={8} align="center" style={{ marginTop: 8 }}>
          <InputNumber aria-label="Days after the event" min={-100000} max={100000} precision={0} value={strategy.offset} onChange={(v) => setStrategy({ ...strategy, offset: v ?? 0 })} style={{ width: 100 }} />
          <span>days after the event&apos;s</span>
          <Select
            aria-label="Which date of the event"
            value={strategy.dateField}
            onChange={(dateField: 'StartDate' | 'EndDate') => setStrategy({ ...strategy, dateField })}
            options={[
              { value: 'StartDate', label: 'start date' },
              { value: 'EndDate', label: 'end date' },
            ]}
            style={{ width: 120 }}
          />
        </Space>
      ) : null}
      {strategy?.type === 'CustomEra' ? (
        <Space wrap size={8} align="center" style={{ marginTop: 8 }}>
          <Select aria-label="Drug concept set of the exposure" placeholder="Concept set" value={drugSets.some((s) => s.value === strategy.drugCodesetId) ? strategy.drugCodesetId : undefined} onChange={(id: number) => setStrategy({ ...strategy, drugCodesetId: id })} options={drugSets} style={{ width: 200 }} />
          <span>exposures</span>
          <InputNumber aria-label="Gap days allowed between exposures" min={0} max={100000} precision={0} value={strategy.gapDays} onChange={(v) => setStrategy({ ...strategy, gapDays: v ?? 0 })} style={{ width: 90 }} />
          <span>days apart or closer join; the period ends</span>
          <InputNumber aria-label="Days after the exposure ends" min={0} max={100000} precision={0} value={strategy.offset} onChange={(v) => setStrategy({ ...strategy, offset: v ?? 0 })} style={{ width: 90 }} />
          <span>days after the last one ends</span>
          <InputNumber aria-label="Days supply override" placeholder="as recorded" min={1} max={100000} precision={0} value={strategy.daysSupplyOverride ?? null} onChange={(v) => setStrategy({ ...strategy, daysSupplyOverride: v ?? undefined })} style={{ width: 120 }} />
          <span>days supply per exposure</span>
        </Space>
      ) : null}
    </>
  );
}

/**
 * "Restrict initial events" (Circe's additional criteria): a group of criteria relative to each
 * entry event that it must meet, and which of the events left to keep per person ("limit
 * qualifying events to").
 */
function RestrictInitialEvents({ definition, change, conceptSets }: { definition: Definition; change: (edit: (d: Definition) => Definition) => void; conceptSets: ConceptSetChoice }) {
  const group = definition.additionalCriteria;
  return (
    <div className="restrict-initial-events" style={{ marginTop: 12 }}>
      {group ? (
        <>
          <div style={HEADER}>
            <span>Restrict initial events to those with:</span>
            <StepCount step="additional_criteria" label="After the restriction of initial events" />
          </div>
          <CriteriaGroupEditor
            group={group}
            onChange={(additionalCriteria) => change((d) => ({ ...d, additionalCriteria }))}
            onRemove={() => change(withoutRestriction)}
            conceptSets={conceptSets}
            anchor={INDEX_ANCHOR}
            title="Restriction of initial events"
            note="Every entry event must meet these criteria; their windows are measured from the entry event."
            label="Restrict initial events"
            depth={0}
          />
        </>
      ) : (
        <Button onClick={() => change((d) => ({ ...d, additionalCriteria: { type: 'ALL', criteriaList: [newCorrelatedCriteria()] } }))}>Restrict initial events</Button>
      )}
      <div style={{ ...HEADER, marginTop: 12 }}>
        <Space wrap size={6} align="center">
          <span>Limit qualifying events to, per person:</span>
          <LimitSelect label="Qualifying events kept per person" value={definition.qualifiedLimit} onChange={(qualifiedLimit) => change((d) => ({ ...d, qualifiedLimit }))} />
        </Space>
        <StepCount step="qualified_limit" label="After the qualifying events limit" />
      </div>
    </div>
  );
}

/** The definition without its restriction of initial events. */
function withoutRestriction(definition: Definition): Definition {
  const { additionalCriteria: _removed, ...rest } = definition;
  return rest;
}

/** The editor of the query's cohort definition, with the live counts beside each step. */
function DefinitionEditor({ query, definition }: { query: QueryGroup; definition: Definition }) {
  const dispatch = useAppDispatch();
  const update = useCallback((next: Definition) => dispatch(queryChanged({ ...query, cohortDefinition: next })), [dispatch, query]);
  const tree = useMemo(() => withoutIds(query), [query]);
  const problem = useMemo(() => definitionProblem(definition, parseDefinition), [definition]);
  const counts = useLiveCounts(tree, problem, matchesItsDefinition);
  // New concept sets are created while the definition of this render is current: a ref carries the latest.
  const latest = useRef(definition);
  latest.current = definition;

  const conceptSets: ConceptSetChoice = {
    sets: definition.conceptSets,
    create: () => {
      const id = nextConceptSetId(latest.current.conceptSets);
      // The criterion's own change (pointing at the id) follows in the same tick; both land in order.
      latest.current = { ...latest.current, conceptSets: [...latest.current.conceptSets, { id, name: `Concept set ${id + 1}`, expression: { items: [] } }] };
      update(latest.current);
      return id;
    },
  };
  // A criterion's change made right after a new concept set: applied to the definition that holds it.
  const change = (edit: (d: Definition) => Definition) => {
    latest.current = edit(latest.current);
    update(latest.current);
  };

  const primary = definition.primaryCriteria;
  const entries = primary.criteriaList;
  const setEntries = (criteriaList: Criteria[]) => change((d) => ({ ...d, primaryCriteria: { ...d.primaryCriteria, criteriaList } }));
  const rules = definition.inclusionRules;
  const result = counts.result;

  return (
    <LiveCountsContext.Provider value={counts}>
      <LiveStatus counts={counts} />

      <fieldset style={SECTION} className="concept-sets-section">
        <legend style={SECTION_LEGEND}>Concept sets</legend>
        {definition.conceptSets.map((set, i) => (
          <ConceptSetEditor
            key={set.id}
            set={set}
            onChange={(next) => change((d) => ({ ...d, conceptSets: replaced(d.conceptSets, i, next) }))}
            onRemove={() => change((d) => ({ ...d, conceptSets: removed(d.conceptSets, i) }))}
          />
        ))}
        <Space wrap size={8}>
          <Button onClick={() => conceptSets.create()}>Add concept set</Button>
          <SavedConceptSetPicker
            usedIds={new Set(definition.conceptSets.flatMap((s) => (s.savedConceptSet ? [s.savedConceptSet.id] : [])))}
            onPick={(saved) => change((d) => ({ ...d, conceptSets: [...d.conceptSets, fromSavedConceptSet(saved, nextConceptSetId(d.conceptSets))] }))}
          />
        </Space>
      </fieldset>

      <fieldset style={SECTION} className="entry-events-section">
        <legend style={SECTION_LEGEND}>Cohort entry events</legend>
        <div style={HEADER}>
          <span>Persons enter the cohort at any of these events:</span>
          <StepCount step="entry_events" label="Entry events" />
        </div>
        {entries.map((criteria, i) => (
          <fieldset key={i} style={{ ...SECTION, padding: 12, margin: '8px 0' }} className="entry-event">
            <legend style={{ ...SECTION_LEGEND, fontSize: 14 }}>Entry event {i + 1}</legend>
            <CriterionEditor criteria={criteria} onChange={(next) => setEntries(replaced(latest.current.primaryCriteria.criteriaList, i, next))} conceptSets={conceptSets} label={`Entry event ${i + 1}`} sentence />
            {entries.length > 1 ? (
              <Button size="small" danger onClick={() => setEntries(removed(entries, i))}>
                Remove entry event
              </Button>
            ) : null}
          </fieldset>
        ))}
        <Button onClick={() => setEntries([...entries, { kind: 'ConditionOccurrence' }])}>Add entry event</Button>
        <div style={{ ...HEADER, marginTop: 12 }}>
          <Space wrap size={6} align="center">
            <span>With continuous observation of at least</span>
            <InputNumber aria-label="Days of observation before the event" min={0} max={100000} precision={0} value={primary.observationWindow.priorDays} onChange={(v) => change((d) => ({ ...d, primaryCriteria: { ...d.primaryCriteria, observationWindow: { ...d.primaryCriteria.observationWindow, priorDays: v ?? 0 } } }))} style={{ width: 90 }} />
            <span>days before and</span>
            <InputNumber aria-label="Days of observation after the event" min={0} max={100000} precision={0} value={primary.observationWindow.postDays} onChange={(v) => change((d) => ({ ...d, primaryCriteria: { ...d.primaryCriteria, observationWindow: { ...d.primaryCriteria.observationWindow, postDays: v ?? 0 } } }))} style={{ width: 90 }} />
            <span>days after the event</span>
          </Space>
          <StepCount step="observation_window" label="After the observation window" />
        </div>
        <div style={{ ...HEADER, marginTop: 12 }}>
          <Space wrap size={6} align="center">
            <span>Keep per person:</span>
            <LimitSelect label="Entry events kept per person" value={primary.primaryCriteriaLimit} onChange={(primaryCriteriaLimit) => change((d) => ({ ...d, primaryCriteria: { ...d.primaryCriteria, primaryCriteriaLimit } }))} />
          </Space>
          <StepCount step="primary_limit" label="After the entry limit" />
        </div>
        <RestrictInitialEvents definition={definition} change={change} conceptSets={conceptSets} />
      </fieldset>

      <fieldset style={SECTION} className="inclusion-rules-section">
        <legend style={SECTION_LEGEND}>Inclusion rules</legend>
        <p style={{ margin: '0 0 8px', color: '#5b6470' }}>Applied in order to the entry events; each rule&apos;s count is of the persons left after it.</p>
        {rules.map((rule, i) => (
          <fieldset key={i} style={{ ...SECTION, padding: 12, margin: '8px 0' }} className="inclusion-rule">
            <legend style={{ ...SECTION_LEGEND, fontSize: 14 }}>
              Inclusion rule {i + 1}: {rule.name}
            </legend>
            <div style={HEADER}>
              <Space wrap size={6}>
                <Input aria-label={`Inclusion rule ${i + 1}: name`} value={rule.name} onChange={(e) => change((d) => ({ ...d, inclusionRules: replaced(d.inclusionRules, i, { ...rule, name: e.target.value }) }))} style={{ width: 260, maxWidth: '100%' }} />
                <Button size="small" disabled={i === 0} aria-label={`Move inclusion rule ${i + 1} up`} onClick={() => change((d) => ({ ...d, inclusionRules: moved(d.inclusionRules, i, -1) }))}>
                  Up
                </Button>
                <Button size="small" disabled={i === rules.length - 1} aria-label={`Move inclusion rule ${i + 1} down`} onClick={() => change((d) => ({ ...d, inclusionRules: moved(d.inclusionRules, i, 1) }))}>
                  Down
                </Button>
                <Button size="small" danger aria-label={`Remove inclusion rule ${i + 1}`} onClick={() => change((d) => ({ ...d, inclusionRules: removed(d.inclusionRules, i) }))}>
                  Remove
                </Button>
              </Space>
              <StepCount step="inclusion_rule" rule={i} label={`After inclusion rule ${i + 1}`} />
            </div>
            <CriteriaGroupEditor
              group={rule.expression}
              onChange={(expression) => change((d) => ({ ...d, inclusionRules: replaced(d.inclusionRules, i, { ...d.inclusionRules[i]!, expression }) }))}
              conceptSets={conceptSets}
              anchor={INDEX_ANCHOR}
              label={`Inclusion rule ${i + 1}`}
              depth={0}
            />
          </fieldset>
        ))}
        <Button onClick={() => change((d) => ({ ...d, inclusionRules: [...d.inclusionRules, newInclusionRule(d.inclusionRules.length)] }))}>Add inclusion rule</Button>
        <div style={{ ...HEADER, marginTop: 12 }}>
          <Space wrap size={6} align="center">
            <span>Limit the qualifying cohort to, per person:</span>
            <LimitSelect label="Qualifying cohort entries kept per person" value={definition.expressionLimit} onChange={(expressionLimit) => change((d) => ({ ...d, expressionLimit }))} />
          </Space>
          <StepCount step="expression_limit" label="After the qualifying limit" />
        </div>
      </fieldset>

      <fieldset style={SECTION} className="exit-section">
        <legend style={SECTION_LEGEND}>Cohort exit</legend>
        <div style={HEADER}>
          <span>A person&apos;s cohort period ends:</span>
          <StepCount step="cohort_exit" label="Cohort periods" />
        </div>
        <ExitEditor definition={definition} update={(d) => change(() => d)} conceptSets={conceptSets} />
        <Space wrap size={6} align="center" style={{ marginTop: 12 }}>
          <span>Merge cohort periods of a person</span>
          <InputNumber aria-label="Merge periods this many days apart" min={0} max={100000} precision={0} value={definition.collapseSettings.eraPad} onChange={(v) => change((d) => ({ ...d, collapseSettings: { collapseType: 'ERA', eraPad: v ?? 0 } }))} style={{ width: 90 }} />
          <span>days apart or closer</span>
        </Space>
        <h3 style={{ fontSize: 14, fontWeight: 600, margin: '16px 0 4px' }}>Censoring events</h3>
        <p style={{ margin: '0 0 4px', color: '#5b6470' }}>The first such event on or after the start ends the period.</p>
        {definition.censoringCriteria.map((criteria, i) => (
          <fieldset key={i} style={{ ...SECTION, padding: 12, margin: '8px 0' }} className="censoring-event">
            <legend style={{ ...SECTION_LEGEND, fontSize: 14 }}>Censoring event {i + 1}</legend>
            <CriterionEditor criteria={criteria} onChange={(next) => change((d) => ({ ...d, censoringCriteria: replaced(d.censoringCriteria, i, next) }))} conceptSets={conceptSets} label={`Censoring event ${i + 1}`} sentence />
            <Button size="small" danger onClick={() => change((d) => ({ ...d, censoringCriteria: removed(d.censoringCriteria, i) }))}>
              Remove censoring event
            </Button>
          </fieldset>
        ))}
        <Button onClick={() => change((d) => ({ ...d, censoringCriteria: [...d.censoringCriteria, { kind: 'ConditionOccurrence' }] }))}>Add censoring event</Button>
        <div style={{ ...HEADER, marginTop: 12 }}>
          <Space wrap size={6} align="center">
            <span>Censor window: from</span>
            <Input type="date" aria-label="Censor window start" value={definition.censorWindow.startDate ?? ''} onChange={(e) => change((d) => ({ ...d, censorWindow: { ...d.censorWindow, startDate: e.target.value || undefined } }))} style={{ width: 160 }} />
            <span>to</span>
            <Input type="date" aria-label="Censor window end" value={definition.censorWindow.endDate ?? ''} onChange={(e) => change((d) => ({ ...d, censorWindow: { ...d.censorWindow, endDate: e.target.value || undefined } }))} style={{ width: 160 }} />
          </Space>
          <StepCount step="censor_window" label="Within the censor window" />
        </div>
      </fieldset>

      {result?.attrition && counts.attritionMatches ? (
        <section aria-label="Live attrition" className={counts.status === 'current' ? 'live-attrition' : 'live-attrition live-attrition-stale'} aria-busy={counts.status === 'loading'} style={{ opacity: counts.status === 'current' ? 1 : 0.55 }}>
          {result.withheld ? <p role="note">{result.withheld}</p> : null}
          <AttritionView attrition={result.attrition} caption={counts.status === 'current' ? 'Attrition, as the definition stands' : 'Attrition of an earlier version of the definition'} />
        </section>
      ) : null}
    </LiveCountsContext.Provider>
  );
}

/** The editor of the open query's cohort definition (the query has one). */
export function CohortDefinitionEditor() {
  const query = useAppSelector(selectQuery);
  const stored = query.cohortDefinition as Partial<Definition> | undefined;
  const definition = useMemo(() => (stored ? withDefaults(stored) : null), [stored]);
  return definition ? <DefinitionEditor query={query} definition={definition} /> : null;
}

/**
 * Entry events, inclusion rules, exit and censoring: the query's cohort definition (OHDSI Circe's
 * model), counted live as it is edited. Queries without one keep the simple builder alone.
 */
export function CohortDefinitionBuilder() {
  return <CohortDefinitionSection Editor={CohortDefinitionEditor} />;
}
