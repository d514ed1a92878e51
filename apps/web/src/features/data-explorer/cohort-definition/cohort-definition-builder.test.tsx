import type { ReactNode } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Attrition, QueryGroup } from '@hdp/contract';
import { makeStore } from '@/app/store';
import { fakeApi } from '@/test-support/render';
import { aResult } from '@/test-support/query-fixtures';
import { initialDataExplorerState } from '../slice';
import { newDefinition } from './definition-model';
import { CohortDefinitionBuilder } from './cohort-definition-builder';

// The funnel (ECharts) is drawn in the browser tests.
vi.mock('next/dynamic', () => ({ default: () => (props: { children?: ReactNode }) => <div data-testid="lazy">{props.children}</div> }));

const cell = (n: number) => ({ count: n, display: n.toLocaleString('en-GB'), suppressed: false });
function attrition(priorDays: number, persons: number): Attrition {
  const row = (step: string, label: string, n: number) => ({ step, label, persons: cell(n), events: cell(n + 5) }) as Attrition['steps'][number];
  return {
    steps: [
      row('entry_events', 'Entry events', persons + 100),
      row('observation_window', `In observation, ${priorDays} days before and 0 days after`, persons),
      row('primary_limit', 'Entry events: first per person', persons),
      row('qualified_limit', 'Qualifying events: first per person', persons),
      row('expression_limit', 'Cohort entries: first per person', persons),
      row('cohort_exit', 'Cohort periods', persons),
    ],
    inclusion_rules: [],
  };
}

function renderBuilder() {
  const query: QueryGroup = { id: 'root', combinator: 'and', rules: [], cohortDefinition: newDefinition() };
  const store = makeStore({ dataExplorer: { ...initialDataExplorerState, query, isQueryEdited: true } });
  render(
    <Provider store={store}>
      <CohortDefinitionBuilder />
    </Provider>,
  );
  return store;
}

const stepCount = (step: string) => document.querySelector(`.step-count[data-step="${step}"]`)!;

afterEach(() => vi.unstubAllGlobals());

