import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConceptSet, Criteria, CriteriaGroup } from '@hdp/contract';
import { fakeApi, renderWithStore } from '@/test-support/render';
import { CriteriaGroupEditor, CriterionEditor, type ConceptSetChoice } from './criteria-editors';
import { INDEX_ANCHOR } from './definition-model';

const SETS: ConceptSet[] = [{ id: 0, name: 'Diclofenac', expression: { items: [{ conceptId: 1124300, includeDescendants: true, isExcluded: false, includeMapped: false }] } }];
const conceptSets: ConceptSetChoice = { sets: SETS, create: () => 1 };

/** Chooses an option of an antd select by its text (in the list opened last: antd keeps earlier ones in the page). */
async function choose(select: HTMLElement, option: string) {
  await userEvent.click(select);
  await userEvent.click((await screen.findAllByText(option, { selector: '.ant-select-item-option-content' })).at(-1)!);
}

function GroupHarness({ initial, seen }: { initial: CriteriaGroup; seen: (g: CriteriaGroup) => void }) {
  const [group, setGroup] = useState(initial);
  return (
    <CriteriaGroupEditor
      group={group}
      onChange={(g) => {
        seen(g);
        setGroup(g);
      }}
      conceptSets={conceptSets}
      anchor={INDEX_ANCHOR}
      label="Inclusion rule 1"
      depth={0}
    />
  );
}

