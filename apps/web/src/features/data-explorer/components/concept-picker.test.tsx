import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Concept } from '@hdp/contract';
import { fakeApi, renderWithStore } from '@/test-support/render';
import { ConceptPicker, conceptIds } from './concept-picker';

const T2DM: Concept = { concept_id: 201826, concept_name: 'Type 2 diabetes mellitus', domain_id: 'Condition', vocabulary_id: 'SNOMED', concept_code: '44054006', standard_concept: 'S' };
const T1DM: Concept = { concept_id: 201254, concept_name: 'Type 1 diabetes mellitus', domain_id: 'Condition', vocabulary_id: 'SNOMED', concept_code: '46635009', standard_concept: 'S' };

afterEach(() => vi.unstubAllGlobals());

describe('conceptIds', () => {
  it('reads ids from numbers, numeric text, lists and comma-separated text', () => {
    expect(conceptIds(201826)).toEqual([201826]);
    expect(conceptIds('201826, 201254')).toEqual([201826, 201254]);
    expect(conceptIds([201826, '201254'])).toEqual([201826, 201254]);
    expect(conceptIds('')).toEqual([]);
    expect(conceptIds(undefined)).toEqual([]);
  });
});

describe('ConceptPicker', { timeout: 30_000 }, () => {
  it('searches the domain as the user types and keeps the chosen concept ids', async () => {
    const calls = fakeApi(({ query }) => ({ body: { concepts: query.get('search') === 'diabetes' ? [T2DM, T1DM] : [] } }));
    const onChange = vi.fn();
    renderWithStore(<ConceptPicker domain="Condition" multiple value="" onChange={onChange} label="Condition concepts" />);
    await userEvent.type(screen.getByLabelText('Condition concepts'), 'diabetes');
    const option = await screen.findByText('Type 2 diabetes mellitus (SNOMED 44054006)');
    const search = calls.find((c) => c.query.get('search') === 'diabetes');
    expect(search?.path).toBe('/api/v1/data-explorer/concepts/');
    expect(search?.query.get('domain')).toBe('Condition');
    await userEvent.click(option);
    expect(onChange).toHaveBeenCalledWith([201826]);
  });

  it('names the concepts of a saved query by looking their ids up in one request', async () => {
    const calls = fakeApi(({ query }) => ({ body: { concepts: [T2DM, T1DM].filter((c) => (query.get('ids') ?? '').split(',').includes(String(c.concept_id))) } }));
    renderWithStore(<ConceptPicker domain="Condition" multiple value={[201826, 201254]} onChange={() => undefined} label="Condition concepts" />);
    await waitFor(() => expect(screen.getByText('Type 2 diabetes mellitus')).toBeInTheDocument());
    expect(screen.getByText('Type 1 diabetes mellitus')).toBeInTheDocument();
    expect(calls.map((c) => c.query.get('ids'))).toEqual(['201254,201826']);
  });
});