describe('CohortDefinitionBuilder', { timeout: 20_000 }, () => {
  it('counts the definition once it stops changing, marks earlier counts while counting again, and says when limits refuse a run', async () => {
    let answer: 'ok' | 'limits' = 'ok';
    const calls = fakeApi(({ method, path, body }) => {
      if (method === 'POST' && path === '/api/v1/queries/execute/') {
        if (answer === 'limits') return { status: 429, body: { detail: 'You have run 20 queries in the last minute; wait a moment.' } };
        const prior = (body as { query: QueryGroup }).query.cohortDefinition!.primaryCriteria.observationWindow!.priorDays;
        return { body: { ...aResult(), person_count: 900, person_count_display: '900', attrition: attrition(prior, prior === 0 ? 900 : 830) } };
      }
      return { status: 404, body: { detail: 'Not found' } };
    });
    renderBuilder();
    await waitFor(() => expect(stepCount('observation_window')).toHaveTextContent('After the observation window: 900 persons · 905 events'), { timeout: 4_000 });
    expect(stepCount('observation_window')).not.toHaveClass('step-count-stale');
    expect(screen.getByRole('status')).toHaveTextContent('Live count: 900 persons, as the definition stands.');
    expect(screen.getByRole('table', { name: 'Attrition, as the definition stands' })).toBeInTheDocument();

    // Typing "365" is one run, not three; meanwhile the earlier count is marked as such.
    const prior = screen.getByRole('spinbutton', { name: 'Days of observation before the event' });
    await userEvent.clear(prior);
    await userEvent.type(prior, '365', { delay: null });
    expect(stepCount('observation_window')).toHaveClass('step-count-stale');
    expect(stepCount('observation_window')).toHaveTextContent('earlier count, updating…');
    await waitFor(() => expect(stepCount('observation_window')).toHaveTextContent('After the observation window: 830 persons · 835 events'), { timeout: 4_000 });
    const runs = calls.filter((c) => c.path === '/api/v1/queries/execute/');
    expect(runs.map((c) => (c.body as { query: QueryGroup }).query.cohortDefinition!.primaryCriteria.observationWindow!.priorDays)).toEqual([0, 365]);

    // A run refused by the per-user limits: said so, and the last counts stay marked as earlier ones.
    answer = 'limits';
    await userEvent.type(prior, '0', { delay: null });
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/Live counts paused: the run was refused by your query limits\./), { timeout: 4_000 });
    expect(stepCount('observation_window')).toHaveClass('step-count-stale');
    expect(stepCount('observation_window')).toHaveTextContent('earlier count');
  });

  it('holds the count back while a criterion uses an empty concept set, and says why', async () => {
    const calls = fakeApi(() => ({ status: 404, body: { detail: 'Not found' } }));
    renderBuilder();
    await userEvent.click(screen.getByRole('button', { name: 'New concept set' }));
    expect(await screen.findByText(/The concept set "Concept set 1" holds no concept yet: add one\./)).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    // (The definition as first rendered may be counted before the click: only the one with the empty set must not.)
    const withTheSet = calls.filter((c) => c.path === '/api/v1/queries/execute/' && (c.body as { query: QueryGroup }).query.cohortDefinition!.conceptSets!.length > 0);
    expect(withTheSet).toHaveLength(0);
  });

  it('adds a saved concept set from the library, pinned at its version, and counts the definition that uses it', async () => {
    const saved = { id: '5b3f7c1e-8a8e-4f3b-9c1e-2f6a7d8e9f00', name: 'Diclofenac', description: '', items: [{ conceptId: 1124300, includeDescendants: true, isExcluded: false, includeMapped: false }], version: 2, latest_version: 2 };
    const calls = fakeApi(({ method, path }) => {
      if (method === 'GET' && path === '/api/v1/concept-sets/') return { body: { concept_sets: [saved], total: 1, total_capped: false } };
      if (method === 'GET' && path === `/api/v1/concept-sets/${saved.id}/`) return { body: saved };
      if (method === 'POST' && path === '/api/v1/queries/execute/') return { body: { ...aResult(), person_count: 900, person_count_display: '900', attrition: attrition(0, 900) } };
      return { status: 404, body: { detail: 'Not found' } };
    });
    renderBuilder();
    await userEvent.click(screen.getByRole('combobox', { name: 'Use a saved concept set' }));
    await userEvent.click(await screen.findByText('Diclofenac (version 2, 1 concept)', { selector: '.ant-select-item-option-content' }));
    expect(await screen.findByText(/Saved concept set, version 2/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Entry event 1: concept set' }));
    await userEvent.click(await screen.findByText('Diclofenac', { selector: '.ant-select-item-option-content' }));
    await waitFor(
      () => {
        const runs = calls.filter((c) => c.path === '/api/v1/queries/execute/').map((c) => (c.body as { query: QueryGroup }).query.cohortDefinition!);
        expect(runs.at(-1)).toMatchObject({ conceptSets: [{ id: 0, name: 'Diclofenac', savedConceptSet: { id: saved.id, version: 2 } }], primaryCriteria: { criteriaList: [{ kind: 'DrugExposure', codesetId: 0 }] } });
      },
      { timeout: 4_000 },
    );
    expect(document.querySelector('.event-sentence')).toHaveTextContent('a drug exposure of Diclofenac');
  });

  it('restricts initial events with a group of criteria, limits the qualifying events, and counts the definition that has them', { timeout: 60_000 }, async () => {
    const calls = fakeApi(({ method, path }) => {
      if (method === 'POST' && path === '/api/v1/queries/execute/') return { body: { ...aResult(), person_count: 900, person_count_display: '900', attrition: attrition(0, 900) } };
      return { status: 404, body: { detail: 'Not found' } };
    });
    renderBuilder();
    await userEvent.click(screen.getByRole('button', { name: 'Restrict initial events' }));
    const group = screen.getByRole('group', { name: 'Restriction of initial events' });
    expect(group).toHaveTextContent('Every entry event must meet these criteria; their windows are measured from the entry event.');
    expect(group.querySelector('.criterion-sentence')).toHaveTextContent('at least 1 occurrence of any condition between any time before and 0 days after the index date, in the same observation period');
    await userEvent.click(screen.getByRole('combobox', { name: 'Qualifying events kept per person' }));
    await userEvent.click((await screen.findAllByText('All events', { selector: '.ant-select-item-option-content' })).at(-1)!);
    await waitFor(
      () => {
        const runs = calls.filter((c) => c.path === '/api/v1/queries/execute/').map((c) => (c.body as { query: QueryGroup }).query.cohortDefinition!);
        expect(runs.at(-1)).toMatchObject({ additionalCriteria: { type: 'ALL', criteriaList: [{ criteria: { kind: 'ConditionOccurrence' }, occurrence: { type: 'AT_LEAST', count: 1 } }] }, qualifiedLimit: { type: 'All' } });
      },
      { timeout: 4_000 },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Remove restriction of initial events' }));
    expect(screen.queryByRole('group', { name: 'Restriction of initial events' })).not.toBeInTheDocument();
    await waitFor(
      () => {
        const runs = calls.filter((c) => c.path === '/api/v1/queries/execute/').map((c) => (c.body as { query: QueryGroup }).query.cohortDefinition!);
        expect(runs.at(-1)).not.toHaveProperty('additionalCriteria');
      },
      { timeout: 4_000 },
    );
  });
});