function CriterionHarness({ initial, seen }: { initial: Criteria; seen: (c: Criteria) => void }) {
  const [criteria, setCriteria] = useState(initial);
  return (
    <CriterionEditor
      criteria={criteria}
      onChange={(c) => {
        seen(c);
        setCriteria(c);
      }}
      conceptSets={conceptSets}
      label="Entry event 1"
      sentence
    />
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('CriteriaGroupEditor', { timeout: 60_000 }, () => {
  it('adds a demographic criterion from the keyboard and reads it back as a sentence', async () => {
    fakeApi(() => ({ status: 404, body: { detail: 'Not found' } }));
    const seen = vi.fn();
    renderWithStore(<GroupHarness initial={{ type: 'ALL', criteriaList: [] }} seen={seen} />);
    screen.getByRole('button', { name: 'Add demographic criterion' }).focus();
    await userEvent.keyboard('{Enter}');
    const demographic = screen.getByRole('group', { name: 'Inclusion rule 1, demographic criterion 1' });
    expect(within(demographic).getByText('any person (no demographic criterion set yet)')).toBeInTheDocument();
    await userEvent.type(within(demographic).getByRole('spinbutton', { name: 'Inclusion rule 1, demographic criterion 1: age at least' }), '40');
    await choose(within(demographic).getByRole('combobox', { name: 'Inclusion rule 1, demographic criterion 1: gender' }), 'Female');
    await choose(within(demographic).getByRole('combobox', { name: 'Inclusion rule 1, demographic criterion 1: race' }), 'Asian');
    await waitFor(() => expect(demographic.querySelector('.demographic-sentence')).toHaveTextContent('persons aged at least 40 at the index date, female, of race Asian'));
    expect(seen).toHaveBeenLastCalledWith({ type: 'ALL', criteriaList: [], demographicCriteriaList: [{ age: { op: 'gte', value: 40 }, gender: [8532], race: [8515] }] });

    await userEvent.click(within(demographic).getByRole('button', { name: 'Remove demographic criterion' }));
    expect(seen).toHaveBeenLastCalledWith({ type: 'ALL', criteriaList: [] });
  });

  it('nests a group that counts at most N of its members', async () => {
    fakeApi(() => ({ status: 404, body: { detail: 'Not found' } }));
    const seen = vi.fn();
    renderWithStore(<GroupHarness initial={{ type: 'ALL', criteriaList: [] }} seen={seen} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add group' }));
    const nested = screen.getByRole('group', { name: 'Group 1' });
    await choose(within(nested).getByRole('combobox', { name: 'Inclusion rule 1, group 1: how the criteria combine' }), 'at most');
    expect(within(nested).getByText('(at most 1 of the criteria below)')).toBeInTheDocument();
    await userEvent.click(within(nested).getAllByRole('button', { name: 'Add demographic criterion' })[0]!);
    const last = seen.mock.lastCall![0] as CriteriaGroup;
    expect(last.groups?.[0]).toMatchObject({ type: 'AT_MOST', count: 1, demographicCriteriaList: [{}] });
  });
});

describe('CriterionEditor', { timeout: 60_000 }, () => {
  it('adds additional criteria whose windows it says are measured from the enclosing event, not the index date', async () => {
    fakeApi(() => ({ status: 404, body: { detail: 'Not found' } }));
    const seen = vi.fn();
    renderWithStore(<CriterionHarness initial={{ kind: 'DrugExposure', codesetId: 0 }} seen={seen} />);
    expect(document.querySelector('.event-sentence')).toHaveTextContent('a drug exposure of Diclofenac');
    await userEvent.click(screen.getByRole('button', { name: 'Add additional criteria on this drug exposure' }));
    const additional = screen.getByRole('group', { name: 'Additional criteria on this drug exposure' });
    expect(within(additional).getByText('Their windows are measured from this drug exposure (the enclosing event), not from the index date.')).toBeInTheDocument();
    expect(additional.querySelector('.criterion-sentence')).toHaveTextContent(
      "at least 1 occurrence of any condition between any time before and 0 days after the enclosing drug exposure's start date, in the same observation period",
    );
    expect((seen.mock.lastCall![0] as Criteria).correlatedCriteria?.criteriaList).toHaveLength(1);
  });

  it("edits a measurement's value and a visit type in the attributes, and reads them back", async () => {
    fakeApi(() => ({ status: 404, body: { detail: 'Not found' } }));
    const seen = vi.fn();
    renderWithStore(<CriterionHarness initial={{ kind: 'Measurement', codesetId: 0 }} seen={seen} />);
    expect(screen.getByText('More attributes of the measurement')).toBeInTheDocument();
    await userEvent.click(screen.getByText('More attributes of the measurement'));
    await choose(screen.getByRole('combobox', { name: 'Entry event 1: value: comparison' }), 'between');
    const low = screen.getByRole('spinbutton', { name: 'Entry event 1: value: value' });
    await userEvent.clear(low);
    await userEvent.type(low, '5');
    const high = screen.getByRole('spinbutton', { name: 'Entry event 1: value: second value' });
    await userEvent.clear(high);
    await userEvent.type(high, '10');
    await choose(screen.getByRole('combobox', { name: 'Entry event 1: visit type' }), 'Inpatient visit');
    await waitFor(() => expect(document.querySelector('.event-sentence')).toHaveTextContent('a measurement of Diclofenac, in a visit of type Inpatient visit, with a value between 5 and 10'));
    expect(seen.mock.lastCall![0]).toEqual({ kind: 'Measurement', codesetId: 0, valueAsNumber: { op: 'bt', value: 5, extent: 10 }, visitType: [9201] });
    expect(screen.getByText('More attributes of the measurement (2 set)')).toBeInTheDocument();
  });

  it("offers an era's length and count, and drops a measurement's value when the domain changes", async () => {
    fakeApi(() => ({ status: 404, body: { detail: 'Not found' } }));
    const seen = vi.fn();
    renderWithStore(<CriterionHarness initial={{ kind: 'Measurement', valueAsNumber: { op: 'gt', value: 1 } }} seen={seen} />);
    await choose(screen.getByRole('combobox', { name: 'Entry event 1: domain' }), 'Condition era');
    expect(seen).toHaveBeenLastCalledWith({ kind: 'ConditionEra' });
    // Open already (the measurement had an attribute set): a click would close it.
    expect(document.querySelector('details.criterion-more')).toHaveProperty('open', true);
    await choose(screen.getByRole('combobox', { name: 'Entry event 1: era length: comparison' }), 'at least');
    const days = screen.getByRole('spinbutton', { name: 'Entry event 1: era length: value' });
    await userEvent.clear(days);
    await userEvent.type(days, '30');
    await waitFor(() => expect(document.querySelector('.event-sentence')).toHaveTextContent('any condition era, lasting at least 30 days'));
    expect(screen.getByRole('combobox', { name: 'Entry event 1: occurrences in the era: comparison' })).toBeInTheDocument();
  });

  it("excludes a drug exposure's record types and sets its refills, and reads them back; the exclusion goes with the last type", async () => {
    fakeApi(() => ({ status: 404, body: { detail: 'Not found' } }));
    const seen = vi.fn();
    renderWithStore(<CriterionHarness initial={{ kind: 'DrugExposure', codesetId: 0, typeConcepts: [32810] }} seen={seen} />);
    await choose(screen.getByRole('combobox', { name: 'Entry event 1: record type included or excluded' }), 'Not recorded as');
    await choose(screen.getByRole('combobox', { name: 'Entry event 1: refills: comparison' }), 'at least');
    const refills = screen.getByRole('spinbutton', { name: 'Entry event 1: refills: value' });
    await userEvent.clear(refills);
    await userEvent.type(refills, '1');
    await waitFor(() => expect(document.querySelector('.event-sentence')).toHaveTextContent('a drug exposure of Diclofenac, not recorded as Claim, with refills at least 1'));
    expect(seen.mock.lastCall![0]).toEqual({ kind: 'DrugExposure', codesetId: 0, typeConcepts: [32810], typeExclude: true, refills: { op: 'gte', value: 1 } });
    expect(screen.getByText('More attributes of the drug exposure (2 set)')).toBeInTheDocument();
    // The last type removed: "not recorded as" nothing means nothing, and leaves with it.
    await userEvent.click(within(document.querySelector('.criterion-attributes')!).getByLabelText('close'));
    expect(seen.mock.lastCall![0]).toEqual({ kind: 'DrugExposure', codesetId: 0, refills: { op: 'gte', value: 1 } });
  });

  it("edits a drug exposure's days supply, quantity and source concept, and reads them back", async () => {
    fakeApi(() => ({ status: 404, body: { detail: 'Not found' } }));
    const seen = vi.fn();
    renderWithStore(<CriterionHarness initial={{ kind: 'DrugExposure', codesetId: 0 }} seen={seen} />);
    // Closed: its editors are not drawn until it is opened.
    expect(screen.queryByRole('combobox', { name: 'Entry event 1: days supply: comparison' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByText('More attributes of the drug exposure'));
    await choose(screen.getByRole('combobox', { name: 'Entry event 1: days supply: comparison' }), 'at least');
    const days = screen.getByRole('spinbutton', { name: 'Entry event 1: days supply: value' });
    await userEvent.clear(days);
    await userEvent.type(days, '30');
    await choose(screen.getByRole('combobox', { name: 'Entry event 1: quantity: comparison' }), 'less than');
    const quantity = screen.getByRole('spinbutton', { name: 'Entry event 1: quantity: value' });
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '100');
    await choose(screen.getByRole('combobox', { name: 'Entry event 1: source concept set' }), 'Diclofenac');
    await waitFor(() =>
      expect(document.querySelector('.event-sentence')).toHaveTextContent('a drug exposure of Diclofenac, with a source concept in Diclofenac, with a days supply at least 30 days, with a quantity less than 100'),
    );
    expect(seen.mock.lastCall![0]).toEqual({ kind: 'DrugExposure', codesetId: 0, daysSupply: { op: 'gte', value: 30 }, quantity: { op: 'lt', value: 100 }, sourceConcept: 0 });
    expect(screen.getByText('More attributes of the drug exposure (3 set)')).toBeInTheDocument();
    // Back to any source concept: the attribute leaves the criterion.
    await choose(screen.getByRole('combobox', { name: 'Entry event 1: source concept set' }), 'Any source concept');
    expect(seen.mock.lastCall![0]).not.toHaveProperty('sourceConcept');
  });

  it('reads back the values, units and record types of an import by their names, looked up by id', async () => {
    const NAMES: Record<string, string> = { '4181412': 'Present', '8840': 'milligram per deciliter', '44818701': 'From physical examination' };
    const calls = fakeApi(({ query }) => ({
      body: {
        concepts: (query.get('ids') ?? '')
          .split(',')
          .filter((id) => NAMES[id])
          .map((id) => ({ concept_id: Number(id), concept_name: NAMES[id], domain_id: 'Meas Value', vocabulary_id: 'SNOMED', concept_code: id, standard_concept: 'S' })),
      },
    }));
    renderWithStore(
      <CriterionHarness initial={{ kind: 'Measurement', codesetId: 0, valueAsConcept: [4181412], unit: [8840], typeConcepts: [44818701, 32817] }} seen={vi.fn()} />,
    );
    await waitFor(() =>
      expect(document.querySelector('.event-sentence')).toHaveTextContent(
        'a measurement of Diclofenac, recorded as From physical examination or EHR, with a value of Present, in unit milligram per deciliter',
      ),
    );
    // One request names the sentence's unknown concepts (the builder knows 32817, "EHR", itself).
    expect(calls.filter((c) => c.query.has('ids')).map((c) => c.query.get('ids'))).toContain('8840,4181412,44818701');
  });

  it("marks a measurement abnormal and keeps a value as concept from an import, and edits an observation period's length", async () => {
    fakeApi(() => ({ status: 404, body: { detail: 'Not found' } }));
    const seen = vi.fn();
    renderWithStore(<CriterionHarness initial={{ kind: 'Measurement', codesetId: 0, valueAsConcept: [9191] }} seen={seen} />);
    expect(screen.getByText('More attributes of the measurement (1 set)')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Abnormal result (the value outside the normal range, or coded abnormal)' }));
    await waitFor(() => expect(document.querySelector('.event-sentence')).toHaveTextContent('a measurement of Diclofenac, with a value of concept 9191, with an abnormal result'));
    expect(seen.mock.lastCall![0]).toEqual({ kind: 'Measurement', codesetId: 0, valueAsConcept: [9191], abnormal: true });
    expect(screen.getByRole('combobox', { name: 'Entry event 1: value as concept' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Abnormal result (the value outside the normal range, or coded abnormal)' }));
    expect(seen.mock.lastCall![0]).toEqual({ kind: 'Measurement', codesetId: 0, valueAsConcept: [9191] });

    await choose(screen.getByRole('combobox', { name: 'Entry event 1: domain' }), 'Observation period');
    expect(seen).toHaveBeenLastCalledWith({ kind: 'ObservationPeriod' });
    await choose(screen.getByRole('combobox', { name: 'Entry event 1: period length: comparison' }), 'at least');
    const days = screen.getByRole('spinbutton', { name: 'Entry event 1: period length: value' });
    await userEvent.clear(days);
    await userEvent.type(days, '365');
    await waitFor(() => expect(document.querySelector('.event-sentence')).toHaveTextContent("any observation period, lasting at least 365 days"));
    expect(screen.getByRole('combobox', { name: 'Entry event 1: record type' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Entry event 1: source concept set' })).not.toBeInTheDocument();
  });
});
